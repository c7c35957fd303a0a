//! Who is signed in on which node, and invitations across nodes ([`SharedPresence`]), in
//! Redis: what lets the friends list say a friend on another node is `online`, and an
//! `invite` reach them there.
//!
//! - **Presence.** Per account one sorted set, `dominion:online:<account>`, holding the
//!   names of the nodes it is signed in on, each scored by when that node's word expires
//!   (Unix ms). Every [`REFRESH`] a node writes each of its signed-in accounts with an
//!   expiry [`TTL`] ahead (and gives the key that expiry too), and takes itself out of
//!   the accounts that left it since the last refresh; so an account is online while any
//!   node's entry is unexpired — a node that dies leaves entries that lapse within a
//!   `TTL`. Reading counts the unexpired entries of other nodes. Nodes' clocks are
//!   assumed within a few seconds of each other (the `TTL` is three refreshes).
//! - **Invitations.** An `invited` frame for an account online elsewhere is published on
//!   `dominion:invites` with the sending node's name; every node hears it and the ones
//!   holding the account's connections deliver it (the sender skips its own). The
//!   accounts layer bounds invitations before they get here (10 a minute per account,
//!   shared by the nodes) and a frame is a few hundred bytes at most.
//!
//! Every call is bounded in time ([`BOUND`]); a slow or lost Redis makes the caller
//! answer from its own node's connections, as a single node does.

use super::lease::PREFIX;
use crate::presence::{Local, SharedPresence};
use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use redis::aio::ConnectionManager;
use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How often a node writes its signed-in accounts.
pub const REFRESH: Duration = Duration::from_secs(5);
/// How long a node's word that an account is signed in there holds.
pub const TTL: Duration = Duration::from_secs(15);
/// How long one call may take before the caller goes on with its own view.
const BOUND: Duration = Duration::from_millis(500);
/// Accounts written or read per round trip.
const CHUNK: usize = 500;
/// The largest invitation frame relayed (an `invited` is far smaller).
const MAX_FRAME: usize = 4096;

fn key(account: i64) -> String {
    format!("{PREFIX}online:{account}")
}

fn channel() -> String {
    format!("{PREFIX}invites")
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Relayed {
    node: String,
    account: i64,
    frame: String,
}

pub struct RedisPresence {
    pub(super) redis: ConnectionManager,
    pub(super) node: String,
}

async fn bounded<T>(
    call: impl std::future::Future<Output = redis::RedisResult<T>>,
) -> Result<T, String> {
    match tokio::time::timeout(BOUND, call).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("Redis did not answer in time".to_string()),
    }
}

impl SharedPresence for RedisPresence {
    fn online_elsewhere(
        &self,
        accounts: Vec<i64>,
    ) -> BoxFuture<'static, Result<HashSet<i64>, String>> {
        let mut redis = self.redis.clone();
        let me = self.node.clone();
        Box::pin(async move {
            let mut online = HashSet::new();
            let now = now_ms();
            for chunk in accounts.chunks(CHUNK) {
                let mut pipe = redis::pipe();
                for a in chunk {
                    pipe.cmd("ZRANGEBYSCORE").arg(key(*a)).arg(now).arg("+inf");
                }
                let nodes: Vec<Vec<String>> = bounded(pipe.query_async(&mut redis)).await?;
                for (a, nodes) in chunk.iter().zip(nodes) {
                    if nodes.iter().any(|n| *n != me) {
                        online.insert(*a);
                    }
                }
            }
            Ok(online)
        })
    }

    fn send_elsewhere(
        &self,
        account: i64,
        frame: String,
    ) -> BoxFuture<'static, Result<(), String>> {
        let mut redis = self.redis.clone();
        let node = self.node.clone();
        Box::pin(async move {
            if frame.len() > MAX_FRAME {
                return Err("the frame is too large to relay".to_string());
            }
            let text = serde_json::to_string(&Relayed {
                node,
                account,
                frame,
            })
            .map_err(|e| e.to_string())?;
            bounded(
                redis::cmd("PUBLISH")
                    .arg(channel())
                    .arg(text)
                    .query_async::<i64>(&mut redis),
            )
            .await
            .map(|_| ())
        })
    }
}

impl RedisPresence {
    /// Writes this node's signed-in accounts every [`REFRESH`], forever.
    pub(super) async fn publish_loop(self: Arc<Self>, local: Arc<Local>) {
        let mut previous: HashSet<i64> = HashSet::new();
        loop {
            let now: HashSet<i64> = (local.accounts)().into_iter().collect();
            match self.publish(&now, &previous).await {
                Ok(()) => previous = now,
                Err(e) => tracing::warn!("cannot write who is signed in here: {e}"),
            }
            tokio::time::sleep(REFRESH).await;
        }
    }

    async fn publish(&self, now: &HashSet<i64>, previous: &HashSet<i64>) -> Result<(), String> {
        let mut redis = self.redis.clone();
        let until = now_ms() + TTL.as_millis() as u64;
        let here: Vec<i64> = now.iter().copied().collect();
        for chunk in here.chunks(CHUNK) {
            let mut pipe = redis::pipe();
            for a in chunk {
                pipe.cmd("ZADD")
                    .arg(key(*a))
                    .arg(until)
                    .arg(&self.node)
                    .ignore();
                pipe.cmd("PEXPIREAT").arg(key(*a)).arg(until).ignore();
            }
            bounded(pipe.query_async::<()>(&mut redis)).await?;
        }
        let gone: Vec<i64> = previous.difference(now).copied().collect();
        for chunk in gone.chunks(CHUNK) {
            let mut pipe = redis::pipe();
            for a in chunk {
                pipe.cmd("ZREM").arg(key(*a)).arg(&self.node).ignore();
            }
            bounded(pipe.query_async::<()>(&mut redis)).await?;
        }
        Ok(())
    }

    /// Hears the invitations other nodes relay and delivers those for accounts signed in
    /// here, forever (subscribing again after a lost connection).
    pub(super) async fn listen_loop(self: Arc<Self>, client: redis::Client, local: Arc<Local>) {
        loop {
            match client.get_async_pubsub().await {
                Ok(mut pubsub) => {
                    if pubsub.subscribe(channel()).await.is_ok() {
                        let mut messages = pubsub.on_message();
                        while let Some(msg) = messages.next().await {
                            let text: String = msg.get_payload().unwrap_or_default();
                            match serde_json::from_str::<Relayed>(&text) {
                                Ok(r) if r.node != self.node => {
                                    (local.deliver)(r.account, &r.frame);
                                }
                                Ok(_) => {}
                                Err(e) => tracing::warn!("an unreadable relayed invitation: {e}"),
                            }
                        }
                    }
                }
                Err(e) => tracing::warn!("cannot subscribe to relayed invitations: {e}"),
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }
}
