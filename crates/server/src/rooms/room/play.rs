//! The game itself: starting it, a reply's path through the engine, the durable log and
//! then the viewers (`apply_reply`), and publishing what changed (`publish`).
//!
//! **A reply.** `reply_command` checks the seat, its command number, the decision id
//! and whose decision it is, then converts the wire reply (`convert::from_wire`).
//! `apply_reply` has the engine validate and apply it, hands `RoomLog::reply_accepted`
//! the reply, the state digest after it and the command id, and awaits the `Commit`;
//! only then does `publish` tell anyone. Numbers: the decision id is
//! `Game::decision_number` (not the count of replies); the log's reply index is
//! `game.replies().len()`; event numbers index `game.events()`. While another seat's
//! private question is pending, a reply is refused the same way whatever number it
//! names, so the refusal tells nothing.
//!
//! **Publishing.** `publish` sends each viewer what `projection::after_change` gives
//! for it — the events it may now see and was not sent (`shown`), and its own new
//! decision — through its outbox; the server's non-interference test drives that same
//! function. `game_over` is sent once the log has answered the game's end, so the
//! history lists the game at once. A started game's setup is stored with the kingdom
//! as the ten cards drawn, never "random" or a recommended id, so it replays the same
//! whatever later releases draw from.

use super::*;

impl Room {
    pub(super) async fn start(&mut self, conn_id: u64, cmd: u64) -> Result<(), Refusal> {
        let idx = self.seat_of(conn_id).ok_or_else(|| {
            Refusal::new(
                ErrorCode::NotSeated,
                "only a seated player may start the game",
            )
        })?;
        self.check_seat_command(idx, cmd)?;
        if self.state.status != wire::RoomStatus::Lobby {
            return Err(Refusal::new(
                ErrorCode::GameAlreadyStarted,
                "the game has already started",
            ));
        }
        if !self.state.all_seats_filled() {
            let open: Vec<String> = (0..self.state.seats.len())
                .filter(|i| matches!(self.state.seats[*i], Seat::Open))
                .map(|i| i.to_string())
                .collect();
            return Err(Refusal::new(
                ErrorCode::SeatsNotFilled,
                format!("seats {} are still open", open.join(", ")),
            ));
        }
        let seed = getrandom::u64()
            .map_err(|e| Refusal::new(ErrorCode::Internal, format!("no randomness: {e}")))?;
        let setup = self.state.setup.clone();
        let game = match catch_unwind(|| Game::new(&setup, seed)) {
            Ok(Ok(game)) => game,
            Ok(Err(e)) => return Err(Refusal::new(ErrorCode::InvalidSettings, e.to_string())),
            Err(_) => {
                self.fail("the engine failed to set up the game");
                return Err(broken());
            }
        };
        let digest = game.digest();
        // The log keeps the kingdom as drawn, not "random": a later release may draw
        // from a larger pool, and the stored game must replay to the same cards.
        let resolved = Setup {
            kingdom: Kingdom::Cards(game.kingdom().to_vec()),
            ..setup
        };
        let started = self.log.game_started(
            &self.state.id,
            &resolved,
            seed,
            digest,
            Some((idx as u8, cmd)),
        );
        if let Err(e) = started.await {
            self.log_failed(&e);
            return Err(broken());
        }
        for (i, seat) in self.state.seats.iter().enumerate() {
            if let Seat::Bot { bot } = seat {
                self.agents[i] = bot_agent(
                    &self.config,
                    bot,
                    bot_seed(seed, i),
                    self.state.settings.rated,
                );
            }
        }
        self.state.game = Some(game);
        self.state.status = wire::RoomStatus::Playing;
        self.metrics.games_started.inc();
        tracing::info!(room = %self.state.id, "game started");
        self.broadcast(Topic::Room);
        self.publish().await;
        Ok(())
    }

    pub(super) async fn reply_command(
        &mut self,
        conn_id: u64,
        cmd: u64,
        decision: u64,
        reply: &wire::Reply,
    ) -> Result<(), Refusal> {
        let idx = self.seat_command(conn_id, cmd, "only seated players answer decisions")?;
        let game =
            self.state.game.as_ref().ok_or_else(|| {
                Refusal::new(ErrorCode::GameNotStarted, "the game has not started")
            })?;
        let Some(req) = game.pending() else {
            return Err(Refusal::new(ErrorCode::GameOver, "the game is over"));
        };
        let pending = decision_id(game);
        // While another player's private question is pending, this seat sees the game
        // at the last public decision (`Game::visible`): its answer must not tell it
        // more, so it is the same whatever number it names.
        if game.pending_is_private() && req.player.idx() != idx {
            return Err(Refusal::new(
                ErrorCode::StaleDecision,
                format!("decision {decision} is not pending for you"),
            ));
        }
        if decision != pending {
            return Err(Refusal::new(
                ErrorCode::StaleDecision,
                format!(
                    "decision {decision} is not pending; decision {pending} is, for seat {}",
                    req.player
                ),
            ));
        }
        if req.player.idx() != idx {
            return Err(Refusal::new(
                ErrorCode::NotYourDecision,
                format!(
                    "decision {pending} is for seat {}, not for you (seat {idx})",
                    req.player
                ),
            ));
        }
        let reply = from_wire::reply(reply)?;
        self.apply_reply(PlayerId(idx as u8), reply, Some(cmd))
            .await
    }

