//! Reopening a game from its stored snapshots (docs/storage.md, "Snapshots"): the latest
//! usable chain of them, restored by the engine (`Game::restore`) with the replies after
//! it. A snapshot that cannot be used — another format or rules version, a body that
//! does not parse, a chain with a gap, a state that does not match its digest — is not
//! an error: the game is replayed from its whole log instead, as before snapshots, and
//! the reason logged. Either way the caller then checks the game against the digest
//! stored with the last reply.

use dominion_engine::snapshot::{SNAPSHOT_VERSION, Snapshot};
use dominion_engine::{Game, GameRecord, ReplayError};
use dominion_store::SnapshotRow;
use std::collections::HashMap;

/// How a game was rebuilt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rebuilt {
    /// From a snapshot of the game after this many replies, and the replies after.
    Snapshot(u64),
    /// By replaying the whole log.
    Replay,
}

/// The row a snapshot is stored as.
pub fn row(snapshot: &Snapshot, digest_text: String) -> Result<SnapshotRow, serde_json::Error> {
    Ok(SnapshotRow {
        upto: snapshot.replies,
        format: snapshot.version,
        rules: snapshot.rules,
        digest: digest_text,
        body: serde_json::to_string(snapshot)?,
    })
}

/// The chain that ends at the latest snapshot that joins up with the game's start, from
/// `rows` (oldest first): each snapshot's history begins where an earlier one's ends.
/// Rows of another format or rules version, or that do not parse, are skipped.
fn chain(room: &str, rules: u32, rows: &[SnapshotRow]) -> Option<Vec<Snapshot>> {
    let mut parsed: Vec<Snapshot> = Vec::new();
    for r in rows {
        if r.format != SNAPSHOT_VERSION || r.rules != rules {
            tracing::info!(
                room,
                upto = r.upto,
                format = r.format,
                rules = r.rules,
                "a snapshot of another format or rules version is not used"
            );
            continue;
        }
        match serde_json::from_str::<Snapshot>(&r.body) {
            Ok(s) => parsed.push(s),
            Err(e) => tracing::warn!(room, upto = r.upto, "a stored snapshot does not parse: {e}"),
        }
    }
    let by_end: HashMap<(u64, u64), usize> = parsed
        .iter()
        .enumerate()
        .map(|(i, s)| ((s.end().replies, s.end().events), i))
        .collect();
    // From the latest down, the first whose history reaches back to the start.
    'latest: for last in (0..parsed.len()).rev() {
        let mut links = vec![last];
        let mut at = last;
        loop {
            let h = &parsed[at].history;
            if h.from_reply == 0 && h.from_event == 0 {
                break;
            }
            match by_end.get(&(h.from_reply, h.from_event)) {
                Some(&before) if before < at => {
                    links.push(before);
                    at = before;
                }
                _ => continue 'latest,
            }
        }
        links.reverse();
        return Some(links.into_iter().map(|i| parsed[i].clone()).collect());
    }
    None
}

/// The game of `record`, from its latest usable snapshot in `rows` if there is one, else
/// replayed whole.
pub fn rebuild(
    room: &str,
    record: &GameRecord,
    rows: &[SnapshotRow],
) -> Result<(Game, Rebuilt), ReplayError> {
    if let Some(chain) = chain(room, record.rules, rows) {
        let upto = chain.last().map_or(0, |s| s.replies);
        match Game::restore(record, &chain) {
            Ok(game) => {
                tracing::info!(
                    room,
                    upto,
                    replies = record.replies.len(),
                    "game restored from a snapshot"
                );
                return Ok((game, Rebuilt::Snapshot(upto)));
            }
            Err(e) => tracing::warn!(
                room,
                upto,
                "the game's snapshot is not used ({e}); replaying its whole log"
            ),
        }
    }
    Game::replay(record).map(|g| (g, Rebuilt::Replay))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dominion_engine::snapshot::Mark;
    use dominion_engine::{Edition, Kingdom, Observation, Setup, bots};

    /// A three-player game of `standard` bots, and a snapshot row about every 30 replies
    /// (each with the history since the one before).
    fn game() -> (GameRecord, Vec<SnapshotRow>, u64) {
        let setup = Setup {
            players: 3,
            kingdom: Kingdom::Recommended("base_2e/first_game".into()),
            edition: Edition::Second,
        };
        let mut g = Game::new(&setup, 11).unwrap();
        let mut agents: Vec<_> = (0..3)
            .map(|i| bots::by_name("standard", i).unwrap())
            .collect();
        let mut rows = Vec::new();
        let mut mark = Mark::default();
        while let Some(req) = g.pending().cloned() {
            if g.replies().len() as u64 >= mark.replies + 30
                && let Some(s) = g.snapshot(mark)
            {
                mark = s.end();
                rows.push(row(&s, format!("d1:{}", s.digest)).unwrap());
            }
            if g.replies().len() > 150 {
                break;
            }
            let r = agents[req.player.idx()].decide(&Observation::for_player(&g, req.player), &req);
            g.answer(req.player, r).unwrap();
        }
        assert!(rows.len() >= 3, "{} snapshots", rows.len());
        (g.record(), rows, g.digest())
    }

    #[test]
    fn the_latest_snapshot_that_joins_up_is_used() {
        let (record, rows, digest) = game();
        let latest = rows.last().unwrap().upto;
        let (g, how) = rebuild("r", &record, &rows).unwrap();
        assert_eq!((g.digest(), how), (digest, Rebuilt::Snapshot(latest)));
        assert_eq!(g.record(), record);
        // Without the middle one, the last no longer joins up: the one before is used.
        let mut gap = rows.clone();
        gap.remove(rows.len() - 2);
        let (g, how) = rebuild("r", &record, &gap).unwrap();
        assert_eq!(
            (g.digest(), how),
            (digest, Rebuilt::Snapshot(rows[rows.len() - 3].upto))
        );
        // None at all: the whole log is replayed.
        assert_eq!(rebuild("r", &record, &[]).unwrap().1, Rebuilt::Replay);
    }

    #[test]
    fn a_snapshot_that_cannot_be_used_falls_back_to_the_full_replay() {
        let (record, rows, digest) = game();
        let last = rows.len() - 1;
        type Spoil = fn(&mut SnapshotRow);
        let variants: [(&str, Spoil); 4] = [
            ("an older format", |r| r.format = 0),
            ("another rules version", |r| r.rules = 1),
            ("a body that does not parse", |r| r.body.truncate(10)),
            ("a state that does not match its digest", |r| {
                r.body = r.body.replacen("\"trash\":[", "\"trash\":[\"copper\",", 1);
            }),
        ];
        for (what, spoil) in variants {
            // Every snapshot spoilt the same way: nothing joins up, the log is replayed.
            let mut spoilt = rows.clone();
            spoilt.iter_mut().for_each(spoil);
            let (g, how) = rebuild("r", &record, &spoilt).unwrap();
            assert_eq!((g.digest(), how), (digest, Rebuilt::Replay), "{what}");
            assert_eq!(g.record(), record, "{what}");
            // Only the latest spoilt: parsed rows still join up, or the log is replayed.
            let mut one = rows.clone();
            spoil(&mut one[last]);
            let (g, _) = rebuild("r", &record, &one).unwrap();
            assert_eq!(g.digest(), digest, "{what}");
        }
    }
}
