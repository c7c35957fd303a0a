//! Game setup: player count, kingdom choice, edition — and building the opening state.
//!
//! Recommended kingdoms are looked up by id in [`RECOMMENDED`] and offered once every
//! card is implemented ([`recommended_kingdoms`]). A random kingdom draws 10 cards from a
//! [`CardPool`] (printed in 1E, in 2E, or either), optionally limited to some [`Set`]s
//! (a later expansion is one more `Set`), on an RNG stream of its own, so the game's
//! shuffles are the same as with the drawn cards given explicitly: the server stores the
//! drawn cards, and a stored game replays identically after the pool grows. Any kingdom
//! may mix cards printed in one edition only; the game's edition picks the text of cards
//! printed in both.

use crate::card::{CardId, Edition, Set};
use crate::state::{Pile, PlayerId, PlayerState, State, TurnState};
use rand::SeedableRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// How the 10 kingdom cards are picked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Kingdom {
    /// Exactly these 10 different kingdom cards.
    Cards(Vec<CardId>),
    /// A recommended kingdom by id (see [`recommended_kingdoms`]).
    Recommended(String),
    /// 10 cards drawn by the game's seeded RNG from the cards printed in the game's
    /// edition (the same as `RandomFrom` that edition's pool).
    Random,
    /// 10 cards drawn by the game's seeded RNG from a pool of printings, of every set.
    RandomFrom(CardPool),
    /// 10 cards drawn by the game's seeded RNG from the cards of `sets` in `pool`. The
    /// order of `sets` does not matter; naming every set with kingdom cards draws
    /// exactly what `RandomFrom(pool)` draws.
    RandomDraw { pool: CardPool, sets: Vec<Set> },
}

/// The cards a random kingdom may draw from: those printed in the 1st edition, in the
/// 2nd, or in either. Cards printed in both are in every pool; which of their texts is
/// played is the game's edition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CardPool {
    #[serde(rename = "1e")]
    First,
    #[serde(rename = "2e")]
    Second,
    #[serde(rename = "both")]
    Both,
}

impl CardPool {
    /// The pool of the cards printed in `edition`.
    pub fn of(edition: Edition) -> CardPool {
        match edition {
            Edition::First => CardPool::First,
            Edition::Second => CardPool::Second,
        }
    }
    pub fn contains(self, card: CardId) -> bool {
        match self {
            CardPool::First => card.def().printed.in_edition(Edition::First),
            CardPool::Second => card.def().printed.in_edition(Edition::Second),
            CardPool::Both => true,
        }
    }
}

/// What a game is set up from. Together with the seed and the replies it determines
/// the whole game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub players: u8,
    pub kingdom: Kingdom,
    #[serde(default)]
    pub edition: Edition,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("rules version {0} is not one this engine plays")]
    Rules(u32),
    #[error("a game needs 2 to 6 players, not {0}")]
    PlayerCount(u8),
    #[error("a kingdom needs exactly 10 different cards, got {0}")]
    KingdomSize(usize),
    #[error("{0} appears twice in the kingdom")]
    DuplicateCard(CardId),
    #[error("{0} is a basic card, not a kingdom card")]
    NotKingdom(CardId),
    #[error("no recommended kingdom {0:?} with all cards implemented")]
    UnknownRecommended(String),
    #[error(
        "only {0} implemented kingdom cards are in the chosen printings and sets; 10 are needed"
    )]
    PoolTooSmall(usize),
    #[error("a random kingdom needs at least one set to draw from")]
    NoSets,
    #[error("the set {0} is named twice")]
    DuplicateSet(Set),
    #[error("{0} is not a set of kingdom cards")]
    NotKingdomSet(Set),
}

