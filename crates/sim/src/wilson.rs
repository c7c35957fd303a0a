//! The Wilson score interval for a win rate.
//!
//! Chosen over the textbook normal ("Wald") interval because tournaments play few games
//! per kingdom and win rates near 0 or 1 are common: Wald's interval collapses to a
//! point at 0 or n wins and leaves [0, 1], Wilson's does neither (Newcombe 1998,
//! "Two-sided confidence intervals for the single proportion", method 3).

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The 95% Wilson score interval `(low, high)` for `successes` out of `n`.
///
/// `successes` may be fractional: the tournament counts a tie as half a win. With
/// `n == 0` nothing is known and the interval is all of `[0, 1]`.
pub fn wilson95(successes: f64, n: u64) -> (f64, f64) {
    wilson(successes, n, Z95)
}

/// The Wilson score interval for `successes` out of `n` at normal quantile `z`.
pub fn wilson(successes: f64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = (successes / n).clamp(0.0, 1.0);
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: (f64, f64), want: (f64, f64)) {
        assert!(
            (got.0 - want.0).abs() < 5e-5 && (got.1 - want.1).abs() < 5e-5,
            "got {got:?}, want {want:?}"
        );
    }

    /// The worked examples of Newcombe (1998), table I, method 3, to four places.
    #[test]
    fn matches_newcombes_published_values() {
        close(wilson95(81.0, 263), (0.2553, 0.3662));
        close(wilson95(15.0, 148), (0.0624, 0.1605));
        close(wilson95(0.0, 20), (0.0, 0.1611));
        close(wilson95(1.0, 29), (0.0061, 0.1718));
    }

    #[test]
    fn is_symmetric_and_handles_the_edges() {
        close(wilson95(5.0, 10), (0.2366, 0.7634));
        close(wilson95(50.0, 100), (0.4038, 0.5962));
        close(wilson95(20.0, 20), (0.8389, 1.0));
        // Ties as half wins: 7 wins and a tie in 10 games.
        close(wilson95(7.5, 10), (0.4422, 0.9191));
        assert_eq!(wilson95(0.0, 0), (0.0, 1.0));
    }
}
