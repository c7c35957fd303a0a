//! Counting failures per key in fixed windows, bounded: failed sign-ins per client
//! address and per account name, registrations per address. A key over its count is
//! refused until its window ends. The table forgets ended windows first and, when still
//! full, the oldest one, so it stays bounded however many keys come.
//!
//! In a cluster a [`Limit`] also counts in the windows every node shares
//! ([`SharedWindows`], in Redis), so a client or a name gets its count once across the
//! cluster, not once per node; its own node's count still holds if Redis cannot be
//! reached.

use crate::budget::SharedWindows;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;

/// One limit: this node's [`Throttle`] and, in a cluster, the shared windows.
pub struct Limit<K> {
    /// Names the limit's keys in the shared windows.
    kind: &'static str,
    max: u32,
    window: Duration,
    local: Mutex<Throttle<K>>,
}

impl<K: Hash + Eq + Clone> Limit<K> {
    pub fn new(kind: &'static str, max: u32, window: Duration, kept: usize) -> Limit<K> {
        Limit {
            kind,
            max,
            window,
            local: Mutex::new(Throttle::new(max, window, kept)),
        }
    }

    fn local(&self) -> std::sync::MutexGuard<'_, Throttle<K>> {
        self.local.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How long `key` (`label` in the shared windows) must wait, by either count.
    pub async fn blocked(
        &self,
        key: &K,
        label: &str,
        shared: Option<&Arc<dyn SharedWindows>>,
        now: Instant,
    ) -> Option<Duration> {
        let here = self.local().blocked(key, now);
        let there = match shared {
            None => None,
            Some(s) => match s.get(format!("{}:{label}", self.kind)).await {
                Ok(Some((n, left))) if n >= self.max => Some(left),
                Ok(_) => None,
                Err(e) => {
                    tracing::warn!(limit = self.kind, "shared counts unreadable: {e}");
                    None
                }
            },
        };
        here.max(there)
    }

    /// Counts one for `key` here and in the shared windows.
    pub async fn count(
        &self,
        key: K,
        label: &str,
        shared: Option<&Arc<dyn SharedWindows>>,
        now: Instant,
    ) {
        self.local().count(key, now);
        if let Some(s) = shared
            && let Err(e) = s.count(format!("{}:{label}", self.kind), self.window).await
        {
            tracing::warn!(limit = self.kind, "shared counts not written: {e}");
        }
    }
}

pub struct Throttle<K> {
    max: u32,
    window: Duration,
    kept: usize,
    counts: HashMap<K, (Instant, u32)>,
}

impl<K: Hash + Eq + Clone> Throttle<K> {
    pub fn new(max: u32, window: Duration, kept: usize) -> Throttle<K> {
        Throttle {
            max,
            window,
            kept: kept.max(1),
            counts: HashMap::new(),
        }
    }

    /// How long `key` must wait, if it has used its count in this window.
    pub fn blocked(&self, key: &K, now: Instant) -> Option<Duration> {
        let (start, n) = self.counts.get(key)?;
        let ends = *start + self.window;
        (ends > now && *n >= self.max).then(|| ends - now)
    }

    /// Counts one for `key`.
    pub fn count(&mut self, key: K, now: Instant) {
        if !self.counts.contains_key(&key) && self.counts.len() >= self.kept {
            let window = self.window;
            self.counts.retain(|_, (start, _)| *start + window > now);
            if self.counts.len() >= self.kept
                && let Some(oldest) = self
                    .counts
                    .iter()
                    .min_by_key(|(_, (start, _))| *start)
                    .map(|(k, _)| k.clone())
            {
                self.counts.remove(&oldest);
            }
        }
        let entry = self.counts.entry(key).or_insert((now, 0));
        if entry.0 + self.window <= now {
            *entry = (now, 0);
        }
        entry.1 = entry.1.saturating_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_refused_after_its_count_until_the_window_ends() {
        let t0 = Instant::now();
        let mut t = Throttle::new(2, Duration::from_secs(60), 2);
        assert_eq!(t.blocked(&"a", t0), None);
        t.count("a", t0);
        t.count("a", t0);
        assert_eq!(t.blocked(&"a", t0), Some(Duration::from_secs(60)));
        assert_eq!(t.blocked(&"b", t0), None);
        assert_eq!(t.blocked(&"a", t0 + Duration::from_secs(60)), None);
        // Bounded: a third key pushes out the oldest.
        t.count("b", t0 + Duration::from_secs(1));
        t.count("c", t0 + Duration::from_secs(2));
        assert!(t.counts.len() <= 2);
    }
}
