//! Accounts — players with a name that lasts: registering, signing in (sessions), API
//! tokens, profiles, blocks, and closing the live connections of a session that ended.
//!
//! Beside the rooms, below the network: `net::account_api` serves this over HTTP and
//! `net::connection` signs WebSockets in with it; rooms know nothing of accounts (a seat
//! taken by a signed-in player is an ordinary seat under the account's name, linked to
//! the account in the store for its profile).
//!
//! **Where the work happens.** The store's account queries run on a thread of their own
//! with a connection of their own (`dominion_store::Accounts`), never on the async
//! workers and never through the games' batching writer. Password hashes (Argon2id,
//! `password`) take a core for tens of milliseconds each: they run in `spawn_blocking`
//! under a semaphore of `--hash-threads` permits, and when more than
//! [`HASH_QUEUE_PER_THREAD`] per permit are already waiting the request is answered
//! `busy` at once. A flood of sign-ins thus uses at most `--hash-threads` cores and a
//! bounded queue, and the rooms keep theirs.
//!
//! **No enumeration.** Signing in under an unknown name verifies the password against a
//! dummy hash made at start with the same parameters, and answers exactly as a wrong
//! password does (same status, same body, same work). Failed sign-ins are counted per
//! client address and per folded name, known or not (`--sign-ins-per-address`,
//! `--sign-ins-per-account`, per 15 minutes); registrations per address
//! (`--registrations-per-address` per hour).
//!
//! **Secrets.** Session and API tokens are 32 random bytes (base64url; tokens prefixed
//! `dmn_`), stored as their SHA-256 only. No secret, hash or password is ever logged.

pub mod admin;
pub mod house;
pub mod live;
pub mod names;
pub mod password;
pub mod ratings;
pub mod social;
mod throttle;

use crate::budget::{AddressKey, SharedWindows, address_key};
use crate::config::Config;
use base64::Engine;
use dominion_protocol as wire;
use dominion_store::{AccountRow, Database, StoreError};
use live::{Credential, Live};
use sha2::{Digest, Sha256};
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use throttle::Limit;
use tokio::sync::{Semaphore, oneshot};
use tokio::time::Instant;

/// Requests that may wait for a hashing permit, per permit, before more are told `busy`.
pub const HASH_QUEUE_PER_THREAD: usize = 32;
/// The window of the sign-in limits.
pub const SIGN_IN_WINDOW: Duration = Duration::from_secs(15 * 60);
/// The window of the registration limit.
pub const REGISTRATION_WINDOW: Duration = Duration::from_secs(3600);
/// Keys each throttle remembers at most.
const THROTTLE_KEPT: usize = 16_384;
/// Account queries that may wait for the accounts' connection.
const DB_QUEUE: usize = 1024;
/// The prefix of every API token.
pub const TOKEN_PREFIX: &str = "dmn_";
/// The session cookie's name.
pub const COOKIE: &str = "dominion_session";
/// Games read to compute a profile's results against bots.
const PROFILE_GAMES: u32 = 1000;
/// How often each node checks its signed-in connections against the store.
pub const SWEEP_EVERY: Duration = Duration::from_secs(3);
/// Games a profile lists.
const RECENT_GAMES: usize = 20;

/// A refused request: a stable code, an English message, and when to retry if that
/// helps. `net::account_api` gives each code its HTTP status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub code: &'static str,
    pub message: String,
    pub retry_after: Option<Duration>,
}

impl Refused {
    pub fn new(code: &'static str, message: impl Into<String>) -> Refused {
        Refused {
            code,
            message: message.into(),
            retry_after: None,
        }
    }
}

fn internal(what: &str) -> Refused {
    Refused::new("internal", format!("{what}; try again later"))
}

fn wrong_credentials() -> Refused {
    Refused::new("wrong_credentials", "wrong name or password")
}

/// Who made a request or opened a connection.
#[derive(Clone, Debug)]
pub struct SignedIn {
    pub account: AccountRow,
    pub credential: Credential,
}

impl SignedIn {
    pub fn info(&self) -> wire::AccountInfo {
        wire::AccountInfo {
            name: self.account.name.clone(),
            bot: self.account.bot,
        }
    }
}

