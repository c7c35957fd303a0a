//! Which players suit each other (the formulas, Dominion Online's):
//!
//! - level suitability `1 − atan(|Δlevel| / 20) · 2/π`: 1 for equal levels, ½ at 20
//!   levels apart, towards 0 beyond;
//! - waiting suitability `atan(waited seconds / 10) · 2/π` of the longer waiter of the
//!   pair: 0 at once, ½ after 10 s, towards 1.
//!
//! They are combined as "either is enough": `1 − (1 − level)(1 − waiting)`, and a pair is
//! matched when that reaches [`THRESHOLD`] (0.8). So players within 6.5 levels are
//! matched at once, within 14.5 after 10 s of waiting, and almost anyone after 30 s: no
//! one waits long for lack of an equal, and equals never wait at all. A group (a table
//! of 3 or 4) suits when every pair in it does.

use std::f64::consts::FRAC_2_PI;

/// The suitability a pair must reach to be matched.
pub const THRESHOLD: f64 = 0.8;

pub fn level_suitability(a: f64, b: f64) -> f64 {
    1.0 - ((a - b).abs() / 20.0).atan() * FRAC_2_PI
}

pub fn waiting_suitability(waited_ms: u64) -> f64 {
    (waited_ms as f64 / 10_000.0).atan() * FRAC_2_PI
}

/// The pair's suitability; `waited_ms` is the longer wait of the two.
pub fn suitability(level_a: f64, level_b: f64, waited_ms: u64) -> f64 {
    let level = level_suitability(level_a, level_b);
    let waiting = waiting_suitability(waited_ms);
    1.0 - (1.0 - level) * (1.0 - waiting)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn the_formulas_give_their_landmarks() {
        assert!(close(level_suitability(20.0, 20.0), 1.0));
        assert!(close(level_suitability(10.0, 30.0), 0.5));
        assert!(close(level_suitability(30.0, 10.0), 0.5));
        assert!(close(waiting_suitability(0), 0.0));
        assert!(close(waiting_suitability(10_000), 0.5));
        // 1 − atan(1)·2/π = ½ and atan(1)·2/π = ½: 1 − ½·½.
        assert!(close(suitability(10.0, 30.0, 10_000), 0.75));
        assert!(close(suitability(19.78, 19.78, 0), 1.0));
    }

    #[test]
    fn equals_match_at_once_and_the_gap_allowed_grows_with_waiting() {
        // At once: 6.5 levels apart passes, 6.6 does not (20·tan(π/10) = 6.498).
        assert!(suitability(20.0, 26.49, 0) >= THRESHOLD);
        assert!(suitability(20.0, 26.6, 0) < THRESHOLD);
        // After 10 s: within 20·tan(π/5) = 14.53.
        assert!(suitability(20.0, 34.5, 10_000) >= THRESHOLD);
        assert!(suitability(20.0, 34.6, 10_000) < THRESHOLD);
        // After 30 s, 100 levels apart is fine.
        assert!(suitability(0.0, 100.0, 30_000) >= THRESHOLD);
        // Monotone in the wait.
        let mut last = 0.0;
        for s in 0..120 {
            let v = suitability(0.0, 60.0, s * 1000);
            assert!(v >= last);
            last = v;
        }
    }
}