/// A named kingdom recommended by a rulebook.
#[derive(Debug)]
pub struct Recommended {
    /// Stable id, e.g. `base_2e/first_game`.
    pub id: &'static str,
    pub name: &'static str,
    /// Card keys; a kingdom is offered only when every card is implemented.
    pub cards: [&'static str; 10],
}

impl Recommended {
    /// The cards, or None if one is not implemented yet.
    pub fn card_ids(&self) -> Option<Vec<CardId>> {
        self.cards.iter().map(|k| k.parse().ok()).collect()
    }
}

/// Every recommended kingdom from the rulebooks (see ../shared/cards.md).
pub static RECOMMENDED: &[Recommended] = &[
    Recommended {
        id: "base_1e/first_game",
        name: "First Game (1E)",
        cards: [
            "cellar",
            "market",
            "militia",
            "mine",
            "moat",
            "remodel",
            "smithy",
            "village",
            "woodcutter",
            "workshop",
        ],
    },
    Recommended {
        id: "base_1e/big_money",
        name: "Big Money (1E)",
        cards: [
            "adventurer",
            "bureaucrat",
            "chancellor",
            "chapel",
            "feast",
            "laboratory",
            "market",
            "mine",
            "moneylender",
            "throne_room",
        ],
    },
    Recommended {
        id: "base_1e/interaction",
        name: "Interaction (1E)",
        cards: [
            "bureaucrat",
            "chancellor",
            "council_room",
            "festival",
            "library",
            "militia",
            "moat",
            "spy",
            "thief",
            "village",
        ],
    },
    Recommended {
        id: "base_1e/size_distortion",
        name: "Size Distortion (1E)",
        cards: [
            "cellar",
            "chapel",
            "feast",
            "gardens",
            "laboratory",
            "thief",
            "village",
            "witch",
            "woodcutter",
            "workshop",
        ],
    },
    Recommended {
        id: "base_1e/village_square",
        name: "Village Square (1E)",
        cards: [
            "bureaucrat",
            "cellar",
            "festival",
            "library",
            "market",
            "remodel",
            "smithy",
            "throne_room",
            "village",
            "woodcutter",
        ],
    },
    Recommended {
        id: "base_2e/first_game",
        name: "First Game",
        cards: [
            "cellar", "market", "merchant", "militia", "mine", "moat", "remodel", "smithy",
            "village", "workshop",
        ],
    },
    Recommended {
        id: "base_2e/size_distortion",
        name: "Size Distortion",
        cards: [
            "artisan",
            "bandit",
            "bureaucrat",
            "chapel",
            "festival",
            "gardens",
            "sentry",
            "throne_room",
            "witch",
            "workshop",
        ],
    },
    Recommended {
        id: "base_2e/deck_top",
        name: "Deck Top",
        cards: [
            "artisan",
            "bureaucrat",
            "council_room",
            "festival",
            "harbinger",
            "laboratory",
            "moneylender",
            "sentry",
            "vassal",
            "village",
        ],
    },
    Recommended {
        id: "base_2e/sleight_of_hand",
        name: "Sleight of Hand",
        cards: [
            "cellar",
            "council_room",
            "festival",
            "gardens",
            "library",
            "harbinger",
            "militia",
            "poacher",
            "smithy",
            "throne_room",
        ],
    },
    Recommended {
        id: "base_2e/improvements",
        name: "Improvements",
        cards: [
            "artisan",
            "cellar",
            "market",
            "merchant",
            "mine",
            "moat",
            "moneylender",
            "poacher",
            "remodel",
            "witch",
        ],
    },
    Recommended {
        id: "base_2e/silver_and_gold",
        name: "Silver & Gold",
        cards: [
            "bandit",
            "bureaucrat",
            "chapel",
            "harbinger",
            "laboratory",
            "merchant",
            "mine",
            "moneylender",
            "throne_room",
            "vassal",
        ],
    },
    Recommended {
        id: "intrigue_1e/victory_dance",
        name: "Victory Dance (1E)",
        cards: [
            "bridge",
            "duke",
            "great_hall",
            "harem",
            "ironworks",
            "masquerade",
            "nobles",
            "pawn",
            "scout",
            "upgrade",
        ],
    },
    Recommended {
        id: "intrigue_1e/secret_schemes",
        name: "Secret Schemes (1E)",
        cards: [
            "conspirator",
            "harem",
            "ironworks",
            "pawn",
            "saboteur",
            "shanty_town",
            "steward",
            "swindler",
            "trading_post",
            "tribute",
        ],
    },
    Recommended {
        id: "intrigue_1e/best_wishes",
        name: "Best Wishes (1E)",
        cards: [
            "coppersmith",
            "courtyard",
            "masquerade",
            "scout",
            "shanty_town",
            "steward",
            "torturer",
            "trading_post",
            "upgrade",
            "wishing_well",
        ],
    },
    Recommended {
        id: "base_intrigue_1e/deconstruction",
        name: "Deconstruction (1E)",
        cards: [
            "bridge",
            "mining_village",
            "remodel",
            "saboteur",
            "secret_chamber",
            "spy",
            "swindler",
            "thief",
            "throne_room",
            "torturer",
        ],
    },
    Recommended {
        id: "base_intrigue_1e/hand_madness",
        name: "Hand Madness (1E)",
        cards: [
            "bureaucrat",
            "chancellor",
            "council_room",
            "courtyard",
            "mine",
            "militia",
            "minion",
            "nobles",
            "steward",
            "torturer",
        ],
    },
    Recommended {
        id: "base_intrigue_1e/underlings",
        name: "Underlings (1E)",
        cards: [
            "baron",
            "cellar",
            "festival",
            "library",
            "masquerade",
            "minion",
            "nobles",
            "pawn",
            "steward",
            "witch",
        ],
    },
    Recommended {
        id: "base_intrigue_2e/underlings",
        name: "Underlings",
        cards: [
            "cellar", "festival", "library", "sentry", "vassal", "courtier", "diplomat", "minion",
            "nobles", "pawn",
        ],
    },
    Recommended {
        id: "base_intrigue_2e/grand_scheme",
        name: "Grand Scheme",
        cards: [
            "artisan",
            "council_room",
            "market",
            "militia",
            "workshop",
            "bridge",
            "mill",
            "mining_village",
            "patrol",
            "shanty_town",
        ],
    },
    Recommended {
        id: "base_intrigue_2e/deconstruction",
        name: "Deconstruction",
        cards: [
            "bandit",
            "mine",
            "remodel",
            "throne_room",
            "village",
            "diplomat",
            "harem",
            "lurker",
            "replace",
            "swindler",
        ],
    },
];

/// The kingdom `dominion-sim` plays by default and its engine benchmarks (`--bench`,
/// `examples/bm_games.rs`) measure on: every kingdom card the original reference bots
/// buy, plus Village, Market and Cellar (why: `dominion_sim::cli::DEFAULT_KINGDOM`).
pub const BENCH_KINGDOM: [&str; 10] = [
    "smithy",
    "witch",
    "militia",
    "council_room",
    "laboratory",
    "festival",
    "moat",
    "village",
    "market",
    "cellar",
];

/// The recommended kingdoms whose cards are all implemented.
pub fn recommended_kingdoms() -> impl Iterator<Item = &'static Recommended> {
    RECOMMENDED.iter().filter(|r| r.card_ids().is_some())
}

