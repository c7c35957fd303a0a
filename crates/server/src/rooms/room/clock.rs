//! Time: who answers a seat (its human or a bot), bots' pace, decision deadlines,
//! players away too long, abandoned games, and when the room itself expires — a room not
//! started within `--lobby-timeout` too, however many are connected.
//!
//! Server bots, decision time-outs (answered by `FALLBACK_BOT`) and bots taking over
//! abandoned seats are room timers; they answer through the same `apply_reply` as a
//! player. A bot decides on a blocking thread with `--bot-think-ms` of wall clock (the
//! engine has no clock: the room lends the bot one), so a searching bot never holds a
//! runtime worker; each decision's time is `dominion_bot_think_seconds{bot}`. A bot
//! answers a private question without `--bot-delay`: a pause there would show the
//! others that it was asked.
//!
//! A started game in which no player (spectators do not count) has been connected for
//! `--abandon-after` is stored as abandoned and its room closes: it stops counting
//! against `--max-rooms`, is not reopened, and stays in the history. The players of a
//! reopened room (a restart, a takeover) count as away from then on, so clocks and
//! abandon timers start afresh: downtime is never charged to anyone.
//!
//! **Deadlines and undo** (issue 23): a decision's time is spent once. The room notes
//! what each timed decision had left when it was answered, or when an undo took the game
//! back past it while it was pending ([`TimeLeft`], by its place in the game's log); a
//! decision asked again at that place after an undo gets that, not a fresh
//! `decision_seconds` — so answering and taking back cannot stretch a clock. A move the
//! server made because the time ran out is not taken back at all (`undo_refused`): the
//! time was up. Like every clock these live in memory, and start afresh after a restart.

use super::*;

/// What a timed decision had left of its time when it was last left: answered, or
/// taken back while pending.
#[derive(Clone, Copy, Debug)]
pub(super) struct TimeLeft {
    pub left: Duration,
    /// The server answered it because its time ran out.
    pub ran_out: bool,
}

/// Places in the log whose [`TimeLeft`] is remembered, the latest ones: an undo only
/// goes back within the current turn.
const TIME_LEFT_KEPT: usize = 256;

impl Room {
    /// Notes what the decision pending at place `index` of the log has left at `now`,
    /// when it has a deadline; `ran_out`: the server is answering it for that reason.
    pub(super) fn note_time_left(&mut self, index: u64, ran_out: bool, now: Instant) {
        if let Some(deadline) = self.state.decision_deadline {
            let left = deadline.saturating_duration_since(now);
            self.time_left.insert(index, TimeLeft { left, ran_out });
            while self.time_left.len() > TIME_LEFT_KEPT {
                self.time_left.pop_first();
            }
        }
    }

    /// The deadline of a human's decision asked at `now` at place `index` of the log:
    /// `secs` from now, or what it had left if it was asked there before an undo.
    pub(super) fn deadline_at(&self, index: u64, secs: u32, now: Instant) -> Instant {
        let full = Duration::from_secs(u64::from(secs));
        now + self
            .time_left
            .get(&index)
            .map_or(full, |t| t.left.min(full))
    }

    /// Whether `seat`'s last move (what an undo would take back) was the server's
    /// answer when that seat's time ran out.
    pub(super) fn last_move_ran_out(&self, seat: usize) -> bool {
        let Some(game) = &self.state.game else {
            return false;
        };
        game.replies()
            .iter()
            .rposition(|(p, _)| p.idx() == seat)
            .and_then(|i| self.time_left.get(&(i as u64)))
            .is_some_and(|t| t.ran_out)
    }

    pub(super) fn controller(&self, seat: usize) -> Controller {
        match self.state.seats.get(seat) {
            Some(Seat::Bot { .. }) => Controller::Bot,
            Some(Seat::Human(h)) if h.bot_playing.is_some() => Controller::Bot,
            _ => Controller::Human,
        }
    }

