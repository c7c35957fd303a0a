//! A room's state as plain data: settings, seats and the game, with no connections,
//! channels or bots. The projection reads only this, and a log can store all of it
//! (seats hold token hashes, never tokens).

use crate::gamelog::{RoomRecord, SeatAccount, SeatRecord};
use crate::rooms::chat;
use crate::token::TokenHash;
use dominion_engine::{Game, Setup};
use dominion_protocol as wire;
use tokio::time::Instant;

pub struct RoomState {
    pub id: String,
    /// The settings as checked and normalized at creation.
    pub settings: wire::RoomSettings,
    pub setup: Setup,
    pub status: wire::RoomStatus,
    pub seats: Vec<Seat>,
    pub spectators: u32,
    /// Present from `start` on.
    pub game: Option<Game>,
    /// When the server will answer the pending decision for its human, if the room has a
    /// time limit.
    pub decision_deadline: Option<Instant>,
    /// The host's seat (stored with the room): see [`RoomState::settle_host`].
    pub host: Option<u8>,
    /// The connection that created the room, while this process runs: the seat it takes
    /// becomes the host's.
    pub creator: Option<u64>,
    /// The recent chat, oldest first (at most `chat::KEEP` lines; memory only).
    pub chat: chat::Log,
    /// The rematch offered after the game, if any: the new room and the offering seat.
    /// Kept in memory only (a restart forgets it).
    pub rematch: Option<(String, u8)>,
    /// What rating the game's end changed, once it is stored (a rated game only; read
    /// back from the store when a finished room reopens).
    pub ratings: Option<Vec<wire::RatingChange>>,
}

pub enum Seat {
    Open,
    Bot { bot: String },
    Human(HumanSeat),
}

pub struct HumanSeat {
    pub name: String,
    pub token_hash: TokenHash,
    /// The highest command id received from this seat, over all its connections.
    pub last_command: u64,
    pub connected: bool,
    /// Since when the player has had no connection (None while connected).
    pub away_since: Option<Instant>,
    /// The player left on purpose: the seat is abandoned at once, not after a grace time.
    pub left: bool,
    /// The server bot playing for the absent player, if one took over.
    pub bot_playing: Option<String>,
    /// The registered account sitting here (None: a guest).
    pub account: Option<SeatAccount>,
    /// The account's levels as last learned (memory only): when the seat was taken,
    /// then from each rated game's end here. What the lobby shows next to the name.
    pub levels: SeatLevels,
}

/// A seated account's level in each rating pool, where known (`max(0, 50 + 7.5 × (μ −
/// 2φ))`). The room learns them when an account takes a seat (the connection reads
/// them once) and from a rated game's `rating_changed`, so the lobby's summary stays
/// a function of the room's state, with no store read per list.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SeatLevels {
    pub two: Option<f64>,
    pub multi: Option<f64>,
    pub bots: Option<f64>,
}

impl SeatLevels {
    /// The level shown for a seat of a room of `seats` seats, rounded down: the `bots`
    /// pool's for a bot account, else `2p` for two seats and `3-4p` for more.
    pub fn shown(&self, bot: bool, seats: usize) -> Option<u32> {
        let level = if bot {
            self.bots
        } else if seats <= 2 {
            self.two
        } else {
            self.multi
        }?;
        level.is_finite().then(|| level.max(0.0).floor() as u32)
    }

    /// The levels an account's ratings give in the pools `2p`, `3-4p` and `bots`; none
    /// when they could not be read (the seat is taken all the same, without a level).
    pub fn read<E: std::fmt::Debug>(levels: Result<[f64; 3], E>) -> SeatLevels {
        match levels {
            Ok([two, multi, bots]) => SeatLevels {
                two: Some(two),
                multi: Some(multi),
                bots: Some(bots),
            },
            Err(e) => {
                tracing::warn!("cannot read an account's levels: {e:?}");
                SeatLevels::default()
            }
        }
    }

    /// Records the level after a rated game in `pool`.
    pub fn set(&mut self, pool: wire::RatingPool, level: f64) {
        match pool {
            wire::RatingPool::TwoPlayer => self.two = Some(level),
            wire::RatingPool::Multiplayer => self.multi = Some(level),
            wire::RatingPool::Bots => self.bots = Some(level),
        }
    }
}

impl HumanSeat {
    pub fn new(name: String, token_hash: TokenHash) -> HumanSeat {
        HumanSeat {
            name,
            token_hash,
            last_command: 0,
            connected: true,
            away_since: None,
            left: false,
            bot_playing: None,
            account: None,
            levels: SeatLevels::default(),
        }
    }
}

