//! `Game`: the engine's public face — create, ask what is pending, reply, view, replay.
//!
//! A game is a pure function of (setup, seed, replies). The engine keeps a snapshot of
//! the state at the start of the current turn plus the replies given since; a reply is
//! validated against the pending request, appended, and the turn is run again with the
//! logged answers until it needs a new one. Nothing in flight has to be saved, so the
//! reply log alone is the game record.
//!
//! The run need not start at the turn's start: at an Action- or Buy-phase decision no
//! card is being resolved, so everything the rest of the turn depends on is in the state
//! itself (`turn::run_turn` goes on from the phase it records). Such a state is a
//! *resume point*: a reply to a phase decision runs on from the state as it is, and a
//! reply to a card's question re-runs from the last resume point, so a reply costs one
//! phase step or one card, not the whole turn. Undo re-runs from the state at the
//! turn's first decision (`Snapshots::turn`).
//!
//! **What this relies on.** A run's continuation depends on nothing but the `State` and
//! the logged replies: no card may keep anything between two questions outside the
//! state. The state is kept (`clone_from`, reusing every zone's vector) only when a
//! reply plays an Action card, whose questions re-run from it (a Treasure asks
//! nothing); a run starting at a decision takes its logged answer without building the
//! request again. The turn's own snapshot is taken at its first answered decision,
//! always a phase move (a debug assertion checks it; a future start-of-turn effect
//! that asks must take the snapshot itself), and only when that reply plays an Action
//! or every few turns: in between, an earlier turn's state stands in for it and is run
//! on to this turn's when an undo or a card's question needs it (`Snapshots::turn`). The
//! property test `tests/properties.rs` plays random games both through `reply` and
//! through `play_out` and requires the same final state; recorded games reserve their
//! reply log, decision numbers and events up front. Measure with `dominion-sim --bench`
//! (both paths, by wall clock and CPU time; figures in docs/load.md) and compare CPU time
//! or callgrind instruction counts, not the wall clock, on a shared machine; the RNG and
//! every shuffle stay untouched, so the reference bots' `--json` outputs must not move.

use crate::afford::Affordable;
use crate::agent::Agent;
use crate::card::CardId;
use crate::ctx::{Answers, Ctx, Suspend};
use crate::decision::{InvalidReply, Reply, Request};
use crate::event::{Event, Viewer};
use crate::score::{self, Score};
use crate::setup::{self, Setup, SetupError};
use crate::state::{PlayerId, State};
use crate::turn;
use crate::view::PlayerView;
use serde::{Deserialize, Serialize};

mod playout;
mod restore;
mod undo;
pub use undo::UndoRefused;

/// The full record of a game: enough to reproduce it exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    pub setup: Setup,
    pub seed: u64,
    pub replies: Vec<(PlayerId, Reply)>,
    /// The rules version the game was played under (records written before the field
    /// existed were all played under version 1).
    #[serde(default = "first_rules")]
    pub rules: u32,
}

fn first_rules() -> u32 {
    1
}

/// A replay that does not reproduce its game.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("setup refused: {0}")]
    Setup(#[from] SetupError),
    #[error("reply {index} was refused on replay: {error}")]
    Reply { index: usize, error: InvalidReply },
}

pub struct Game {
    setup: Setup,
    seed: u64,
    kingdom: Vec<CardId>,
    state: State,
    /// Recorded games only: the states replies are re-run from.
    snapshots: Option<Box<Snapshots>>,
    /// Index into `log` of the first reply of the current turn.
    turn_log_start: usize,
    /// Index into `events` of the first event the current turn's replay re-creates.
    turn_events_start: usize,
    /// Index into `log` of the first reply after the resume point (see the module docs).
    resume_log: usize,
    /// Index into `log` of the first reply the next run of the turn answers with: the
    /// run starts from the state as it is, and that state has seen the replies before.
    run_log: usize,
    /// The next run starts at a phase decision already asked (see `Ctx::resumed`).
    run_at_decision: bool,
    /// Index into `events` of the first event a run from the resume point re-creates.
    resume_events: usize,
    /// Public decision numbers (see [`Game::decision_number`]).
    numbers: DecisionNumbers,
    log: Vec<(PlayerId, Reply)>,
    /// For each reply of `log` (recorded games only): how many events there were before
    /// it was applied, so that an undo knows what the reply revealed.
    event_marks: Vec<usize>,
    events: Vec<Event>,
    pending: Option<Request>,
    /// Record events and replies (off in fast simulations).
    record: bool,
    /// Card lists kept from one turn's requests for the next (see `Ctx::list`).
    spare: Vec<Vec<CardId>>,
    /// Which piles each budget affords, worked out once (the Supply's order is fixed).
    afford: Affordable,
}

