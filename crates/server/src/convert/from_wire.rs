//! Wire → engine: turns what a client sent (room settings, replies, names) into engine
//! values, refusing with a precise error whatever names no card, bot or kingdom; a
//! recommended kingdom given by its name is rewritten to its id.
//!
//! The reverse direction (engine → wire) is [`super::to_wire`]'s alone.

use crate::convert::names::{self, MAX_MARKS};
use crate::convert::refusal::Refusal;
use dominion_engine::setup::CardPool;
use dominion_engine::{CardId, Edition, Kingdom, Mode, Reply, Set, Setup, bots, setup};
use dominion_protocol as wire;
use dominion_protocol::ErrorCode;

/// The bot that answers for a human who runs out of time or is away too long, unless the
/// room names another: the card-aware level, which plays every kingdom card sensibly
/// (a buy-list bot would ignore the cards the player bought) and answers at once.
pub const FALLBACK_BOT: &str = "standard";

/// The bots that search (sample and play out each option within `--bot-think-ms`):
/// thousands of times the CPU of the others, so a client address may have only
/// `--search-rooms-per-address` rooms with one open at once.
pub const SEARCHING_BOTS: &[&str] = &["search"];

/// Whether a room of these settings may have a searching bot play: in a seat, or in the
/// place of an absent player.
pub fn uses_searching_bots(settings: &wire::RoomSettings) -> bool {
    let seat = settings.seats.iter().any(
        |s| matches!(s, wire::SeatSetting::Bot { bot } if SEARCHING_BOTS.contains(&bot.as_str())),
    );
    let stand_in = matches!(
        &settings.abandoned,
        wire::AbandonPolicy::BotAfter { bot: Some(bot), .. } if SEARCHING_BOTS.contains(&bot.as_str())
    );
    seat || stand_in
}

/// Longest room name, in characters.
const MAX_ROOM_NAME: usize = 64;
/// Longest player name, in characters.
const MAX_PLAYER_NAME: usize = 32;
/// Longest decision limit or absence allowance: a day.
const MAX_SECONDS: u32 = 86_400;

/// Room settings checked and normalized (a recommended kingdom named by its id).
#[derive(Clone, Debug)]
pub struct RoomPlan {
    pub settings: wire::RoomSettings,
    pub setup: Setup,
}

/// Checks every setting; the returned settings are what the room shows from then on.
pub fn room_plan(settings: &wire::RoomSettings) -> Result<RoomPlan, Refusal> {
    let invalid = |m: String| Refusal::new(ErrorCode::InvalidSettings, m);
    let mut settings = settings.clone();
    if let Some(name) = &settings.name {
        let name = names::check(name, MAX_ROOM_NAME).map_err(|why| {
            invalid(format!(
                "the room name {why}: a room name has 1 to {MAX_ROOM_NAME} characters, visible ones, at most {MAX_MARKS} combining marks on each, and no control, invisible or direction-changing characters"
            ))
        })?;
        settings.name = Some(name);
    }
    let players = settings.seats.len();
    if !(2..=6).contains(&players) {
        return Err(invalid(format!("a room has 2 to 6 seats, not {players}")));
    }
    if settings.rated && players > 4 {
        // Ratings count games of 2 to 4 players: a room that could never be rated says
        // so now rather than at its end.
        return Err(invalid(format!(
            "a rated room has 2 to 4 seats, not {players}: games of 5 or 6 are unrated"
        )));
    }
    if !settings
        .seats
        .iter()
        .any(|s| matches!(s, wire::SeatSetting::Open {}))
    {
        return Err(invalid(
            "at least one seat must be open for a human (who starts the game)".into(),
        ));
    }
    for seat in &settings.seats {
        if let wire::SeatSetting::Bot { bot } = seat {
            known_bot(bot)?;
        }
    }
    if settings
        .decision_seconds
        .is_some_and(|s| !(1..=MAX_SECONDS).contains(&s))
    {
        return Err(invalid(format!(
            "decision_seconds must be 1 to {MAX_SECONDS}"
        )));
    }
    if let wire::AbandonPolicy::BotAfter { seconds, bot } = &settings.abandoned {
        if *seconds > MAX_SECONDS {
            return Err(invalid(format!(
                "abandoned.seconds must be at most {MAX_SECONDS}"
            )));
        }
        if let Some(bot) = bot {
            known_bot(bot)?;
        }
    }
    let kingdom = kingdom(&mut settings.kingdom, settings.edition)?;
    let setup = Setup {
        players: players as u8,
        kingdom,
        edition: edition(settings.edition),
    };
    setup.validate().map_err(|e| invalid(e.to_string()))?;
    Ok(RoomPlan { settings, setup })
}

