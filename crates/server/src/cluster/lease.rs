//! Room leases in Redis, and the fencing tokens that make them safe.
//!
//! A room's lease is the key `dominion:owner:<room>` holding `<node>|<token>`, set with
//! an expiry (`--lease`) and renewed by its node every third of it. The token comes from
//! `dominion:fence:<room>`, a counter that only grows: every new lease of a room has a
//! larger token than any before. Each step is one Lua script, so Redis runs it
//! atomically: *acquire* sets the lease only if none exists; *renew* and *release* touch
//! it only if it still holds our value (a lease that expired and was taken by another
//! node is never extended or deleted by the old one).
//!
//! A lease alone cannot stop two nodes writing: a node paused longer than its lease (a
//! GC-like stall, a network partition) still believes it owns the room. Safety therefore
//! rests on the database, not on Redis: the new owner *claims* the room in the store with
//! its token before it reads the log, and the store refuses every write carrying an
//! older token (see `dominion_store`'s fencing). Redis only decides who should run a
//! room; PostgreSQL decides whose writes count.
//!
//! The claim raises the room's token in `room_fences` (only ever upwards; every claim is
//! kept in `room_claims`), and each write of the room carries its node's token and is
//! applied only if that is still the room's — checked in the write's own transaction,
//! with the fence row locked. So once a new owner's claim commits, the old owner's
//! writes fail; before it, they are in the log the new owner then reads. A room answers
//! a reply only after its write commits, so every acknowledged reply is either in the
//! log the new owner replays or was never acknowledged. Each reply also records the
//! node and token that wrote it, so the chaos test can check that a room's writers
//! follow its claims.

use redis::Script;
use redis::aio::ConnectionManager;
use std::time::Duration;

/// Every key this server writes starts with this.
pub const PREFIX: &str = "dominion:";

pub fn owner_key(room: &str) -> String {
    format!("{PREFIX}owner:{room}")
}

pub fn fence_key(room: &str) -> String {
    format!("{PREFIX}fence:{room}")
}

pub fn node_key(node: &str) -> String {
    format!("{PREFIX}node:{node}")
}

/// The value of a held lease.
pub fn lease_value(node: &str, token: i64) -> String {
    format!("{node}|{token}")
}

/// Reads a lease value back: (node, token).
pub fn parse_lease(value: &str) -> Option<(&str, i64)> {
    let (node, token) = value.rsplit_once('|')?;
    Some((node, token.parse().ok()?))
}

/// Takes the lease if nobody holds it: returns the new token, or nil.
const ACQUIRE: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 then return false end
local t = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. t, 'PX', ARGV[2])
return t
";

/// Extends the lease if it is still ours: 1, else 0.
const RENEW: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
";

/// Deletes the lease if it is still ours: 1, else 0.
const RELEASE: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
";

/// Raises the token counter to at least `ARGV[1]` (after Redis lost its data, the store
/// remembers higher tokens than the counter).
const RAISE: &str = r"
local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return 1
";

pub struct Leases {
    acquire: Script,
    renew: Script,
    release: Script,
    raise: Script,
}

impl Default for Leases {
    fn default() -> Self {
        Leases {
            acquire: Script::new(ACQUIRE),
            renew: Script::new(RENEW),
            release: Script::new(RELEASE),
            raise: Script::new(RAISE),
        }
    }
}

fn millis(d: Duration) -> u64 {
    d.as_millis().clamp(1, u64::MAX as u128) as u64
}

impl Leases {
    /// The token of a lease just taken for `node`, or None if another node holds one.
    pub async fn acquire(
        &self,
        redis: &mut ConnectionManager,
        room: &str,
        node: &str,
        ttl: Duration,
    ) -> redis::RedisResult<Option<i64>> {
        self.acquire
            .key(owner_key(room))
            .key(fence_key(room))
            .arg(node)
            .arg(millis(ttl))
            .invoke_async(redis)
            .await
    }

    /// Whether the lease is still ours (and now extended).
    pub async fn renew(
        &self,
        redis: &mut ConnectionManager,
        room: &str,
        node: &str,
        token: i64,
        ttl: Duration,
    ) -> redis::RedisResult<bool> {
        let n: i64 = self
            .renew
            .key(owner_key(room))
            .arg(lease_value(node, token))
            .arg(millis(ttl))
            .invoke_async(redis)
            .await?;
        Ok(n == 1)
    }

    pub async fn release(
        &self,
        redis: &mut ConnectionManager,
        room: &str,
        node: &str,
        token: i64,
    ) -> redis::RedisResult<()> {
        let _: i64 = self
            .release
            .key(owner_key(room))
            .arg(lease_value(node, token))
            .invoke_async(redis)
            .await?;
        Ok(())
    }

    pub async fn raise(
        &self,
        redis: &mut ConnectionManager,
        room: &str,
        at_least: i64,
    ) -> redis::RedisResult<()> {
        let _: i64 = self
            .raise
            .key(fence_key(room))
            .arg(at_least)
            .invoke_async(redis)
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lease_value_reads_back() {
        assert_eq!(
            parse_lease(&lease_value("node-a", 42)),
            Some(("node-a", 42))
        );
        assert_eq!(parse_lease("a|b|7"), Some(("a|b", 7)));
        assert_eq!(parse_lease("no-token"), None);
        assert_eq!(parse_lease("n|x"), None);
    }
}
