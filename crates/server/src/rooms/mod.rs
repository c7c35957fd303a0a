//! Rooms — layer two of a reply's path: the hub that finds and admits rooms, and each
//! room's task, which owns one game, its seats and its viewers.
//!
//! A room checks a command against its game, has the engine apply it, waits for the game
//! log's commit, and only then tells its viewers — each through the one per-viewer
//! projection (`projection`) and that viewer's bounded queue (`outbox`).
//!
//! May not touch: sockets (frames leave through an [`outbox::ConnHandle`] only), the
//! store's rows (only the `crate::gamelog::RoomLog` interface), the cluster (only the
//! [`placement`] interface the hub owns, which a cluster implements).
//!
//! Bot CPU is shared here too: searching bots think on the few `thinkers` every room
//! shares, never on the runtime's workers.

pub mod chat;
pub mod hub;
#[cfg(test)]
mod noninterference_tests;
pub mod outbox;
pub mod placement;
pub mod projection;
pub mod room;
pub mod state;
pub mod thinkers;