/// A stored or published game setup (`wire::GameSetup`) as the engine's, checked.
pub fn game_setup(setup: &wire::GameSetup) -> Result<Setup, Refusal> {
    let mut choice = setup.kingdom.clone();
    let setup = Setup {
        players: setup.players,
        kingdom: kingdom(&mut choice, setup.edition)?,
        edition: edition(setup.edition),
    };
    setup
        .validate()
        .map_err(|e| Refusal::new(ErrorCode::InvalidSettings, e.to_string()))?;
    Ok(setup)
}

/// The engine kingdom a wire choice stands for; a recommended kingdom named by its name
/// is rewritten to its id.
fn kingdom(
    choice: &mut wire::KingdomChoice,
    room_edition: wire::Edition,
) -> Result<Kingdom, Refusal> {
    let invalid = |m: String| Refusal::new(ErrorCode::InvalidSettings, m);
    Ok(match choice {
        wire::KingdomChoice::Cards { cards } => {
            Kingdom::Cards(cards.iter().map(|k| card(k)).collect::<Result<_, _>>()?)
        }
        wire::KingdomChoice::Recommended { id } => {
            let found = setup::recommended_kingdoms()
                .find(|r| r.id == id.as_str() || r.name.eq_ignore_ascii_case(id.trim()));
            let Some(found) = found else {
                let known: Vec<&str> = setup::recommended_kingdoms().map(|r| r.id).collect();
                return Err(invalid(format!(
                    "no recommended kingdom {id:?}; available: {}",
                    known.join(", ")
                )));
            };
            *id = found.id.to_string();
            Kingdom::Recommended(found.id.to_string())
        }
        // Without `sets`, exactly the kingdoms of before sets could be chosen.
        wire::KingdomChoice::Random {
            pool: None,
            sets: None,
        } => Kingdom::Random,
        wire::KingdomChoice::Random {
            pool: Some(p),
            sets: None,
        } => Kingdom::RandomFrom(card_pool(*p)),
        wire::KingdomChoice::Random {
            pool,
            sets: Some(sets),
        } => Kingdom::RandomDraw {
            pool: pool.map_or(CardPool::of(edition(room_edition)), card_pool),
            sets: sets.iter().map(|s| card_set(*s)).collect(),
        },
    })
}

/// A player's display name, trimmed; refused as [`names::check`] says.
pub fn player_name(name: &str) -> Result<String, Refusal> {
    names::check(name, MAX_PLAYER_NAME).map_err(|why| {
        Refusal::new(
            ErrorCode::InvalidName,
            format!(
                "the name {why}: a name has 1 to {MAX_PLAYER_NAME} characters, visible ones, at most {MAX_MARKS} combining marks on each, and no control, invisible or direction-changing characters"
            ),
        )
    })
}

/// The engine reply a wire reply stands for.
pub fn reply(r: &wire::Reply) -> Result<Reply, Refusal> {
    Ok(match r {
        wire::Reply::Play { card: c } => Reply::Play(card(c)?),
        wire::Reply::PlayAllTreasures {} => Reply::PlayAllTreasures,
        wire::Reply::Buy { card: c } => Reply::Buy(card(c)?),
        wire::Reply::EndPhase {} => Reply::EndPhase,
        wire::Reply::Cards { cards } => {
            Reply::Cards(cards.iter().map(|c| card(c)).collect::<Result<_, _>>()?)
        }
        wire::Reply::Pile { card: c } => Reply::Pile(c.as_deref().map(card).transpose()?),
        wire::Reply::Modes { modes } => Reply::Modes(modes.iter().map(|m| mode(*m)).collect()),
        wire::Reply::YesNo { yes } => Reply::YesNo(*yes),
        wire::Reply::Name { card: c } => Reply::Name(card(c)?),
        wire::Reply::Number { number } => Reply::Number(*number),
    })
}

