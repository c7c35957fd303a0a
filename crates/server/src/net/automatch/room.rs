//! The room of an accepted match: a random kingdom from the edition and sets the
//! players share, `rated` for the rated pools, every player seated under their account
//! (in random order) before anyone is told, then `match_found` with each seat's token.
//!
//! The room's seats are taken the way a client takes one — `RoomMsg::Join` with
//! `take_seat` — by a stand-in connection of this service's own, which reads the token
//! from the `seated` frame and then detaches: the seat is then held for its player,
//! disconnected, until they `resume` it with the token (`abandoned` policy: the default,
//! a seat left before the start is freed after 60 s). Rooms need nothing special for
//! automatch this way.

use super::Request;
use crate::accounts::{Accounts, SignedIn};
use crate::convert::to_wire;
use crate::matchmaking::queue::{Entry, shared_sets};
use crate::rooms::hub::Hub;
use crate::rooms::outbox::{ConnHandle, Kill, OutFrame, Queued};
use crate::rooms::room::{Join, Role, RoomMsg};
use dominion_engine::card::Set;
use dominion_engine::setup::{CardPool, draw_cards};
use dominion_protocol::{
    self as wire, AbandonPolicy, KingdomChoice, MatchCancelReason, MatchPool, RoomSettings,
    SeatSetting, ServerMessage,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::sync::{mpsc, oneshot};

/// Ids of the stand-in connections: far above any real connection's.
static STAND_IN: AtomicU64 = AtomicU64::new(1 << 60);

/// Fisher–Yates with the OS's randomness (a u64 per step: the bias of `% n` is nil for
/// lists this short).
fn shuffle<T>(items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let mut bytes = [0u8; 8];
        let _ = getrandom::fill(&mut bytes);
        let j = (u64::from_le_bytes(bytes) % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

/// Ten kingdom cards drawn at random from `sets` (None: every set) of `edition`'s
/// printings.
///
/// TODO(issue 25 contract, "Kingdom for an automatch room"): call the social helper's
/// `draw_kingdom(edition, sets, bans, dislikes, rng)` with the players' card
/// preferences once it is in the tree, and say in the room's name that bans were
/// respected.
pub fn draw_kingdom(edition: wire::Edition, sets: Option<&[wire::CardSet]>) -> Vec<String> {
    let pool = match edition {
        wire::Edition::First => CardPool::First,
        wire::Edition::Second => CardPool::Second,
    };
    let sets: Vec<Set> = match sets {
        Some(sets) => sets
            .iter()
            .map(|s| match s {
                wire::CardSet::Base => Set::Base,
                wire::CardSet::Intrigue => Set::Intrigue,
            })
            .collect(),
        None => Set::kingdom_sets().collect(),
    };
    let mut cards = draw_cards(pool, &sets);
    shuffle(&mut cards);
    cards.truncate(10);
    to_wire::keys(&cards)
}

/// The settings of the room for `members`.
pub fn settings(members: &[Entry]) -> RoomSettings {
    let first = &members[0];
    let sets = members
        .iter()
        .fold(first.sets.clone(), |acc, m| shared_sets(&acc, &m.sets));
    RoomSettings {
        name: None,
        kingdom: KingdomChoice::Cards {
            cards: draw_kingdom(first.edition, sets.as_deref()),
        },
        edition: first.edition,
        seats: members.iter().map(|_| SeatSetting::Open {}).collect(),
        decision_seconds: None,
        abandoned: AbandonPolicy::default(),
        spectator_chat: false,
        rated: first.pool != MatchPool::Practice,
    }
}

/// Takes a seat of `room` for `name`, signed in as `who`: its number and token.
async fn seat(hub: &Hub, room: &str, name: &str, who: &SignedIn) -> Result<(u8, String), String> {
    let handle = hub.room(room).ok_or("the room closed")?;
    let (tx, mut rx) = mpsc::channel(64);
    let id = STAND_IN.fetch_add(1, Ordering::Relaxed);
    let conn = ConnHandle::new(
        id,
        tx,
        Arc::new(Kill::default()),
        Arc::new(Queued::new(1 << 20)),
    );
    let (done, joined) = oneshot::channel();
    handle
        .tx
        .send(RoomMsg::Join {
            conn,
            // Command 0: the player's own commands, from 1, all count as new.
            cmd: 0,
            join: Join::TakeSeat {
                seat: None,
                name: name.to_string(),
                account: Some(crate::gamelog::SeatAccount {
                    id: who.account.id,
                    bot: who.account.bot,
                }),
            },
            from: None,
            done,
        })
        .await
        .map_err(|_| "the room closed")?;
    let role = joined.await.map_err(|_| "the room closed")?;
    let _ = handle.tx.send(RoomMsg::Detach { conn_id: id }).await;
    let mut refusal = None;
    while let Ok(frame) = rx.try_recv() {
        let OutFrame::Text(text) = frame else {
            continue;
        };
        match serde_json::from_str::<ServerMessage>(&text) {
            Ok(ServerMessage::Seated { seat, token, .. }) if role == Some(Role::Seat(seat)) => {
                return Ok((seat, token));
            }
            Ok(ServerMessage::Error { message, .. }) => refusal = Some(message),
            _ => {}
        }
    }
    Err(refusal.unwrap_or_else(|| "no seat".into()))
}

/// Makes the room and seats everyone; on failure the players go back to the front of
/// the queue.
pub async fn make(
    hub: Arc<Hub>,
    accounts: Arc<Accounts>,
    match_id: String,
    mut players: Vec<(Entry, ConnHandle, Box<SignedIn>)>,
    service: mpsc::WeakUnboundedSender<Request>,
) {
    shuffle(&mut players);
    let entries: Vec<Entry> = players.iter().map(|(e, _, _)| e.clone()).collect();
    let made = async {
        let room = hub
            .create_room(&settings(&entries), None, None)
            .await
            .map_err(|r| r.message)?;
        let mut seats = Vec::new();
        for (entry, _, who) in &players {
            let (seat, token) = seat(&hub, &room.id, &entry.name, who).await?;
            accounts.link_seat(room.id.clone(), seat, who).await;
            seats.push((seat, token));
        }
        Ok::<_, String>((room.id, seats))
    }
    .await;
    match made {
        Ok((room, seats)) => {
            hub.metrics.rooms_created.inc();
            tracing::info!(room = %room, r#match = %match_id, "automatch room made");
            for ((_, conn, _), (seat, token)) in players.iter().zip(seats) {
                conn.send(&ServerMessage::MatchFound {
                    match_id: match_id.clone(),
                    room: room.clone(),
                    seat,
                    token,
                });
            }
        }
        Err(why) => {
            tracing::warn!(r#match = %match_id, "cannot make an automatch room: {why}");
            match service.upgrade() {
                Some(service) => {
                    let _ = service.send(Request::Requeue { players });
                }
                None => {
                    for (_, conn, _) in &players {
                        conn.send(&ServerMessage::MatchCancelled {
                            reason: MatchCancelReason::Cancelled,
                        });
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::from_wire;

    fn entry(pool: MatchPool, sets: Option<Vec<wire::CardSet>>) -> Entry {
        Entry {
            key: 1,
            account: 1,
            name: "a".into(),
            level: 20.0,
            pool,
            edition: wire::Edition::First,
            sets,
            blocks: Vec::new(),
            since: 0,
        }
    }

    #[test]
    fn the_room_is_rated_but_for_practice_and_its_kingdom_comes_from_the_shared_sets() {
        for _ in 0..50 {
            let members = [
                entry(MatchPool::TwoPlayers, None),
                entry(
                    MatchPool::TwoPlayers,
                    Some(vec![wire::CardSet::Intrigue, wire::CardSet::Base]),
                ),
                entry(MatchPool::TwoPlayers, Some(vec![wire::CardSet::Intrigue])),
            ];
            let s = settings(&members);
            assert!(s.rated);
            assert_eq!(s.edition, wire::Edition::First);
            assert_eq!(s.seats.len(), 3);
            let KingdomChoice::Cards { cards } = &s.kingdom else {
                panic!("{:?}", s.kingdom)
            };
            let mut distinct = cards.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), 10, "{cards:?}");
            for c in cards {
                assert_eq!(from_wire::card(c).unwrap().def().set, Set::Intrigue, "{c}");
            }
            // The room accepts them.
            assert!(from_wire::room_plan(&s).is_ok());
        }
        let practice = settings(&[entry(MatchPool::Practice, None)]);
        assert!(!practice.rated);
    }
}
