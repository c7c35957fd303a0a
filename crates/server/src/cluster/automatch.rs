//! The automatch queue every node of a cluster shares, in Redis: the
//! `matchmaking::shared::SharedQueue` the nodes' automatch services drive
//! (`net::automatch::cluster`). Keys, all under `dominion:automatch:`:
//!
//! - `instance`: a counter; each node's service takes a number from it once.
//! - `alive:<n>`: instance `n`'s announcement, with an expiry its node renews.
//! - `requests`: the list of every node's requests, oldest first.
//! - `leader` (`<instance>|<token>`, with an expiry) and `fence`, the counter its tokens
//!   come from — the room leases' pattern (`lease.rs`): a new leader's token is larger
//!   than any before.
//! - `state` (the leader's whole state, as text) and `members` (the set of connection
//!   keys in it), written together by [`COMMIT`], which also removes the requests the
//!   step consumed.
//! - `to:<n>`: the channel of instance `n`'s messages.
//!
//! Exactly once: [`COMMIT`] runs atomically, refuses a token that is not the newest
//! (`fence`), and refuses a step that claims a key absent from `members` — so of two
//! would-be leaders making the same match at the same moment, at most one commits it,
//! and only a committed match gets a room.

use super::lease::PREFIX;
use crate::matchmaking::shared::{Commit, Refused, SharedQueue};
use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use futures_util::stream::BoxStream;
use redis::Script;
use redis::aio::ConnectionManager;
use std::sync::LazyLock;
use std::time::Duration;

fn key(rest: &str) -> String {
    format!("{PREFIX}automatch:{rest}")
}

fn channel(instance: u64) -> String {
    key(&format!("to:{instance}"))
}

/// Takes the lead if nobody holds it, or extends ours: the token, or nil.
const LEAD: &str = r"
local held = redis.call('GET', KEYS[1])
if held then
  if ARGV[3] ~= '' and held == ARGV[1] .. '|' .. ARGV[3] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return tonumber(ARGV[3])
  end
  return false
end
local t = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. t, 'PX', ARGV[2])
return t
";

const RESIGN: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
";

/// KEYS: fence, state, members, requests. ARGV: token, state, consumed, the number of
/// claims, the claims, then the keys. 1: committed; 0: fenced; -1: a claim is not a
/// member.
const COMMIT: &str = r"
if tonumber(redis.call('GET', KEYS[1]) or '0') ~= tonumber(ARGV[1]) then return 0 end
local claims = tonumber(ARGV[4])
for i = 5, 4 + claims do
  if redis.call('SISMEMBER', KEYS[3], ARGV[i]) == 0 then return -1 end
end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('DEL', KEYS[3])
for i = 5 + claims, #ARGV do
  redis.call('SADD', KEYS[3], ARGV[i])
end
local consumed = tonumber(ARGV[3])
if consumed > 0 then redis.call('LTRIM', KEYS[4], consumed, -1) end
return 1
";

static LEAD_SCRIPT: LazyLock<Script> = LazyLock::new(|| Script::new(LEAD));
static RESIGN_SCRIPT: LazyLock<Script> = LazyLock::new(|| Script::new(RESIGN));
static COMMIT_SCRIPT: LazyLock<Script> = LazyLock::new(|| Script::new(COMMIT));

pub struct RedisQueue {
    pub(super) redis: ConnectionManager,
    pub(super) client: redis::Client,
}

fn text(e: redis::RedisError) -> String {
    e.to_string()
}