    /// How long a bot waits before answering `req`: `--bot-delay` at a phase move, none
    /// at a private question. Nobody else sees a private question (`Game::visible`), but
    /// they would see the game pause for the delay — only when the bot was asked, that
    /// is, only when it held a Reaction, an Estate for Baron… — so the server, which
    /// controls that timing, never pauses there.
    pub(super) fn bot_delay(&self, req: &dominion_engine::Request) -> Duration {
        if dominion_engine::game::is_public(req) {
            self.config.bot_delay
        } else {
            Duration::ZERO
        }
    }

    /// When a seat away since `away` (having `left` or not) is abandoned, per the room.
    pub(super) fn abandoned_at(&self, away: Instant, left: bool) -> Option<Instant> {
        match &self.state.settings.abandoned {
            wire::AbandonPolicy::BotAfter { seconds, .. } => Some(if left {
                away
            } else {
                away + Duration::from_secs(u64::from(*seconds))
            }),
            wire::AbandonPolicy::Wait {} => None,
        }
    }

    pub(super) fn next_wake(&self) -> Option<Instant> {
        let mut wake: Option<Instant> = None;
        let mut at = |t: Instant| wake = Some(wake.map_or(t, |w| w.min(t)));
        match self.state.status {
            wire::RoomStatus::Playing => {
                if let Some(since) = self.unattended_since {
                    at(since + self.config.abandon_after);
                }
                if let Some(u) = &self.undo {
                    at(u.deadline);
                }
                // Nobody's bot or clock moves the game while no player is connected.
                let pending = self.state.game.as_ref().and_then(|g| g.pending());
                let attended = self.unattended_since.is_none();
                if let (true, Some(req), Some((_, since))) = (attended, pending, self.announced) {
                    if self.controller(req.player.idx()) == Controller::Bot {
                        at(since + self.bot_delay(req));
                    } else if let Some(deadline) = self.state.decision_deadline {
                        at(deadline);
                    }
                }
                for seat in &self.state.seats {
                    if let Seat::Human(h) = seat
                        && h.bot_playing.is_none()
                        && let Some(t) = h.away_since.and_then(|a| self.abandoned_at(a, h.left))
                    {
                        at(t);
                    }
                }
            }
            wire::RoomStatus::Lobby => {
                for seat in &self.state.seats {
                    if let Seat::Human(h) = seat
                        && let Some(t) = h.away_since.and_then(|a| self.abandoned_at(a, false))
                    {
                        at(t);
                    }
                }
                if let Some(since) = self.empty_since {
                    at(since + self.config.empty_room_ttl);
                }
                at(self.opened_at + self.config.lobby_timeout);
            }
            wire::RoomStatus::Finished | wire::RoomStatus::Broken => {
                if let Some(t) = self.finished_at {
                    at(t + self.config.finished_room_ttl);
                }
            }
        }
        wake
    }

    pub(super) async fn on_timer(&mut self, now: Instant) {
        match self.state.status {
            wire::RoomStatus::Playing => {
                if self.unattended_too_long(now) {
                    self.abandon().await;
                    return;
                }
                self.expire_undo(now);
                self.take_over_abandoned(now);
                self.answer_for_absent(now).await;
            }
            wire::RoomStatus::Lobby => self.free_abandoned(now).await,
            wire::RoomStatus::Finished | wire::RoomStatus::Broken => {}
        }
    }

