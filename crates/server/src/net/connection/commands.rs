//! A connection's commands after the handshake: the ones the hub answers (list, create),
//! joining a room (here, taken over, or linked to the node that runs it), and the ones
//! its room answers.

use super::*;

impl Connection {
    /// `frame` is the command as received, for a room another node runs.
    pub(super) async fn on_command(&mut self, id: u64, msg: ClientMessage, frame: &str) {
        // A room whose host removed this connection has let it go: it is in no room.
        if let Some(room) = self.handle.take_let_go()
            && self.room.as_ref().is_some_and(|a| a.room == room)
        {
            self.room = None;
        }
        match msg {
            ClientMessage::Hello { .. } => {}
            ClientMessage::Ping { .. } => self.send(&ServerMessage::Pong { re: id }),
            ClientMessage::ListRooms { .. } => self.send(&ServerMessage::RoomList {
                re: id,
                rooms: self.hub.list(),
            }),
            ClientMessage::CreateRoom { settings, .. } => {
                if let Some(refusal) = self.room_limit() {
                    self.hub.metrics.rooms_refused.inc();
                    self.refuse(Some(id), refusal);
                    return;
                }
                let created = self
                    .hub
                    .create_room(&settings, Some(self.handle.id), self.peer_key)
                    .await;
                match created {
                    Ok(room) => {
                        self.hub.metrics.rooms_created.inc();
                        self.send(&ServerMessage::RoomCreated { re: id, room })
                    }
                    Err(refusal) => {
                        // A refused command spends nothing: else invalid settings sent
                        // from many addresses would empty budgets nobody used (issue 23).
                        self.refund_room_limit();
                        if refusal.code == ErrorCode::TooManyRooms {
                            self.hub.metrics.rooms_refused.inc();
                        }
                        self.refuse(Some(id), refusal)
                    }
                }
            }
            ClientMessage::TakeSeat {
                room, seat, name, ..
            } => {
                let Some(name) = self.seat_name(id, name).await else {
                    return;
                };
                // A room another node runs gets the frame with the name decided here.
                let frame = serde_json::to_string(&ClientMessage::TakeSeat {
                    id,
                    room: room.clone(),
                    seat,
                    name: name.clone(),
                })
                .unwrap_or_else(|_| frame.to_string());
                let account = self.signed_in.as_ref().map(|w| SeatAccount {
                    id: w.account.id,
                    bot: w.account.bot,
                });
                let levels = match &self.signed_in {
                    Some(who) => SeatLevels::read(self.accounts.levels_of(who.account.id).await),
                    None => SeatLevels::default(),
                };
                let join = Join::TakeSeat {
                    seat,
                    name,
                    account,
                    levels,
                };
                self.join(id, room, join, &frame).await;
                if let (
                    Some(who),
                    Some(Attached {
                        room,
                        role: Role::Seat(s),
                        ..
                    }),
                ) = (&self.signed_in, &self.room)
                {
                    self.accounts.link_seat(room.clone(), *s, who).await;
                }
            }
            ClientMessage::Resume {
                room,
                token,
                last_event,
                ..
            } => {
                let levels = self.levels_to_bring(&room).await;
                let join = Join::Resume {
                    token,
                    last_event,
                    levels,
                };
                self.join(id, room, join, frame).await
            }
            ClientMessage::Spectate { room, name, .. } => {
                // Signed in: the account's name; a guest: not a registered one.
                let name = match name {
                    Some(name) => match self.seat_name(id, name).await {
                        Some(name) => Some(name),
                        None => return,
                    },
                    None => self.signed_in.as_ref().map(|w| w.account.name.clone()),
                };
                let name = match name
                    .as_deref()
                    .map(crate::convert::from_wire::player_name)
                    .transpose()
                {
                    Ok(name) => name.unwrap_or_else(|| chat::SPECTATOR.to_string()),
                    Err(refusal) => return self.refuse(Some(id), refusal),
                };
                self.join(id, room, Join::Spectate { name }, frame).await
            }
            ClientMessage::Leave { .. } => {
                self.command_room(id, Command::Leave).await;
                self.room = None;
            }
            ClientMessage::Start { .. } => self.command_room(id, Command::Start).await,
            ClientMessage::Reply {
                decision, reply, ..
            } => {
                self.command_room(id, Command::Reply { decision, reply })
                    .await
            }
            ClientMessage::Undo { .. } => self.command_room(id, Command::Undo).await,
            ClientMessage::Hint { .. } => self.command_room(id, Command::Hint).await,
            ClientMessage::UndoAnswer { accept, .. } => {
                self.command_room(id, Command::UndoAnswer { accept }).await
            }
            ClientMessage::Chat { text, .. } => {
                // The room holds the line to its limits (the seat's, the address's): a
                // reconnection gets no fresh budget. A line refused here spends nothing.
                match chat::check(&text) {
                    Ok(text) => {
                        let from = self.peer;
                        self.command_room(id, Command::Chat { text, from }).await
                    }
                    Err(refusal) => self.refuse(Some(id), refusal),
                }
            }
            ClientMessage::SetSeat { seat, occupant, .. } => {
                self.command_room(id, Command::SetSeat { seat, occupant })
                    .await
            }
            ClientMessage::Remove { who, .. } => {
                self.command_room(id, Command::Remove { who }).await
            }
            ClientMessage::History { from, to, .. } => {
                self.command_room(id, Command::History { from, to }).await
            }
            ClientMessage::ReportChat { line, reason, .. } => {
                self.report_chat(id, line, reason).await
            }
            ClientMessage::ChatHistory { from, to, .. } => {
                self.command_room(id, Command::ChatHistory { from, to })
                    .await
            }
            ClientMessage::Invite { room, name, .. } => self.invite(id, room, name).await,
            ClientMessage::Rematch { room, .. } => {
                // The offered room must exist and wait for players; the old room checks
                // the rest (a seat, a finished game, that this connection created it).
                let status = self.hub.summary_of(&room).map(|s| s.status);
                match status {
                    None => self.refuse(Some(id), unknown_room(&self.hub, &room)),
                    Some(s) if s != wire::RoomStatus::Lobby => self.refuse(
                        Some(id),
                        Refusal::new(
                            ErrorCode::GameAlreadyStarted,
                            format!("room {room:?} has started: a rematch is offered in a room waiting for players"),
                        ),
                    ),
                    Some(_) => {
                        // Created by this connection: then it runs here, where the
                        // connection is attached to the old room (or linked to it).
                        let ours = self
                            .hub
                            .room(&room)
                            .is_some_and(|h| h.creator == Some(self.handle.id));
                        self.command_room(id, Command::Rematch { room, ours }).await
                    }
                }
            }
            ClientMessage::FindMatch { .. }
            | ClientMessage::CancelMatch { .. }
            | ClientMessage::AcceptMatch { .. }
            | ClientMessage::DeclineMatch { .. } => self.on_automatch(id, msg).await,
        }
    }

