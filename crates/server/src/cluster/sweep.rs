//! The order in which a sweep takes rooms over: several at once, deciding each room as
//! one by one would.
//!
//! Taken one after the other, a node that takes over a dead node's rooms pays for each
//! in turn a Redis round trip (the lease), a commit (the claim), the store's reads and
//! the replay; 200 long games took about a second on PostgreSQL (docs/load.md, "At the
//! server: restart and takeover of 200 rooms"). Taken [`AT_ONCE`] at a time, the claims
//! share the writer's commits, the round trips overlap and the replays use every core.
//!
//! Which rooms are taken does not change: a room overdue (orphaned for a whole lease)
//! is always tried; another only while this node runs fewer than its share. When the
//! rooms still in flight could bring the node to its share, the sweep waits for them
//! before deciding the next room, so it decides on the same count as the one-by-one
//! sweep did (unit tests below compare the two).

use futures_util::stream::{FuturesUnordered, StreamExt};
use std::future::Future;

/// Rooms one sweep takes over at once.
pub const AT_ONCE: usize = 8;

/// Takes over `candidates` (room, overdue) in their order, up to `at_once` at a time,
/// through `take` (true: the room now runs here): an overdue room always, another only
/// while fewer than `share` rooms run here (`running` of them before the sweep). Starts
/// no more once `stop` says so, and waits for those started. Returns how many rooms run
/// here after.
pub async fn take_in_turn<F, Fut>(
    candidates: Vec<(String, bool)>,
    mut running: usize,
    share: usize,
    at_once: usize,
    stop: impl Fn() -> bool,
    take: F,
) -> usize
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = bool>,
{
    let at_once = at_once.max(1);
    let mut flight = FuturesUnordered::new();
    for (id, overdue) in candidates {
        if stop() {
            break;
        }
        if !overdue {
            // Until the rooms in flight can no longer fill the share, their outcome
            // decides this room's: wait for them.
            while running < share && running + flight.len() >= share {
                if let Some(taken) = flight.next().await {
                    running += usize::from(taken);
                }
            }
            if running >= share {
                continue;
            }
        }
        while flight.len() >= at_once {
            if let Some(taken) = flight.next().await {
                running += usize::from(taken);
            }
        }
        if stop() {
            break;
        }
        flight.push(take(id));
    }
    while let Some(taken) = flight.next().await {
        running += usize::from(taken);
    }
    running
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// The sweep as it was: one room after the other. Returns the rooms tried, in order,
    /// and the rooms running after.
    fn one_by_one(
        candidates: &[(String, bool)],
        mut running: usize,
        share: usize,
        outcome: impl Fn(&str) -> bool,
    ) -> (Vec<String>, usize) {
        let mut tried = Vec::new();
        for (id, overdue) in candidates {
            if running >= share && !overdue {
                continue;
            }
            tried.push(id.clone());
            if outcome(id) {
                running += 1;
            }
        }
        (tried, running)
    }

    /// A small deterministic generator (xorshift).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self, below: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % below
        }
    }

    /// Runs `take_in_turn` with takes that finish after `delay(id)` yields, out of
    /// order; returns the rooms tried (in the order started), the rooms running after and
    /// the most in flight at once.
    async fn at_once(
        candidates: &[(String, bool)],
        running: usize,
        share: usize,
        limit: usize,
        outcome: impl Fn(&str) -> bool,
        delay: impl Fn(&str) -> u64,
    ) -> (Vec<String>, usize, usize) {
        let tried = Mutex::new(Vec::new());
        let flying = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let after = take_in_turn(
            candidates.to_vec(),
            running,
            share,
            limit,
            || false,
            |id| {
                tried.lock().unwrap().push(id.clone());
                let now = flying.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                let (taken, yields) = (outcome(&id), delay(&id));
                let flying = &flying;
                async move {
                    for _ in 0..yields {
                        tokio::task::yield_now().await;
                    }
                    flying.fetch_sub(1, Ordering::SeqCst);
                    taken
                }
            },
        )
        .await;
        let tried = tried.into_inner().unwrap();
        (tried, after, most.load(Ordering::SeqCst))
    }

    #[tokio::test]
    async fn several_at_once_take_the_same_rooms_as_one_by_one() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for case in 0..500 {
            let n = 1 + rng.next(40) as usize;
            let candidates: Vec<(String, bool)> = (0..n)
                .map(|i| (format!("r{i}"), rng.next(4) == 0))
                .collect();
            let fails: BTreeSet<String> = candidates
                .iter()
                .filter(|_| rng.next(3) == 0)
                .map(|(id, _)| id.clone())
                .collect();
            let delays: Vec<u64> = (0..n).map(|_| rng.next(20)).collect();
            let running = rng.next(10) as usize;
            let share = rng.next(40) as usize;
            let outcome = |id: &str| !fails.contains(id);
            let delay = |id: &str| delays[id[1..].parse::<usize>().unwrap()];
            let (want, want_after) = one_by_one(&candidates, running, share, outcome);
            for limit in [1, 2, AT_ONCE] {
                let (tried, after, most) =
                    at_once(&candidates, running, share, limit, outcome, delay).await;
                assert_eq!(
                    (&tried, after),
                    (&want, want_after),
                    "case {case}, {limit} at once: {candidates:?}, failing {fails:?}, running {running}, share {share}"
                );
                assert!(
                    most <= limit,
                    "case {case}: {most} in flight, limit {limit}"
                );
            }
        }
    }

    #[tokio::test]
    async fn rooms_are_taken_several_at_once() {
        let candidates: Vec<(String, bool)> = (0..20).map(|i| (format!("r{i}"), false)).collect();
        let (tried, after, most) = at_once(&candidates, 0, 20, AT_ONCE, |_| true, |_| 5).await;
        assert_eq!((tried.len(), after, most), (20, 20, AT_ONCE));
        // Near its share the sweep waits for the rooms in flight: 3 to go, 3 at once.
        let (tried, after, most) = at_once(&candidates, 17, 20, AT_ONCE, |_| true, |_| 5).await;
        assert_eq!((tried.len(), after, most), (3, 20, 3));
    }

    #[tokio::test]
    async fn no_room_is_started_once_the_node_stops_taking_rooms() {
        let candidates: Vec<(String, bool)> = (0..20).map(|i| (format!("r{i}"), true)).collect();
        let started = AtomicUsize::new(0);
        let after = take_in_turn(
            candidates,
            0,
            0,
            4,
            || started.load(Ordering::SeqCst) >= 6,
            |_| {
                started.fetch_add(1, Ordering::SeqCst);
                async {
                    tokio::task::yield_now().await;
                    true
                }
            },
        )
        .await;
        assert_eq!((started.load(Ordering::SeqCst), after), (6, 6));
    }
}
