//! Latency percentiles over every sample of a run (a run of 30 s at 5,000 decisions/s
//! keeps 150,000 numbers: no need for a histogram).

use serde::Serialize;
use std::time::Duration;

/// Percentiles by nearest rank, in microseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Latency {
    pub samples: u64,
    pub p50_us: u64,
    pub p90_us: u64,
    pub p99_us: u64,
    pub max_us: u64,
    pub mean_us: u64,
}

impl Latency {
    pub fn of(samples: &mut [u32]) -> Latency {
        if samples.is_empty() {
            return Latency::default();
        }
        samples.sort_unstable();
        let n = samples.len();
        let rank = |p: f64| u64::from(samples[((p * n as f64).ceil() as usize).clamp(1, n) - 1]);
        let sum: u64 = samples.iter().map(|&s| u64::from(s)).sum();
        Latency {
            samples: n as u64,
            p50_us: rank(0.50),
            p90_us: rank(0.90),
            p99_us: rank(0.99),
            max_us: u64::from(samples[n - 1]),
            mean_us: sum / n as u64,
        }
    }
}

/// A duration in whole microseconds, saturating (a sample over an hour is not a sample).
pub fn micros(d: Duration) -> u32 {
    u32::try_from(d.as_micros()).unwrap_or(u32::MAX)
}

/// `1234 µs` as `1.234 ms`, for people.
pub fn ms(us: u64) -> String {
    format!("{:.3} ms", us as f64 / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let mut s: Vec<u32> = (1..=100).rev().collect();
        let l = Latency::of(&mut s);
        assert_eq!(
            l,
            Latency {
                samples: 100,
                p50_us: 50,
                p90_us: 90,
                p99_us: 99,
                max_us: 100,
                mean_us: 50,
            }
        );
        assert_eq!(Latency::of(&mut []), Latency::default());
        let one = Latency::of(&mut [7]);
        assert_eq!((one.p50_us, one.p99_us, one.max_us), (7, 7, 7));
    }
}