/// Kingdom cards a random kingdom may draw from for `edition`.
pub fn random_pool(edition: Edition) -> Vec<CardId> {
    pool_cards(CardPool::of(edition))
}

/// The kingdom cards in `pool`, in card-id order.
pub fn pool_cards(pool: CardPool) -> Vec<CardId> {
    CardId::all()
        .filter(|c| c.is_kingdom() && pool.contains(*c))
        .collect()
}

/// The kingdom cards in `pool` that belong to one of `sets`, in card-id order (so the
/// order of `sets` never changes a draw).
pub fn draw_cards(pool: CardPool, sets: &[Set]) -> Vec<CardId> {
    CardId::all()
        .filter(|c| c.is_kingdom() && pool.contains(*c) && sets.contains(&c.def().set))
        .collect()
}

/// Checks a list of sets to draw from: at least one, each once, each with kingdom cards.
pub fn check_sets(sets: &[Set]) -> Result<(), SetupError> {
    if sets.is_empty() {
        return Err(SetupError::NoSets);
    }
    for (i, s) in sets.iter().enumerate() {
        if *s == Set::Basic {
            return Err(SetupError::NotKingdomSet(*s));
        }
        if sets[..i].contains(s) {
            return Err(SetupError::DuplicateSet(*s));
        }
    }
    Ok(())
}

