//! A token bucket holding `capacity` tokens, refilled at `capacity` per `window`: the
//! per-connection message budget (a steady stream of frames faster than the refill empties
//! it, and the connection is then closed with 1008), and the room-creation limits per
//! connection and per client address. A burst of `capacity` is fine. The chat limits per
//! seat, per spectator and per address (`rooms::chat`) are budgets too.
//!
//! The client address is the socket's peer, or, when the peer is a proxy the operator
//! trusts (`--trusted-proxies`), the client that proxy names in `X-Forwarded-For`
//! (`net::client_addr`; any client can write the header, so it is believed from nobody
//! else). A connection forwarded by another node of the cluster presents the cluster's
//! key, so its owner trusts the client address it carries (`net::forward`).
//!
//! Also what every per-address limit is kept by (issue 23), so that no limit can be
//! turned against clients who did nothing:
//! - [`address_key`]: the key a client address is limited under — an IPv4 address
//!   itself, an IPv6 address its /64 (what one subscriber is given: picking another
//!   address in it must not buy a fresh budget).
//! - [`AddressBudgets`]: one bucket per key, in a table of bounded size that forgets its
//!   least recently used key when full, so an address it has never seen always starts
//!   with a full budget (the alternative, refusing newcomers while full, let 4,096
//!   addresses shut the server to everyone else).
//! - [`AddressCounts`]: how many of something each key holds now (its open rooms), with
//!   a cap each; bounded by what is held, so nothing needs forgetting.
//! - [`SharedWindows`]: counts in fixed windows that every node of a cluster shares
//!   (failed sign-ins, registrations), so a limit holds per client and per account name
//!   across the cluster rather than once per node. The cluster implements it over
//!   Redis; a single server has none and counts in memory only.

use futures_util::future::BoxFuture;
use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
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

    /// Gives back what [`Budget::take`] spent, for a command that was refused after all:
    /// a refused command spends nothing.
    pub fn refund(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.per_second + 1.0).min(self.capacity);
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

/// The key a client address is limited under (see [`address_key`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AddressKey(IpAddr);

/// The key every per-address limit uses for `addr`: an IPv4 address itself; an IPv6
/// address its /64 network (the rest zeroed: an IPv6 client is given a whole /64 and may
/// pick any address in it); an IPv4 address written as IPv6 (`::ffff:a.b.c.d`, what a
/// dual-stack socket reports) the IPv4 address.
pub fn address_key(addr: IpAddr) -> AddressKey {
    match addr {
        IpAddr::V4(v4) => AddressKey(IpAddr::V4(v4)),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => AddressKey(IpAddr::V4(v4)),
            None => {
                let network = u128::from(v6) & !((1u128 << 64) - 1);
                AddressKey(IpAddr::V6(network.into()))
            }
        },
    }
}

impl AddressKey {
    /// The address this key stands for: an IPv4 address, or an IPv6 /64's first address.
    pub fn ip(self) -> IpAddr {
        self.0
    }
}

impl std::fmt::Display for AddressKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            IpAddr::V4(v4) => write!(f, "{v4}"),
            IpAddr::V6(v6) => write!(f, "{v6}/64"),
        }
    }
}

/// One [`Budget`] per address key, at most `kept` of them.
///
/// When the table is full, a key it does not hold takes the place of the key used least
/// recently. The choice, against letting unknown keys through unlimited while full: both
/// keep memory bounded and never refuse a key the table does not hold; forgetting the
/// oldest also limits the newcomer. The cost is the same for both: a client with more
/// than `kept` addresses in use within a budget's window can make the table forget its
/// own spent budgets — but such a client is that many clients to every other limit too,
/// and a budget is forgotten only after `kept` other keys were used since. A bucket that
/// has refilled is the same as none, so full buckets are dropped (a refund that fills a
/// bucket again removes it): only spent budgets take room.
#[derive(Debug)]
pub struct AddressBudgets {
    capacity: u32,
    window: Duration,
    kept: usize,
    /// Each key's budget and its last use (a number from `next_use`).
    budgets: HashMap<AddressKey, (Budget, u64)>,
    /// The keys by last use, oldest first.
    by_use: BTreeMap<u64, AddressKey>,
    next_use: u64,
}

impl AddressBudgets {
    /// `capacity` per `window` for each key, remembering at most `kept` keys.
    pub fn new(capacity: u32, window: Duration, kept: usize) -> AddressBudgets {
        AddressBudgets {
            capacity,
            window,
            kept: kept.max(1),
            budgets: HashMap::new(),
            by_use: BTreeMap::new(),
            next_use: 0,
        }
    }