    /// The one path of every accepted reply. The engine validates and applies it (on a
    /// refusal nothing changed); then the log records it and the room awaits the commit
    /// — durable storage before anyone learns the result; then the viewers are told.
    /// `command` is the player's command id (none when the server answers for the seat),
    /// stored with the reply so a re-sent command stays a duplicate after a restart.
    pub(super) async fn apply_reply(
        &mut self,
        player: PlayerId,
        reply: Reply,
        command: Option<u64>,
    ) -> Result<(), Refusal> {
        let arrived = std::time::Instant::now();
        let Some(game) = self.state.game.as_mut() else {
            return Err(Refusal::new(
                ErrorCode::GameNotStarted,
                "the game has not started",
            ));
        };
        let index = game.replies().len() as u64;
        match catch_unwind(AssertUnwindSafe(|| game.answer(player, reply.clone()))) {
            Ok(Ok(())) => {}
            Ok(Err(invalid)) => return Err(invalid.into()),
            Err(_) => {
                self.fail("the engine failed while applying a reply");
                return Err(broken());
            }
        }
        let digest = game.digest();
        // The asking player moved on: their undo request no longer stands.
        self.end_undo(wire::UndoOutcome::Cancelled, None);
        let committed =
            self.log
                .reply_accepted(&self.state.id, index, player, &reply, digest, command);
        // Submitted after the reply, so stored in its batch or a later one.
        let snapshot = self.take_snapshot();
        if let Err(e) = committed.await {
            // Not stored, so it never happened: the game goes back to before the reply,
            // so that nothing read from this room later (history, a snapshot, a resume)
            // shows a step the log does not have.
            self.rewind_to(index as usize);
            self.log_failed(&e);
            return Err(broken());
        }
        if let Some(mark) = snapshot {
            self.snapshot_mark = mark;
        }
        self.metrics.replies.inc();
        let ran_out = command.is_none() && self.controller(player.idx()) == Controller::Human;
        self.note_time_left(index, ran_out, Instant::now());
        self.publish().await;
        self.metrics
            .reply_broadcast
            .observe(arrived.elapsed().as_secs_f64());
        Ok(())
    }

    /// Puts the game back to its first `replies` replies (a step the log refused). The
    /// game is replayed from its record — slow, but only ever on this failure path.
    pub(super) fn rewind_to(&mut self, replies: usize) {
        let Some(game) = self.state.game.as_mut() else {
            return;
        };
        let mut record = game.record();
        record.replies.truncate(replies);
        self.replace_game(&record);
    }

    /// Replaces the game by the replay of `record` (a step the log refused is undone).
    pub(super) fn replace_game(&mut self, record: &dominion_engine::GameRecord) {
        match catch_unwind(AssertUnwindSafe(|| Game::replay(record))) {
            Ok(Ok(game)) => self.state.game = Some(game),
            // A record this game was itself built from replays; if not, nothing of the
            // game may be shown any more.
            _ => self.state.game = None,
        }
    }

    /// Sends every viewer what changed since the last publish: new events with the view
    /// after them, a new decision to its seat, and the result once the game is over.
    pub(super) async fn publish(&mut self) {
        let now = Instant::now();
        let Some(game) = &self.state.game else {
            return;
        };
        let pending = game.pending().map(|r| (decision_id(game), r.player));
        let new_decision = pending.map(|p| p.0) != self.announced.map(|a| a.0);
        let over_now = game.is_over() && !self.over_announced;
        let scores = over_now.then(|| game.scores());
        if new_decision {
            self.announced = pending.map(|(id, _)| (id, now));
            let index = game.replies().len() as u64;
            self.state.decision_deadline = match (pending, self.state.settings.decision_seconds) {
                (Some((_, p)), Some(secs)) if self.state.human(p.idx()).is_some() => {
                    Some(self.deadline_at(index, secs, now))
                }
                _ => None,
            };
        }
        // Stored before it is told, so a player who hears `game_over` finds the game in
        // the history (/api/games) at once. A failure here loses nothing: the end follows
        // from the stored replies, and a room reopened with its game over records it again.
        let mut rated = false;
        if let Some(scores) = &scores {
            let end = self.rated_end(Some(scores));
            rated = end.is_some();
            if let Err(e) = self.log.game_finished(&self.state.id, scores, end).await {
                tracing::error!(room = %self.state.id, "{e}");
                rated = false;
            }
        }
        // Each viewer gets the events it may now see and has not been sent, and its own
        // new decision: while a private question is pending, the others get nothing at
        // all (`projection::after_change`, `Game::visible`).
        for (viewer, conn) in self.viewers() {
            let sent = self.shown.get(viewer);
            for msg in projection::after_change(&self.state, viewer, sent, new_decision, now) {
                conn.send(&msg);
            }
            if over_now {
                self.send_to(&conn, viewer, Topic::GameOver);
            }
        }
        self.shown.catch_up(game);
        if scores.is_some() {
            self.over_announced = true;
            self.state.status = wire::RoomStatus::Finished;
            self.finished_at = Some(now);
            tracing::info!(room = %self.state.id, "game over");
            self.metrics.games_finished.inc();
            self.broadcast(Topic::Room);
            if rated {
                self.tell_ratings().await;
            }
        }
    }
}
