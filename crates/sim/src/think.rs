//! The searching bot's thinking budget, as the command line gives it.
//!
//! The engine has no clock: a wall-clock budget is a function the caller passes in
//! [`Thinking::clock`]. Here that clock is an [`Instant`] read in microseconds. A run
//! with only a playout cap (`--playouts`) never reads it, so its results depend on the
//! seed alone; `--think-ms` makes results depend on the machine's speed and load.

use dominion_engine::bots::Thinking;
use std::sync::Arc;
use std::time::Instant;

/// `--think-ms` and `--playouts`, kept as plain numbers so a [`crate::Config`] stays
/// comparable; [`ThinkBudget::thinking`] turns them into the engine's [`Thinking`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThinkBudget {
    /// Wall-clock milliseconds per decision.
    pub think_ms: Option<u64>,
    /// Most playouts per decision.
    pub playouts: Option<u32>,
}

impl ThinkBudget {
    /// True when results depend on nothing but the seed (no wall clock).
    pub fn deterministic(&self) -> bool {
        self.think_ms.is_none()
    }

    /// The engine budget: neither flag gives the engine's default (a fixed playout
    /// count, no clock); `--playouts` alone a fixed count; `--think-ms` a clock, capped
    /// by `--playouts` if given as well.
    pub fn thinking(&self) -> Thinking {
        match (self.think_ms, self.playouts) {
            (None, None) => Thinking::default(),
            (None, Some(n)) => Thinking::playouts(n),
            (Some(ms), playouts) => {
                let start = Instant::now();
                Thinking {
                    max_playouts: playouts.unwrap_or(u32::MAX),
                    budget_us: ms.saturating_mul(1000),
                    // Microseconds since this budget was made: any fixed point will do,
                    // the bot measures from the start of each decision.
                    clock: Some(Arc::new(move || {
                        u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX)
                    })),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_become_the_engine_budget() {
        let none = ThinkBudget::default().thinking();
        assert_eq!(none.max_playouts, Thinking::default().max_playouts);
        assert!(none.clock.is_none());

        let capped = ThinkBudget {
            think_ms: None,
            playouts: Some(50),
        };
        assert!(capped.deterministic());
        let t = capped.thinking();
        assert_eq!((t.max_playouts, t.budget_us), (50, u64::MAX));
        assert!(t.clock.is_none(), "a playout cap alone reads no clock");

        let timed = ThinkBudget {
            think_ms: Some(20),
            playouts: None,
        };
        assert!(!timed.deterministic());
        let t = timed.thinking();
        assert_eq!((t.max_playouts, t.budget_us), (u32::MAX, 20_000));
        let clock = t.clock.expect("a wall-clock budget has a clock");
        let a = clock();
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert!(clock() >= a + 2_000, "the clock counts microseconds");

        let both = ThinkBudget {
            think_ms: Some(5),
            playouts: Some(7),
        }
        .thinking();
        assert_eq!((both.max_playouts, both.budget_us), (7, 5_000));
    }
}
