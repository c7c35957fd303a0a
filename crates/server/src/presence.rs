//! Who is signed in on the other nodes of a cluster, and a way to reach them: what the
//! friends list (`online`) and `invite` need beyond this node's own connections
//! (`accounts::live`). A leaf, so that `accounts` can ask through it and `cluster` can
//! implement it (over Redis, `cluster::presence`) without either naming the other; a
//! single node has none and answers from its own connections only.

use futures_util::future::BoxFuture;
use std::collections::HashSet;

/// The cluster's shared presence. Each call is bounded in time by the implementation:
/// an error means "not known", and the caller goes on with this node's own view.
pub trait SharedPresence: Send + Sync {
    /// Of `accounts`, those with a signed-in connection on another node.
    fn online_elsewhere(
        &self,
        accounts: Vec<i64>,
    ) -> BoxFuture<'static, Result<HashSet<i64>, String>>;
    /// Sends `frame` (a server message, as JSON) to the account's signed-in connections
    /// on the other nodes.
    fn send_elsewhere(&self, account: i64, frame: String)
    -> BoxFuture<'static, Result<(), String>>;
}

/// Lists the accounts signed in on this node now.
pub type ListLocal = Box<dyn Fn() -> Vec<i64> + Send + Sync>;
/// Delivers a frame (JSON) to an account's connections on this node: how many took it.
pub type Deliver = Box<dyn Fn(i64, &str) -> usize + Send + Sync>;

/// What a node tells the shared presence about itself.
pub struct Local {
    /// The accounts signed in on this node now (read at each refresh).
    pub accounts: ListLocal,
    /// Delivers a frame another node sent to the account's connections here.
    pub deliver: Deliver,
}
