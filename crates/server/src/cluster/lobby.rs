//! The shared lobby: every node lists every room.
//!
//! Each owner keeps its rooms' summaries in the Redis hash `dominion:lobby` (field: room
//! id; value: the summary and the lease it was written under) and announces each change
//! on the `dominion:events` channel. Every node keeps a copy of the *other* nodes'
//! entries, refreshed when an announcement arrives (at most every [`DEBOUNCE`]) and every
//! [`REFRESH`] in any case, so a `list_rooms` never waits on Redis. An entry counts only
//! while the lease it names is still the room's lease: the rooms of a node that died
//! vanish from every list when their leases expire, and come back when another node
//! takes them over. Stale entries are deleted compare-and-delete, so a deletion never
//! removes what a new owner just wrote.

use super::lease::{PREFIX, owner_key};
use dominion_protocol::RoomSummary;
use redis::Script;
use redis::aio::ConnectionManager;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;

/// The hash of every node's rooms.
pub fn lobby_key() -> String {
    format!("{PREFIX}lobby")
}

/// The channel nodes announce changes on.
pub fn events_channel() -> String {
    format!("{PREFIX}events")
}

/// The shortest time between two refreshes of the copy. Each refresh reads the whole
/// hash, and every room change on any node announces itself: this bounds that work per
/// node to four reads a second, while browsers ask for the list every 3 s.
pub const DEBOUNCE: Duration = Duration::from_millis(250);
/// The longest time between two refreshes of the copy.
pub const REFRESH: Duration = Duration::from_secs(2);

/// One room in the shared hash.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Entry {
    /// The lease this entry was written under (`node|token`).
    pub lease: String,
    pub summary: RoomSummary,
}

/// Deletes a field only if it still holds the value the caller saw.
static DELETE_IF: std::sync::LazyLock<Script> =
    std::sync::LazyLock::new(|| Script::new(DELETE_IF_LUA));
const DELETE_IF_LUA: &str = r"
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
";

/// Reads the shared hash: the other nodes' live rooms, by id. Entries whose lease is no
/// longer the room's lease are deleted (if unchanged since read) and left out.
pub async fn read_others(
    redis: &mut ConnectionManager,
    node: &str,
) -> redis::RedisResult<BTreeMap<String, RoomSummary>> {
    let raw: BTreeMap<String, String> = redis::cmd("HGETALL")
        .arg(lobby_key())
        .query_async(redis)
        .await?;
    if raw.is_empty() {
        return Ok(BTreeMap::new());
    }
    let ids: Vec<&String> = raw.keys().collect();
    let leases: Vec<Option<String>> = redis::cmd("MGET")
        .arg(ids.iter().map(|id| owner_key(id)).collect::<Vec<_>>())
        .query_async(redis)
        .await?;
    let mut rooms = BTreeMap::new();
    for ((id, text), lease) in raw.iter().zip(leases) {
        let entry: Option<Entry> = serde_json::from_str(text).ok();
        let live = match (&entry, &lease) {
            (Some(e), Some(l)) => &e.lease == l,
            _ => false,
        };
        if !live {
            // Unreadable, or written under a lease that is gone: nobody runs it now.
            let _: i64 = DELETE_IF
                .key(lobby_key())
                .arg(id)
                .arg(text)
                .invoke_async(redis)
                .await?;
            continue;
        }
        if let Some(e) = entry
            && super::lease::parse_lease(&e.lease).is_some_and(|(n, _)| n != node)
        {
            rooms.insert(id.clone(), e.summary);
        }
    }
    Ok(rooms)
}

/// Writes (or rewrites) one of our rooms' entries.
pub async fn write(
    redis: &mut ConnectionManager,
    lease: &str,
    summary: &RoomSummary,
) -> redis::RedisResult<()> {
    let entry = Entry {
        lease: lease.to_string(),
        summary: summary.clone(),
    };
    let text = serde_json::to_string(&entry).map_err(|e| {
        redis::RedisError::from((redis::ErrorKind::Client, "summary", e.to_string()))
    })?;
    let _: () = redis::pipe()
        .hset(lobby_key(), &summary.id, text)
        .ignore()
        .publish(events_channel(), "lobby")
        .ignore()
        .query_async(redis)
        .await?;
    Ok(())
}

/// Deletes one of our rooms' entries if it is still the one we wrote.
pub async fn remove(
    redis: &mut ConnectionManager,
    room: &str,
    lease: &str,
) -> redis::RedisResult<()> {
    let current: Option<String> = redis::cmd("HGET")
        .arg(lobby_key())
        .arg(room)
        .query_async(redis)
        .await?;
    let Some(text) = current else { return Ok(()) };
    let ours = serde_json::from_str::<Entry>(&text).is_ok_and(|e| e.lease == lease);
    if ours {
        let _: i64 = DELETE_IF
            .key(lobby_key())
            .arg(room)
            .arg(&text)
            .invoke_async(redis)
            .await?;
        let _: i64 = redis::cmd("PUBLISH")
            .arg(events_channel())
            .arg("lobby")
            .query_async(redis)
            .await?;
    }
    Ok(())
}