impl Game {
    /// Sets up a game and runs it to its first decision.
    pub fn new(setup: &Setup, seed: u64) -> Result<Game, SetupError> {
        Game::build(setup, seed, true, crate::RULES_VERSION)
    }

    /// [`Game::new`] under an earlier rules version (one of [`crate::SUPPORTED_RULES`]):
    /// for games stored by an earlier release, which go on under the rules they began
    /// with.
    pub fn new_under(setup: &Setup, seed: u64, rules: u32) -> Result<Game, SetupError> {
        if !crate::SUPPORTED_RULES.contains(&rules) {
            return Err(SetupError::Rules(rules));
        }
        Game::build(setup, seed, true, rules)
    }

    /// A game that records neither events nor replies: for simulations, where only the
    /// outcome matters and speed does.
    pub fn new_unrecorded(setup: &Setup, seed: u64) -> Result<Game, SetupError> {
        Game::build(setup, seed, false, crate::RULES_VERSION)
    }

    fn build(setup: &Setup, seed: u64, record: bool, rules: u32) -> Result<Game, SetupError> {
        let (mut state, kingdom) = setup::build(setup, seed)?;
        state.rules = rules;
        let mut events = Vec::new();
        if record {
            events.push(Event::GameStarted {
                players: setup.players,
                first: state.current,
                kingdom: kingdom.clone(),
            });
        }
        turn::begin_turn(&mut state, record.then_some(&mut events));
        let mut g = Game::around(setup.clone(), seed, kingdom, state, events, record);
        if record {
            g.reserve_record();
            g.advance(None);
        }
        Ok(g)
    }

    /// A game around `state`, with no reply yet and nothing asked: the one place a
    /// `Game` is put together, for new games, tests and playouts alike.
    fn around(
        setup: Setup,
        seed: u64,
        kingdom: Vec<CardId>,
        state: State,
        events: Vec<Event>,
        record: bool,
    ) -> Game {
        let afford = Affordable::new(&state.supply);
        Game {
            setup,
            seed,
            kingdom,
            snapshots: record.then(Box::default),
            state,
            turn_log_start: 0,
            turn_events_start: events.len(),
            resume_log: 0,
            run_log: 0,
            run_at_decision: false,
            resume_events: events.len(),
            numbers: DecisionNumbers::default(),
            log: Vec::new(),
            event_marks: Vec::new(),
            events,
            pending: None,
            record,
            spare: Vec::new(),
            afford,
        }
    }

    /// Room up front for a typical game's record: a two-player game answers about a
    /// hundred questions and records several hundred events, and growing these vectors
    /// a doubling at a time copied them over and over.
    fn reserve_record(&mut self) {
        const REPLIES: usize = 128;
        self.log.reserve(REPLIES);
        self.event_marks.reserve(REPLIES);
        self.numbers.answered.reserve(REPLIES);
        self.events.reserve(8 * REPLIES);
    }

    /// Replays a record from its setup and seed.
    pub fn replay(record: &GameRecord) -> Result<Game, ReplayError> {
        let mut g = Game::new_under(&record.setup, record.seed, record.rules)?;
        for (index, (p, r)) in record.replies.iter().enumerate() {
            g.answer(*p, r.clone())
                .map_err(|error| ReplayError::Reply { index, error })?;
        }
        Ok(g)
    }

    /// Runs turns until a decision is needed that no agent answers, or the game ends.
    /// With `agents`, every decision is answered at once and this runs to the end.
    fn advance(&mut self, mut agents: Option<&mut [Box<dyn Agent + Send>]>) {
        let mut resumed = std::mem::take(&mut self.run_at_decision);
        loop {
            if self.state.game_over {
                self.pending = None;
                return;
            }
            let (answers, events) = match agents.as_deref_mut() {
                Some(agents) => (
                    Answers::Agents { agents },
                    self.record.then_some(&mut self.events),
                ),
                None => (
                    Answers::Log {
                        replies: &self.log[self.run_log..],
                        pos: 0,
                    },
                    Some(&mut self.events),
                ),
            };
            // The run writes the question it stops at straight into `pending`.
            self.pending = None;
            let mut cx = Ctx {
                st: &mut self.state,
                answers,
                events,
                asked: false,
                resumed: if resumed {
                    crate::ctx::Resumed::AtDecision
                } else {
                    crate::ctx::Resumed::No
                },
                spare: &mut self.spare,
                afford: &self.afford,
                suspended: &mut self.pending,
            };
            let ran = turn::run_turn(&mut cx);
            match ran {
                Err(Suspend) => {
                    debug_assert!(self.pending.is_some(), "suspended without a question");
                    return;
                }
                Ok(()) => {
                    // The next turn answers from the replies this one left (all of them,
                    // but in a turn snapshot's catch-up).
                    if let Answers::Log { pos, .. } = cx.answers {
                        self.run_log += pos;
                    }
                    self.next_turn();
                    resumed = false;
                }
            }
        }
    }