    /// The name a `take_seat` sits down under: the account's, for a signed-in
    /// connection; the one given, for a guest, unless it is a registered player's (then
    /// this has refused the command and returns None).
    /// `report_chat`: the room this connection is in quotes the line; the report is kept
    /// with the room and the reporter.
    async fn report_chat(&mut self, id: u64, line: u64, reason: Option<String>) {
        let Some(who) = self.signed_in.clone() else {
            return self.refuse(
                Some(id),
                Refusal::new(ErrorCode::SignInRequired, "sign in to report a chat line"),
            );
        };
        let Some(room) = self.room.as_ref().map(|a| a.room.clone()) else {
            return self.refuse(
                Some(id),
                Refusal::new(ErrorCode::NotInRoom, "join a room first"),
            );
        };
        let Some(handle) = self.hub.room(&room) else {
            return self.refuse(Some(id), unknown_room(&self.hub, &room));
        };
        let Some(quoted) = handle.quote_chat_line(line).await else {
            return self.refuse(
                Some(id),
                Refusal::new(
                    ErrorCode::InvalidChat,
                    format!("the room does not keep chat line {line} (it keeps its last 100)"),
                ),
            );
        };
        match self.accounts.report(&who, room, line, quoted, reason).await {
            Ok(_) => self.send(&ServerMessage::Ack { re: id }),
            Err(r) => {
                let code = if r.code == "bad_request" {
                    ErrorCode::InvalidChat
                } else {
                    ErrorCode::Internal
                };
                self.refuse(Some(id), Refusal::new(code, r.message))
            }
        }
    }