/// Refuses a pool too small for a kingdom.
fn check_pool(cards: &[CardId]) -> Result<(), SetupError> {
    if cards.len() < 10 {
        Err(SetupError::PoolTooSmall(cards.len()))
    } else {
        Ok(())
    }
}

impl Setup {
    /// A setup with a kingdom given by card keys; panics on an unknown key (for tests).
    pub fn with_cards(players: u8, keys: &[&str], edition: Edition) -> Setup {
        Setup {
            players,
            kingdom: Kingdom::Cards(keys.iter().map(|k| k.parse().expect("card key")).collect()),
            edition,
        }
    }

    /// Checks the setup without building anything.
    pub fn validate(&self) -> Result<(), SetupError> {
        if !(2..=6).contains(&self.players) {
            return Err(SetupError::PlayerCount(self.players));
        }
        match &self.kingdom {
            Kingdom::Cards(cards) => check_kingdom(cards),
            Kingdom::Recommended(id) => find_recommended(id).map(|_| ()),
            Kingdom::Random | Kingdom::RandomFrom(_) | Kingdom::RandomDraw { .. } => {
                self.draw_pool().map(|_| ())
            }
        }
    }

    /// The pool (of printings) a random kingdom of this setup draws from.
    pub fn pool(&self) -> CardPool {
        match self.kingdom {
            Kingdom::RandomFrom(pool) | Kingdom::RandomDraw { pool, .. } => pool,
            _ => CardPool::of(self.edition),
        }
    }

    /// The cards a random kingdom of this setup draws from, in card-id order, checked
    /// (empty for a kingdom that is not random).
    pub fn draw_pool(&self) -> Result<Vec<CardId>, SetupError> {
        let cards = match &self.kingdom {
            Kingdom::Cards(_) | Kingdom::Recommended(_) => return Ok(Vec::new()),
            Kingdom::Random | Kingdom::RandomFrom(_) => pool_cards(self.pool()),
            Kingdom::RandomDraw { pool, sets } => {
                check_sets(sets)?;
                draw_cards(*pool, sets)
            }
        };
        check_pool(&cards)?;
        Ok(cards)
    }
}

fn find_recommended(id: &str) -> Result<Vec<CardId>, SetupError> {
    RECOMMENDED
        .iter()
        .find(|r| r.id == id)
        .and_then(Recommended::card_ids)
        .ok_or_else(|| SetupError::UnknownRecommended(id.to_string()))
}

fn check_kingdom(cards: &[CardId]) -> Result<(), SetupError> {
    if cards.len() != 10 {
        return Err(SetupError::KingdomSize(cards.len()));
    }
    for (i, c) in cards.iter().enumerate() {
        if !c.is_kingdom() {
            return Err(SetupError::NotKingdom(*c));
        }
        if cards[..i].contains(c) {
            return Err(SetupError::DuplicateCard(*c));
        }
    }
    Ok(())
}

/// How many cards a pile of `card` starts with for `players` players.
pub fn pile_size(card: CardId, players: u8) -> u32 {
    let many = players >= 5;
    match card {
        CardId::Copper => (if many { 120 } else { 60 }) - 7 * players as u32,
        CardId::Silver => {
            if many {
                80
            } else {
                40
            }
        }
        CardId::Gold => {
            if many {
                60
            } else {
                30
            }
        }
        CardId::Curse => 10 * (players as u32 - 1),
        CardId::Province => match players {
            2 => 8,
            5 => 15,
            6 => 18,
            _ => 12,
        },
        c if c.is_victory() => {
            if players == 2 {
                8
            } else {
                12
            }
        }
        _ => 10,
    }
}

const BASIC_PILES: [CardId; 7] = [
    CardId::Copper,
    CardId::Silver,
    CardId::Gold,
    CardId::Estate,
    CardId::Duchy,
    CardId::Province,
    CardId::Curse,
];