    /// Bookkeeping between turns: start the next one (or record the end) and snapshot.
    fn next_turn(&mut self) {
        let events = self.record.then_some(&mut self.events);
        if self.state.game_over {
            if let Some(ev) = events {
                ev.push(Event::GameEnded {
                    scores: score::scores(&self.state),
                });
            }
        } else {
            turn::begin_turn(&mut self.state, events);
        }
        debug_assert!(
            !self.record || self.run_log == self.log.len(),
            "a turn ended with replies left"
        );
        self.turn_log_start = self.run_log;
        self.turn_events_start = self.events.len();
        self.resume_log = self.turn_log_start;
        self.run_log = self.turn_log_start;
        self.resume_events = self.turn_events_start;
        if let Some(snap) = &mut self.snapshots {
            // Taken at the turn's first reply (see `Snapshots::turn`).
            snap.turn_taken = false;
        }
    }

    /// Plays the rest of the game with `agents` (one per seat) answering every decision.
    /// Any decision pending now is answered by its agent too.
    pub fn play_out(&mut self, agents: &mut [Box<dyn Agent + Send>]) {
        assert_eq!(agents.len(), self.state.num_players(), "one agent per seat");
        if self.record {
            self.drive_through_replies(agents);
        } else {
            self.advance(Some(agents));
        }
    }

    fn drive_through_replies(&mut self, agents: &mut [Box<dyn Agent + Send>]) {
        // Answer the pending decisions one by one through `reply`, so the recorded path is
        // exactly the one a server takes.
        while let Some(req) = &self.pending {
            let p = req.player;
            let obs = crate::view::Observation::new(&self.state, p);
            let r = agents[p.idx()].decide(&obs, req);
            if let Err(e) = self.answer(p, r.clone()) {
                panic!(
                    "agent {} gave an invalid reply {r:?}: {e}",
                    agents[p.idx()].name()
                );
            }
        }
    }

    /// Answers the pending decision. On error nothing has changed.
    /// On success returns the events that happened as a result (unredacted).
    pub fn reply(&mut self, player: PlayerId, reply: Reply) -> Result<Vec<Event>, InvalidReply> {
        let before = self.events.len();
        self.answer(player, reply)?;
        Ok(self.events[before..].to_vec())
    }

    /// [`Game::reply`] without the copy of the new events, which are `events()[n..]` with
    /// `n` the length of `events()` before. For callers that read the events there or not
    /// at all (the server, replays): copying them is most of what a reply costs.
    pub fn answer(&mut self, player: PlayerId, reply: Reply) -> Result<(), InvalidReply> {
        let req = checked(
            &self.state,
            &self.afford,
            self.pending.as_ref(),
            player,
            &reply,
        )?;
        // Only recorded games wait for replies, so there are snapshots; and a card's
        // question always follows a phase move answered this turn, which took one (see
        // `Snapshots::turn`). Neither refusal can happen to a valid reply.
        let Some(snap) = self.snapshots.as_mut() else {
            return Err(InvalidReply::GameOver);
        };
        let at_phase = is_resume_point(req);
        if !at_phase && snap.resume_state(self.state.turn_count).is_none() {
            debug_assert!(false, "a card's question before any phase move this turn");
            return Err(InvalidReply::GameOver);
        }
        self.numbers.answered(req);
        let before = self.events.len();
        if at_phase {
            // Run on from here. The turn's first reply keeps this state as the turn's
            // snapshot; a later one that plays an Action card keeps it as the new resume
            // point, for the card's questions. A Buy, an ended phase or a Treasure (no
            // Treasure asks anything, see `turn`) asks no question here, so the older
            // resume point serves (a question that might follow one, such as a
            // reaction to a gain, re-runs from there through it): a Buy phase then
            // copies no state, which was a third of a recorded reply's cost.
            let plays_action = matches!(req.prompt, crate::decision::Prompt::ActionPhase { .. })
                && matches!(reply, Reply::Play(_));
            if !snap.turn_taken {
                snap.turn_taken = true;
                snap.resume_at_turn = true;
                self.turn_events_start = before;
                self.resume_log = self.log.len();
                self.resume_events = before;
                // The copy may wait when no card of this reply can ask (see
                // `Snapshots::turn`); an Action played now needs it at once.
                if plays_action || !snap.may_defer(self.state.turn_count) {
                    store(&mut snap.turn, &self.state);
                    snap.turn_log = self.log.len();
                }
            } else if plays_action {
                snap.resume_at_turn = false;
                store(&mut snap.resume, &self.state);
                self.resume_log = self.log.len();
                self.resume_events = before;
            }
            self.run_log = self.log.len();
            self.run_at_decision = true;
        } else if let Some(from) = snap.resume_state(self.state.turn_count) {
            // A card is being resolved: re-run it from the last resume point.
            self.state.clone_from(from);
            self.events.truncate(self.resume_events);
            self.run_log = self.resume_log;
            self.run_at_decision = true;
        }
        // The answered request's lists are kept for later requests (the run below
        // writes its next question into the emptied `pending`).
        if let Some(answered) = self.pending.take() {
            match answered.prompt {
                // An Action phase with nothing to play (a money deck's every turn) has
                // an unallocated list (`turn::kinds_in_hand`): nothing to keep.
                crate::decision::Prompt::ActionPhase { playable } if playable.capacity() == 0 => {}
                prompt => crate::ctx::keep_lists(&mut self.spare, prompt),
            }
        }
        self.event_marks.push(before);
        self.log.push((player, reply));
        self.advance(None);
        debug_assert!(self.events.len() >= before, "replay lost events");
        // A card's question re-runs from the last resume point, and others see the game
        // as it was there (`veiled_for`): when that is the turn's first decision, its
        // state must be at hand now.
        if self.pending.as_ref().is_some_and(|r| !is_resume_point(r)) {
            self.catch_up_turn_snapshot();
        }
        Ok(())
    }

