//! [`MemoryLog`]: a [`RoomLog`] that keeps every step in memory, for fast Room tests.
//!
//! Why it exists: a room's contract with its log (`store`) is that it awaits each step's
//! commit before it tells anyone of the step, and that it stops when a step cannot be
//! stored. Testing that through `persist::StoreLog` needs a database, a writer thread and
//! a WebSocket per player; this log lets the room tests (`room_tests`) drive a real room
//! task in milliseconds and assert exactly what the room wrote, in which order, and what
//! it did when the log failed or was slow.
//!
//! It is not a store: nothing survives the process, and nothing is checked (a step a real
//! log would refuse is kept all the same). It is therefore compiled only for the crate's
//! own tests (`#[cfg(test)]` in `lib.rs`): no server can be configured with it by
//! mistake, and it adds nothing to the library's public surface. (The integration tests
//! under `tests/` run the real server and its real store, so they do not need it.)
//!
//! What a test can make it do:
//! - record: [`MemoryLog::steps`] lists every committed step, in order;
//! - fail: [`MemoryLog::fail`] makes the steps of one kind (or all) fail with a given
//!   [`LogError`], as a full disk or a lost database would — nothing is recorded then;
//! - hold: [`MemoryLog::hold`] keeps the commits of one kind (or all) waiting until
//!   [`MemoryLog::release`], as a slow disk would, so a test can look at what the room
//!   told anyone while the step was not yet durable.

use crate::gamelog::{Commit, LogError, RatedEnd, RoomLog, RoomRecord};
use dominion_engine::{PlayerId, Reply, Score, Setup};
use std::sync::Mutex;
use tokio::sync::oneshot;

/// One durable step, as the room handed it over.
#[derive(Clone, Debug)]
pub enum Step {
    RoomSaved(RoomRecord),
    GameStarted {
        room: String,
        setup: Setup,
        seed: u64,
        digest: u64,
        command: Option<(u8, u64)>,
    },
    ReplyAccepted {
        room: String,
        index: u64,
        player: PlayerId,
        reply: Reply,
        digest: u64,
        command: Option<u64>,
    },
    RepliesTakenBack {
        room: String,
        keep: u64,
        digest: u64,
    },
    GameFinished {
        room: String,
        scores: Vec<Score>,
        rated: Option<RatedEnd>,
    },
    GameAbandoned {
        room: String,
        rated: Option<RatedEnd>,
    },
    RoomClosed {
        room: String,
    },
}

/// The kinds of [`Step`], to filter on and to compare sequences with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StepKind {
    RoomSaved,
    GameStarted,
    ReplyAccepted,
    RepliesTakenBack,
    GameFinished,
    GameAbandoned,
    RoomClosed,
}

impl Step {
    /// The id of the room the step is about.
    pub fn room(&self) -> &str {
        match self {
            Step::RoomSaved(record) => &record.id,
            Step::GameStarted { room, .. }
            | Step::ReplyAccepted { room, .. }
            | Step::RepliesTakenBack { room, .. }
            | Step::GameFinished { room, .. }
            | Step::GameAbandoned { room, .. }
            | Step::RoomClosed { room } => room,
        }
    }

    /// The engine's state digest the step records, if it records one.
    pub fn digest(&self) -> Option<u64> {
        match self {
            Step::GameStarted { digest, .. }
            | Step::ReplyAccepted { digest, .. }
            | Step::RepliesTakenBack { digest, .. } => Some(*digest),
            _ => None,
        }
    }

    pub fn kind(&self) -> StepKind {
        match self {
            Step::RoomSaved(_) => StepKind::RoomSaved,
            Step::GameStarted { .. } => StepKind::GameStarted,
            Step::ReplyAccepted { .. } => StepKind::ReplyAccepted,
            Step::RepliesTakenBack { .. } => StepKind::RepliesTakenBack,
            Step::GameFinished { .. } => StepKind::GameFinished,
            Step::GameAbandoned { .. } => StepKind::GameAbandoned,
            Step::RoomClosed { .. } => StepKind::RoomClosed,
        }
    }
}

/// Which steps a failure or a hold applies to: one kind, or every step (`None`).
type Filter = Option<StepKind>;

fn applies(filter: Filter, kind: StepKind) -> bool {
    filter.is_none_or(|k| k == kind)
}

#[derive(Default)]
struct Inner {
    /// Committed steps, in commit order.
    steps: Vec<Step>,
    /// Steps handed over but refused (the log was told to fail), in order.
    refused: Vec<Step>,
    /// Steps handed over and waiting for [`MemoryLog::release`], with their commits.
    held: Vec<(Step, oneshot::Sender<Result<(), LogError>>)>,
    failing: Option<(Filter, LogError)>,
    holding: Option<Filter>,
    /// What [`RoomLog::earlier_release_may_read`] says ([`MemoryLog::set_earlier_release`]).
    earlier_release: bool,
}

/// An in-memory [`RoomLog`]: see the module documentation.
#[derive(Default)]
pub struct MemoryLog {
    inner: Mutex<Inner>,
}

