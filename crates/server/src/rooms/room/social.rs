//! What players do around the game: chat, the host's seat settings (a searching bot
//! seated takes its place among the creator address's rooms with searching bots), the
//! events' history, and the rematch offer.
//!
//! A chat line (checked by the connection, `rooms::chat`, and held to its limits here) is room state, not game
//! state: `RoomState::chat` keeps the last lines in memory, never in the log. Each
//! viewer gets it through the projection (`Topic::Chat`), which leaves spectators out
//! unless the room's `spectator_chat` lets them read. The host — the seat the creating
//! connection took, `RoomState::settle_host` — is stored with the room and alone may
//! `set_seat` (a bot in an open seat, or open a bot's, before the start). `history`
//! pages (`projection::history`, at most 500 events) go through the same
//! `Event::for_viewer` as `events` frames and stop where `Game::visible` stops for that
//! viewer, so the secrets canary checks them like any frame.
//!
//! Chat lines are held here to their limits (issue 23): the seat's budget, which its
//! connections share, or the spectator's, and the client address's (`chat::Addresses`);
//! the chat is read in pages (`chat_history`). A rematch is offered only in a room the
//! offering connection created.

use super::*;
use std::net::IpAddr;

impl Room {
    /// Adds a checked line to the room's chat and sends it to everyone who reads it,
    /// when its speaker (a seat, or a spectator's connection) and its client address
    /// `addr` are within their limits (see `chat`); a refused line spends nothing.
    pub(super) fn chat(
        &mut self,
        conn_id: u64,
        text: String,
        addr: Option<IpAddr>,
    ) -> Result<(), Refusal> {
        let now = Instant::now();
        let seat = self.seat_of(conn_id);
        let from = if let Some(idx) = seat {
            wire::ChatSender::Seat {
                seat: idx as u8,
                name: self.state.seat_name(idx),
            }
        } else if let Some(name) = self.spectator_names.get(&conn_id) {
            if !projection::reads_chat(&self.state, Viewer::Spectator) {
                return Err(Refusal::new(
                    ErrorCode::ChatNotAllowed,
                    "spectators do not chat in this room (its spectator_chat is off)",
                ));
            }
            wire::ChatSender::Spectator { name: name.clone() }
        } else {
            return Err(Refusal::new(
                ErrorCode::NotInRoom,
                "you are not in this room",
            ));
        };
        let speaker = match seat {
            Some(idx) => &mut self.seat_chat[idx],
            None => self
                .spectator_chat
                .entry(conn_id)
                .or_insert_with(|| chat::speaker_budget(now)),
        };
        if let Err(over) = self.chat_addresses.take(addr, speaker, now) {
            return Err(chat::too_fast(over, self.chat_addresses.per_window()));
        }
        self.state.chat.push(wire::ChatLine {
            n: 0, // numbered by the log
            from,
            text,
            at: chat::now_ms(),
        });
        self.broadcast(Topic::Chat);
        Ok(())
    }

