//! The wait a queued player is told to expect (`estimate_ms` of `match_queued`): per
//! pool, the median of the last [`KEPT`] times from `find_match` to `match_found`, less
//! what the player has already waited (never below 0), and no estimate until
//! [`ENOUGH`] matches of the pool were made. The median, not the mean: one player who
//! waited minutes for a rare opponent would otherwise move everyone's estimate.
//!
//! Plain data, so a cluster's matcher leader mirrors it with the queue and the next one
//! goes on with the same samples.

use super::queue::Millis;
use dominion_protocol::MatchPool;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

/// Samples kept per pool.
pub const KEPT: usize = 50;
/// Samples a pool needs before it estimates.
pub const ENOUGH: usize = 5;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Estimates {
    /// Per pool (by its wire name), the latest waits, oldest first.
    waits: BTreeMap<String, VecDeque<Millis>>,
}

fn pool_key(pool: MatchPool) -> String {
    serde_json::to_value(pool)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

impl Estimates {
    /// A player of `pool` found a match `waited` after asking.
    pub fn record(&mut self, pool: MatchPool, waited: Millis) {
        let waits = self.waits.entry(pool_key(pool)).or_default();
        waits.push_back(waited);
        while waits.len() > KEPT {
            waits.pop_front();
        }
    }

    /// The median wait of `pool`'s last matches, if there were enough.
    pub fn median(&self, pool: MatchPool) -> Option<Millis> {
        let waits = self.waits.get(&pool_key(pool))?;
        if waits.len() < ENOUGH {
            return None;
        }
        let mut sorted: Vec<Millis> = waits.iter().copied().collect();
        sorted.sort_unstable();
        let n = sorted.len();
        Some(if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        })
    }

    /// What a player of `pool` who has waited `waited` may still expect to wait.
    pub fn estimate(&self, pool: MatchPool, waited: Millis) -> Option<Millis> {
        self.median(pool).map(|m| m.saturating_sub(waited))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_estimate_until_enough_matches_then_the_median_less_the_wait() {
        let mut e = Estimates::default();
        for w in [1000, 9000, 3000, 2000] {
            e.record(MatchPool::TwoPlayers, w);
        }
        assert_eq!(e.estimate(MatchPool::TwoPlayers, 0), None);
        e.record(MatchPool::TwoPlayers, 600_000);
        // 1000, 2000, 3000, 9000, 600000: the median is 3000, the outlier ignored.
        assert_eq!(e.estimate(MatchPool::TwoPlayers, 0), Some(3000));
        assert_eq!(e.estimate(MatchPool::TwoPlayers, 1200), Some(1800));
        assert_eq!(
            e.estimate(MatchPool::TwoPlayers, 5000),
            Some(0),
            "never below 0"
        );
        assert_eq!(e.estimate(MatchPool::ThreeFourPlayers, 0), None, "per pool");
        e.record(MatchPool::TwoPlayers, 4000);
        assert_eq!(
            e.median(MatchPool::TwoPlayers),
            Some(3500),
            "even: the middle two"
        );
        // Only the latest KEPT count.
        for _ in 0..KEPT {
            e.record(MatchPool::TwoPlayers, 10);
        }
        assert_eq!(e.median(MatchPool::TwoPlayers), Some(10));
        let text = serde_json::to_string(&e).unwrap();
        assert_eq!(serde_json::from_str::<Estimates>(&text).unwrap(), e);
    }
}