impl MemoryLog {
    pub fn new() -> MemoryLog {
        MemoryLog::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A test that panicked while holding the lock has failed already; the data is
        // still worth reading.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Has [`RoomLog::earlier_release_may_read`] say `on`, as a cluster's log does while
    /// a node of an earlier release may share its database.
    pub fn set_earlier_release(&self, on: bool) {
        self.lock().earlier_release = on;
    }

    /// Every committed step, in order.
    pub fn steps(&self) -> Vec<Step> {
        self.lock().steps.clone()
    }

    /// The kinds of the committed steps, in order.
    pub fn kinds(&self) -> Vec<StepKind> {
        self.lock().steps.iter().map(Step::kind).collect()
    }

    /// How many committed steps are of `kind`.
    pub fn count(&self, kind: StepKind) -> usize {
        self.lock()
            .steps
            .iter()
            .filter(|s| s.kind() == kind)
            .count()
    }

    /// The committed replies: (index, player, reply, command).
    pub fn replies(&self) -> Vec<(u64, PlayerId, Reply, Option<u64>)> {
        self.lock()
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::ReplyAccepted {
                    index,
                    player,
                    reply,
                    command,
                    ..
                } => Some((*index, *player, reply.clone(), *command)),
                _ => None,
            })
            .collect()
    }

    /// The room as last saved, if it was.
    pub fn last_room(&self) -> Option<RoomRecord> {
        self.lock().steps.iter().rev().find_map(|s| match s {
            Step::RoomSaved(r) => Some(r.clone()),
            _ => None,
        })
    }

    /// Steps the room handed over while the log was failing (none of them is recorded).
    pub fn refused(&self) -> Vec<Step> {
        self.lock().refused.clone()
    }

    /// From now on, steps matching `kind` (every step for `None`) fail with `error`.
    pub fn fail(&self, kind: Option<StepKind>, error: LogError) {
        self.lock().failing = Some((kind, error));
    }

    /// Steps succeed again.
    pub fn heal(&self) {
        self.lock().failing = None;
    }

    /// From now on, the commits of steps matching `kind` (every step for `None`) wait
    /// until [`MemoryLog::release`].
    pub fn hold(&self, kind: Option<StepKind>) {
        self.lock().holding = Some(kind);
    }

    /// Steps handed over and not yet committed.
    pub fn held(&self) -> Vec<Step> {
        self.lock().held.iter().map(|(s, _)| s.clone()).collect()
    }

    /// Stops holding, and commits every held step (in order).
    pub fn release(&self) {
        let mut inner = self.lock();
        inner.holding = None;
        for (step, done) in std::mem::take(&mut inner.held) {
            inner.steps.push(step);
            let _ = done.send(Ok(()));
        }
    }

    fn write(&self, step: Step) -> Commit {
        let mut inner = self.lock();
        let kind = step.kind();
        if let Some((filter, error)) = &inner.failing
            && applies(*filter, kind)
        {
            let error = error.clone();
            inner.refused.push(step);
            return Commit::ready(Err(error));
        }
        if inner.holding.is_some_and(|f| applies(f, kind)) || !inner.held.is_empty() {
            // Steps of one room commit in order: once one waits, the later ones wait too.
            let (tx, rx) = oneshot::channel();
            inner.held.push((step, tx));
            return Commit::waiting(rx);
        }
        inner.steps.push(step);
        Commit::ready(Ok(()))
    }
}

impl RoomLog for MemoryLog {
    fn earlier_release_may_read(&self) -> bool {
        self.lock().earlier_release
    }

    fn room_saved(&self, room: &RoomRecord) -> Commit {
        self.write(Step::RoomSaved(room.clone()))
    }

    fn game_started(
        &self,
        room: &str,
        setup: &Setup,
        seed: u64,
        digest: u64,
        command: Option<(u8, u64)>,
    ) -> Commit {
        self.write(Step::GameStarted {
            room: room.to_string(),
            setup: setup.clone(),
            seed,
            digest,
            command,
        })
    }

    fn reply_accepted(
        &self,
        room: &str,
        index: u64,
        player: PlayerId,
        reply: &Reply,
        digest: u64,
        command: Option<u64>,
    ) -> Commit {
        self.write(Step::ReplyAccepted {
            room: room.to_string(),
            index,
            player,
            reply: reply.clone(),
            digest,
            command,
        })
    }

    fn replies_taken_back(&self, room: &str, keep: u64, digest: u64) -> Commit {
        self.write(Step::RepliesTakenBack {
            room: room.to_string(),
            keep,
            digest,
        })
    }

    fn game_finished(&self, room: &str, scores: &[Score], rated: Option<RatedEnd>) -> Commit {
        self.write(Step::GameFinished {
            room: room.to_string(),
            scores: scores.to_vec(),
            rated,
        })
    }

    fn game_abandoned(&self, room: &str, rated: Option<RatedEnd>) -> Commit {
        self.write(Step::GameAbandoned {
            room: room.to_string(),
            rated,
        })
    }

    fn room_closed(&self, room: &str) -> Commit {
        self.write(Step::RoomClosed {
            room: room.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn closed(log: &MemoryLog, room: &str) -> Commit {
        log.room_closed(room)
    }

    #[tokio::test]
    async fn it_records_fails_and_holds_steps_in_order() {
        let log = MemoryLog::new();
        assert_eq!(closed(&log, "a").await, Ok(()));
        log.fail(
            Some(StepKind::RoomClosed),
            LogError::Failed("disk full".into()),
        );
        assert_eq!(
            closed(&log, "b").await,
            Err(LogError::Failed("disk full".into()))
        );
        assert_eq!(
            log.game_abandoned("b", None).await,
            Ok(()),
            "other kinds pass"
        );
        log.heal();
        log.hold(None);
        let first = closed(&log, "c");
        let second = log.game_abandoned("c", None);
        assert_eq!(log.held().len(), 2);
        assert_eq!(log.count(StepKind::RoomClosed), 1, "not yet committed");
        log.release();
        assert_eq!(first.await, Ok(()));
        assert_eq!(second.await, Ok(()));
        assert_eq!(
            log.kinds(),
            [
                StepKind::RoomClosed,
                StepKind::GameAbandoned,
                StepKind::RoomClosed,
                StepKind::GameAbandoned
            ]
        );
        assert_eq!(log.refused().len(), 1);
    }
}
