//! The signed-in WebSockets of this node, by account, so that ending a session, revoking
//! a token or banning an account closes its live connections at once.
//!
//! A connection registers with the credential it signed in with and a way to close it
//! (the connection layer's own); the guard it keeps unregisters it when it ends. It may
//! also give a way to send it a frame ([`LiveGuard::set_notify`]): a friend's
//! invitation reaches every signed-in connection of the account on this node
//! ([`Live::notify`]), and [`Live::is_online`] is what the friends list shows.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// What a connection signed in with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Credential {
    Session(i64),
    Token(i64),
    /// A link from another node of the cluster, which vouched for the account: it holds
    /// while the account is in good standing (the client's own node watches its
    /// session or token).
    Link,
}

type Close = Box<dyn Fn(&str) + Send + Sync>;
/// Sends a frame to a connection; false when its queue refused it.
type Notify = Box<dyn Fn(&dominion_protocol::ServerMessage) -> bool + Send + Sync>;

/// The accounts a signed-in connection does not want to hear: the names (exactly as
/// registered — a seat of a signed-in player carries its account's name, and a guest
/// cannot take one) whose chat lines its writer leaves out. Shared between the
/// connection's writer and this registry, so a block made while connected holds at once.
#[derive(Default, Debug)]
pub struct Blocked(std::sync::RwLock<Vec<String>>);

impl Blocked {
    pub fn set(&self, names: Vec<String>) {
        *self.0.write().unwrap_or_else(|e| e.into_inner()) = names;
    }
    pub fn is_empty(&self) -> bool {
        self.0.read().unwrap_or_else(|e| e.into_inner()).is_empty()
    }
    pub fn contains(&self, name: &str) -> bool {
        self.0
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .any(|n| n == name)
    }
}

struct Entry {
    id: u64,
    credential: Credential,
    close: Close,
    blocked: Arc<Blocked>,
    notify: Option<Notify>,
}

#[derive(Default)]
pub struct Live {
    next: AtomicU64,
    by_account: Mutex<HashMap<i64, Vec<Entry>>>,
}

/// Keeps a connection registered; dropping it unregisters it.
pub struct LiveGuard {
    live: Arc<Live>,
    account: i64,
    id: u64,
}

impl LiveGuard {
    /// How frames reach this connection (for [`Live::notify`]).
    pub fn set_notify(
        &self,
        notify: impl Fn(&dominion_protocol::ServerMessage) -> bool + Send + Sync + 'static,
    ) {
        let mut map = self.live.lock();
        if let Some(e) = map
            .get_mut(&self.account)
            .and_then(|list| list.iter_mut().find(|e| e.id == self.id))
        {
            e.notify = Some(Box::new(notify));
        }
    }
}

impl Drop for LiveGuard {
    fn drop(&mut self) {
        let mut map = self.live.lock();
        if let Some(list) = map.get_mut(&self.account) {
            list.retain(|e| e.id != self.id);
            if list.is_empty() {
                map.remove(&self.account);
            }
        }
    }
}

impl Live {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Vec<Entry>>> {
        self.by_account.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn register(
        self: &Arc<Self>,
        account: i64,
        credential: Credential,
        blocked: Arc<Blocked>,
        close: impl Fn(&str) + Send + Sync + 'static,
    ) -> LiveGuard {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.lock().entry(account).or_default().push(Entry {
            id,
            credential,
            close: Box::new(close),
            blocked,
            notify: None,
        });
        LiveGuard {
            live: self.clone(),
            account,
            id,
        }
    }

    /// Closes the account's connections whose credential `which` picks, saying `reason`;
    /// how many.
    pub fn close(&self, account: i64, which: impl Fn(Credential) -> bool, reason: &str) -> usize {
        let map = self.lock();
        let mut n = 0;
        for e in map.get(&account).into_iter().flatten() {
            if which(e.credential) {
                (e.close)(reason);
                n += 1;
            }
        }
        n
    }

    /// Gives the account's live connections its new list of blocked names.
    pub fn set_blocked(&self, account: i64, names: &[String]) {
        for e in self.lock().get(&account).into_iter().flatten() {
            e.blocked.set(names.to_vec());
        }
    }

    /// The accounts with a live connection here.
    pub fn accounts(&self) -> Vec<i64> {
        self.lock().keys().copied().collect()
    }

    /// Whether the account has a live connection here.
    pub fn is_online(&self, account: i64) -> bool {
        self.lock().contains_key(&account)
    }

    /// Sends `msg` to each of the account's live connections here that can be sent
    /// frames; how many took it.
    pub fn notify(&self, account: i64, msg: &dominion_protocol::ServerMessage) -> usize {
        self.notify_where(account, msg, |_| true)
    }

    /// As [`Live::notify`], to the client's own connections only, not to links from
    /// other nodes (in a cluster the client's own node delivers to it).
    pub fn notify_direct(&self, account: i64, msg: &dominion_protocol::ServerMessage) -> usize {
        self.notify_where(account, msg, |c| c != Credential::Link)
    }

    fn notify_where(
        &self,
        account: i64,
        msg: &dominion_protocol::ServerMessage,
        which: impl Fn(Credential) -> bool,
    ) -> usize {
        self.lock()
            .get(&account)
            .into_iter()
            .flatten()
            .filter(|e| which(e.credential))
            .filter_map(|e| e.notify.as_ref())
            .filter(|notify| notify(msg))
            .count()
    }

    /// The accounts with a client's own connection here (a link from another node
    /// does not count: that client's node counts it), what a cluster's presence writes.
    pub fn direct_accounts(&self) -> Vec<i64> {
        self.lock()
            .iter()
            .filter(|(_, list)| list.iter().any(|e| e.credential != Credential::Link))
            .map(|(a, _)| *a)
            .collect()
    }
}
