//! PLACEHOLDER until the `pg` branch lands (its version replaces this file).
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    pub node: String,
    pub token: u64,
}

#[derive(Default)]
pub struct Fences {
    on: AtomicBool,
    map: Mutex<HashMap<String, Fence>>,
}

impl Fences {
    pub fn turn_on(&self) {
        self.on.store(true, Ordering::Release);
    }
    pub fn is_on(&self) -> bool {
        self.on.load(Ordering::Acquire)
    }
    pub fn set(&self, room: &str, fence: Fence) {
        self.map.lock().unwrap().insert(room.to_string(), fence);
    }
    pub fn remove(&self, room: &str) {
        self.map.lock().unwrap().remove(room);
    }
    pub fn get(&self, room: &str) -> Option<Fence> {
        self.map.lock().unwrap().get(room).cloned()
    }
}