/// A new session: the cookie's value (shown once, to the browser) and what it signs in.
pub struct NewSession {
    pub cookie: String,
    pub signed_in: SignedIn,
}

type Job = Box<dyn FnOnce(&mut dominion_store::Accounts) + Send>;

pub struct Accounts {
    pub config: Arc<Config>,
    db: std::sync::mpsc::SyncSender<Job>,
    hashing: Arc<Semaphore>,
    hash_waiting: AtomicUsize,
    cost: password::Cost,
    /// Verified for unknown names, so they take as long as known ones.
    dummy_hash: String,
    sign_ins_by_address: Limit<AddressKey>,
    sign_ins_by_name: Limit<String>,
    registrations: Limit<AddressKey>,
    /// In a cluster, the counting windows every node shares (set once it has joined).
    shared: OnceLock<Arc<dyn SharedWindows>>,
    /// In a cluster, who is signed in on the other nodes (set once it has joined).
    presence: OnceLock<Arc<dyn crate::presence::SharedPresence>>,
    pub live: Arc<Live>,
    /// Card preferences, follows and invitations (`social`).
    social: social::Social,
    /// The house bots' accounts (`house`: the bot ladder), made at start-up.
    house: Vec<house::HouseAccount>,
}

pub(crate) fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// 32 random bytes as base64url, and the SHA-256 of that text.
fn new_secret(prefix: &str) -> Result<(String, Vec<u8>), Refused> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|_| internal("no randomness available"))?;
    let text = format!(
        "{prefix}{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    );
    let hash = secret_hash(&text);
    Ok((text, hash))
}

