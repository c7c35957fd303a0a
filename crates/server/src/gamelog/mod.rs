//! The game log — layer three of a reply's path: what a room has durably recorded, and
//! how it is read back after a restart.
//!
//! Owns the [`RoomLog`] interface a room writes through, its durable implementation over
//! `dominion-store` ([`durable::DurableLog`]: one writer thread, group commit, recovery)
//! and an in-memory one for tests, the fencing tokens that keep two nodes from writing
//! one room, and the data-directory diagnosis at start. It rests on `crate::convert`
//! for every engine ↔ storage value.
//!
//! May not touch: sockets, rooms' state, the cluster. A room awaits the [`Commit`] of a
//! step before anyone is told of it; nothing here tells anyone anything.

pub mod datadir;
pub mod durable;
pub mod fence;
mod log;
#[cfg(test)]
pub mod memory;
pub mod snapshots;

pub use log::{
    Commit, LogError, RatedEnd, RatingRead, RoomLog, RoomRecord, SeatAccount, SeatRating,
    SeatRecord,
};