    /// Whether [`Game::answer`] would accept `reply` from `player` now, without giving
    /// it: the same checks and the same error. For agents and clients that want to know
    /// before they send (a Buy answered from the Action phase is checked against the
    /// coins of the hand's Treasures, which the request does not list).
    pub fn check(&self, player: PlayerId, reply: &Reply) -> Result<(), InvalidReply> {
        checked(
            &self.state,
            &self.afford,
            self.pending.as_ref(),
            player,
            reply,
        )
        .map(|_| ())
    }

    /// Brings a deferred turn snapshot (see `Snapshots::turn`) up to the current turn's
    /// first decision: the older state it holds is run on with the replies logged since
    /// it was taken, as a replay would, without recording events. Nothing else of the
    /// game changes.
    fn catch_up_turn_snapshot(&mut self) {
        let Some(snap) = self.snapshots.as_deref_mut() else {
            return;
        };
        if !snap.turn_taken || snap.is_current(self.state.turn_count) {
            return;
        }
        let Some(st) = snap.turn.take() else {
            debug_assert!(false, "a deferred turn snapshot with nothing to run on");
            return;
        };
        // A game of its own around the older state, without a record, answering from
        // the replies since: the same runs as the game's own (`advance`). A turn here is
        // one run where the game ran it in pieces, so its `Ctx::asked` may be true where
        // a piece's was false; that only skips `State::stuck`, which was false for each
        // of these turns (the game went on past them).
        let mut g = Game::around(
            self.setup.clone(),
            self.seed,
            Vec::new(),
            st,
            Vec::new(),
            false,
        );
        g.log
            .extend_from_slice(&self.log[snap.turn_log..self.turn_log_start]);
        g.advance(None);
        // Stopped at the current turn's first decision, whose reply is the first not
        // given to it.
        debug_assert!(g.pending.is_some() && g.turn_log_start == g.log.len());
        snap.turn = Some(g.state);
        snap.turn_log = self.turn_log_start;
        debug_assert!(
            snap.is_current(self.state.turn_count),
            "caught up elsewhere"
        );
    }

    /// The decision the game is waiting for, if any.
    pub fn pending(&self) -> Option<&Request> {
        self.pending.as_ref()
    }

    /// What `viewer` may see now: the game as it is, unless a private question of
    /// another player is pending — then the game as it was at the last public decision
    /// (see [`Game::visible`]).
    pub fn view(&self, viewer: Viewer) -> PlayerView {
        match self.veiled_for(viewer) {
            Some(mark) => PlayerView::build(mark, viewer, None, Some(mark.current)),
            None => self.view_of_public_record(viewer),
        }
    }

    /// What `viewer` knows of the game now, *without* the veil of [`Game::visible`]: its
    /// own hand and the public facts, even while another player's private question is
    /// pending. Only for a game whose whole record is public — a replay of an ended game,
    /// rebuilt step by step — where hiding that a question was asked protects nothing;
    /// never for a game being played.
    pub fn view_of_public_record(&self, viewer: Viewer) -> PlayerView {
        let waiting = self.pending.as_ref().map(|r| r.player);
        PlayerView::build(&self.state, viewer, self.pending.as_ref(), waiting)
    }

