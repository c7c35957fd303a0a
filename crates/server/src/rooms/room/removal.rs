//! The host's `remove`: a player or a spectator taken out of a room whose game has not
//! started, and kept out of it.
//!
//! Kept out by what the room can know of a guest: the client address of the connection
//! it removed (every per-address limit's key, `crate::budget::address_key`: an IPv6
//! client by its /64) and the name it sat or watched under (compared case-blind). A
//! removed guest who comes back from another address under another name is a new guest
//! to the room — the host can remove them again. The trade-off of the address: others
//! behind the same address (one household, one NAT) are kept out of that room too; it
//! is one room, and only until it closes. The list is bounded (`MAX_BARRED`, oldest
//! forgotten first), so a host cannot grow a room's memory by removing.

use super::*;
use crate::budget::{AddressKey, address_key};
use std::collections::VecDeque;

/// The most addresses and names a room keeps out at once.
const MAX_BARRED: usize = 64;

/// Whom the host removed from this room.
#[derive(Default)]
pub(super) struct Barred {
    addresses: VecDeque<AddressKey>,
    names: VecDeque<String>,
}

impl Barred {
    fn bar(&mut self, address: Option<AddressKey>, name: &str) {
        if let Some(a) = address
            && !self.addresses.contains(&a)
        {
            if self.addresses.len() == MAX_BARRED {
                self.addresses.pop_front();
            }
            self.addresses.push_back(a);
        }
        let folded = fold(name);
        if !self.names.contains(&folded) {
            if self.names.len() == MAX_BARRED {
                self.names.pop_front();
            }
            self.names.push_back(folded);
        }
    }

    /// The refusal for a client from `from` asking to come in as `name`, if it was
    /// removed.
    pub(super) fn check(&self, from: Option<IpAddr>, name: &str) -> Result<(), Refusal> {
        let by_address = from.is_some_and(|ip| self.addresses.contains(&address_key(ip)));
        if by_address || self.names.contains(&fold(name)) {
            return Err(Refusal::new(
                ErrorCode::RemovedByHost,
                "the room's host removed you from this room",
            ));
        }
        Ok(())
    }
}

fn fold(name: &str) -> String {
    name.to_lowercase()
}

impl Room {
    /// Removes `who` (refused unless `conn_id` is the host's, the game has not started
    /// and `who` is in the room): each removed connection gets `removed` and is let go
    /// (its connection forgets the room), a removed player's seat opens, and the room
    /// keeps them out.
    pub(super) async fn remove(
        &mut self,
        conn_id: u64,
        cmd: u64,
        who: wire::Removable,
    ) -> Result<(), Refusal> {
        let host = self
            .seat_of(conn_id)
            .filter(|i| self.state.host == Some(*i as u8))
            .ok_or_else(|| {
                Refusal::new(
                    ErrorCode::NotHost,
                    "only the room's host (the player who created it) removes players",
                )
            })?;
        self.check_seat_command(host, cmd)?;
        if self.state.status != wire::RoomStatus::Lobby {
            return Err(Refusal::new(
                ErrorCode::GameAlreadyStarted,
                "players are removed only before the game starts",
            ));
        }
        let mut removed: Vec<(Option<ConnHandle>, String)> = Vec::new();
        match who {
            wire::Removable::Seat { seat } => {
                let target = seat as usize;
                if target == host {
                    return Err(Refusal::new(
                        ErrorCode::SeatUnavailable,
                        "that is your own seat: leave the room instead",
                    ));
                }
                let Some(Seat::Human(h)) = self.state.seats.get(target) else {
                    return Err(Refusal::new(
                        ErrorCode::SeatUnavailable,
                        format!("no player sits in seat {seat}"),
                    ));
                };
                let name = h.name.clone();
                self.state.seats[target] = Seat::Open;
                removed.push((self.seat_conns[target].take(), name));
                self.save_room().await;
            }
            wire::Removable::Spectator { name } => {
                let ids: Vec<u64> = self
                    .spectator_names
                    .iter()
                    .filter(|(_, n)| fold(n) == fold(&name))
                    .map(|(id, _)| *id)
                    .collect();
                if ids.is_empty() {
                    return Err(Refusal::new(
                        ErrorCode::NotInRoom,
                        format!("nobody watches this room as {name:?}"),
                    ));
                }
                for id in ids {
                    let conn = self.spectator_conns.iter().find(|c| c.id == id).cloned();
                    self.remove_spectator(id);
                    removed.push((conn, name.clone()));
                }
            }
        }
        for (conn, name) in removed {
            let address = conn
                .as_ref()
                .and_then(|c| self.member_addresses.remove(&c.id))
                .map(address_key);
            self.barred.bar(address, &name);
            if let Some(conn) = conn {
                conn.send(&ServerMessage::Removed {
                    room: self.state.id.clone(),
                });
                conn.let_go(&self.state.id);
            }
        }
        self.broadcast(Topic::Room);
        Ok(())
    }
}
