//! What a queue shared by the nodes of a cluster needs from the outside: the interface
//! `net::automatch::cluster` drives and `cluster::automatch` implements over Redis
//! (wired by `lib.rs`; nothing here knows Redis). Values travel as text (JSON made by
//! the caller), so this interface knows neither the protocol nor the server's types.
//!
//! - Every node's automatch service has an *instance* number no other ever had, and
//!   announces it while it lives; entries of an instance no longer announced are dropped.
//! - Requests from every node go into one list, in order; the leader reads them and
//!   *commits* the state it reached together with how many it consumed.
//! - One instance at a time *leads*, under a lease whose fencing token grows with every
//!   new leader. A commit is refused unless its token is the newest one, and unless
//!   every key it *claims* (the members of each match it makes) is a member of the last
//!   committed state: a match is made at most once, whoever tries.
//! - Messages for a connection go to its instance's channel.

use futures_util::future::BoxFuture;
use futures_util::stream::BoxStream;
use std::time::Duration;

/// A leader's step, committed atomically.
#[derive(Clone, Debug, Default)]
pub struct Commit {
    /// The whole state, as the leader's service serializes it.
    pub state: String,
    /// Every connection key queued, proposed or being seated in that state.
    pub keys: Vec<u64>,
    /// Keys that must be in the last committed state's keys (each match's members).
    pub claims: Vec<u64>,
    /// How many requests, from the front of the list, this step consumed.
    pub consumed: usize,
}

/// Why a commit was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// A newer leader holds the lease.
    Fenced,
    /// A claimed key is not in the committed state (claimed already).
    Claimed,
}

pub trait SharedQueue: Send + Sync + 'static {
    /// A number no other automatch service had or will have.
    fn instance(&self) -> BoxFuture<'_, Result<u64, String>>;
    /// Says `instance` lives, for `ttl`.
    fn announce(&self, instance: u64, ttl: Duration) -> BoxFuture<'_, Result<(), String>>;
    /// Which of `instances` are announced now.
    fn alive(&self, instances: Vec<u64>) -> BoxFuture<'_, Result<Vec<bool>, String>>;
    /// Hands requests to whoever leads (or will), in order.
    fn push(&self, requests: Vec<String>) -> BoxFuture<'_, Result<(), String>>;
    /// Takes the lead if nobody holds it, or extends `held`: the token while `instance`
    /// leads, None when another does.
    fn lead(
        &self,
        instance: u64,
        held: Option<u64>,
        ttl: Duration,
    ) -> BoxFuture<'_, Result<Option<u64>, String>>;
    /// Gives the lead up (if still held under `token`).
    fn resign(&self, instance: u64, token: u64) -> BoxFuture<'_, Result<(), String>>;
    /// The state last committed, if any.
    fn load(&self) -> BoxFuture<'_, Result<Option<String>, String>>;
    /// Up to `max` requests from the front of the list (not removed: a commit does).
    fn requests(&self, max: usize) -> BoxFuture<'_, Result<Vec<String>, String>>;
    /// Commits a leader's step under `token`.
    fn commit(
        &self,
        token: u64,
        commit: Commit,
    ) -> BoxFuture<'_, Result<Result<(), Refused>, String>>;
    /// Sends each text to its instance's channel.
    fn publish(&self, messages: Vec<(u64, String)>) -> BoxFuture<'_, Result<(), String>>;
    /// The texts published for `instance`, from now on.
    fn subscribe(&self, instance: u64)
    -> BoxFuture<'_, Result<BoxStream<'static, String>, String>>;
}