    /// How far `viewer` may see the game now.
    ///
    /// **The veil.** Whether a card's question is asked at all can depend on a hidden
    /// card: only a player holding a Reaction is asked whether to reveal it, Baron asks
    /// only a player holding an Estate, Library only when it drew an Action, a Militia
    /// victim whose hand is one kind of card has nothing to choose. So while such a
    /// private question is pending (every question but the phase moves, see
    /// [`is_public`]), everyone but the asked player sees the game as it was at the last
    /// public decision: its events, its view, its number. When the question is answered
    /// and the game reaches the next public decision, they see everything that happened
    /// meanwhile at once — exactly what they would have seen had the question never been
    /// asked. The asked player sees the game as it is. A viewer is to be sent a frame
    /// exactly when this changes; what it is sent is then [`Game::view`] and the events
    /// up to `events`, so every frame is a function of what the viewer may know (the
    /// property test `tests/noninterference.rs` checks it).
    ///
    /// The last public decision is always the last resume point: a card's question
    /// follows the phase move that played the card, whose state the game keeps anyway.
    pub fn visible(&self, viewer: Viewer) -> Visible {
        match &self.pending {
            Some(_) if self.veiled_for(viewer).is_some() => Visible {
                events: self.resume_events,
                step: self.numbers.last_public(),
            },
            Some(req) => Visible {
                events: self.events.len(),
                step: self.numbers.of(req),
            },
            None => Visible {
                events: self.events.len(),
                step: self.numbers.settled * DecisionNumbers::STRIDE,
            },
        }
    }

    /// The state at the last public decision, when `viewer` must not see further.
    fn veiled_for(&self, viewer: Viewer) -> Option<&State> {
        let req = self.pending.as_ref()?;
        if is_public(req) || viewer.is(req.player) {
            return None;
        }
        let mark = self.snapshots.as_ref()?.resume_state(self.state.turn_count);
        debug_assert!(mark.is_some(), "a private question before any phase move");
        mark
    }

    /// Whether the pending question is a private one (see [`Game::visible`]).
    pub fn pending_is_private(&self) -> bool {
        self.pending.as_ref().is_some_and(|r| !is_public(r))
    }

    pub fn is_over(&self) -> bool {
        self.state.game_over
    }

    /// Final (or current) scores and winners.
    pub fn scores(&self) -> Vec<Score> {
        // An ended recorded game has them in its last event: the same function of the
        // same final state, worked out once.
        if self.state.game_over
            && let Some(Event::GameEnded { scores }) = self.events.last()
        {
            return scores.clone();
        }
        score::scores(&self.state)
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The kingdom as resolved (a random or recommended kingdom, as cards).
    pub fn kingdom(&self) -> &[CardId] {
        &self.kingdom
    }

    pub fn num_players(&self) -> usize {
        self.state.num_players()
    }

    /// Every event so far, unredacted; use [`Event::for_viewer`] before showing one.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The number of the pending decision, if any. Clients name it in their reply.
    ///
    /// It is not simply the count of replies: whether a private question is asked may
    /// depend on a hidden card (see [`Game::visible`]), so private questions must not
    /// move the numbers anyone else sees. A public decision (a phase move) is numbered
    /// `1000 × (public replies so far)`, the same whether or not private questions were
    /// asked; a private question, which only its player is told, takes a number after
    /// the public decision whose answer led to it, from its seat's own share (`that
    /// number + 1 + 166 × seat + the seat's private answers since`), so not even another
    /// asked player can count the questions of others. Numbers are unique, and the
    /// numbers one seat is given increase.
    pub fn decision_number(&self) -> Option<u64> {
        self.pending.as_ref().map(|r| self.numbers.of(r))
    }

    /// The public number each accepted reply answered, in order (see `decision_number`).
    pub fn reply_numbers(&self) -> &[u64] {
        &self.numbers.answered
    }

    /// The accepted replies so far, in order.
    pub fn replies(&self) -> &[(PlayerId, Reply)] {
        &self.log
    }

    pub fn record(&self) -> GameRecord {
        GameRecord {
            setup: self.setup.clone(),
            seed: self.seed,
            replies: self.log.clone(),
            rules: self.state.rules,
        }
    }

    /// The full state. It holds every secret (hands, deck order, the RNG): never send it
    /// to a player; use [`Game::view`].
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The stable digest of the state ([`crate::digest`]): cheap, and the same in every
    /// engine version for every state the older one could reach. What stored games
    /// record after each reply.
    pub fn digest(&self) -> u64 {
        crate::digest::digest(&self.state)
    }

    /// A hash of the canonical serialization of the state, to check that a replay
    /// reproduced a game. FNV-1a over JSON: stable across runs, platforms and versions.
    pub fn state_hash(&self) -> u64 {
        let bytes = serde_json::to_vec(&self.state).expect("state serializes");
        bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ *b as u64).wrapping_mul(0x0000_0100_0000_01b3)
        })
    }

    /// Sets the state directly: only for tests that start from an exact position.
    /// The game then runs from the start of `st.current`'s turn.
    #[doc(hidden)]
    pub fn from_state_for_tests(setup: &Setup, mut state: State) -> Game {
        // The state is a turn's start: its Action phase (a state taken from a running
        // game may be in its Buy phase, which `run_turn` would carry on from).
        state.turn.phase = crate::state::Phase::Action;
        let events = vec![Event::PhaseStarted {
            player: state.current,
            phase: crate::state::Phase::Action,
        }];
        let kingdom = state
            .supply
            .iter()
            .map(|p| p.card)
            .filter(|c| c.is_kingdom())
            .collect();
        let mut g = Game::around(setup.clone(), 0, kingdom, state, events, true);
        g.advance(None);
        g
    }
}