    /// Spends one from `key`'s budget; false when it is exhausted.
    pub fn take(&mut self, key: AddressKey, now: Instant) -> bool {
        let stamp = self.next_use;
        self.next_use += 1;
        if let Some((budget, last_use)) = self.budgets.get_mut(&key) {
            self.by_use.remove(last_use);
            *last_use = stamp;
            self.by_use.insert(stamp, key);
            return budget.take(now);
        }
        while self.budgets.len() >= self.kept {
            let Some((_, oldest)) = self.by_use.pop_first() else {
                break;
            };
            self.budgets.remove(&oldest);
        }
        let mut budget = Budget::new(self.capacity, self.window, now);
        let taken = budget.take(now);
        self.budgets.insert(key, (budget, stamp));
        self.by_use.insert(stamp, key);
        taken
    }

    /// Gives back one to `key`'s budget (a command it paid for was refused).
    pub fn refund(&mut self, key: AddressKey, now: Instant) {
        let Some((budget, last_use)) = self.budgets.get_mut(&key) else {
            return; // forgotten meanwhile: it starts full anyway
        };
        budget.refund(now);
        if budget.full(now) {
            let last_use = *last_use;
            self.by_use.remove(&last_use);
            self.budgets.remove(&key);
        }
    }

    /// How many keys are remembered.
    pub fn len(&self) -> usize {
        self.budgets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.budgets.is_empty()
    }
}

/// How many of something each address key holds now (its open rooms, its rooms with
/// searching bots), each held thing being a [`Counted`] that gives its place back when
/// dropped. Only keys holding something are remembered, so the table is as small as what
/// is held.
#[derive(Debug, Default)]
pub struct AddressCounts {
    held: Mutex<HashMap<AddressKey, usize>>,
}

/// One thing's place in its key's count, given back when dropped.
#[derive(Debug)]
pub struct Counted {
    counts: Arc<AddressCounts>,
    key: AddressKey,
}

impl AddressCounts {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<AddressKey, usize>> {
        // Plain counters: a panic elsewhere leaves them usable.
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for one more under `key`, unless it holds `max` already.
    pub fn try_hold(self: &Arc<Self>, key: AddressKey, max: usize) -> Option<Counted> {
        let mut held = self.lock();
        let n = held.entry(key).or_insert(0);
        if *n >= max {
            if *n == 0 {
                held.remove(&key);
            }
            return None;
        }
        *n += 1;
        Some(Counted {
            counts: self.clone(),
            key,
        })
    }

    /// How many `key` holds now.
    pub fn held(&self, key: AddressKey) -> usize {
        self.lock().get(&key).copied().unwrap_or(0)
    }

    /// How many keys hold anything.
    pub fn keys(&self) -> usize {
        self.lock().len()
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        let mut held = self.counts.lock();
        if let Some(n) = held.get_mut(&self.key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                held.remove(&self.key);
            }
        }
    }
}

/// A place in an address key's count that its holder takes and gives back as its needs
/// change (a room while it has searching bots): at most `max` at once per key.
#[derive(Debug)]
pub struct Claim {
    counts: Arc<AddressCounts>,
    key: AddressKey,
    max: usize,
    held: Option<Counted>,
}

impl Claim {
    /// A claim on `counts` for `key`, not yet holding a place.
    pub fn new(counts: Arc<AddressCounts>, key: AddressKey, max: usize) -> Claim {
        Claim {
            counts,
            key,
            max,
            held: None,
        }
    }

    /// Holds a place (if it does not already); false when `key` holds `max` already.
    pub fn hold(&mut self) -> bool {
        if self.held.is_none() {
            self.held = self.counts.try_hold(self.key, self.max);
        }
        self.held.is_some()
    }

    /// Gives the place back, if held.
    pub fn release(&mut self) {
        self.held = None;
    }

    pub fn holds(&self) -> bool {
        self.held.is_some()
    }

    /// The most places one key may hold.
    pub fn max(&self) -> usize {
        self.max
    }
}

/// Counts per key in fixed windows, shared by every node of a cluster. The accounts'
/// throttles count in memory as well and refuse when either count is over, so a node
/// that cannot reach the shared counts (the implementation answers within a bounded
/// time or fails) still holds its own limits.
pub trait SharedWindows: Send + Sync {
    /// Counts one for `key`; the first count of a window starts it, `window` long.
    fn count(&self, key: String, window: Duration) -> BoxFuture<'static, Result<(), String>>;
    /// The key's count in its current window and the time left of it; None when the key
    /// has no window running.
    fn get(&self, key: String) -> BoxFuture<'static, Result<Option<(u32, Duration)>, String>>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{Ipv4Addr, Ipv6Addr};

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

