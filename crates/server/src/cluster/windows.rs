//! The cluster's shared counting windows ([`SharedWindows`]) in Redis: one key per
//! counted thing (`dominion:window:` + the accounts' key), incremented atomically and
//! given its expiry by the first count, so every node sees the same failed sign-ins
//! and registrations. Each call is bounded in time: a slow or lost Redis makes the
//! caller fall back to its own node's counts rather than wait.

use crate::budget::SharedWindows;
use futures_util::future::BoxFuture;
use redis::Script;
use redis::aio::ConnectionManager;
use std::time::Duration;

/// How long one call may take before the caller goes on with its own counts.
const BOUND: Duration = Duration::from_millis(500);

/// Counts one; the first count of a window sets its expiry.
const COUNT_LUA: &str = r"
local n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('PTTL', KEYS[1]) < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return n
";

/// The count and the milliseconds left, or nothing.
const GET_LUA: &str = r"
local n = redis.call('GET', KEYS[1])
if not n then return {} end
return {tonumber(n), redis.call('PTTL', KEYS[1])}
";

static COUNT: std::sync::LazyLock<Script> = std::sync::LazyLock::new(|| Script::new(COUNT_LUA));
static GET: std::sync::LazyLock<Script> = std::sync::LazyLock::new(|| Script::new(GET_LUA));

pub struct RedisWindows {
    pub(super) redis: ConnectionManager,
}

fn key(k: &str) -> String {
    format!("{}window:{k}", super::lease::PREFIX)
}

impl SharedWindows for RedisWindows {
    fn count(&self, k: String, window: Duration) -> BoxFuture<'static, Result<(), String>> {
        let mut redis = self.redis.clone();
        Box::pin(async move {
            let mut invocation = COUNT.key(key(&k));
            invocation.arg(window.as_millis().max(1) as u64);
            let call = invocation.invoke_async::<i64>(&mut redis);
            match tokio::time::timeout(BOUND, call).await {
                Ok(Ok(_)) => Ok(()),
                Ok(Err(e)) => Err(e.to_string()),
                Err(_) => Err("Redis did not answer in time".to_string()),
            }
        })
    }

    fn get(&self, k: String) -> BoxFuture<'static, Result<Option<(u32, Duration)>, String>> {
        let mut redis = self.redis.clone();
        Box::pin(async move {
            let invocation = GET.key(key(&k));
            let call = invocation.invoke_async::<Vec<i64>>(&mut redis);
            match tokio::time::timeout(BOUND, call).await {
                Ok(Ok(v)) => Ok(match v[..] {
                    [n, ms] if ms > 0 => Some((
                        u32::try_from(n).unwrap_or(u32::MAX),
                        Duration::from_millis(ms as u64),
                    )),
                    _ => None,
                }),
                Ok(Err(e)) => Err(e.to_string()),
                Err(_) => Err("Redis did not answer in time".to_string()),
            }
        })
    }
}