/// Where a recorded game's replies are run from (see the module docs). The states are
/// kept from turn to turn and overwritten with `clone_from`, which reuses every zone's
/// allocation.
#[derive(Default)]
struct Snapshots {
    /// The state at the current turn's first answered decision (when `turn_taken`): what
    /// an undo re-runs the turn from. That decision is always an Action- or Buy-phase
    /// move, as a card is resolved only once an answered phase move has played it; so
    /// this is a resume point, and nothing before it in the turn can be undone anyway.
    /// Taking it there rather than at the turn's start spares one copy per turn.
    ///
    /// **Deferred.** Most turns' first reply plays no Action card (a money deck's never
    /// does), and then nothing but an undo, or a card's question after a Buy, ever reads
    /// this state. So such a reply leaves here the state of an earlier turn's first
    /// decision (at most `DEFER_TURNS` turns back) and `catch_up_turn_snapshot` runs it
    /// on to this turn's when one is needed: one whole-state copy every few turns
    /// instead of one a turn, for a rare replay of a few turns. Current when its
    /// `turn_count` is the game's.
    turn: Option<State>,
    /// Index into the log of the reply answered at `turn`'s decision.
    turn_log: usize,
    turn_taken: bool,
    /// The state at the last Action- or Buy-phase decision answered this turn, unless
    /// `resume_at_turn` says that is `turn`.
    resume: Option<State>,
    resume_at_turn: bool,
}

/// How many turns back a deferred turn snapshot may lie (see `Snapshots::turn`): the
/// most turns an undo or a card's question may have to run again first.
const DEFER_TURNS: u32 = 32;

impl Snapshots {
    /// The state a card's question re-runs from, if this turn has one.
    /// `turn_count` is the game's, to check that a deferred turn snapshot was caught
    /// up first.
    fn resume_state(&self, turn_count: u32) -> Option<&State> {
        if !self.turn_taken {
            None
        } else if self.resume_at_turn {
            debug_assert!(self.is_current(turn_count), "a deferred turn snapshot read");
            self.turn.as_ref()
        } else {
            self.resume.as_ref()
        }
    }

    /// Whether `turn` holds the state at the first decision of turn `turn_count`.
    fn is_current(&self, turn_count: u32) -> bool {
        self.turn
            .as_ref()
            .is_some_and(|s| s.turn_count == turn_count)
    }

    /// Whether the snapshot of turn `turn_count` may be left to an earlier turn's state
    /// (see `Snapshots::turn`): it is that state already, or one close enough.
    fn may_defer(&self, turn_count: u32) -> bool {
        self.turn
            .as_ref()
            .is_some_and(|s| turn_count.wrapping_sub(s.turn_count) < DEFER_TURNS)
    }
}

/// The checks of [`Game::answer`] before anything changes: the pending request `reply`
/// answers, or why it is refused.
#[inline(always)]
fn checked<'a>(
    st: &State,
    afford: &Affordable,
    pending: Option<&'a Request>,
    player: PlayerId,
    reply: &Reply,
) -> Result<&'a Request, InvalidReply> {
    if st.game_over {
        return Err(InvalidReply::GameOver);
    }
    if player.idx() >= st.num_players() {
        return Err(InvalidReply::NoSuchPlayer(player));
    }
    let Some(req) = pending else {
        return Err(InvalidReply::GameOver);
    };
    if req.player != player {
        return Err(InvalidReply::NotYourDecision {
            expected: req.player,
            got: player,
        });
    }
    crate::combined::validate(st, afford, req, reply)?;
    Ok(req)
}

/// Copies `st` into `slot`, reusing the allocations of the state already there.
fn store(slot: &mut Option<State>, st: &State) {
    match slot {
        Some(s) => s.clone_from(st),
        None => *slot = Some(st.clone()),
    }
}

/// Whether `req` is a decision at which no card is being resolved (an Action- or
/// Buy-phase move): the state then holds all the rest of the turn depends on.
fn is_resume_point(req: &Request) -> bool {
    matches!(
        req.prompt,
        crate::decision::Prompt::ActionPhase { .. } | crate::decision::Prompt::BuyPhase { .. }
    )
}