    #[test]
    fn a_refund_gives_back_what_was_taken() {
        let t0 = Instant::now();
        let mut b = Budget::new(3, Duration::from_secs(60), t0);
        for _ in 0..10 {
            assert!(b.take(t0));
            b.refund(t0);
        }
        assert!(b.full(t0), "ten refused commands spent nothing");
        assert!((0..3).all(|_| b.take(t0)));
        assert!(!b.take(t0));
        b.refund(t0);
        b.refund(t0);
        b.refund(t0);
        b.refund(t0);
        assert!(b.full(t0));
        assert!((0..3).all(|_| b.take(t0)), "never more than the capacity");
        assert!(!b.take(t0));
    }

    fn v4(n: u32) -> AddressKey {
        address_key(IpAddr::V4(Ipv4Addr::from(0x7f00_0000 + n)))
    }

    #[test]
    fn ipv6_addresses_share_their_64_and_mapped_ipv4_is_ipv4() {
        let a: Ipv6Addr = "2001:db8:1:2:aaaa:bbbb:cccc:dddd".parse().unwrap();
        let b: Ipv6Addr = "2001:db8:1:2::1".parse().unwrap();
        let other: Ipv6Addr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(address_key(a.into()), address_key(b.into()));
        assert_ne!(address_key(a.into()), address_key(other.into()));
        assert_eq!(address_key(a.into()).to_string(), "2001:db8:1:2::/64");
        assert_eq!(
            address_key(a.into()).ip(),
            IpAddr::V6("2001:db8:1:2::".parse().unwrap())
        );
        let mapped: Ipv6Addr = "::ffff:192.0.2.7".parse().unwrap();
        let plain = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 7));
        assert_eq!(address_key(mapped.into()), address_key(plain));
        assert_eq!(address_key(plain).to_string(), "192.0.2.7");
        assert_ne!(address_key(plain), v4(7));
    }

    #[test]
    fn a_full_table_forgets_its_oldest_and_never_refuses_a_newcomer() {
        let t0 = Instant::now();
        let mut table = AddressBudgets::new(2, Duration::from_secs(60), 100);
        // 1,000 keys spend all they have: the table holds the last 100.
        for n in 0..1000 {
            assert!(table.take(v4(n), t0));
            assert!(table.take(v4(n), t0));
            assert!(!table.take(v4(n), t0), "key {n} is over its budget");
            assert!(table.len() <= 100);
        }
        assert_eq!(table.len(), 100);
        // A key never seen gets its whole budget, at once.
        assert!(table.take(v4(5000), t0));
        assert!(table.take(v4(5000), t0));
        assert!(!table.take(v4(5000), t0));
        // The most recent keys are still limited; the oldest were forgotten.
        assert!(!table.take(v4(999), t0));
        assert!(table.take(v4(0), t0));
        // Used recently, a key is kept over older ones.
        assert!(!table.take(v4(950), t0));
        for n in 10_000..10_098 {
            table.take(v4(n), t0);
        }
        assert!(!table.take(v4(950), t0), "950 was used after the others");
    }

    #[test]
    fn refused_commands_leave_nothing_in_the_table() {
        let t0 = Instant::now();
        let mut table = AddressBudgets::new(30, Duration::from_secs(60), 100);
        for n in 0..10_000 {
            for _ in 0..10 {
                assert!(table.take(v4(n), t0));
                table.refund(v4(n), t0);
            }
        }
        assert!(table.is_empty(), "{} keys remembered", table.len());
        assert!(table.by_use.is_empty());
    }

    #[test]
    fn counts_are_capped_per_key_and_given_back_on_drop() {
        let counts = Arc::new(AddressCounts::default());
        let a = counts.try_hold(v4(1), 2).expect("first");
        let b = counts.try_hold(v4(1), 2).expect("second");
        assert!(counts.try_hold(v4(1), 2).is_none());
        let c = counts.try_hold(v4(2), 2).expect("another key");
        assert_eq!((counts.held(v4(1)), counts.keys()), (2, 2));
        drop(a);
        let a = counts.try_hold(v4(1), 2).expect("a place came back");
        drop((a, b, c));
        assert_eq!(counts.keys(), 0, "keys holding nothing are forgotten");
        assert!(counts.try_hold(v4(3), 0).is_none());
        assert_eq!(counts.keys(), 0);

        let mut claim = Claim::new(counts.clone(), v4(1), 1);
        assert!(!claim.holds());
        assert!(claim.hold());
        assert!(claim.hold(), "holding again takes no second place");
        assert_eq!(counts.held(v4(1)), 1);
        let mut other = Claim::new(counts.clone(), v4(1), 1);
        assert!(!other.hold());
        claim.release();
        assert!(other.hold());
        drop(other);
        assert_eq!(counts.keys(), 0);
    }
}