fn secret_hash(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

impl Accounts {
    /// Opens the accounts' connection on a thread of its own and makes the dummy hash.
    /// Blocking (connects, hashes once): call it off the async workers, after the games'
    /// store has brought the schema up to date.
    pub fn open(config: Arc<Config>, database: &Database) -> Result<Arc<Accounts>, String> {
        let (db, jobs) = std::sync::mpsc::sync_channel::<Job>(DB_QUEUE);
        let (opened_tx, opened) = std::sync::mpsc::sync_channel(1);
        let database = database.clone();
        std::thread::Builder::new()
            .name("store-accounts".into())
            .spawn(move || match dominion_store::Accounts::open(&database) {
                Ok(mut store) => {
                    let _ = opened_tx.send(Ok(()));
                    while let Ok(job) = jobs.recv() {
                        job(&mut store);
                    }
                }
                Err(e) => {
                    let _ = opened_tx.send(Err(e.to_string()));
                }
            })
            .map_err(|e| format!("cannot start the accounts thread: {e}"))?;
        opened
            .recv()
            .map_err(|_| "the accounts thread died".to_string())??;
        let (made_tx, made) = std::sync::mpsc::sync_channel(1);
        db.send(Box::new(move |store| {
            let _ = made_tx.send(house::ensure(store));
        }))
        .map_err(|_| "the accounts thread died".to_string())?;
        let house = made
            .recv()
            .map_err(|_| "the accounts thread died".to_string())?;
        let cost = password::Cost {
            memory_kib: config.argon2_memory_kib,
            iterations: config.argon2_iterations,
        };
        let mut dummy = [0u8; 24];
        getrandom::fill(&mut dummy).map_err(|e| e.to_string())?;
        let dummy_hash = password::hash(&format!("{dummy:?}"), cost)?;
        Ok(Arc::new(Accounts {
            hashing: Arc::new(Semaphore::new(usize::from(config.hash_threads.max(1)))),
            hash_waiting: AtomicUsize::new(0),
            cost,
            dummy_hash,
            sign_ins_by_address: Limit::new(
                "sign-in-address",
                config.sign_ins_per_address,
                SIGN_IN_WINDOW,
                THROTTLE_KEPT,
            ),
            sign_ins_by_name: Limit::new(
                "sign-in-name",
                config.sign_ins_per_account,
                SIGN_IN_WINDOW,
                THROTTLE_KEPT,
            ),
            registrations: Limit::new(
                "registration-address",
                config.registrations_per_address,
                REGISTRATION_WINDOW,
                THROTTLE_KEPT,
            ),
            shared: OnceLock::new(),
            presence: OnceLock::new(),
            live: Arc::default(),
            social: social::Social::default(),
            house,
            config,
            db,
        }))
    }

    /// Counts failed sign-ins and registrations in the windows every node of the cluster
    /// shares, beside this node's own counts (called once the node has joined).
    pub fn share_windows(&self, shared: Arc<dyn SharedWindows>) {
        let _ = self.shared.set(shared);
    }

    /// Lets friends lists and invitations see the accounts signed in on the other nodes
    /// of the cluster (called once the node has joined).
    pub fn share_presence(&self, presence: Arc<dyn crate::presence::SharedPresence>) {
        let _ = self.presence.set(presence);
    }

    /// Of `accounts`, those signed in on another node of the cluster: none on a single
    /// node, or when the cluster's presence cannot be read just now.
    pub async fn online_elsewhere(&self, accounts: Vec<i64>) -> std::collections::HashSet<i64> {
        let Some(presence) = self.presence.get() else {
            return Default::default();
        };
        if accounts.is_empty() {
            return Default::default();
        }
        match presence.online_elsewhere(accounts).await {
            Ok(online) => online,
            Err(e) => {
                tracing::warn!("cannot read who is online on the other nodes: {e}");
                Default::default()
            }
        }
    }

    /// Runs `query` on the accounts' connection.
    async fn db<T: Send + 'static>(
        &self,
        query: impl FnOnce(&mut dominion_store::Accounts) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, Refused> {
        let (tx, rx) = oneshot::channel();
        self.db
            .try_send(Box::new(move |store| {
                let _ = tx.send(query(store));
            }))
            .map_err(|e| match e {
                std::sync::mpsc::TrySendError::Full(_) => {
                    Refused::new("busy", "the server is busy; try again in a moment")
                }
                std::sync::mpsc::TrySendError::Disconnected(_) => internal("the store is closed"),
            })?;
        match rx.await {
            Ok(Ok(t)) => Ok(t),
            Ok(Err(e)) => {
                tracing::error!("accounts store: {e}");
                Err(internal("the store could not be read or written"))
            }
            Err(_) => Err(internal("the store is closed")),
        }
    }

    /// Runs `work` (hashing) on the bounded pool.
    async fn hashing<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Refused> {
        let limit = usize::from(self.config.hash_threads.max(1)) * HASH_QUEUE_PER_THREAD;
        if self.hash_waiting.fetch_add(1, Ordering::SeqCst) >= limit {
            self.hash_waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(Refused::new(
                "busy",
                "too many sign-ins at once; try again in a moment",
            ));
        }
        let permit = self.hashing.clone().acquire_owned().await;
        self.hash_waiting.fetch_sub(1, Ordering::SeqCst);
        let permit = permit.map_err(|_| internal("hashing stopped"))?;
        let done = tokio::task::spawn_blocking(move || {
            let t = work();
            drop(permit);
            t
        })
        .await;
        done.map_err(|_| internal("hashing failed"))
    }

    async fn hash(&self, password: String) -> Result<String, Refused> {
        let cost = self.cost;
        self.hashing(move || password::hash(&password, cost))
            .await?
            .map_err(|e| {
                tracing::error!("password hashing: {e}");
                internal("the password could not be hashed")
            })
    }

    async fn verify(&self, password: String, stored: String) -> Result<bool, Refused> {
        self.hashing(move || password::verify(&password, &stored))
            .await
    }

    async fn new_session(&self, account: AccountRow) -> Result<NewSession, Refused> {
        let (cookie, hash) = new_secret("")?;
        let now = now_secs();
        let expires = now + i64::from(self.config.session_days) * 86_400;
        let id = self
            .db(move |s| s.create_session(account.id, &hash, now, expires))
            .await?;
        Ok(NewSession {
            cookie,
            signed_in: SignedIn {
                account,
                credential: Credential::Session(id),
            },
        })
    }

    /// `POST /api/accounts`.
    pub async fn register(
        &self,
        name: &str,
        password: String,
        peer: Option<IpAddr>,
    ) -> Result<NewSession, Refused> {
        let name = crate::convert::from_wire::player_name(name)
            .map_err(|r| Refused::new("bad_name", r.message))?;
        password::acceptable(&password).map_err(|why| Refused::new("weak_password", why))?;
        let key = peer.map(address_key);
        let now = Instant::now();
        let shared = self.shared.get();
        let label = key.map(|k| k.ip().to_string()).unwrap_or_default();
        let wait = match &key {
            Some(key) => self.registrations.blocked(key, &label, shared, now).await,
            None => None,
        };
        if let Some(wait) = wait {
            return Err(Refused {
                retry_after: Some(wait),
                ..Refused::new(
                    "too_many_registrations",
                    format!(
                        "your address registered {} accounts within the hour; try again later",
                        self.config.registrations_per_address
                    ),
                )
            });
        }
        let folded = names::fold(&name);
        let taken = {
            let folded = folded.clone();
            self.db(move |s| s.account_by_folded(&folded)).await?
        };
        if taken.is_some() || house::reserved(&folded) {
            return Err(name_taken(&name));
        }
        if let Some(key) = key {
            self.registrations.count(key, &label, shared, now).await;
        }
        let hash = self.hash(password).await?;
        let created = {
            let name = name.clone();
            self.db(move |s| s.create_account(&name, &folded, &hash, false, now_secs()))
                .await?
        };
        match created {
            dominion_store::Created::NameTaken => Err(name_taken(&name)),
            dominion_store::Created::Account(account) => {
                tracing::info!(account = account.id, "account registered");
                self.new_session(account).await
            }
        }
    }

    /// `POST /api/session`: the same answer, after the same work, for an unknown name
    /// and a wrong password.
    pub async fn sign_in(
        &self,
        name: &str,
        password: String,
        peer: Option<IpAddr>,
    ) -> Result<NewSession, Refused> {
        let name: String = name.trim().chars().take(64).collect();
        let folded = names::fold(&name);
        let key = peer.map(address_key);
        let now = Instant::now();
        let shared = self.shared.get();
        let label = key.map(|k| k.ip().to_string()).unwrap_or_default();
        let blocked = {
            let by_address = match &key {
                Some(k) => {
                    self.sign_ins_by_address
                        .blocked(k, &label, shared, now)
                        .await
                }
                None => None,
            };
            let by_name = self
                .sign_ins_by_name
                .blocked(&folded, &folded, shared, now)
                .await;
            by_address.max(by_name)
        };
        if let Some(wait) = blocked {
            return Err(Refused {
                retry_after: Some(wait),
                ..Refused::new(
                    "too_many_sign_ins",
                    format!(
                        "too many failed sign-ins; try again in {} minutes",
                        wait.as_secs().div_ceil(60).max(1)
                    ),
                )
            });
        }
        let account = {
            let folded = folded.clone();
            self.db(move |s| s.account_by_folded(&folded)).await?
        };
        // A house bot's account has no password: the same work as for an unknown name.
        let stored = account
            .as_ref()
            .filter(|a| !house::is_house(a))
            .map_or_else(|| self.dummy_hash.clone(), |a| a.password_hash.clone());
        let password = if password.len() > password::MAX_BYTES {
            String::new()
        } else {
            password
        };
        let ok = self.verify(password, stored).await? && account.is_some();
        let Some(account) = account.filter(|_| ok) else {
            if let Some(key) = key {
                self.sign_ins_by_address
                    .count(key, &label, shared, now)
                    .await;
            }
            let name = folded.clone();
            self.sign_ins_by_name
                .count(name, &folded, shared, now)
                .await;
            return Err(wrong_credentials());
        };
        if account.banned_at.is_some() {
            return Err(Refused::new("banned", "this account is banned"));
        }
        if account.bot {
            return Err(Refused::new(
                "bot_account",
                "a bot account signs in only with API tokens",
            ));
        }
        self.new_session(account).await
    }

    /// Who a session cookie signs in, if it is a live session of an account in good
    /// standing.
    pub async fn by_cookie(&self, cookie: &str) -> Result<Option<SignedIn>, Refused> {
        if cookie.is_empty() || cookie.len() > 64 {
            return Ok(None);
        }
        let hash = secret_hash(cookie);
        let found = self.db(move |s| s.session(&hash, now_secs())).await?;
        Ok(found
            .filter(|(_, a)| a.banned_at.is_none())
            .map(|(session, account)| SignedIn {
                account,
                credential: Credential::Session(session.id),
            }))
    }

    /// Who an API token signs in, if it is live and its account in good standing.
    pub async fn by_token(&self, token: &str) -> Result<Option<SignedIn>, Refused> {
        if !token.starts_with(TOKEN_PREFIX) || token.len() > 80 {
            return Ok(None);
        }
        let hash = secret_hash(token);
        let found = self.db(move |s| s.token(&hash, now_secs())).await?;
        Ok(found
            .filter(|(_, a)| a.banned_at.is_none())
            .map(|(token, account)| SignedIn {
                account,
                credential: Credential::Token(token.id),
            }))
    }

    /// The account a link from another node of the cluster vouches for, if it is in good
    /// standing.
    pub async fn by_link(&self, account: i64) -> Result<Option<SignedIn>, Refused> {
        let found = self.db(move |s| s.account_by_id(account)).await?;
        Ok(found
            .filter(|a| a.banned_at.is_none())
            .map(|account| SignedIn {
                account,
                credential: Credential::Link,
            }))
    }

    /// `DELETE /api/session`.
    pub async fn sign_out(&self, who: &SignedIn) -> Result<(), Refused> {
        if let Credential::Session(id) = who.credential {
            let account = who.account.id;
            self.db(move |s| s.delete_session(account, id)).await?;
            self.live
                .close(account, |c| c == Credential::Session(id), "signed out");
        }
        Ok(())
    }

    /// `PUT /api/me/password`: every other session ends (and its connections close).
    pub async fn change_password(
        &self,
        who: &SignedIn,
        old: String,
        new: String,
    ) -> Result<(), Refused> {
        password::acceptable(&new).map_err(|why| Refused::new("weak_password", why))?;
        let account = who.account.id;
        let stored = self
            .db(move |s| s.account_by_id(account))
            .await?
            .ok_or_else(|| Refused::new("not_signed_in", "the account no longer exists"))?
            .password_hash;
        if old.len() > password::MAX_BYTES || !self.verify(old, stored).await? {
            return Err(Refused::new(
                "wrong_password",
                "the current password is wrong",
            ));
        }
        let hash = self.hash(new).await?;
        let keep = match who.credential {
            Credential::Session(id) => Some(id),
            Credential::Token(_) | Credential::Link => None,
        };
        self.db(move |s| s.set_password(account, &hash)).await?;
        let ended = self
            .db(move |s| s.delete_other_sessions(account, keep))
            .await?;
        self.live.close(
            account,
            |c| matches!(c, Credential::Session(id) if ended.contains(&id)),
            "the password was changed",
        );
        Ok(())
    }

    pub async fn me(&self, who: &SignedIn) -> wire::Me {
        me(&who.account)
    }

    /// `POST /api/me/bot`: the account becomes a bot account (as Lichess's BOT accounts),
    /// only before it has played a game. From then on it signs in with API tokens only:
    /// its sessions end.
    pub async fn become_bot(&self, who: &SignedIn) -> Result<(), Refused> {
        let account = who.account.id;
        let played = self.db(move |s| s.game_count(account)).await?;
        if played > 0 {
            return Err(Refused::new(
                "has_played",
                "an account becomes a bot account only before it has played a game",
            ));
        }
        self.db(move |s| {
            s.set_bot(account, true)?;
            s.delete_other_sessions(account, None)
        })
        .await?;
        self.live.close(
            account,
            |c| matches!(c, Credential::Session(_)),
            "the account became a bot account",
        );
        Ok(())
    }

    /// `GET /api/me/sessions`.
    pub async fn sessions(&self, who: &SignedIn) -> Result<Vec<wire::SessionInfo>, Refused> {
        let account = who.account.id;
        let current = who.credential;
        Ok(self
            .db(move |s| s.sessions(account, now_secs()))
            .await?
            .into_iter()
            .map(|s| wire::SessionInfo {
                id: s.id,
                created: s.created_at,
                last_used: s.last_used,
                expires: s.expires_at,
                current: current == Credential::Session(s.id),
            })
            .collect())
    }

    /// `DELETE /api/me/sessions/{id}`; false when the account has no such session.
    pub async fn revoke_session(&self, who: &SignedIn, id: i64) -> Result<bool, Refused> {
        let account = who.account.id;
        let done = self.db(move |s| s.delete_session(account, id)).await?;
        self.live.close(
            account,
            |c| c == Credential::Session(id),
            "the session was ended",
        );
        Ok(done)
    }

    /// `GET /api/me/tokens`.
    pub async fn tokens(&self, who: &SignedIn) -> Result<Vec<wire::TokenInfo>, Refused> {
        let account = who.account.id;
        Ok(self
            .db(move |s| s.tokens(account))
            .await?
            .into_iter()
            .map(|t| wire::TokenInfo {
                id: t.id,
                label: t.label,
                created: t.created_at,
                last_used: t.last_used,
            })
            .collect())
    }

    /// `POST /api/me/tokens`.
    pub async fn create_token(
        &self,
        who: &SignedIn,
        label: &str,
    ) -> Result<wire::NewToken, Refused> {
        let label = label.trim().to_string();
        let chars = label.chars().count();
        if !(1..=64).contains(&chars) || label.chars().any(char::is_control) {
            return Err(Refused::new(
                "bad_request",
                "a token's label has 1 to 64 characters, none of them control characters",
            ));
        }
        let (token, hash) = new_secret(TOKEN_PREFIX)?;
        let account = who.account.id;
        let now = now_secs();
        let id = {
            let label = label.clone();
            self.db(move |s| s.create_token(account, &label, &hash, now))
                .await?
        };
        Ok(wire::NewToken {
            id,
            label,
            created: now,
            token,
        })
    }

    /// `DELETE /api/me/tokens/{id}`: its live connections close.
    pub async fn revoke_token(&self, who: &SignedIn, id: i64) -> Result<bool, Refused> {
        let account = who.account.id;
        let done = self
            .db(move |s| s.revoke_token(account, id, now_secs()))
            .await?;
        self.live.close(
            account,
            |c| c == Credential::Token(id),
            "the token was revoked",
        );
        Ok(done)
    }

    /// The account registered under a name that folds like `name`, if any.
    pub async fn registered(&self, name: &str) -> Result<Option<AccountRow>, Refused> {
        let folded = names::fold(name);
        self.db(move |s| s.account_by_folded(&folded)).await
    }

    /// The account registered under `name` (folded), or `unknown_player`: for the
    /// requests that name another player (block, follow, a profile).
    pub async fn player(&self, name: &str) -> Result<AccountRow, Refused> {
        self.registered(name).await?.ok_or_else(unknown_player)
    }

    /// `GET /api/me/blocks`.
    pub async fn blocks(&self, who: &SignedIn) -> Result<Vec<String>, Refused> {
        let account = who.account.id;
        self.db(move |s| s.blocks(account)).await
    }

    /// `PUT /api/me/blocks/{name}` (`block`) and `DELETE` (`!block`).
    pub async fn set_block(&self, who: &SignedIn, name: &str, block: bool) -> Result<(), Refused> {
        let other = self.player(name).await?;
        let account = who.account.id;
        if block && other.id == account {
            return Err(Refused::new("bad_request", "you cannot block yourself"));
        }
        let names = self
            .db(move |s| {
                if block {
                    s.block(account, other.id, now_secs())?;
                } else {
                    s.unblock(account, other.id)?;
                }
                s.blocks(account)
            })
            .await?;
        // The account's open connections stop (or start again) showing that player's
        // chat at once.
        self.live.set_blocked(account, &names);
        Ok(())
    }

    /// `POST /api/reports`: keeps a chat line, as the room quoted it, for operators
    /// (`dominion-server admin reports`).
    pub async fn report(
        &self,
        who: &SignedIn,
        room: String,
        line: u64,
        quoted: (String, String),
        reason: Option<String>,
    ) -> Result<i64, Refused> {
        if reason.as_ref().is_some_and(|r| r.chars().count() > 500) {
            return Err(Refused::new(
                "bad_request",
                "a report's reason has at most 500 characters",
            ));
        }
        let reporter = who.account.id;
        let (speaker, text) = quoted;
        let line = i64::try_from(line).unwrap_or(i64::MAX);
        self.db(move |s| {
            s.add_report(
                &room,
                line,
                &text,
                &speaker,
                Some(reporter),
                reason.as_deref(),
                now_secs(),
            )
        })
        .await
    }

    /// `GET /api/players/{name}`.
    pub async fn profile(&self, name: &str) -> Result<wire::Profile, Refused> {
        let account = self.player(name).await?;
        let id = account.id;
        let (count, games) = self
            .db(move |s| Ok((s.game_count(id)?, s.games(id, PROFILE_GAMES)?)))
            .await?;
        let mut found = profile(&account, count, &games);
        found.ratings = self.ratings_of(id).await?;
        Ok(found)
    }

    /// `DELETE /api/me`: needs the password; the account's games stay, its seats renamed
    /// `deleted player N`.
    pub async fn delete(&self, who: &SignedIn, password: String) -> Result<(), Refused> {
        let account = who.account.id;
        let stored = self
            .db(move |s| s.account_by_id(account))
            .await?
            .ok_or_else(|| Refused::new("not_signed_in", "the account no longer exists"))?
            .password_hash;
        if password.len() > password::MAX_BYTES || !self.verify(password, stored).await? {
            return Err(Refused::new("wrong_password", "the password is wrong"));
        }
        let placeholder = format!("deleted player {account}");
        self.db(move |s| s.delete_account(account, &placeholder))
            .await?;
        self.live
            .close(account, |_| true, "the account was deleted");
        tracing::info!(account, "account deleted");
        Ok(())
    }

    /// `GET /api/me/data`: the account (no hashes), its sessions and tokens (no
    /// secrets), its blocks, card preferences and follows, and every game it played.
    pub async fn data(&self, who: &SignedIn) -> Result<serde_json::Value, Refused> {
        let id = who.account.id;
        let (sessions, tokens, blocks, games) = self
            .db(move |s| {
                Ok((
                    s.sessions(id, now_secs())?,
                    s.tokens(id)?,
                    s.blocks(id)?,
                    s.games(id, u32::MAX)?,
                ))
            })
            .await?;
        let games: Vec<serde_json::Value> = games
            .iter()
            .filter_map(|g| {
                let summary = crate::convert::record::summary(&g.game).ok()?;
                Some(serde_json::json!({
                    "id": g.game.room_id,
                    "room": g.game.room_id,
                    "finished": g.game.finished_at,
                    "seat": g.seat,
                    "result": result_of(&summary, g.seat),
                    "seats": summary.seats,
                    "scores": summary.scores,
                }))
            })
            .collect();
        let social = self.social_data(id).await?;
        Ok(serde_json::json!({
            "account": me(&who.account),
            "sessions": sessions.iter().map(|s| serde_json::json!({
                "created": s.created_at, "last_used": s.last_used, "expires": s.expires_at,
            })).collect::<Vec<_>>(),
            "tokens": tokens.iter().map(|t| serde_json::json!({
                "label": t.label, "created": t.created_at, "last_used": t.last_used,
            })).collect::<Vec<_>>(),
            "blocks": blocks,
            "cards": social["cards"],
            "following": social["following"],
            "games": games,
        }))
    }

    /// Links a seat a signed-in player took to their account (for their profile).
    pub async fn link_seat(&self, room: String, seat: u8, who: &SignedIn) {
        let account = who.account.id;
        let name = who.account.name.clone();
        if let Err(e) = self
            .db(move |s| s.link_seat(&room, seat, account, &name))
            .await
        {
            tracing::warn!(account, "a seat could not be linked: {}", e.message);
        }
    }

    /// Closes live connections whose account was banned or deleted, or whose session or
    /// token ended, on any node: each node runs this every few seconds.
    pub async fn sweep(&self) {
        for account in self.live.accounts() {
            let found = self
                .db(move |s| {
                    let row = s.account_by_id(account)?;
                    let sessions: Vec<i64> = s
                        .sessions(account, now_secs())?
                        .iter()
                        .map(|x| x.id)
                        .collect();
                    let tokens: Vec<i64> = s.tokens(account)?.iter().map(|x| x.id).collect();
                    Ok((row, sessions, tokens))
                })
                .await;
            let Ok((row, sessions, tokens)) = found else {
                continue;
            };
            match row {
                None => {
                    self.live
                        .close(account, |_| true, "the account was deleted");
                }
                Some(a) if a.banned_at.is_some() => {
                    self.live.close(account, |_| true, "banned");
                }
                Some(_) => {
                    self.live.close(
                        account,
                        |c| match c {
                            Credential::Session(id) => !sessions.contains(&id),
                            Credential::Token(id) => !tokens.contains(&id),
                            Credential::Link => false,
                        },
                        "signed out",
                    );
                }
            }
        }
    }

    /// Measures one hash with the configured parameters (the `hash-cost` tool): the
    /// mean wall-clock time and the mean CPU time of this thread per hash. The CPU time
    /// is the cost (what a core spends); the wall time grows when the machine is busy.
    pub fn measure(cost: password::Cost, rounds: u32) -> Result<(Duration, Duration), String> {
        let rounds = rounds.max(1);
        let (start, cpu) = (std::time::Instant::now(), thread_cpu());
        for _ in 0..rounds {
            password::hash("a password of some length", cost)?;
        }
        Ok((
            start.elapsed() / rounds,
            thread_cpu().saturating_sub(cpu) / rounds,
        ))
    }
}

/// The CPU time this thread has used.
fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(
        t.tv_sec.max(0) as u64,
        t.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

fn name_taken(name: &str) -> Refused {
    Refused::new(
        "name_taken",
        format!("{name:?} is taken (or looks too much like a registered name); choose another"),
    )
}

fn unknown_player() -> Refused {
    Refused::new("unknown_player", "no player is registered under that name")
}

fn me(a: &AccountRow) -> wire::Me {
    wire::Me {
        name: a.name.clone(),
        bot: a.bot,
        created: a.created_at,
    }
}

/// How the game went for `seat`.
fn result_of(g: &wire::GameSummary, seat: u8) -> wire::ProfileResult {
    let Some(scores) = g
        .scores
        .as_ref()
        .filter(|_| g.outcome == wire::GameOutcome::Finished)
    else {
        return wire::ProfileResult::Abandoned;
    };
    let winners = scores.iter().filter(|l| l.winner).count();
    match scores.iter().find(|l| l.seat == seat) {
        Some(l) if l.winner && winners > 1 => wire::ProfileResult::Tie,
        Some(l) if l.winner => wire::ProfileResult::Win,
        _ => wire::ProfileResult::Loss,
    }
}

/// The level a bot name is offered as, if it is one of the levels.
fn level(bot: &str) -> Option<&'static str> {
    match bot {
        "easy" => Some("easy"),
        "standard" => Some("standard"),
        "search" => Some("hard"),
        _ => None,
    }
}

fn profile(a: &AccountRow, count: u64, games: &[dominion_store::AccountGame]) -> wire::Profile {
    let mut recent = Vec::new();
    let mut vs: Vec<wire::BotRecord> = ["easy", "standard", "hard"]
        .iter()
        .map(|l| wire::BotRecord {
            level: l.to_string(),
            games: 0,
            wins: 0,
        })
        .collect();
    for g in games {
        let summary = match crate::convert::record::summary(&g.game) {
            Ok(s) => s,
            Err(e) => {
                tracing::error!(room = %g.game.room_id, "profile: {e}");
                continue;
            }
        };
        let result = result_of(&summary, g.seat);
        if recent.len() < RECENT_GAMES {
            recent.push(wire::ProfileGame {
                game: g.game.room_id.clone(),
                room: g.game.room_id.clone(),
                finished: g.game.finished_at,
                result,
                players: summary
                    .seats
                    .iter()
                    .map(|s| match &s.bot {
                        Some(bot) if s.name.is_empty() => bot.clone(),
                        _ => s.name.clone(),
                    })
                    .collect(),
                replay: format!("/replay/{}", g.game.room_id),
            });
        }
        let mut levels: Vec<&str> = summary
            .seats
            .iter()
            .filter_map(|s| s.bot.as_deref().and_then(level))
            .collect();
        levels.sort_unstable();
        levels.dedup();
        for l in levels {
            if let Some(r) = vs.iter_mut().find(|r| r.level == l) {
                r.games += 1;
                if result == wire::ProfileResult::Win {
                    r.wins += 1;
                }
            }
        }
    }
    wire::Profile {
        name: a.name.clone(),
        bot: a.bot,
        created: a.created_at,
        games: count,
        recent,
        vs_bots: vs,
        ratings: Vec::new(),
    }
}