    /// The host opens a bot's seat or puts a bot in an open seat, before the start.
    pub(super) async fn set_seat(
        &mut self,
        conn_id: u64,
        cmd: u64,
        seat: u8,
        occupant: wire::SeatSetting,
    ) -> Result<(), Refusal> {
        let idx = self
            .seat_of(conn_id)
            .filter(|i| self.state.host == Some(*i as u8))
            .ok_or_else(|| {
                Refusal::new(
                    ErrorCode::NotHost,
                    "only the room's host (the player who created it) changes seats",
                )
            })?;
        self.check_seat_command(idx, cmd)?;
        if self.state.status != wire::RoomStatus::Lobby {
            return Err(Refusal::new(
                ErrorCode::GameAlreadyStarted,
                "seats change only before the game starts",
            ));
        }
        let n = self.state.seats.len();
        let target = seat as usize;
        match self.state.seats.get(target) {
            None => {
                return Err(Refusal::new(
                    ErrorCode::SeatUnavailable,
                    format!("no seat {seat}: this room has seats 0 to {}", n - 1),
                ));
            }
            Some(Seat::Human(_)) => {
                return Err(Refusal::new(
                    ErrorCode::SeatUnavailable,
                    format!("seat {seat} is a player's: only open and bot seats change"),
                ));
            }
            // The bot ladder rates a house bot's seat under that bot's account: another
            // bot must not play it.
            Some(Seat::Bot { .. }) if self.state.settings.rated => {
                return Err(Refusal::new(
                    ErrorCode::SeatUnavailable,
                    format!("seat {seat} is a bot's in a rated room: it does not change"),
                ));
            }
            Some(_) => {}
        }
        let new = match &occupant {
            wire::SeatSetting::Open {} => Seat::Open,
            wire::SeatSetting::Bot { bot } => {
                from_wire::known_bot(bot)?;
                Seat::Bot { bot: bot.clone() }
            }
        };
        // The host's own seat is a human's, so a seat for a human always remains; the
        // check keeps that true whatever changes later.
        let humans_left = self
            .state
            .seats
            .iter()
            .enumerate()
            .any(|(i, s)| !matches!(s, Seat::Bot { .. }) && i != target)
            || matches!(new, Seat::Open);
        if !humans_left {
            return Err(Refusal::new(
                ErrorCode::InvalidSettings,
                "at least one seat must stay open for a human",
            ));
        }
        // A searching bot takes a place among the creator address's rooms with
        // searching bots (`--search-rooms-per-address`), unless the room holds one.
        let mut changed = self.state.settings.clone();
        changed.seats[target] = occupant.clone();
        let searches = from_wire::uses_searching_bots(&changed);
        let mut claimed = false;
        if searches
            && let Some(claim) = &mut self.search_claim
            && !claim.holds()
        {
            if !claim.hold() {
                return Err(search_refusal(claim.max()));
            }
            claimed = true;
        }
        let old = std::mem::replace(&mut self.state.seats[target], new);
        let old_setting = std::mem::replace(&mut self.state.settings.seats[target], occupant);
        if let Err(e) = self.log.room_saved(&self.state.record()).await {
            self.state.seats[target] = old;
            self.state.settings.seats[target] = old_setting;
            if claimed && let Some(claim) = &mut self.search_claim {
                claim.release();
            }
            tracing::error!(room = %self.state.id, "a seat change could not be stored: {e}");
            return Err(Refusal::new(
                ErrorCode::Internal,
                "the seat change could not be stored; try again later",
            ));
        }
        if !searches && let Some(claim) = &mut self.search_claim {
            claim.release();
        }
        self.broadcast(Topic::Room);
        Ok(())
    }

    /// A page of the game's events as the asking connection may see them.
    pub(super) fn history(
        &self,
        conn_id: u64,
        cmd: u64,
        from: u64,
        to: Option<u64>,
    ) -> Result<ServerMessage, Refusal> {
        let viewer = self.viewer_of(conn_id)?;
        projection::history(&self.state, viewer, cmd, from, to)
            .ok_or_else(|| Refusal::new(ErrorCode::GameNotStarted, "the game has not started"))
    }

    /// A page of the room's chat, for those who read it.
    pub(super) fn chat_history(
        &self,
        conn_id: u64,
        cmd: u64,
        from: u64,
        to: Option<u64>,
    ) -> Result<ServerMessage, Refusal> {
        let viewer = self.viewer_of(conn_id)?;
        projection::chat_history(&self.state, viewer, cmd, from, to).ok_or_else(|| {
            Refusal::new(
                ErrorCode::ChatNotAllowed,
                "spectators do not read the chat in this room (its spectator_chat is off)",
            )
        })
    }

    /// A seated player offers the others a rematch in `room` once the game is over: the
    /// offer goes to every other member now and to whoever resumes or watches later.
    /// `ours`: the offering connection created `room` — an offer never sends the room's
    /// players into someone else's (issue 23).
    pub(super) fn rematch(
        &mut self,
        conn_id: u64,
        cmd: u64,
        room: String,
        ours: bool,
    ) -> Result<(), Refusal> {
        let idx = self.seat_command(conn_id, cmd, "only a player may offer a rematch")?;
        if self.state.status != wire::RoomStatus::Finished {
            return Err(Refusal::new(
                ErrorCode::GameNotOver,
                "a rematch is offered once the game is over",
            ));
        }
        if room == self.state.id {
            return Err(Refusal::new(
                ErrorCode::GameAlreadyStarted,
                "a rematch is played in a new room",
            ));
        }
        if !ours {
            return Err(Refusal::new(
                ErrorCode::NotHost,
                format!(
                    "room {room:?} is not one you created: a rematch is offered in a room you created (create_room, then rematch, on the same connection)"
                ),
            ));
        }
        tracing::info!(room = %self.state.id, seat = idx, rematch = %room, "rematch offered");
        self.state.rematch = Some((room, idx as u8));
        for (viewer, conn) in self.viewers() {
            if conn.id != conn_id {
                self.send_to(&conn, viewer, Topic::Rematch);
            }
        }
        Ok(())
    }
}
