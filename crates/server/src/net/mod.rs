//! The network — layer one of a reply's path: everything a socket touches.
//!
//! Owns accepting connections and their limits (`accept`), which address a request's
//! client has — its own, or the one a trusted proxy forwarded (`client_addr`), the HTTP
//! routes (`http`, and the account endpoints in `account_api` and `social_api`, a game's review in `analysis_api`),
//! each WebSocket's reading and writing (`connection`), and the link that carries a
//! client to the node running its room in a cluster (`forward`). A frame is read here,
//! checked for budget, size, shape, handshake and command id, and handed to the hub or,
//! as a `RoomMsg`, to its room's channel; the room converts it
//! (`crate::convert::from_wire`).
//!
//! Invariants: nothing reaches a room before it passed every check; a client that stops
//! reading holds up only its own writer task.
//!
//! May not touch: a room's state or the game (it only sends `RoomMsg`s), the game log.

pub mod accept;
pub mod account_api;
pub mod analysis_api;
pub mod automatch;
pub mod client_addr;
pub mod connection;
pub mod forward;
pub mod http;
pub mod origin;
pub mod social_api;
