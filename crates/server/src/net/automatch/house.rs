//! The bot ladder's games against our own bots (docs/protocol.md, "The bot ladder"): the
//! house bots this node offers, the proposal a lone bot account gets, and the room of an
//! accepted one.
//!
//! The room is an ordinary automatch room with one difference: one seat is a server bot
//! (`{"type": "bot"}`: `easy`, `standard` or `search`), linked in the store to that
//! bot's house account (`accounts::house`) before anyone is told, so that the store,
//! finding every seat a bot account's, rates the game in pool `bots`. The room is
//! `rated`, which also makes its searching bot think a fixed `--ladder-search-playouts`
//! and wait for a thinker rather than play weaker under load (`rooms::room`), and keeps
//! its bot seat from being changed. Its kingdom is drawn as for any automatch (the bot
//! account's bans and dislikes respected; the house bots have none), its seat order is
//! random, and an absent player's seat waits for them (`abandoned: wait`): no stand-in
//! bot plays for a ladder bot, and a game nobody plays ends abandoned after
//! `--abandon-after`, lost by the ladder bot (our bot never leaves).
//!
//! In a cluster the matcher leader makes the room, as for any match, but at once rather
//! than after its step's commit (`cluster`): its `match_found` still leaves only with a
//! commit, and a leader fenced before that commit leaves a room nobody is told of while
//! its player is matched again by the next leader — a lost room, never a double match.

use super::peer::Peer;
use super::room::{Prefs, draw_kingdom, requeue, seat, shuffle};
use super::{Service, match_name};
use crate::accounts::{Accounts, SignedIn};
use crate::matchmaking::queue::{Entry, House, HouseBot, HouseEffect, Millis};
use crate::rooms::hub::Hub;
use dominion_protocol::{
    AbandonPolicy, KingdomChoice, MatchOpponent, MatchPool, RoomSettings, SeatSetting,
    ServerMessage,
};
use std::sync::Arc;
use tokio::sync::mpsc;

/// The house bots this node offers: every level with an account, but `search` only
/// when there are bot thinkers to run it (`--bot-threads 0`: none).
pub(super) fn house(hub: &Hub, accounts: &Accounts) -> House {
    let bots = accounts
        .house()
        .iter()
        .filter(|h| h.bot != "search" || hub.config.bot_threads != Some(0))
        .map(|h| HouseBot {
            bot: h.bot.clone(),
            account: h.account,
            name: h.name.clone(),
        })
        .collect();
    House {
        bots,
        wait_ms: hub.config.ladder_house_wait.as_millis() as Millis,
    }
}

/// What the service does for a house effect.
pub(super) fn apply(service: &mut Service, effect: HouseEffect) {
    match effect {
        HouseEffect::Proposed { id, member, house } => {
            let Some(p) = service.players.get(&member.key) else {
                return;
            };
            let accept_within_ms = service.matcher.settings().accept_ms;
            let (conn, accounts) = (p.conn.clone(), service.accounts.clone());
            // The house bot's level is read from the store first (off the service's
            // task): a few milliseconds of the answer's time.
            tokio::spawn(async move {
                let level = accounts
                    .match_level(house.account, MatchPool::Bots)
                    .await
                    .ok()
                    .map(|l| l.max(0.0).floor() as u32);
                conn.send(&ServerMessage::MatchProposed {
                    match_id: match_name(id),
                    pool: MatchPool::Bots,
                    opponents: vec![MatchOpponent {
                        name: house.name,
                        level,
                    }],
                    accept_within_ms,
                });
            });
        }
        HouseEffect::Found { id, member, house } => {
            let Some(p) = service.players.remove(&member.key) else {
                return;
            };
            tokio::spawn(make(
                service.hub.clone(),
                service.accounts.clone(),
                match_name(id),
                (member, p.conn, p.who),
                house,
                service.tx.clone(),
            ));
        }
    }
}