    async fn seat_name(&mut self, id: u64, name: String) -> Option<String> {
        if let Some(who) = &self.signed_in {
            return Some(who.account.name.clone());
        }
        let Ok(checked) = crate::convert::from_wire::player_name(&name) else {
            // The room refuses it with the name rule's own words.
            return Some(name);
        };
        match self.accounts.registered(&checked).await {
            Ok(None) => Some(name),
            Ok(Some(_)) => {
                self.refuse(
                    Some(id),
                    Refusal::new(
                        ErrorCode::NameTaken,
                        format!("{checked:?} is a registered player's name (or looks like one); sign in or choose another"),
                    ),
                );
                None
            }
            Err(r) => {
                // The accounts store cannot be read: let the guest play rather than
                // refuse everyone.
                tracing::warn!("cannot check a guest's name: {}", r.message);
                Some(name)
            }
        }
    }

    /// The refusal when this connection, or its address, created its rooms for now; else
    /// one room is spent from both (given back by [`Connection::refund_room_limit`] if
    /// the room is refused after all). A refusal here spends nothing either.
    pub(super) fn room_limit(&mut self) -> Option<Refusal> {
        let config = &self.hub.config;
        let now = Instant::now();
        if !self.room_budget.take(now) {
            return Some(Refusal::new(
                ErrorCode::TooManyRooms,
                format!(
                    "this connection created {} rooms within a minute; wait before creating another",
                    config.rooms_per_connection
                ),
            ));
        }
        if let Some(addr) = self.peer_key
            && !self.hub.take_room_budget(addr)
        {
            self.room_budget.refund(now);
            return Some(Refusal::new(
                ErrorCode::TooManyRooms,
                format!(
                    "your address created {} rooms within a minute; wait before creating another",
                    config.rooms_per_address
                ),
            ));
        }
        None
    }

    /// Gives back what [`Connection::room_limit`] spent, for a room that was refused.
    pub(super) fn refund_room_limit(&mut self) {
        self.room_budget.refund(Instant::now());
        if let Some(addr) = self.peer_key {
            self.hub.refund_room_budget(addr);
        }
    }