fn card_pool(p: wire::CardPool) -> CardPool {
    match p {
        wire::CardPool::First => CardPool::First,
        wire::CardPool::Second => CardPool::Second,
        wire::CardPool::Both => CardPool::Both,
    }
}

pub fn card_set(s: wire::CardSet) -> Set {
    match s {
        wire::CardSet::Base => Set::Base,
        wire::CardSet::Intrigue => Set::Intrigue,
    }
}

pub fn card(key: &str) -> Result<CardId, Refusal> {
    key.parse().map_err(|_| {
        Refusal::new(
            ErrorCode::UnknownCard,
            format!("{key:?} is not a card id (GET /api/cards lists them)"),
        )
    })
}

pub fn known_bot(name: &str) -> Result<(), Refusal> {
    if bots::NAMES.contains(&name) {
        Ok(())
    } else {
        Err(Refusal::new(
            ErrorCode::UnknownBot,
            format!("no bot {name:?}; available: {}", bots::NAMES.join(", ")),
        ))
    }
}

pub fn edition(e: wire::Edition) -> Edition {
    match e {
        wire::Edition::First => Edition::First,
        wire::Edition::Second => Edition::Second,
    }
}

fn mode(m: wire::Mode) -> Mode {
    match m {
        wire::Mode::PlusCard => Mode::PlusCard,
        wire::Mode::PlusAction => Mode::PlusAction,
        wire::Mode::PlusBuy => Mode::PlusBuy,
        wire::Mode::PlusCoin => Mode::PlusCoin,
        wire::Mode::PlusTwoCards => Mode::PlusTwoCards,
        wire::Mode::PlusThreeCards => Mode::PlusThreeCards,
        wire::Mode::PlusTwoActions => Mode::PlusTwoActions,
        wire::Mode::PlusTwoCoins => Mode::PlusTwoCoins,
        wire::Mode::PlusThreeCoins => Mode::PlusThreeCoins,
        wire::Mode::GainGold => Mode::GainGold,
        wire::Mode::TrashTwo => Mode::TrashTwo,
        wire::Mode::DiscardAndDraw => Mode::DiscardAndDraw,
        wire::Mode::DiscardTwo => Mode::DiscardTwo,
        wire::Mode::GainCurse => Mode::GainCurse,
        wire::Mode::TrashFromSupply => Mode::TrashFromSupply,
        wire::Mode::GainFromTrash => Mode::GainFromTrash,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(kingdom: wire::KingdomChoice, seats: Vec<wire::SeatSetting>) -> wire::RoomSettings {
        wire::RoomSettings {
            name: None,
            kingdom,
            edition: wire::Edition::Second,
            seats,
            decision_seconds: None,
            abandoned: wire::AbandonPolicy::default(),
            spectator_chat: false,
            rated: false,
        }
    }

    #[test]
    fn settings_are_checked_with_precise_errors() {
        let open = || wire::SeatSetting::Open {};
        let bot = |b: &str| wire::SeatSetting::Bot { bot: b.into() };
        let rec = |id: &str| wire::KingdomChoice::Recommended { id: id.into() };

        let plan = room_plan(&settings(rec("First Game"), vec![open(), bot("big_money")])).unwrap();
        assert_eq!(
            plan.settings.kingdom,
            rec("base_2e/first_game"),
            "names resolve to ids"
        );
        assert_eq!(plan.setup.players, 2);

        let err = |s| room_plan(&s).unwrap_err().code;
        assert_eq!(
            err(settings(rec("nope"), vec![open(), open()])),
            ErrorCode::InvalidSettings
        );
        assert_eq!(
            err(settings(rec("base_2e/first_game"), vec![open()])),
            ErrorCode::InvalidSettings
        );
        assert_eq!(
            err(settings(
                rec("base_2e/first_game"),
                vec![bot("big_money"), bot("smithy")]
            )),
            ErrorCode::InvalidSettings
        );
        assert_eq!(
            err(settings(
                rec("base_2e/first_game"),
                vec![open(), bot("nobody")]
            )),
            ErrorCode::UnknownBot
        );
        // A rated room: 2 to 4 seats (5 or 6 could never be rated).
        let rated = |n: usize| {
            let mut s = settings(rec("base_2e/first_game"), vec![open(); n]);
            s.rated = true;
            s
        };
        assert!(room_plan(&rated(4)).is_ok());
        let five = room_plan(&rated(5)).unwrap_err();
        assert_eq!(five.code, ErrorCode::InvalidSettings);
        assert!(five.message.contains("2 to 4 seats"), "{}", five.message);
        let cards = |keys: &[&str]| wire::KingdomChoice::Cards {
            cards: keys.iter().map(|k| k.to_string()).collect(),
        };
        assert_eq!(
            err(settings(
                cards(&["village", "dragon"]),
                vec![open(), open()]
            )),
            ErrorCode::UnknownCard
        );
        assert_eq!(
            err(settings(cards(&["village"]), vec![open(), open()])),
            ErrorCode::InvalidSettings
        );
        assert!(
            room_plan(&settings(
                wire::KingdomChoice::Random {
                    pool: None,
                    sets: None
                },
                vec![open(), open()]
            ))
            .is_ok()
        );
    }

    #[test]
    fn random_kingdoms_map_to_the_engine_kingdom_of_their_pool_and_sets() {
        let random = |pool, sets| {
            let mut s = settings(
                wire::KingdomChoice::Random { pool, sets },
                vec![wire::SeatSetting::Open {}, wire::SeatSetting::Open {}],
            );
            s.edition = wire::Edition::First;
            room_plan(&s)
        };
        let kingdom = |pool, sets| random(pool, sets).unwrap().setup.kingdom;
        // Without sets: the kingdoms of before sets could be chosen.
        assert_eq!(kingdom(None, None), Kingdom::Random);
        assert_eq!(
            kingdom(Some(wire::CardPool::Both), None),
            Kingdom::RandomFrom(CardPool::Both)
        );
        // With sets and no pool, the pool is the room's edition.
        assert_eq!(
            kingdom(None, Some(vec![wire::CardSet::Intrigue])),
            Kingdom::RandomDraw {
                pool: CardPool::First,
                sets: vec![Set::Intrigue]
            }
        );
        assert_eq!(
            kingdom(
                Some(wire::CardPool::Second),
                Some(vec![wire::CardSet::Intrigue, wire::CardSet::Base])
            ),
            Kingdom::RandomDraw {
                pool: CardPool::Second,
                sets: vec![Set::Intrigue, Set::Base]
            }
        );
        let e = random(None, Some(vec![])).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidSettings);
        assert_eq!(
            e.message,
            "a random kingdom needs at least one set to draw from"
        );
        let e = random(None, Some(vec![wire::CardSet::Base, wire::CardSet::Base])).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidSettings);
        assert_eq!(e.message, "the set Base is named twice");
    }

    #[test]
    fn replies_convert_or_name_the_unknown_card() {
        assert_eq!(
            reply(&wire::Reply::Buy {
                card: "gold".into()
            }),
            Ok(Reply::Buy(CardId::Gold))
        );
        assert_eq!(
            reply(&wire::Reply::Pile { card: None }),
            Ok(Reply::Pile(None))
        );
        let e = reply(&wire::Reply::Cards {
            cards: vec!["copper".into(), "gol".into()],
        })
        .unwrap_err();
        assert_eq!(e.code, ErrorCode::UnknownCard);
        assert!(e.message.contains("gol"));
    }

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(player_name("  Ann "), Ok("Ann".to_string()));
        assert!(player_name("").is_err());
        assert!(player_name(&"x".repeat(33)).is_err());
        assert!(player_name("a\u{7}b").is_err());
    }
}
