//! Joining and leaving a room: taking a seat (and its token), resuming with the token,
//! spectating, leaving, a connection going away, and which seat a connection speaks for.
//!
//! A seat's token (256 bits from the OS RNG, `crate::token`) is sent only once the seat
//! holding its SHA-256 hash is stored, so a restart never forgets a seat its player was
//! given. `resume` with the token gives the seat back with the events from the client's
//! last one — or a `snapshot`, past `--resume-gap` or past the fewest events an undo
//! left (the client may hold events that were taken back) — never beyond what the seat
//! may see now (`Game::visible`). A seat's commands are numbered across all its
//! connections, and its last command id is stored with it, so a command re-sent after
//! a restart is still a `duplicate_command`. Spectators come in up to
//! `--max-spectators`.

use super::*;

impl Room {
    pub(super) async fn take_seat(
        &mut self,
        conn: &ConnHandle,
        cmd: u64,
        seat: Option<u8>,
        name: &str,
        (account, levels): (Option<SeatAccount>, SeatLevels),
    ) -> Result<Role, Refusal> {
        if self.state.status == wire::RoomStatus::Broken {
            return Err(broken());
        }
        if self.state.status != wire::RoomStatus::Lobby {
            return Err(Refusal::new(
                ErrorCode::GameAlreadyStarted,
                "the game has started: seats can only be resumed with their token",
            ));
        }
        let name = from_wire::player_name(name)?;
        let idx = match seat {
            Some(s) => match self.state.seats.get(s as usize) {
                Some(Seat::Open) => s as usize,
                Some(_) => {
                    return Err(Refusal::new(
                        ErrorCode::SeatUnavailable,
                        format!("seat {s} is taken"),
                    ));
                }
                None => {
                    return Err(Refusal::new(
                        ErrorCode::SeatUnavailable,
                        format!(
                            "no seat {s}: this room has seats 0 to {}",
                            self.state.seats.len() - 1
                        ),
                    ));
                }
            },
            None => self
                .state
                .seats
                .iter()
                .position(|s| matches!(s, Seat::Open))
                .ok_or_else(|| Refusal::new(ErrorCode::SeatUnavailable, "no seat is open"))?,
        };
        let (token, hash) = token::new_token()
            .map_err(|e| Refusal::new(ErrorCode::Internal, format!("no randomness: {e}")))?;
        let mut human = HumanSeat::new(name, hash);
        human.last_command = cmd;
        human.account = account;
        if account.is_some() {
            human.levels = levels;
        }
        self.state.seats[idx] = Seat::Human(human);
        let host_before = self.state.host;
        let creator = (self.state.creator == Some(conn.id)).then_some(idx);
        self.state.settle_host(creator);
        // The token is told only once the seat holding its hash is stored: otherwise a
        // restart could forget a seat its player was given.
        if let Err(e) = self.log.room_saved(&self.state.record()).await {
            self.state.seats[idx] = Seat::Open;
            self.state.host = host_before;
            self.log_failed(&e);
            return Err(broken());
        }
        self.seat_conns[idx] = Some(conn.clone());
        conn.send(&ServerMessage::Seated {
            re: cmd,
            room: self.state.id.clone(),
            seat: idx as u8,
            token,
            last_command: cmd,
        });
        self.broadcast(Topic::Room);
        self.send_to(conn, Viewer::Player(PlayerId(idx as u8)), Topic::ChatLog);
        Ok(Role::Seat(idx as u8))
    }

    pub(super) fn resume(
        &mut self,
        conn: &ConnHandle,
        cmd: u64,
        (token, last_event): (&str, Option<u64>),
        levels: Option<(i64, SeatLevels)>,
    ) -> Result<Role, Refusal> {
        let bad_token =
            || Refusal::new(ErrorCode::BadToken, "this token holds no seat in this room");
        if !token::well_formed(token) {
            return Err(bad_token());
        }
        let hash = TokenHash::of(token);
        let idx = self
            .state
            .seats
            .iter()
            .position(|s| matches!(s, Seat::Human(h) if h.token_hash == hash))
            .ok_or_else(bad_token)?;
        if let Some(old) = self.seat_conns[idx].replace(conn.clone())
            && old.id != conn.id
        {
            old.close(CloseCode::Replaced, "another connection resumed this seat");
        }
        let last_command = {
            let h = self.state.human_mut(idx).ok_or_else(bad_token)?;
            h.connected = true;
            h.away_since = None;
            h.left = false;
            h.bot_playing = None;
            // Levels the room did not know (reopened): the account's own connection
            // brought them.
            if let Some((account, levels)) = levels
                && h.account.is_some_and(|a| a.id == account)
                && h.levels == SeatLevels::default()
            {
                h.levels = levels;
            }
            h.last_command
        };
        self.agents[idx] = None;
        conn.send(&ServerMessage::Seated {
            re: cmd,
            room: self.state.id.clone(),
            seat: idx as u8,
            token: token.to_string(),
            last_command,
        });
        self.broadcast(Topic::Room);
        let viewer = Viewer::Player(PlayerId(idx as u8));
        if let Some(game) = &self.state.game {
            // Only as far as this seat may see now (a private question of another
            // player may be pending: `Game::visible`).
            let total = shown::visible(game, viewer);
            let from = last_event.map(|n| n.saturating_add(1));
            // Events from `f` on are the ones the client missed, unless a move was taken
            // back since it may have received them (see `undo_floor`).
            let catch_up = match from {
                Some(f)
                    if f <= total
                        && total - f <= self.config.resume_gap
                        && self.undo_floor.is_none_or(|floor| f <= floor) =>
                {
                    Topic::EventsFrom(f)
                }
                _ => Topic::Snapshot,
            };
            let now = Instant::now();
            for topic in [
                catch_up,
                Topic::Decision { now },
                Topic::GameOver,
                Topic::Ratings,
                Topic::Rematch,
            ] {
                self.send_to(conn, viewer, topic);
            }
        }
        self.send_to(conn, viewer, Topic::ChatLog);
        Ok(Role::Seat(idx as u8))
    }