    /// Hands seats abandoned long enough to the room's bot.
    pub(super) fn take_over_abandoned(&mut self, now: Instant) {
        let bot_name = match &self.state.settings.abandoned {
            wire::AbandonPolicy::BotAfter { bot, .. } => {
                bot.clone().unwrap_or_else(|| FALLBACK_BOT.to_string())
            }
            wire::AbandonPolicy::Wait {} => return,
        };
        let mut changed = false;
        for i in 0..self.state.seats.len() {
            let due = match &self.state.seats[i] {
                Seat::Human(h) if h.bot_playing.is_none() => h
                    .away_since
                    .and_then(|away| self.abandoned_at(away, h.left))
                    .is_some_and(|t| t <= now),
                _ => false,
            };
            if !due {
                continue;
            }
            if let Some(h) = self.state.human_mut(i) {
                h.bot_playing = Some(bot_name.clone());
            }
            self.agents[i] =
                bot_agent(&self.config, &bot_name, i as u64, self.state.settings.rated);
            changed = true;
            tracing::info!(room = %self.state.id, seat = i, bot = %bot_name, "a bot takes over an abandoned seat");
        }
        if changed {
            self.broadcast(Topic::Room);
        }
    }

    /// Answers the pending decision when a bot plays its seat and its delay is over, or
    /// when a human's time is up — but only while some player is connected: a game
    /// nobody plays stands still (no bot moves, no time runs out) until a player is back
    /// or it is abandoned (`--abandon-after`), whoever sits in its seats.
    ///
    /// Most bots answer here, at once (microseconds). A bot that thinks (`search`)
    /// thinks on one of the server's bot thinkers (`thinkers`), never on a runtime
    /// worker that other rooms and connections need: the game and the agent are moved
    /// there and back (the `Observation` borrows the game, and a `Game` is not `Clone`).
    /// Meanwhile this room handles nothing else, as while it awaits a durable commit: its
    /// messages wait in its channel, and every other room runs on. When every thinker
    /// is busy it does not wait: it answers at once as `standard` would
    /// (`Agent::decide_at_once`), says so in the log once per room, and counts it.
    pub(super) async fn answer_for_absent(&mut self, now: Instant) {
        if self.unattended_since.is_some() {
            return;
        }
        let Some(game) = &self.state.game else {
            return;
        };
        let Some(req) = game.pending().cloned() else {
            return;
        };
        let Some((_, since)) = self.announced else {
            return;
        };
        let seat = req.player.idx();
        let by_bot = self.controller(seat) == Controller::Bot;
        let due = if by_bot {
            since + self.bot_delay(&req) <= now
        } else {
            self.state.decision_deadline.is_some_and(|d| d <= now)
        };
        if !due {
            return;
        }
        // A seat's own bot plays it; a human out of time gets a one-off fallback bot.
        let name = match (by_bot, &self.state.seats[seat]) {
            (true, Seat::Bot { bot }) => bot.clone(),
            (true, Seat::Human(h)) => h.bot_playing.clone().unwrap_or_default(),
            _ => FALLBACK_BOT.to_string(),
        };
        let agent = match if by_bot {
            self.agents[seat].take()
        } else {
            None
        } {
            Some(agent) => agent,
            None => match bot_agent(&self.config, &name, seat as u64, self.state.settings.rated)
                .or_else(|| bot_agent(&self.config, FALLBACK_BOT, seat as u64, false))
            {
                Some(agent) => agent,
                None => {
                    self.fail("no bot to answer for an absent seat");
                    return;
                }
            },
        };
        let player = req.player;
        let at_action_phase = matches!(req.prompt, dominion_engine::Prompt::ActionPhase { .. });
        let started = std::time::Instant::now();
        let Some((agent, reply, downgraded)) = self.decide(agent, req).await else {
            return;
        };
        // A money turn in one reply (a Buy-phase move answered at the Action phase) is
        // one an earlier release cannot replay: while a node of one may read this game,
        // the bot ends the phase instead and is asked the Buy phase's moves one by one
        // — the same game (`dominion_engine::combined`).
        let reply = match reply {
            Ok(Reply::PlayAllTreasures | Reply::Buy(_))
                if at_action_phase && self.log.earlier_release_may_read() =>
            {
                Ok(Reply::EndPhase)
            }
            r => r,
        };
        let elapsed = started.elapsed();
        if by_bot {
            self.agents[seat] = Some(agent);
        }
        let level = if downgraded { FALLBACK_BOT } else { &name };
        self.metrics.bot_thought(level, elapsed.as_secs_f64());
        tracing::debug!(room = %self.state.id, seat, bot = %name, downgraded, think_us = elapsed.as_micros() as u64, "bot decided");
        if downgraded {
            self.metrics.bot_decisions_downgraded.inc();
            if !self.downgrade_told {
                self.downgrade_told = true;
                tracing::info!(
                    room = %self.state.id,
                    seat,
                    bot = %name,
                    thinkers = self.thinkers.size(),
                    "every bot thinker is busy: this room's searching bots answer as standard \
                     until one is free (logged once per room; every such decision counts in \
                     dominion_bot_decisions_downgraded_total)"
                );
            }
        }
        let Ok(reply) = reply else {
            self.fail("a bot failed while deciding");
            return;
        };
        if !by_bot {
            tracing::info!(room = %self.state.id, seat, "decision time ran out: the server answers");
        }
        if let Err(refusal) = self.apply_reply(player, reply, None).await
            && self.state.status != wire::RoomStatus::Broken
        {
            self.fail(&format!("a bot's reply was refused: {}", refusal.message));
        }
    }