impl SharedQueue for RedisQueue {
    fn instance(&self) -> BoxFuture<'_, Result<u64, String>> {
        let mut redis = self.redis.clone();
        Box::pin(async move {
            redis::cmd("INCR")
                .arg(key("instance"))
                .query_async(&mut redis)
                .await
                .map_err(text)
        })
    }

    fn announce(&self, instance: u64, ttl: Duration) -> BoxFuture<'_, Result<(), String>> {
        let mut redis = self.redis.clone();
        Box::pin(async move {
            redis::cmd("SET")
                .arg(key(&format!("alive:{instance}")))
                .arg(1)
                .arg("PX")
                .arg(ttl.as_millis().max(1) as u64)
                .query_async(&mut redis)
                .await
                .map_err(text)
        })
    }

    fn alive(&self, instances: Vec<u64>) -> BoxFuture<'_, Result<Vec<bool>, String>> {
        let mut redis = self.redis.clone();
        Box::pin(async move {
            if instances.is_empty() {
                return Ok(Vec::new());
            }
            let keys: Vec<String> = instances
                .iter()
                .map(|i| key(&format!("alive:{i}")))
                .collect();
            let found: Vec<Option<String>> = redis::cmd("MGET")
                .arg(keys)
                .query_async(&mut redis)
                .await
                .map_err(text)?;
            Ok(found.into_iter().map(|v| v.is_some()).collect())
        })
    }

    fn push(&self, requests: Vec<String>) -> BoxFuture<'_, Result<(), String>> {
        let mut redis = self.redis.clone();
        Box::pin(async move {
            if requests.is_empty() {
                return Ok(());
            }
            redis::cmd("RPUSH")
                .arg(key("requests"))
                .arg(requests)
                .query_async::<i64>(&mut redis)
                .await
                .map(|_| ())
                .map_err(text)
        })
    }

    fn lead(
        &self,
        instance: u64,
        held: Option<u64>,
        ttl: Duration,
    ) -> BoxFuture<'_, Result<Option<u64>, String>> {
        let mut redis = self.redis.clone();
        Box::pin(async move {
            LEAD_SCRIPT
                .key(key("leader"))
                .key(key("fence"))
                .arg(instance)
                .arg(ttl.as_millis().max(1) as u64)
                .arg(held.map(|t| t.to_string()).unwrap_or_default())
                .invoke_async(&mut redis)
                .await
                .map_err(text)
        })
    }

    fn resign(&self, instance: u64, token: u64) -> BoxFuture<'_, Result<(), String>> {
        let mut redis = self.redis.clone();
        Box::pin(async move {
            RESIGN_SCRIPT
                .key(key("leader"))
                .arg(format!("{instance}|{token}"))
                .invoke_async::<i64>(&mut redis)
                .await
                .map(|_| ())
                .map_err(text)
        })
    }

    fn load(&self) -> BoxFuture<'_, Result<Option<String>, String>> {
        let mut redis = self.redis.clone();
        Box::pin(async move {
            redis::cmd("GET")
                .arg(key("state"))
                .query_async(&mut redis)
                .await
                .map_err(text)
        })
    }

    fn requests(&self, max: usize) -> BoxFuture<'_, Result<Vec<String>, String>> {
        let mut redis = self.redis.clone();
        Box::pin(async move {
            redis::cmd("LRANGE")
                .arg(key("requests"))
                .arg(0)
                .arg(max.max(1) as i64 - 1)
                .query_async(&mut redis)
                .await
                .map_err(text)
        })
    }

    fn commit(
        &self,
        token: u64,
        commit: Commit,
    ) -> BoxFuture<'_, Result<Result<(), Refused>, String>> {
        let mut redis = self.redis.clone();
        Box::pin(async move {
            let mut invocation = COMMIT_SCRIPT.prepare_invoke();
            invocation
                .key(key("fence"))
                .key(key("state"))
                .key(key("members"))
                .key(key("requests"))
                .arg(token)
                .arg(commit.state)
                .arg(commit.consumed)
                .arg(commit.claims.len())
                .arg(commit.claims)
                .arg(commit.keys);
            let n: i64 = invocation.invoke_async(&mut redis).await.map_err(text)?;
            Ok(match n {
                1 => Ok(()),
                0 => Err(Refused::Fenced),
                _ => Err(Refused::Claimed),
            })
        })
    }

    fn publish(&self, messages: Vec<(u64, String)>) -> BoxFuture<'_, Result<(), String>> {
        let mut redis = self.redis.clone();
        Box::pin(async move {
            if messages.is_empty() {
                return Ok(());
            }
            let mut pipe = redis::pipe();
            for (instance, text) in messages {
                pipe.publish(channel(instance), text).ignore();
            }
            pipe.query_async::<()>(&mut redis).await.map_err(text)
        })
    }

    fn subscribe(
        &self,
        instance: u64,
    ) -> BoxFuture<'_, Result<BoxStream<'static, String>, String>> {
        let client = self.client.clone();
        Box::pin(async move {
            let mut pubsub = client.get_async_pubsub().await.map_err(text)?;
            pubsub.subscribe(channel(instance)).await.map_err(text)?;
            let stream = pubsub
                .into_on_message()
                .map(|msg| msg.get_payload::<String>().unwrap_or_default());
            Ok(stream.boxed())
        })
    }
}

#[cfg(test)]
mod tests;