impl RoomState {
    /// A room playing `game`, every seat a human (`p0`, `p1`, …), with `spectators`
    /// watching: the state the projection's tests project from.
    #[cfg(test)]
    pub fn playing(game: Game, spectators: u32) -> RoomState {
        let players = game.num_players();
        RoomState {
            id: "r1".into(),
            settings: wire::RoomSettings {
                name: None,
                kingdom: wire::KingdomChoice::Random {
                    pool: None,
                    sets: None,
                },
                edition: wire::Edition::Second,
                seats: vec![wire::SeatSetting::Open {}; players],
                decision_seconds: None,
                abandoned: wire::AbandonPolicy::Wait {},
                spectator_chat: false,
                rated: false,
            },
            setup: game.setup().clone(),
            status: wire::RoomStatus::Playing,
            seats: (0..players)
                .map(|i| {
                    let name = format!("p{i}");
                    Seat::Human(HumanSeat::new(name.clone(), TokenHash::of(&name)))
                })
                .collect(),
            spectators,
            game: Some(game),
            decision_deadline: None,
            host: None,
            creator: None,
            chat: Default::default(),
            rematch: None,
            ratings: None,
        }
    }

    pub fn human(&self, seat: usize) -> Option<&HumanSeat> {
        match self.seats.get(seat) {
            Some(Seat::Human(h)) => Some(h),
            _ => None,
        }
    }

    pub fn human_mut(&mut self, seat: usize) -> Option<&mut HumanSeat> {
        match self.seats.get_mut(seat) {
            Some(Seat::Human(h)) => Some(h),
            _ => None,
        }
    }

    /// The name shown for a seat in results.
    pub fn seat_name(&self, seat: usize) -> String {
        match self.seats.get(seat) {
            Some(Seat::Human(h)) => h.name.clone(),
            Some(Seat::Bot { bot }) => format!("{bot} (bot)"),
            Some(Seat::Open) | None => format!("seat {seat}"),
        }
    }

    /// Keeps the host on a seated human. `creator_seat` is the seat the room's creating
    /// connection just took: it is the host's, even when others sat down first. Otherwise
    /// a host whose seat was freed (before the start) is followed by the first seated
    /// player. True when the host changed.
    pub fn settle_host(&mut self, creator_seat: Option<usize>) -> bool {
        let before = self.host;
        let holds = |s: u8| matches!(self.seats.get(s as usize), Some(Seat::Human(_)));
        if let Some(seat) = creator_seat.map(|s| s as u8).filter(|s| holds(*s)) {
            self.host = Some(seat);
        } else if !self.host.is_some_and(holds) {
            self.host = self
                .seats
                .iter()
                .position(|s| matches!(s, Seat::Human(_)))
                .map(|i| i as u8);
        }
        self.host != before
    }

    pub fn all_seats_filled(&self) -> bool {
        self.seats.iter().all(|s| !matches!(s, Seat::Open))
    }

    /// What a log keeps of the room.
    pub fn record(&self) -> RoomRecord {
        RoomRecord {
            id: self.id.clone(),
            settings: self.settings.clone(),
            host: self.host,
            seats: self
                .seats
                .iter()
                .map(|s| match s {
                    Seat::Open => SeatRecord::Open,
                    Seat::Bot { bot } => SeatRecord::Bot { bot: bot.clone() },
                    Seat::Human(h) => {
                        SeatRecord::human(&h.name, h.token_hash, h.last_command, h.account)
                    }
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod level_tests {
    use super::SeatLevels;
    use dominion_protocol as wire;

    #[test]
    fn a_seat_shows_the_level_of_the_pool_its_room_would_be_rated_in() {
        let mut l = SeatLevels {
            two: Some(23.9),
            multi: Some(-3.0),
            bots: None,
        };
        assert_eq!(l.shown(false, 2), Some(23), "2p, rounded down");
        assert_eq!(l.shown(false, 3), Some(0), "3-4p, never below 0");
        assert_eq!(l.shown(false, 6), Some(0), "five or six seats: 3-4p too");
        assert_eq!(
            l.shown(true, 2),
            None,
            "a bot account's bots level is not known"
        );
        l.set(wire::RatingPool::Bots, 41.2);
        l.set(wire::RatingPool::TwoPlayer, 30.0);
        assert_eq!((l.shown(true, 2), l.shown(false, 2)), (Some(41), Some(30)));
        assert_eq!(SeatLevels::default().shown(false, 2), None);
    }
}