    /// Has `agent` answer `req`: here at once, or on a bot thinker if it thinks (see
    /// [`Room::answer_for_absent`]). Gives the agent back with its reply (`Err`: it
    /// panicked) and whether a thinking bot answered at once for want of a thinker;
    /// `None` when the game was lost with a thinker (the room is failed then).
    async fn decide(
        &mut self,
        mut agent: Box<dyn Agent + Send>,
        req: dominion_engine::Request,
    ) -> Option<(Box<dyn Agent + Send>, std::thread::Result<Reply>, bool)> {
        let player = req.player;
        let here = |game: &Game, agent: &mut Box<dyn Agent + Send>, at_once: bool| {
            catch_unwind(AssertUnwindSafe(|| {
                let obs = Observation::for_player(game, player);
                if at_once {
                    agent.decide_at_once(&obs, &req)
                } else {
                    (agent.decide(&obs, &req), false)
                }
            }))
        };
        if !agent.thinks() {
            let game = self.state.game.as_ref()?;
            let reply = here(game, &mut agent, false).map(|(r, _)| r);
            return Some((agent, reply, false));
        }
        // In a rated room (the bot ladder) a house bot's strength must not depend on the
        // load: it waits for a thinker rather than answer as `standard`.
        let thinker = if self.state.settings.rated {
            self.thinkers.reserve_waiting().await
        } else {
            self.thinkers.reserve()
        };
        let Some(thinker) = thinker else {
            // No thinker free: answer at once, as `standard` would.
            let game = self.state.game.as_ref()?;
            let (reply, skipped) = match here(game, &mut agent, true) {
                Ok((r, skipped)) => (Ok(r), skipped),
                Err(e) => (Err(e), false),
            };
            return Some((agent, reply, skipped));
        };
        let game = self.state.game.take()?;
        let answer = thinker.run(move || {
            let reply = catch_unwind(AssertUnwindSafe(|| {
                agent.decide(&Observation::for_player(&game, player), &req)
            }));
            (game, agent, reply)
        });
        match answer.await {
            Ok((game, agent, reply)) => {
                self.state.game = Some(game);
                Some((agent, reply, false))
            }
            Err(_) => {
                // Only a thinker lost outside the decision (which runs under
                // catch_unwind) gets here; the game went with it.
                self.fail("a bot's thinker was lost");
                None
            }
        }
    }

    /// Before the game, frees the seats of players away longer than the room allows.
    pub(super) async fn free_abandoned(&mut self, now: Instant) {
        let mut changed = false;
        for i in 0..self.state.seats.len() {
            let due = match &self.state.seats[i] {
                Seat::Human(h) => h
                    .away_since
                    .and_then(|away| self.abandoned_at(away, false))
                    .is_some_and(|t| t <= now),
                _ => false,
            };
            if due {
                self.state.seats[i] = Seat::Open;
                changed = true;
            }
        }
        if changed {
            self.state.settle_host(None);
            self.save_room().await;
            self.broadcast(Topic::Room);
        }
    }

