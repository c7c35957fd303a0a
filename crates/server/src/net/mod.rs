//! The network — layer one of a reply's path: everything a socket touches.
//!
//! Owns accepting connections and their limits (`accept`), the HTTP routes (`http`),
//! each WebSocket's reading and writing (`connection`), and the link that carries a client to the node running its room in a
//! cluster (`forward`). A frame is read here, checked for size, rate and shape, converted by
//! `crate::convert::from_wire`, and handed to its room's channel through the hub.
//!
//! May not touch: a room's state or the game (it only sends `RoomMsg`s), the game log.

pub mod accept;
pub mod connection;
pub mod forward;
pub mod http;