/// Whether everyone may know that `req` is asked. The phase moves are asked whenever the
/// public counters say so (rules 2, `crate::rules`); every card's question may depend on
/// a card only its player knows (a Reaction in hand, an Estate for Baron, an Action drawn
/// by Library, a hand of one kind of card), so all of them are private: see
/// [`Game::visible`].
pub fn is_public(req: &Request) -> bool {
    is_resume_point(req)
}

/// How far one viewer's picture of the game goes: see [`Game::visible`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Visible {
    /// How many of [`Game::events`] the viewer may see.
    pub events: usize,
    /// The decision the viewer's picture is at: the pending one when it is public or
    /// the viewer's own, else the last public one answered. A viewer is sent a frame
    /// exactly when this pair changes.
    pub step: u64,
}

/// Counts behind [`Game::decision_number`].
#[derive(Default)]
struct DecisionNumbers {
    /// Replies to public questions (the phase moves) so far.
    settled: u64,
    /// Private questions each seat has answered since the last public reply.
    own: [u16; MAX_SEATS],
    /// The number of every accepted reply's question. What taking replies back
    /// restores is worked out from these (see `take_back`), so a reply pushes one
    /// number and nothing else.
    answered: Vec<u64>,
}

/// The most seats a game has.
const MAX_SEATS: usize = 6;

impl DecisionNumbers {
    /// Forgets the last accepted reply (an undo).
    ///
    /// `settled` and `own` are what the remaining numbers count: a public number is
    /// `1000 × settled` at its reply (a multiple of 1000), a private one lies 1 to 995
    /// above a multiple of 1000 and names its seat (`1 + 166 × seat + own`, `own` at
    /// most 165). So after the last public number `n` there were `n / 1000 + 1` public
    /// replies, and the private numbers after it are each seat's answers since.
    fn take_back(&mut self) {
        if self.answered.pop().is_none() {
            return;
        }
        let last_public = self.answered.iter().rposition(|n| n % Self::STRIDE == 0);
        self.settled = last_public.map_or(0, |i| self.answered[i] / Self::STRIDE + 1);
        self.own = [0; MAX_SEATS];
        let since = last_public.map_or(0, |i| i + 1);
        for n in &self.answered[since..] {
            let seat = ((n % Self::STRIDE - 1) / Self::SLOT) as usize;
            self.own[seat] = self.own[seat].saturating_add(1);
        }
    }

    /// Room for private questions between two public ones.
    const STRIDE: u64 = 1000;
    /// Each seat's share of that room: six seats × 166 fit below the next public number.
    const SLOT: u64 = 166;

    /// A public decision is `1000 × the public replies so far`. A private question always
    /// follows a public reply (the phase move that played the card), and is numbered
    /// after *that* decision's number, from its seat's share: so every number a seat is
    /// given is greater than the ones it was given before.
    fn of(&self, req: &Request) -> u64 {
        if is_public(req) {
            self.next_public()
        } else {
            let own = u64::from(self.own[req.player.idx()]).min(Self::SLOT - 1);
            self.last_public() + 1 + req.player.0 as u64 * Self::SLOT + own
        }
    }

    /// The number the next public decision gets.
    #[inline(always)]
    fn next_public(&self) -> u64 {
        self.settled * Self::STRIDE
    }

    /// The number of the last public decision answered (the veil's mark).
    fn last_public(&self) -> u64 {
        self.settled.saturating_sub(1) * Self::STRIDE
    }