    pub(super) fn spectate(
        &mut self,
        conn: &ConnHandle,
        cmd: u64,
        name: String,
    ) -> Result<Role, Refusal> {
        if self.spectator_conns.len() >= self.config.max_spectators {
            return Err(Refusal::new(
                ErrorCode::TooManySpectators,
                format!(
                    "this room has its {} spectators already",
                    self.config.max_spectators
                ),
            ));
        }
        self.spectator_conns.push(conn.clone());
        self.spectator_names.insert(conn.id, name);
        self.state.spectators = self.spectator_conns.len() as u32;
        conn.send(&ServerMessage::Spectating {
            re: cmd,
            room: self.state.id.clone(),
        });
        self.broadcast(Topic::Room);
        for topic in [
            Topic::Snapshot,
            Topic::GameOver,
            Topic::Ratings,
            Topic::ChatLog,
            Topic::Rematch,
        ] {
            self.send_to(conn, Viewer::Spectator, topic);
        }
        Ok(Role::Spectator)
    }

    /// Leaving always detaches the connection (it has forgotten the room already), so it
    /// is never refused as a duplicate: leaving twice is leaving once.
    pub(super) async fn leave(&mut self, conn_id: u64, cmd: u64) -> Result<(), Refusal> {
        self.member_addresses.remove(&conn_id);
        if let Some(idx) = self.seat_of(conn_id) {
            if let Some(h) = self.state.human_mut(idx) {
                h.last_command = h.last_command.max(cmd);
            }
            self.seat_conns[idx] = None;
            if self.state.status == wire::RoomStatus::Lobby {
                self.state.seats[idx] = Seat::Open;
                self.state.settle_host(None);
                self.save_room().await;
            } else if let Some(h) = self.state.human_mut(idx) {
                h.connected = false;
                h.away_since = Some(Instant::now());
                h.left = true;
            }
            self.broadcast(Topic::Room);
            Ok(())
        } else if self.remove_spectator(conn_id) {
            self.broadcast(Topic::Room);
            Ok(())
        } else {
            Err(Refusal::new(
                ErrorCode::NotInRoom,
                "you are not in this room",
            ))
        }
    }

    pub(super) fn detach(&mut self, conn_id: u64) {
        self.member_addresses.remove(&conn_id);
        if let Some(idx) = self.seat_of(conn_id) {
            self.seat_conns[idx] = None;
            if let Some(h) = self.state.human_mut(idx) {
                h.connected = false;
                h.away_since = Some(Instant::now());
            }
            self.broadcast(Topic::Room);
        } else if self.remove_spectator(conn_id) {
            self.broadcast(Topic::Room);
        }
    }

    pub(super) fn remove_spectator(&mut self, conn_id: u64) -> bool {
        let before = self.spectator_conns.len();
        self.spectator_conns.retain(|c| c.id != conn_id);
        self.spectator_names.remove(&conn_id);
        self.spectator_chat.remove(&conn_id);
        self.state.spectators = self.spectator_conns.len() as u32;
        self.spectator_conns.len() != before
    }

    pub(super) fn seat_of(&self, conn_id: u64) -> Option<usize> {
        self.seat_conns
            .iter()
            .position(|c| c.as_ref().is_some_and(|c| c.id == conn_id))
    }

    /// Who `conn_id` watches the room as: its seat's player, or a spectator; refused
    /// when the connection is in neither.
    pub(super) fn viewer_of(&self, conn_id: u64) -> Result<Viewer, Refusal> {
        if let Some(idx) = self.seat_of(conn_id) {
            Ok(Viewer::Player(PlayerId(idx as u8)))
        } else if self.spectator_names.contains_key(&conn_id) {
            Ok(Viewer::Spectator)
        } else {
            Err(Refusal::new(
                ErrorCode::NotInRoom,
                "you are not in this room",
            ))
        }
    }

    /// Commands from a seat are numbered across all its connections: one that is not
    /// above the last is a duplicate (say, re-sent after a reconnect) and is not applied.
    /// The seat of `conn_id`, once its command `cmd` is checked as new: the start of
    /// every command only a seated player may give (`why` says so when it is not seated).
    pub(super) fn seat_command(
        &mut self,
        conn_id: u64,
        cmd: u64,
        why: &str,
    ) -> Result<usize, Refusal> {
        let idx = self
            .seat_of(conn_id)
            .ok_or_else(|| Refusal::new(ErrorCode::NotSeated, why))?;
        self.check_seat_command(idx, cmd)?;
        Ok(idx)
    }

    pub(super) fn check_seat_command(&mut self, idx: usize, cmd: u64) -> Result<(), Refusal> {
        let h = self
            .state
            .human_mut(idx)
            .ok_or_else(|| Refusal::new(ErrorCode::NotSeated, "this seat is not yours"))?;
        if cmd <= h.last_command {
            return Err(Refusal::new(
                ErrorCode::DuplicateCommand,
                format!(
                    "command {cmd} is not above this seat's last command {}; it was not applied",
                    h.last_command
                ),
            ));
        }
        h.last_command = cmd;
        Ok(())
    }
}
