//! Which rooms this node may write, and under which fencing token.
//!
//! With several nodes on one database a room belongs to one node at a time, under a
//! lease; the node claims it in the store with the lease's fencing token
//! (`DurableLog::claim`), and every write of the room then carries that token, which the
//! store checks in the write's own transaction. The table here is what the log consults
//! when a room submits a write: with fencing on, a room's write gets the room's fence,
//! and a room without one gets `LogError::Fenced` at once, without writing — the node
//! lost (or never had) the room, and must not write into it.
//!
//! The invariant: a write under a fence is the owner's or nothing. A refusal comes back
//! as `LogError::Fenced`, which is not a failure of the room — another node owns it now;
//! the room closes its viewers with 1012 and stops, writing nothing more.
//!
//! Off by default: a single server writes without fences, exactly as before there were
//! clusters.

use crate::gamelog::LogError;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

pub use dominion_store::Fence;

#[derive(Default)]
pub struct Fences {
    on: AtomicBool,
    rooms: Mutex<HashMap<String, Fence>>,
}

impl Fences {
    /// Fencing on: from now on every room's write needs the room's fence.
    pub fn enable(&self) {
        self.on.store(true, Ordering::SeqCst);
    }

    pub fn is_on(&self) -> bool {
        self.on.load(Ordering::SeqCst)
    }

    /// The room's writes carry `fence` from now on.
    pub fn set(&self, room: &str, fence: Fence) {
        self.lock().insert(room.to_string(), fence);
    }

    /// The room is no longer this node's: with fencing on, its writes are refused here.
    pub fn remove(&self, room: &str) -> Option<Fence> {
        self.lock().remove(room)
    }

    pub fn get(&self, room: &str) -> Option<Fence> {
        self.lock().get(room).cloned()
    }

    /// The fence a write of `room` is submitted with: none with fencing off, the room's
    /// with fencing on, and for a room without one the refusal.
    pub fn for_write(&self, room: &str) -> Result<Option<Fence>, LogError> {
        if !self.is_on() {
            return Ok(None);
        }
        match self.get(room) {
            Some(fence) => Ok(Some(fence)),
            None => Err(LogError::Fenced {
                room: room.to_string(),
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Fence>> {
        // The map is whole after any panic (each operation is one call on it).
        self.rooms.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_by_default_then_a_room_writes_only_under_its_fence() {
        let fences = Fences::default();
        assert_eq!(fences.for_write("r").unwrap(), None, "off: no fence needed");
        fences.enable();
        assert!(matches!(
            fences.for_write("r"),
            Err(LogError::Fenced { room }) if room == "r"
        ));
        let fence = Fence {
            node: "a".into(),
            token: 3,
        };
        fences.set("r", fence.clone());
        assert_eq!(fences.for_write("r").unwrap(), Some(fence.clone()));
        assert_eq!(fences.remove("r"), Some(fence));
        assert!(fences.for_write("r").is_err());
    }
}