    /// Numbers `req`'s reply (see `of`), asking once whether it is public: a recorded
    /// game numbers every reply, and most are phase moves.
    #[inline(always)]
    fn answered(&mut self, req: &Request) {
        if is_public(req) {
            self.answered.push(self.next_public());
            self.settled += 1;
            self.own = [0; MAX_SEATS];
        } else {
            let n = self.of(req);
            self.answered.push(n);
            let own = &mut self.own[req.player.idx()];
            *own = own.saturating_add(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Edition, Kingdom, Observation};

    /// Taking replies back restores exactly the counters there were before each (what
    /// `DecisionNumbers` once kept a copy of per reply): public and private replies of
    /// every seat, more private answers than a seat's share of numbers, taken back one
    /// by one to none.
    #[test]
    fn taking_back_restores_the_counters_before_each_reply() {
        use crate::decision::{Prompt, Purpose};
        let ask = |seat: u8, public: bool| Request {
            player: PlayerId(seat),
            card: None,
            about: None,
            purpose: Purpose::ActionPhase,
            prompt: if public {
                Prompt::ActionPhase { playable: vec![] }
            } else {
                Prompt::YesNo
            },
        };
        let mut numbers = DecisionNumbers::default();
        let mut before = Vec::new();
        let mut x = 7u64;
        for i in 0..3000u32 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let seat = ((x >> 33) % MAX_SEATS as u64) as u8;
            // From a private answer on, and the last half one private run: every seat
            // answers more than its share of 166 numbers.
            let public = i > 0 && i < 1500 && (x >> 40).is_multiple_of(4);
            before.push((numbers.settled, numbers.own, numbers.of(&ask(seat, public))));
            numbers.answered(&ask(seat, public));
        }
        assert!(numbers.own.iter().all(|n| *n > 166), "{:?}", numbers.own);
        while let Some((settled, own, number)) = before.pop() {
            assert_eq!(numbers.answered.last(), Some(&number));
            numbers.take_back();
            assert_eq!((numbers.settled, numbers.own), (settled, own));
        }
        assert!(numbers.answered.is_empty());
    }

    /// A money deck's turns leave their snapshot to an earlier turn's state (see
    /// `Snapshots::turn`); an undo then catches it up, and the game is exactly the
    /// replay of the shorter log, at every turn of whole games, however far back the
    /// snapshot lay. Half the games are played a phase move at a time (a Buy answered
    /// at the Action phase ends the turn, which cannot be undone: it draws), half with
    /// those combined moves in the log the catch-up runs through.
    #[test]
    fn an_undo_catches_up_a_deferred_turn_snapshot() {
        let setup = Setup {
            players: 2,
            kingdom: Kingdom::Recommended("base_2e/first_game".into()),
            edition: Edition::Second,
        };
        let mut caught_up = 0;
        for seed in 0..8u64 {
            let one_at_a_time = seed % 2 == 0;
            let mut g = Game::new(&setup, seed).unwrap();
            let mut agents: Vec<_> = (0..2)
                .map(|i| crate::bots::by_name("big_money", seed + i).unwrap())
                .collect();
            while let Some(req) = g.pending().cloned() {
                let p = req.player;
                if g.can_undo(p).is_ok() {
                    let snap = g.snapshots.as_ref().unwrap();
                    let deferred = !snap.is_current(g.state.turn_count);
                    let full = g.record();
                    let (before_undo, events) = (g.state_hash(), g.events().to_vec());
                    let numbers = g.reply_numbers().to_vec();
                    g.undo(p).unwrap();
                    let mut record = full.clone();
                    record.replies.truncate(g.replies().len());
                    let replayed = Game::replay(&record).unwrap();
                    assert_eq!(g.state_hash(), replayed.state_hash());
                    assert_eq!(g.pending(), replayed.pending());
                    assert_eq!(g.events(), replayed.events());
                    assert_eq!(g.reply_numbers(), replayed.reply_numbers());
                    assert!(g.snapshots.as_ref().unwrap().is_current(g.state.turn_count));
                    // Made again, the move gives the same game as before the undo.
                    let kept = g.replies().len();
                    for (q, r) in full.replies[kept..].iter().cloned() {
                        g.answer(q, r).unwrap();
                    }
                    assert_eq!(g.state_hash(), before_undo);
                    assert_eq!(g.events(), events);
                    assert_eq!(g.reply_numbers(), numbers);
                    caught_up += usize::from(deferred);
                }
                let obs = Observation::for_player(&g, p);
                let r = match agents[p.idx()].decide(&obs, &req) {
                    r if one_at_a_time && crate::is_combined_move(&req.prompt, &r) => {
                        Reply::EndPhase
                    }
                    r => r,
                };
                g.answer(p, r).unwrap();
            }
        }
        assert!(
            caught_up > 50,
            "only {caught_up} undos caught a snapshot up"
        );
    }

    /// `answer` applies a reply exactly as `reply` does; `reply` also hands back the new
    /// events, which `answer` leaves in `events()`.
    #[test]
    fn answer_is_reply_without_the_copy_of_the_events() {
        let setup = Setup {
            players: 3,
            kingdom: Kingdom::RandomFrom(crate::setup::CardPool::Both),
            edition: Edition::Second,
        };
        let mut by_reply = Game::new(&setup, 9).unwrap();
        let mut by_answer = Game::new(&setup, 9).unwrap();
        let mut agents: Vec<_> = (0..3)
            .map(|i| crate::bots::by_name("random", i).unwrap())
            .collect();
        let mut replies = 0;
        while let Some(req) = by_reply.pending().cloned() {
            let obs = Observation::for_player(&by_reply, req.player);
            let r = agents[req.player.idx()].decide(&obs, &req);
            let before = by_answer.events().len();
            let events = by_reply.reply(req.player, r.clone()).unwrap();
            by_answer.answer(req.player, r).unwrap();
            assert_eq!(events, by_answer.events()[before..]);
            assert_eq!(by_answer.digest(), by_reply.digest());
            assert_eq!(by_answer.pending(), by_reply.pending());
            replies += 1;
        }
        assert!(by_answer.is_over() && replies > 50, "{replies} replies");
        assert_eq!(by_answer.events(), by_reply.events());
        assert_eq!(
            by_answer.answer(PlayerId(0), Reply::EndPhase),
            Err(InvalidReply::GameOver)
        );
    }
}
