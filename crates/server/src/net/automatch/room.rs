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

use super::{Peer, Request};
use crate::accounts::{Accounts, SignedIn};
use crate::convert::kingdom_prefs::{Avoided, draw_kingdom_wire};
use crate::convert::to_wire;
use crate::matchmaking::queue::{Entry, shared_sets};
use crate::rooms::hub::Hub;
use crate::rooms::outbox::{ConnHandle, Kill, OutFrame, Queued};
use crate::rooms::room::{Join, Role, RoomMsg};
use dominion_engine::CardId;
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
pub(super) fn shuffle<T>(items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let mut bytes = [0u8; 8];
        let _ = getrandom::fill(&mut bytes);
        let j = (u64::from_le_bytes(bytes) % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

/// Ten kingdom cards of `edition`'s printings drawn at random from `sets` (None: every
/// set), none of them banned by a player and none disliked while enough other cards
/// remain (`convert::kingdom_prefs`), and what was kept out.
pub fn draw_kingdom(
    edition: wire::Edition,
    sets: Option<&[wire::CardSet]>,
    prefs: &Prefs,
) -> Result<(Vec<String>, Avoided), String> {
    let mut rng = rand::rng();
    let (cards, avoided) = draw_kingdom_wire(edition, sets, &prefs.bans, &prefs.dislikes, &mut rng)
        .map_err(|e| e.to_string())?;
    Ok((to_wire::keys(&cards), avoided))
}

/// The players' card preferences together: every ban, every dislike.
#[derive(Default)]
pub struct Prefs {
    pub bans: Vec<CardId>,
    pub dislikes: Vec<CardId>,
}

/// The settings of the room for `members`, whose card preferences are `prefs`; the
/// room's name says what the kingdom kept out for them.
pub fn settings(members: &[Entry], prefs: &Prefs) -> Result<RoomSettings, String> {
    let first = &members[0];
    let sets = members
        .iter()
        .fold(first.sets.clone(), |acc, m| shared_sets(&acc, &m.sets));
    let (cards, avoided) = draw_kingdom(first.edition, sets.as_deref(), prefs)?;
    Ok(RoomSettings {
        name: avoided.describe().map(|kept| {
            let name = format!("Automatch: {kept}");
            name.chars().take(64).collect()
        }),
        kingdom: KingdomChoice::Cards { cards },
        edition: first.edition,
        seats: members.iter().map(|_| SeatSetting::Open {}).collect(),
        decision_seconds: None,
        abandoned: AbandonPolicy::default(),
        spectator_chat: false,
        rated: first.pool != MatchPool::Practice,
    })
}

/// Takes a seat of `room` for `name`, signed in as `who`: its number and token.
pub(super) async fn seat(
    (hub, accounts): (&Hub, &Accounts),
    room: &str,
    name: &str,
    who: &SignedIn,
) -> Result<(u8, String), String> {
    let handle = hub.room(room).ok_or("the room closed")?;
    let levels = crate::rooms::state::SeatLevels::read(accounts.levels_of(who.account.id).await);
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
                levels,
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
    mut players: Vec<(Entry, Peer, Box<SignedIn>)>,
    service: mpsc::WeakUnboundedSender<Request>,
) {
    shuffle(&mut players);
    let entries: Vec<Entry> = players.iter().map(|(e, _, _)| e.clone()).collect();
    let accounts_in: Vec<i64> = entries.iter().map(|e| e.account).collect();
    let prefs = match accounts.draw_prefs(accounts_in).await {
        Ok((bans, dislikes)) => Prefs { bans, dislikes },
        Err(e) => {
            // Without their lists a kingdom could hold a banned card: no room rather
            // than that (the players go back to the front of the queue).
            tracing::warn!("cannot read the players' card preferences: {}", e.message);
            requeue(&match_id, players, &service);
            return;
        }
    };
    let made = async {
        let settings = settings(&entries, &prefs)?;
        let room = hub
            .create_room(&settings, None, None)
            .await
            .map_err(|r| r.message)?;
        let mut seats = Vec::new();
        for (entry, _, who) in &players {
            let (seat, token) = seat((&hub, &accounts), &room.id, &entry.name, who).await?;
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
            requeue(&match_id, players, &service);
        }
    }
}

/// A match whose room could not be made: its players go back to the front of the queue
/// (or, with the service gone, are told it was cancelled).
pub(super) fn requeue(
    match_id: &str,
    players: Vec<(Entry, Peer, Box<SignedIn>)>,
    service: &mpsc::WeakUnboundedSender<Request>,
) {
    match service.upgrade() {
        Some(service) => {
            let _ = service.send(Request::Requeue { players });
        }
        None => {
            tracing::info!(r#match = %match_id, "automatch stopped; its players are told");
            for (_, conn, _) in &players {
                conn.send(&ServerMessage::MatchCancelled {
                    reason: MatchCancelReason::Cancelled,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::from_wire;
    use dominion_engine::card::Set;

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
            let s = settings(&members, &Prefs::default()).unwrap();
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
        let practice = settings(&[entry(MatchPool::Practice, None)], &Prefs::default()).unwrap();
        assert!(!practice.rated);
    }
}
