//! Taking a snapshot of a game and restoring one (the format and why snapshots are taken
//! only at a turn's first decision: `crate::snapshot`).
//!
//! A restored game is the full replay's equal in everything a caller can observe: state,
//! digest, pending decision and its number, events, reply numbers, record, what each
//! viewer may see, what may be undone — and the same future for the same replies (the
//! property test `tests/snapshots.rs` checks each at every snapshot point). What it does
//! not rebuild is bookkeeping no later call reads: each earlier turn's event marks and
//! decision counters, used only to take back a move of the current turn.

use super::{Game, Snapshots, is_resume_point};
use crate::snapshot::{History, Mark, RestoreError, SNAPSHOT_VERSION, Snapshot, SnapshotState};
use crate::{GameRecord, setup};

impl Game {
    /// Whether the game is at a point a snapshot may be taken: a recorded game, not over,
    /// at its turn's first decision (a phase move) with no reply of the turn yet, and at
    /// least one reply since the game began.
    pub fn at_snapshot_point(&self) -> bool {
        let Some(snap) = &self.snapshots else {
            return false;
        };
        self.record
            && !self.state.game_over
            && !snap.turn_taken
            && !self.log.is_empty()
            && self.log.len() == self.turn_log_start
            && self.pending.as_ref().is_some_and(is_resume_point)
    }

    /// A snapshot of the game now, with the history since `since` (the previous
    /// snapshot's [`Snapshot::end`], or the default mark for the first); None when the
    /// game is not at a snapshot point ([`Game::at_snapshot_point`]) or `since` lies
    /// beyond it.
    pub fn snapshot(&self, since: Mark) -> Option<Snapshot> {
        if !self.at_snapshot_point() {
            return None;
        }
        let from_reply = usize::try_from(since.replies).ok()?;
        let from_event = usize::try_from(since.events).ok()?;
        if from_reply > self.log.len() || from_event > self.events.len() {
            return None;
        }
        Some(Snapshot {
            version: SNAPSHOT_VERSION,
            rules: self.state.rules,
            replies: self.log.len() as u64,
            digest: crate::snapshot::digest_hex(self.digest()),
            state: SnapshotState::of(&self.state),
            settled: self.numbers.settled,
            own: self.numbers.own.to_vec(),
            history: History {
                from_reply: since.replies,
                numbers: self.numbers.answered[from_reply..].to_vec(),
                from_event: since.events,
                events: self.events[from_event..].to_vec(),
            },
        })
    }

    /// The game of `record`, restored from `chain` — its snapshots in order, the first
    /// with the history from the game's start, each going on where the one before ended
    /// — and the replies of `record` after the last one. The same game as
    /// `Game::replay(record)`, without replaying what the last snapshot covers. A
    /// snapshot of another format or rules version, one that does not fit the record, or
    /// whose state does not match its digest is refused: replay the record instead.
    pub fn restore(record: &GameRecord, chain: &[Snapshot]) -> Result<Game, RestoreError> {
        let last = chain.last().ok_or(RestoreError::Empty)?;
        let mut at = Mark::default();
        let mut events = Vec::new();
        let mut answered = Vec::new();
        for s in chain {
            if s.version != SNAPSHOT_VERSION {
                return Err(RestoreError::Version { found: s.version });
            }
            if s.rules != record.rules {
                return Err(RestoreError::Rules {
                    snapshot: s.rules,
                    game: record.rules,
                });
            }
            let h = &s.history;
            if h.from_reply != at.replies
                || h.from_event != at.events
                || s.end().replies != s.replies
            {
                return Err(RestoreError::Gap {
                    reply: h.from_reply,
                    event: h.from_event,
                });
            }
            answered.extend_from_slice(&h.numbers);
            events.extend(h.events.iter().cloned());
            at = s.end();
        }
        let n = usize::try_from(last.replies).unwrap_or(usize::MAX);
        if n > record.replies.len() || n == 0 {
            return Err(RestoreError::BeyondLog {
                snapshot: last.replies,
                log: record.replies.len(),
            });
        }
        if last.own.len() != super::MAX_SEATS {
            return Err(RestoreError::Setup(
                "decision counters for another table".into(),
            ));
        }
        let (mut state, kingdom) = setup::build(&record.setup, record.seed)
            .map_err(|e| RestoreError::Setup(e.to_string()))?;
        if !crate::SUPPORTED_RULES.contains(&record.rules) {
            return Err(RestoreError::Rules {
                snapshot: last.rules,
                game: record.rules,
            });
        }
        state.rules = record.rules;
        last.state.write_into(&mut state)?;
        let actual = crate::snapshot::digest_hex(crate::digest::digest(&state));
        if actual != last.digest {
            return Err(RestoreError::Digest {
                actual,
                stored: last.digest.clone(),
            });
        }
        if state.game_over {
            return Err(RestoreError::NotATurnStart);
        }
        let mut g = Game::around(
            record.setup.clone(),
            record.seed,
            kingdom,
            state,
            events,
            true,
        );
        g.reserve_record();
        g.log.extend_from_slice(&record.replies[..n]);
        // Marks of earlier turns' replies are read only to undo a move of the current
        // turn (see the module docs): any value serves.
        let mark = g.events.len();
        g.event_marks.resize(n, mark);
        g.numbers.answered = answered;
        g.numbers.settled = last.settled;
        g.numbers.own.copy_from_slice(&last.own);
        g.turn_log_start = n;
        g.resume_log = n;
        g.run_log = n;
        g.snapshots = Some(Box::<Snapshots>::default());
        // The state is at a phase decision, so running on from it asks that decision
        // again without changing anything (`turn::run_turn`).
        g.advance(None);
        if !g.at_snapshot_point() {
            return Err(RestoreError::NotATurnStart);
        }
        for (index, (p, r)) in record.replies.iter().enumerate().skip(n) {
            g.answer(*p, r.clone())
                .map_err(|error| RestoreError::Reply { index, error })?;
        }
        Ok(g)
    }
}