    pub(super) async fn join(&mut self, id: u64, room: String, join: Join, frame: &str) {
        if let Some(attached) = &self.room {
            let message = format!(
                "this connection is already in room {} (as {}); send leave first",
                attached.room,
                match attached.role {
                    Role::Seat(s) => format!("seat {s}"),
                    Role::Spectator => "spectator".to_string(),
                }
            );
            self.refuse(Some(id), Refusal::new(ErrorCode::AlreadyInRoom, message));
            return;
        }
        let mut tries = 0;
        loop {
            let Some(handle) = self.find_room(id, &room, frame).await else {
                return;
            };
            let (done, joined) = oneshot::channel();
            let msg = RoomMsg::Join {
                conn: self.handle.clone(),
                cmd: id,
                join: join.clone(),
                from: self.peer,
                done,
            };
            let answer = match handle.tx.send(msg).await {
                Ok(()) => joined.await.ok(),
                Err(_) => None,
            };
            match answer {
                Some(Some(role)) => {
                    self.room = Some(Attached {
                        room,
                        tx: handle.tx,
                        role,
                    });
                    return;
                }
                Some(None) => return, // the room has answered (an error, or closed us)
                None if self.handle.is_closing() => return,
                None => {
                    // The room ended as the command reached it. In a cluster it may have
                    // just moved to another node: look again, briefly.
                    if self.hub.placement().is_some() && tries < 3 {
                        tries += 1;
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                    self.refuse(Some(id), unknown_room(&self.hub, &room));
                    return;
                }
            }
        }
    }

    /// The room a `take_seat`, `resume` or `spectate` names, if it runs here (taken over
    /// if need be); None when this has answered the command already — refused it, or
    /// linked the connection to the node that runs the room, `frame` sent on.
    pub(super) async fn find_room(
        &mut self,
        id: u64,
        room: &str,
        frame: &str,
    ) -> Option<RoomHandle> {
        match self.hub.room(room) {
            Some(handle) => Some(handle),
            None => match self.hub.placement().cloned() {
                None => {
                    self.refuse(Some(id), unknown_room(&self.hub, room));
                    None
                }
                Some(placement) => {
                    let link = forward::LinkArgs {
                        client_addr: self.peer,
                        account: self.signed_in.as_ref().map(|w| w.account.id),
                        protocol: self.protocol,
                        first: frame,
                        conn: self.handle.clone(),
                        heartbeat: self.hub.config.heartbeat,
                    };
                    match forward::reach(&*placement, room, link).await {
                        Reached::Local(handle) => Some(handle),
                        Reached::Unknown => {
                            self.refuse(Some(id), unknown_room(&self.hub, room));
                            None
                        }
                        Reached::Linked(up) => {
                            self.hub.metrics.forwarded_links.inc();
                            self.upstream = Some(up);
                            None
                        }
                        Reached::Refused(why) => {
                            self.refuse(
                                Some(id),
                                Refusal::new(
                                    ErrorCode::Internal,
                                    format!("the server running room {room:?} refused this connection: {why}"),
                                ),
                            );
                            None
                        }
                        Reached::Unreachable(why) => {
                            tracing::warn!(room = %room, "cannot forward: {why}");
                            self.refuse(
                                Some(id),
                                Refusal::new(
                                    ErrorCode::Internal,
                                    format!("the server running room {room:?} cannot be reached just now; try again in a moment"),
                                ),
                            );
                            None
                        }
                    }
                }
            },
        }
    }

    pub(super) async fn command_room(&mut self, id: u64, command: Command) {
        let Some(attached) = &self.room else {
            self.refuse(
                Some(id),
                Refusal::new(
                    ErrorCode::NotInRoom,
                    "this connection is in no room: take_seat, resume or spectate first",
                ),
            );
            return;
        };
        let msg = RoomMsg::Command {
            conn: self.handle.clone(),
            cmd: id,
            command,
        };
        if attached.tx.send(msg).await.is_err() {
            let refusal = unknown_room(&self.hub, &attached.room);
            self.room = None;
            // A room that closed this connection as it ended (handed to another node:
            // 1012) owes it no error: the close says what to do.
            if !self.handle.is_closing() {
                self.refuse(Some(id), refusal);
            }
        }
    }

    pub(super) fn send(&self, msg: &ServerMessage) {
        self.handle.send(msg);
    }

    pub(super) fn refuse(&self, re: Option<u64>, refusal: Refusal) {
        self.send(&refusal.to_message(re));
    }
}

impl Connection {
    /// For `resume`: the account's levels, read only when the room lists this account's
    /// seat without a level (reopened after a restart, or taken over by this node), so
    /// that the lobby shows them again; None otherwise (no read).
    async fn levels_to_bring(&self, room: &str) -> Option<(i64, SeatLevels)> {
        let who = self.signed_in.as_ref()?;
        let missing = self.hub.summary_of(room).is_some_and(|r| {
            r.seats.iter().any(|s| {
                matches!(&s.occupant, wire::Occupant::Human { name, account: Some(_), level: None, .. }
                    if *name == who.account.name)
            })
        });
        if !missing {
            return None;
        }
        let levels = SeatLevels::read(self.accounts.levels_of(who.account.id).await);
        Some((who.account.id, levels))
    }
}
