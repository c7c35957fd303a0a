//! Conversions — the floor every layer rests on: the only place where engine values
//! become wire or storage values and back.
//!
//! `from_wire` checks what arrives (settings, replies, names) into engine values,
//! refusing with a precise [`refusal::Refusal`]; `to_wire` turns engine values into
//! `dominion-protocol` types; `record` is the versioned storage format of a game
//! (docs/storage.md); `analysis` a game's review for the wire. Engine types never reach the wire or the store by any other path.
//!
//! May not touch: sockets, rooms, the store. It converts; which values a viewer may see
//! is decided by `crate::rooms::projection`.

pub mod analysis;
pub mod from_wire;
pub mod kingdom_prefs;
pub mod names;
pub mod published;
pub mod record;
pub mod refusal;
pub mod to_wire;
