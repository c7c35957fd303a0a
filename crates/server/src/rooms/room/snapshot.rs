//! Taking a game's snapshot every `--snapshot-every` replies (docs/storage.md,
//! "Snapshots"): at the first turn start at least that many replies after the last one
//! this room stored, handed to the log right after the reply it covers, so the writer
//! thread stores it in that reply's batch or a later one. Its history starts where the
//! previous one's ended; the first after the room (re)opened carries the whole history,
//! so whatever the store kept before, the latest snapshot always joins up.

use super::Room;
use dominion_engine::snapshot::Mark;
use std::panic::{AssertUnwindSafe, catch_unwind};

impl Room {
    /// Takes and submits a snapshot if one is due; where its history ends, to become the
    /// room's mark once the reply it covers is committed. A failure to store it costs
    /// only a longer reopening, so nobody awaits it.
    pub(super) fn take_snapshot(&self) -> Option<Mark> {
        let every = self.config.snapshot_every;
        if every == 0 {
            return None;
        }
        let game = self.state.game.as_ref()?;
        let replies = game.replies().len() as u64;
        if replies < self.snapshot_mark.replies.saturating_add(every) || !game.at_snapshot_point() {
            return None;
        }
        let since = self.snapshot_mark;
        let snapshot = catch_unwind(AssertUnwindSafe(|| game.snapshot(since)))
            .ok()
            .flatten()?;
        let mark = snapshot.end();
        drop(self.log.snapshot_taken(&self.state.id, &snapshot));
        Some(mark)
    }
}
