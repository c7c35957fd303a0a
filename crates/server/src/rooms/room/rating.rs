//! Rated games (issue 25): the places a game's end gives its seats, and telling the room
//! what rating that end changed.
//!
//! The room knows how the game ended and who walked away; the store knows who sat where
//! (`seat_accounts`) and each account's rating. So a room created `rated` with 2 to 4
//! seats hands every game end to its log with each seat's place ([`RatedEnd`]), and the
//! store rates the game in the same transaction if every seat is an account's (it picks
//! the pool too: docs/storage.md, "Ratings"). Only once that commit is back does the room
//! read the changes and send `rating_changed`, so nobody is told of a rating that a crash
//! could still undo; a room reopened after the game ended reads them back for whoever
//! resumes.
//!
//! Places (docs/protocol.md, "Ratings"):
//! - **Finished by the rules:** by the engine's order — more VP, then fewer turns; equal
//!   on both tie. A player who left the game on purpose (`leave`) and did not come back
//!   has resigned: they are placed after everyone who stayed, whatever their score (a
//!   bot played their seat to the end), and tie with each other.
//! - **Abandoned** (no player connected for `--abandon-after`): the players who were
//!   there last — the ones whose connection ended last, unless they left on purpose — are
//!   "still present" and tie for first; every other player abandoned the game and loses
//!   to them, tied with the other abandoners. Seats played by our bots never leave.

use super::*;
use crate::gamelog::RatedEnd;
use dominion_engine::Score;

/// Most seats of a rated game (2 to 4 players are rated).
const MAX_RATED_SEATS: usize = 4;

impl Room {
    /// Each seat's place at the game's end: `scores` when it finished by the rules, none
    /// when it was abandoned. `None` for a room not created `rated`, or with a player
    /// count that is never rated.
    pub(super) fn rated_end(&self, scores: Option<&[Score]>) -> Option<RatedEnd> {
        let n = self.state.seats.len();
        if !self.state.settings.rated || !(2..=MAX_RATED_SEATS).contains(&n) {
            return None;
        }
        // Lower keys are better places: (left the game, −VP, turns).
        let keys: Vec<(bool, i64, u32)> = match scores {
            Some(scores) => (0..n)
                .map(|i| {
                    let gone = self.state.human(i).is_some_and(|h| h.left);
                    let score = scores.iter().find(|s| s.player.idx() == i);
                    (
                        gone,
                        score.map_or(0, |s| -i64::from(s.vp)),
                        score.map_or(u32::MAX, |s| s.turns),
                    )
                })
                .collect(),
            None => {
                // The last connection to end, among those who did not leave on purpose.
                let stayed = |i: usize| match &self.state.seats[i] {
                    Seat::Human(h) if !h.left => Some(h.away_since),
                    Seat::Human(_) => None,
                    // A bot never leaves; an open seat cannot be in a started game.
                    Seat::Bot { .. } | Seat::Open => Some(None),
                };
                // `None` (still connected) sorts after every `Some(instant)`: the latest.
                let last = (0..n).filter_map(stayed).max_by(|a, b| match (a, b) {
                    (None, None) => std::cmp::Ordering::Equal,
                    (None, Some(_)) => std::cmp::Ordering::Greater,
                    (Some(_), None) => std::cmp::Ordering::Less,
                    (Some(a), Some(b)) => a.cmp(b),
                });
                (0..n)
                    .map(|i| {
                        let present = last.is_some() && stayed(i) == last;
                        (!present, 0, 0)
                    })
                    .collect()
            }
        };
        Some(RatedEnd {
            places: places(&keys),
        })
    }

    /// Reads what the game's end changed (committed already) and tells everyone in the
    /// room, and later whoever resumes or watches it.
    pub(super) async fn tell_ratings(&mut self) {
        let changes = self.log.rating_changes(&self.state.id).await;
        if changes.is_empty() {
            return;
        }
        let changes = changes
            .into_iter()
            .map(|c| wire::RatingChange {
                seat: c.seat,
                name: self.state.seat_name(c.seat as usize),
                pool: crate::convert::to_wire::rating_pool(c.pool),
                level_before: c.before.level(),
                level_after: c.after.level(),
                rating_before: c.before.rating,
                rating_after: c.after.rating,
                deviation_before: c.before.deviation,
                deviation_after: c.after.deviation,
            })
            .collect::<Vec<wire::RatingChange>>();
        // The lobby shows the levels after the game from now on.
        for c in &changes {
            if let Some(Seat::Human(h)) = self.state.seats.get_mut(c.seat as usize) {
                h.levels.set(c.pool, c.level_after);
            }
        }
        self.state.ratings = Some(changes);
        for (viewer, conn) in self.viewers() {
            self.send_to(&conn, viewer, Topic::Ratings);
        }
        self.broadcast(Topic::Room);
    }

    /// A finished rated room reopened after a restart reads its ratings back, for
    /// players who resume to see the end.
    pub(super) async fn load_ratings(&mut self) {
        if self.state.settings.rated
            && self.state.status == wire::RoomStatus::Finished
            && self.state.ratings.is_none()
        {
            self.tell_ratings().await;
        }
    }
}

/// Places from keys, lower keys better: 1 + the number of seats strictly better, so
/// equal keys tie.
fn places<K: Ord>(keys: &[K]) -> Vec<(u8, u32)> {
    keys.iter()
        .enumerate()
        .map(|(seat, k)| {
            (
                seat as u8,
                1 + keys.iter().filter(|o| *o < k).count() as u32,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn places_rank_and_tie() {
        assert_eq!(
            super::places(&[3, 1, 3, 2]),
            [(0, 3), (1, 1), (2, 3), (3, 2)]
        );
        assert_eq!(
            super::places(&[(false, -30, 10), (false, -30, 11), (true, -40, 9)]),
            [(0, 1), (1, 2), (2, 3)]
        );
        assert_eq!(
            super::places(&[(true, 0, 0), (true, 0, 0)]),
            [(0, 1), (1, 1)]
        );
    }
}