/// Builds the opening state: Supply, shuffled starting decks, 5-card hands, first player.
pub(crate) fn build(setup: &Setup, seed: u64) -> Result<(State, Vec<CardId>), SetupError> {
    setup.validate()?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut kingdom = match &setup.kingdom {
        Kingdom::Cards(c) => c.clone(),
        Kingdom::Recommended(id) => find_recommended(id)?,
        Kingdom::Random | Kingdom::RandomFrom(_) | Kingdom::RandomDraw { .. } => {
            // A stream of its own: the game's shuffles are then the same as with the
            // drawn cards given explicitly, so a record may store the kingdom it drew
            // and replay identically even after the pool grows.
            let mut draw = ChaCha8Rng::seed_from_u64(seed);
            draw.set_stream(1);
            setup.draw_pool()?.sample(&mut draw, 10).copied().collect()
        }
    };
    kingdom.sort_by_key(|c| (c.base_cost(), c.name()));
    let n = setup.players;
    let supply = BASIC_PILES
        .iter()
        .chain(&kingdom)
        .map(|&card| Pile {
            card,
            count: pile_size(card, n),
        })
        .collect();
    let mut players: Vec<PlayerState> = (0..n).map(|_| PlayerState::default()).collect();
    for pl in &mut players {
        // Each zone starts with room for a typical game's cards: growing them card by
        // card reallocated about ten times per game (a simulation plays many).
        pl.deck = Vec::with_capacity(40);
        pl.deck.extend_from_slice(&[CardId::Copper; 7]);
        pl.deck.extend_from_slice(&[CardId::Estate; 3]);
        pl.deck.shuffle(&mut rng);
        let split = pl.deck.len() - 5;
        pl.hand = Vec::with_capacity(12);
        pl.hand.extend(pl.deck.drain(split..));
        pl.discard = Vec::with_capacity(40);
        pl.in_play = Vec::with_capacity(12);
    }
    debug_assert!(kingdom.iter().all(|c| c.def().set != Set::Basic));
    let first = PlayerId((rand::RngExt::random_range(&mut rng, 0..n as u32)) as u8);
    let st = State {
        edition: setup.edition,
        supply,
        trash: Vec::new(),
        players,
        current: first,
        turn: TurnState::new(),
        turn_count: 0,
        game_over: false,
        rng,
        passes: Vec::new(),
        rules: crate::RULES_VERSION,
    };
    Ok((st, kingdom))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(players: u8) -> State {
        build(
            &Setup {
                players,
                kingdom: Kingdom::Recommended("base_2e/first_game".into()),
                edition: Edition::Second,
            },
            7,
        )
        .unwrap()
        .0
    }

    #[test]
    fn pile_sizes_follow_player_count() {
        let expect = |p: u8, copper, silver, gold, victory, province, curse| {
            let st = setup(p);
            assert_eq!(st.supply_count(CardId::Copper), copper, "{p}p copper");
            assert_eq!(st.supply_count(CardId::Silver), silver, "{p}p silver");
            assert_eq!(st.supply_count(CardId::Gold), gold, "{p}p gold");
            assert_eq!(st.supply_count(CardId::Estate), victory, "{p}p estate");
            assert_eq!(st.supply_count(CardId::Duchy), victory, "{p}p duchy");
            assert_eq!(st.supply_count(CardId::Province), province, "{p}p province");
            assert_eq!(st.supply_count(CardId::Curse), curse, "{p}p curse");
            assert_eq!(st.supply_count(CardId::Village), 10);
            assert_eq!(st.supply.len(), 17);
        };
        expect(2, 46, 40, 30, 8, 8, 10);
        expect(3, 39, 40, 30, 12, 12, 20);
        expect(4, 32, 40, 30, 12, 12, 30);
        expect(5, 85, 80, 60, 12, 15, 40);
        expect(6, 78, 80, 60, 12, 18, 50);
    }

    #[test]
    fn starting_decks_are_7_copper_3_estate_with_5_in_hand() {
        let st = setup(4);
        for pl in &st.players {
            assert_eq!(pl.hand.len(), 5);
            assert_eq!(pl.deck.len(), 5);
            assert_eq!(pl.count_owned(CardId::Copper), 7);
            assert_eq!(pl.count_owned(CardId::Estate), 3);
        }
    }

    #[test]
    fn bad_setups_are_refused_with_reasons() {
        let s = |players, kingdom| Setup {
            players,
            kingdom,
            edition: Edition::Second,
        };
        assert_eq!(
            s(1, Kingdom::Random).validate(),
            Err(SetupError::PlayerCount(1))
        );
        assert_eq!(
            s(7, Kingdom::Random).validate(),
            Err(SetupError::PlayerCount(7))
        );
        assert_eq!(
            s(2, Kingdom::Cards(vec![CardId::Village; 3])).validate(),
            Err(SetupError::KingdomSize(3))
        );
        let mut dup = random_pool(Edition::Second)[..10].to_vec();
        dup[9] = dup[0];
        assert_eq!(
            s(2, Kingdom::Cards(dup.clone())).validate(),
            Err(SetupError::DuplicateCard(dup[0]))
        );
        dup[9] = CardId::Gold;
        assert_eq!(
            s(2, Kingdom::Cards(dup)).validate(),
            Err(SetupError::NotKingdom(CardId::Gold))
        );
        assert!(matches!(
            s(2, Kingdom::Recommended("base_1e/nope".into())).validate(),
            Err(SetupError::UnknownRecommended(_))
        ));
    }

    #[test]
    fn a_drawn_kingdom_given_explicitly_plays_the_same_game() {
        for seed in 0..20 {
            let random = Setup {
                players: 3,
                kingdom: Kingdom::RandomFrom(CardPool::Both),
                edition: Edition::Second,
            };
            let (st, k) = build(&random, seed).unwrap();
            let explicit = Setup {
                kingdom: Kingdom::Cards(k),
                ..random
            };
            assert_eq!(build(&explicit, seed).unwrap().0, st);
        }
    }

    #[test]
    fn pools_hold_the_printings_asked_for() {
        let first = pool_cards(CardPool::First);
        let second = pool_cards(CardPool::Second);
        let both = pool_cards(CardPool::Both);
        assert!(first.contains(&CardId::Chancellor) && !second.contains(&CardId::Chancellor));
        assert!(second.contains(&CardId::Sentry) && !first.contains(&CardId::Sentry));
        assert!(first.contains(&CardId::Village) && second.contains(&CardId::Village));
        assert_eq!(both.len(), CardId::all().filter(|c| c.is_kingdom()).count());
        let mut seen_first_only = false;
        for seed in 0..200 {
            let (_, k) = build(
                &Setup {
                    players: 2,
                    kingdom: Kingdom::RandomFrom(CardPool::Both),
                    edition: Edition::Second,
                },
                seed,
            )
            .unwrap();
            seen_first_only |= k
                .iter()
                .any(|c| !c.def().printed.in_edition(Edition::Second));
        }
        assert!(
            seen_first_only,
            "a 2E game with the Both pool draws 1E-only cards too"
        );
    }

    #[test]
    fn random_kingdoms_use_the_edition_pool() {
        for seed in 0..50 {
            let (_, k) = build(
                &Setup {
                    players: 2,
                    kingdom: Kingdom::Random,
                    edition: Edition::First,
                },
                seed,
            )
            .unwrap();
            assert_eq!(k.len(), 10);
            assert!(k.iter().all(|c| c.def().printed.in_edition(Edition::First)));
        }
    }

    /// Keys of the kingdom a setup draws with `seed`, in supply order.
    fn drawn(kingdom: Kingdom, edition: Edition, seed: u64) -> Vec<&'static str> {
        let setup = Setup {
            players: 2,
            kingdom,
            edition,
        };
        let (_, k) = build(&setup, seed).unwrap();
        k.iter().map(|c| c.def().key).collect()
    }

    /// Stored setups name `random` and `random_from`: they must read and draw exactly as
    /// before sets could be chosen. (The cards drawn change only when cards are added to
    /// a pool, which is why the server records a started game's kingdom as its cards.)
    #[test]
    fn the_old_random_kingdoms_read_and_draw_as_before() {
        let read = |json: &str| serde_json::from_str::<Setup>(json).unwrap();
        let random_1e = read(r#"{"players":2,"kingdom":{"type":"random"},"edition":"1e"}"#);
        assert_eq!(random_1e.kingdom, Kingdom::Random);
        let from_both =
            read(r#"{"players":2,"kingdom":{"type":"random_from","value":"both"},"edition":"2e"}"#);
        assert_eq!(from_both.kingdom, Kingdom::RandomFrom(CardPool::Both));
        assert_eq!(
            serde_json::to_string(&Kingdom::RandomFrom(CardPool::First)).unwrap(),
            r#"{"type":"random_from","value":"1e"}"#
        );
        let first_1e = [
            "cellar",
            "chapel",
            "steward",
            "woodcutter",
            "workshop",
            "council_room",
            "duke",
            "market",
            "upgrade",
            "adventurer",
        ];
        let second_2e = [
            "cellar",
            "chapel",
            "swindler",
            "vassal",
            "village",
            "throne_room",
            "duke",
            "market",
            "upgrade",
            "artisan",
        ];
        let both = [
            "chapel",
            "swindler",
            "woodcutter",
            "workshop",
            "feast",
            "laboratory",
            "minion",
            "patrol",
            "tribute",
            "adventurer",
        ];
        assert_eq!(drawn(Kingdom::Random, Edition::First, 2024), first_1e);
        assert_eq!(drawn(Kingdom::Random, Edition::Second, 2024), second_2e);
        assert_eq!(
            drawn(Kingdom::RandomFrom(CardPool::First), Edition::Second, 2024),
            first_1e
        );
        assert_eq!(
            drawn(Kingdom::RandomFrom(CardPool::Second), Edition::Second, 2024),
            second_2e
        );
        assert_eq!(
            drawn(Kingdom::RandomFrom(CardPool::Both), Edition::Second, 2024),
            both
        );
        let (st, _) = build(&random_1e, 2024).unwrap();
        assert_eq!(st.current, PlayerId(1));
    }

    #[test]
    fn a_set_draw_reads_and_writes_its_sets_by_key() {
        let k = Kingdom::RandomDraw {
            pool: CardPool::First,
            sets: vec![Set::Intrigue, Set::Base],
        };
        let json = r#"{"type":"random_draw","value":{"pool":"1e","sets":["intrigue","base"]}}"#;
        assert_eq!(serde_json::to_string(&k).unwrap(), json);
        assert_eq!(serde_json::from_str::<Kingdom>(json).unwrap(), k);
    }

    /// The number of kingdom cards of each set and printing, as the rulebooks count them:
    /// Base has 25 in the 1st edition and 26 in the 2nd (19 in both), Intrigue 25 and 26
    /// (19 in both).
    #[test]
    fn set_pools_hold_each_rulebooks_cards() {
        let count = |pool, sets: &[Set]| draw_cards(pool, sets).len();
        assert_eq!(count(CardPool::First, &[Set::Base]), 25);
        assert_eq!(count(CardPool::Second, &[Set::Base]), 26);
        assert_eq!(count(CardPool::Both, &[Set::Base]), 32);
        assert_eq!(count(CardPool::First, &[Set::Intrigue]), 25);
        assert_eq!(count(CardPool::Second, &[Set::Intrigue]), 26);
        assert_eq!(count(CardPool::Both, &[Set::Intrigue]), 32);
        for pool in [CardPool::First, CardPool::Second, CardPool::Both] {
            assert_eq!(
                draw_cards(pool, &[Set::Base, Set::Intrigue]),
                pool_cards(pool),
                "{pool:?}"
            );
        }
        assert!(draw_cards(CardPool::Both, &[Set::Basic]).is_empty());
    }

    #[test]
    fn set_draws_take_only_cards_of_the_chosen_sets_and_printings() {
        let cases: &[(CardPool, &[Set])] = &[
            (CardPool::First, &[Set::Base]),
            (CardPool::Second, &[Set::Base]),
            (CardPool::Both, &[Set::Base]),
            (CardPool::First, &[Set::Intrigue]),
            (CardPool::Second, &[Set::Intrigue]),
            (CardPool::Both, &[Set::Intrigue]),
            (CardPool::First, &[Set::Base, Set::Intrigue]),
            (CardPool::Second, &[Set::Intrigue, Set::Base]),
            (CardPool::Both, &[Set::Base, Set::Intrigue]),
        ];
        for &(pool, sets) in cases {
            let mut seen = std::collections::BTreeSet::new();
            for seed in 0..100 {
                for edition in [Edition::First, Edition::Second] {
                    let setup = Setup {
                        players: 3,
                        kingdom: Kingdom::RandomDraw {
                            pool,
                            sets: sets.to_vec(),
                        },
                        edition,
                    };
                    let (st, k) = build(&setup, seed).unwrap();
                    assert_eq!(k.len(), 10);
                    for c in &k {
                        assert!(sets.contains(&c.def().set), "{pool:?} {sets:?}: {c}");
                        assert!(pool.contains(*c), "{pool:?} {sets:?}: {c}");
                        assert!(k.iter().filter(|d| *d == c).count() == 1, "{c} twice");
                    }
                    seen.extend(k.iter().map(|c| c.def().set));
                    // The draw is on its own stream: the same cards given explicitly
                    // play the same game.
                    let explicit = Setup {
                        kingdom: Kingdom::Cards(k),
                        ..setup
                    };
                    assert_eq!(build(&explicit, seed).unwrap().0, st);
                }
            }
            assert_eq!(
                seen.into_iter().collect::<Vec<_>>(),
                {
                    let mut s = sets.to_vec();
                    s.sort();
                    s
                },
                "{pool:?}: every chosen set is drawn from"
            );
        }
    }

    #[test]
    fn every_set_draws_as_the_pool_alone() {
        let all: Vec<Set> = Set::kingdom_sets().collect();
        let mut reversed = all.clone();
        reversed.reverse();
        for pool in [CardPool::First, CardPool::Second, CardPool::Both] {
            for seed in 0..30 {
                let old = drawn(Kingdom::RandomFrom(pool), Edition::Second, seed);
                for sets in [&all, &reversed] {
                    let kingdom = Kingdom::RandomDraw {
                        pool,
                        sets: sets.clone(),
                    };
                    assert_eq!(drawn(kingdom, Edition::Second, seed), old, "{pool:?}");
                }
            }
        }
    }

    #[test]
    fn bad_set_lists_are_refused_with_reasons() {
        let s = |sets: Vec<Set>| Setup {
            players: 2,
            kingdom: Kingdom::RandomDraw {
                pool: CardPool::Both,
                sets,
            },
            edition: Edition::Second,
        };
        assert_eq!(s(vec![]).validate(), Err(SetupError::NoSets));
        assert_eq!(
            s(vec![Set::Base, Set::Intrigue, Set::Base]).validate(),
            Err(SetupError::DuplicateSet(Set::Base))
        );
        assert_eq!(
            s(vec![Set::Basic]).validate(),
            Err(SetupError::NotKingdomSet(Set::Basic))
        );
        assert_eq!(
            s(vec![Set::Intrigue, Set::Basic]).validate(),
            Err(SetupError::NotKingdomSet(Set::Basic))
        );
        assert_eq!(build(&s(vec![]), 1).unwrap_err(), SetupError::NoSets);
        assert_eq!(
            SetupError::NoSets.to_string(),
            "a random kingdom needs at least one set to draw from"
        );
        assert_eq!(
            SetupError::DuplicateSet(Set::Base).to_string(),
            "the set Base is named twice"
        );
        assert_eq!(
            SetupError::NotKingdomSet(Set::Basic).to_string(),
            "Basic is not a set of kingdom cards"
        );
        // Every set and printing implemented today has at least 10 cards, so a pool too
        // small comes only from a set with few cards implemented yet.
        let few = draw_cards(CardPool::Both, &[Set::Base])[..9].to_vec();
        assert_eq!(check_pool(&few), Err(SetupError::PoolTooSmall(9)));
        assert_eq!(
            SetupError::PoolTooSmall(9).to_string(),
            "only 9 implemented kingdom cards are in the chosen printings and sets; 10 are needed"
        );
        assert!(check_pool(&draw_cards(CardPool::Both, &[Set::Base])[..10]).is_ok());
    }
}