    pub(super) fn note_presence(&mut self, now: Instant) {
        let players = self.seat_conns.iter().any(Option::is_some);
        if players || !self.spectator_conns.is_empty() {
            self.empty_since = None;
        } else if self.empty_since.is_none() {
            self.empty_since = Some(now);
        }
        if players {
            self.unattended_since = None;
        } else if self.unattended_since.is_none() {
            self.unattended_since = Some(now);
        }
    }

    /// Whether no player has been connected to this started game for `--abandon-after`.
    /// Spectators do not count: watching a game nobody plays must not keep it open.
    pub(super) fn unattended_too_long(&self, now: Instant) -> bool {
        self.state.status == wire::RoomStatus::Playing
            && self
                .unattended_since
                .is_some_and(|t| t + self.config.abandon_after <= now)
    }

    /// Ends the game as abandoned: stored as such (history, never reopened), then the
    /// room closes, so it stops counting against `--max-rooms`. Spectators are told.
    pub(super) async fn abandon(&mut self) {
        let end = self.rated_end(None);
        let rated = end.is_some();
        if let Err(e) = self.log.game_abandoned(&self.state.id, end).await {
            self.log_failed(&e);
            return;
        }
        if rated {
            self.tell_ratings().await;
        }
        self.metrics.games_abandoned.inc();
        tracing::info!(
            room = %self.state.id,
            after = ?self.config.abandon_after,
            "game abandoned: no player connected"
        );
        self.close_telling(format!(
            "this room has closed: its game was abandoned after {} s without a player",
            self.config.abandon_after.as_secs()
        ));
    }

    /// Closes a room whose game has not started `--lobby-timeout` after it opened, even
    /// with players or spectators connected: they are told, as when a game is abandoned.
    /// Nothing else ends a lobby someone stays connected to, and rooms count against
    /// `--max-rooms` (issue 23: idle clients held rooms forever).
    pub(super) fn expire_lobby(&mut self, now: Instant) {
        if self.closing
            || self.state.status != wire::RoomStatus::Lobby
            || self.opened_at + self.config.lobby_timeout > now
        {
            return;
        }
        tracing::info!(
            room = %self.state.id,
            after = ?self.config.lobby_timeout,
            "room closed: its game did not start in time"
        );
        self.close_telling(format!(
            "this room has closed: its game did not start within {} s",
            self.config.lobby_timeout.as_secs()
        ));
    }

    /// Tells everyone in the room why it closes (`unknown_room`: the room is gone), and
    /// ends the room after this message.
    fn close_telling(&mut self, why: String) {
        let msg = Refusal::new(ErrorCode::UnknownRoom, why).to_message(None);
        for (_, conn) in self.viewers() {
            conn.send(&msg);
        }
        self.closing = true;
    }

    /// Gives back the room's place among its creator address's rooms with searching bots
    /// once its game is over: its bots think no more.
    pub(super) fn release_search_when_over(&mut self) {
        if matches!(
            self.state.status,
            wire::RoomStatus::Finished | wire::RoomStatus::Broken
        ) && let Some(claim) = &mut self.search_claim
        {
            claim.release();
        }
    }

    pub(super) fn expired(&self, now: Instant) -> bool {
        if self.closing {
            return true;
        }
        match self.state.status {
            wire::RoomStatus::Lobby => self
                .empty_since
                .is_some_and(|t| t + self.config.empty_room_ttl <= now),
            wire::RoomStatus::Playing => false,
            wire::RoomStatus::Finished | wire::RoomStatus::Broken => self
                .finished_at
                .is_some_and(|t| t + self.config.finished_room_ttl <= now),
        }
    }
}
