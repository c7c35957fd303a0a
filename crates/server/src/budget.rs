//! A token bucket holding `capacity` tokens, refilled at `capacity` per `window`: the
//! per-connection message budget (a steady stream of frames faster than the refill empties
//! it, and the connection is then closed with 1008), and the room-creation limits per
//! connection and per client address. A burst of `capacity` is fine. The chat limits per
//! seat, per spectator and per address (`rooms::chat`) are budgets too.

use std::time::Duration;
use tokio::time::Instant;

#[derive(Debug)]
pub struct Budget {
    capacity: f64,
    tokens: f64,
    per_second: f64,
    last: Instant,
}

impl Budget {
    pub fn new(capacity: u32, window: Duration, now: Instant) -> Budget {
        let capacity = f64::from(capacity.max(1));
        let window = window.as_secs_f64().max(1e-3);
        Budget {
            capacity,
            tokens: capacity,
            per_second: capacity / window,
            last: now,
        }
    }

    /// Whether the bucket is full again at `now` (nothing spent that has not refilled):
    /// such a budget can be forgotten and recreated later without a difference.
    pub fn full(&self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens + elapsed * self.per_second >= self.capacity
    }

    /// Whether one more would pass at `now`, spending nothing: for a step that must pass
    /// two budgets, or neither.
    pub fn ready(&self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        (self.tokens + elapsed * self.per_second).min(self.capacity) >= 1.0
    }

    /// Spends one frame's worth; false when the budget is exhausted.
    pub fn take(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.capacity);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_of_capacity_passes_and_then_refills_over_the_window() {
        let t0 = Instant::now();
        let mut b = Budget::new(100, Duration::from_secs(20), t0);
        assert!((0..100).all(|_| b.take(t0)));
        assert!(!b.take(t0), "the 101st frame at once is over budget");
        // 100 per 20 s is 5 per second: after 1 s, five more.
        let t1 = t0 + Duration::from_secs(1);
        assert!((0..5).all(|_| b.take(t1)));
        assert!(!b.take(t1));
        // Never more than the capacity, however long the pause.
        let t2 = t1 + Duration::from_secs(3600);
        assert!((0..100).all(|_| b.take(t2)));
        assert!(!b.take(t2));
    }
}