/// The settings of a ladder room for `member` against `house`: 2 seats in random
/// order, one of them the house bot's; the kingdom drawn as for any automatch.
pub fn settings(member: &Entry, house: &HouseBot, prefs: &Prefs) -> Result<RoomSettings, String> {
    let (cards, avoided) = draw_kingdom(member.edition, member.sets.as_deref(), prefs)?;
    let mut seats = [
        SeatSetting::Open {},
        SeatSetting::Bot {
            bot: house.bot.clone(),
        },
    ];
    shuffle(&mut seats);
    let name = match avoided.describe() {
        Some(kept) => format!("Bot ladder: {kept}"),
        None => format!("Bot ladder: {} vs {}", member.name, house.name),
    };
    Ok(RoomSettings {
        name: Some(name.chars().take(64).collect()),
        kingdom: KingdomChoice::Cards { cards },
        edition: member.edition,
        seats: seats.to_vec(),
        decision_seconds: None,
        abandoned: AbandonPolicy::Wait {},
        spectator_chat: false,
        rated: true,
    })
}

/// Makes the room, links the house bot's seat to its account, seats the player, and
/// sends `match_found`; on failure the player goes back to the front of the queue.
async fn make(
    hub: Arc<Hub>,
    accounts: Arc<Accounts>,
    match_id: String,
    player: (Entry, Peer, Box<SignedIn>),
    house: HouseBot,
    service: mpsc::WeakUnboundedSender<super::Request>,
) {
    let (entry, conn, who) = player;
    let prefs = match accounts.draw_prefs(vec![entry.account]).await {
        Ok((bans, dislikes)) => Prefs { bans, dislikes },
        Err(e) => {
            tracing::warn!("cannot read the player's card preferences: {}", e.message);
            requeue(&match_id, vec![(entry, conn, who)], &service);
            return;
        }
    };
    let made = async {
        let settings = settings(&entry, &house, &prefs)?;
        let house_seat = settings
            .seats
            .iter()
            .position(|s| matches!(s, SeatSetting::Bot { .. }))
            .ok_or("no bot seat")? as u8;
        let room = hub
            .create_room(&settings, None, None)
            .await
            .map_err(|r| r.message)?;
        // Linked before the player can start the game, so its end finds every seat an
        // account's.
        accounts
            .link_house_seat(room.id.clone(), house_seat, house.account)
            .await
            .map_err(|r| r.message)?;
        let (seat, token) = seat((&hub, &accounts), &room.id, &entry.name, &who).await?;
        accounts.link_seat(room.id.clone(), seat, &who).await;
        Ok::<_, String>((room.id, seat, token))
    }
    .await;
    match made {
        Ok((room, seat, token)) => {
            hub.metrics.rooms_created.inc();
            tracing::info!(room = %room, r#match = %match_id, house = %house.bot, "bot ladder room made");
            conn.send(&ServerMessage::MatchFound {
                match_id,
                room,
                seat,
                token,
            });
        }
        Err(why) => {
            tracing::warn!(r#match = %match_id, "cannot make a bot ladder room: {why}");
            requeue(&match_id, vec![(entry, conn, who)], &service);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::from_wire;
    use dominion_protocol::Edition;

    #[test]
    fn a_ladder_room_is_rated_with_one_open_seat_and_the_house_bot_in_either_order() {
        let member = Entry {
            key: 1,
            account: 1,
            name: "Robo".into(),
            level: 20.0,
            pool: MatchPool::Bots,
            edition: Edition::First,
            sets: None,
            blocks: Vec::new(),
            since: 0,
        };
        let house = HouseBot {
            bot: "search".into(),
            account: 2,
            name: "house-search".into(),
        };
        let mut first = [0; 2];
        for _ in 0..64 {
            let s = settings(&member, &house, &Prefs::default()).unwrap();
            assert!(s.rated);
            assert_eq!(s.abandoned, AbandonPolicy::Wait {});
            assert_eq!(s.name.as_deref(), Some("Bot ladder: Robo vs house-search"));
            let bot = s
                .seats
                .iter()
                .position(|s| matches!(s, SeatSetting::Bot { bot } if bot == "search"))
                .unwrap();
            first[bot] += 1;
            assert!(from_wire::room_plan(&s).is_ok());
        }
        assert!(first[0] > 0 && first[1] > 0, "{first:?}");
    }
}
