//! Card identities and their printed, unchanging facts (cost, types, editions).
//!
//! Cards are plain ids: two Coppers are indistinguishable, so zones hold `CardId`s and
//! no hidden card ever carries an identity another player could track. What a card
//! *does* lives in [`crate::cards`], one small module per card.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A set of card types, as bit flags (a card may have several: Great Hall is Action–Victory).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Types(u8);

impl Types {
    pub const ACTION: Types = Types(1);
    pub const TREASURE: Types = Types(2);
    pub const VICTORY: Types = Types(4);
    pub const CURSE: Types = Types(8);
    pub const ATTACK: Types = Types(16);
    pub const REACTION: Types = Types(32);

    /// Whether every type in `other` is also in `self`.
    pub const fn contains(self, other: Types) -> bool {
        self.0 & other.0 == other.0
    }
    /// Whether `self` and `other` share a type.
    pub const fn intersects(self, other: Types) -> bool {
        self.0 & other.0 != 0
    }
    pub const fn union(self, other: Types) -> Types {
        Types(self.0 | other.0)
    }
    /// The types' names, in printed order, for display and the wire.
    pub fn names(self) -> Vec<&'static str> {
        [
            (Types::ACTION, "action"),
            (Types::TREASURE, "treasure"),
            (Types::VICTORY, "victory"),
            (Types::CURSE, "curse"),
            (Types::ATTACK, "attack"),
            (Types::REACTION, "reaction"),
        ]
        .into_iter()
        .filter(|(t, _)| self.contains(*t))
        .map(|(_, n)| n)
        .collect()
    }
}

impl std::ops::BitOr for Types {
    type Output = Types;
    fn bitor(self, rhs: Types) -> Types {
        self.union(rhs)
    }
}

/// Which editions print a card. A game plays one edition's text for cards printed in both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Printed {
    Both,
    FirstOnly,
    SecondOnly,
}

/// The edition whose card texts a game uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Edition {
    #[serde(rename = "1e")]
    First,
    #[default]
    #[serde(rename = "2e")]
    Second,
}

impl Printed {
    pub fn in_edition(self, e: Edition) -> bool {
        matches!(
            (self, e),
            (Printed::Both, _)
                | (Printed::FirstOnly, Edition::First)
                | (Printed::SecondOnly, Edition::Second)
        )
    }
}

/// Which product a card comes from. A random kingdom may be drawn from chosen sets, so
/// a set is also a setup value (snake_case key on the wire and in records).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Set {
    /// The seven basic cards (Copper … Curse); no kingdom card is in it.
    Basic,
    Base,
    Intrigue,
}

impl Set {
    /// Every set, in release order. A new expansion is a new variant here (the test
    /// `every_set_is_listed` fails until it is listed).
    pub const ALL: [Set; 3] = [Set::Basic, Set::Base, Set::Intrigue];

    /// The sets that hold kingdom cards: what a random kingdom may be drawn from.
    pub fn kingdom_sets() -> impl Iterator<Item = Set> {
        Set::ALL.into_iter().filter(|s| *s != Set::Basic)
    }

    /// Stable snake_case key, as serialized.
    pub fn key(self) -> &'static str {
        match self {
            Set::Basic => "basic",
            Set::Base => "base",
            Set::Intrigue => "intrigue",
        }
    }

    /// English name, as printed on the box.
    pub fn name(self) -> &'static str {
        match self {
            Set::Basic => "Basic",
            Set::Base => "Base",
            Set::Intrigue => "Intrigue",
        }
    }
}

impl fmt::Display for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The key named no set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown set {0:?}")]
pub struct UnknownSet(pub String);

impl FromStr for Set {
    type Err = UnknownSet;
    /// A set by its key (`base`, `intrigue`, `basic`).
    fn from_str(s: &str) -> Result<Set, UnknownSet> {
        Set::ALL
            .into_iter()
            .find(|set| set.key() == s)
            .ok_or_else(|| UnknownSet(s.to_string()))
    }
}

/// The printed facts of one card.
#[derive(Debug)]
pub struct CardDef {
    pub id: CardId,
    /// Stable snake_case id, used in setups, logs and on the wire.
    pub key: &'static str,
    /// English name; translations live in the client.
    pub name: &'static str,
    pub cost: u8,
    pub types: Types,
    pub set: Set,
    pub printed: Printed,
}

macro_rules! cards {
    ($($id:ident $key:literal $name:literal $cost:literal [$($t:ident)|+] $set:ident $printed:ident;)*) => {
        /// Every implemented card. Only cards whose effect is implemented are declared here.
        /// New cards are appended: the order is `Ord`, which sorts the options of a
        /// request, so appending keeps every existing request's option order.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        #[repr(u8)]
        pub enum CardId { $($id),* }

        /// How many cards there are (one more than the largest `CardId as usize`).
        pub(crate) const CARD_COUNT: usize = [$(CardId::$id),*].len();

        /// Every card in `CardId` order, for tables built at compile time.
        pub(crate) const CARD_IDS: [CardId; CARD_COUNT] = [$(CardId::$id),*];

        /// The printed facts of every card, indexed by `CardId as usize`.
        pub static CARDS: &[CardDef] = &CARD_TABLE;

        /// `CARDS` as an array: looking a card up (every type and cost check) is then one
        /// indexed load, with no slice to load first and no bounds check.
        static CARD_TABLE: [CardDef; CARD_COUNT] = [
            $(CardDef {
                id: CardId::$id,
                key: $key,
                name: $name,
                cost: $cost,
                types: Types(0 $(| Types::$t.0)+),
                set: Set::$set,
                printed: Printed::$printed,
            }),*
        ];

        /// Each card's cost and types on their own, indexed by `CardId as usize`: the
        /// turn loop and the bots check a type or a cost for nearly every card they
        /// look at, and a byte-wide table is one load with no multiply.
        static COSTS: [u8; CARD_COUNT] = [$($cost),*];
        static TYPES: [Types; CARD_COUNT] = [$(Types(0 $(| Types::$t.0)+)),*];
    };
}

cards! {
    Copper "copper" "Copper" 0 [TREASURE] Basic Both;
    Silver "silver" "Silver" 3 [TREASURE] Basic Both;
    Gold "gold" "Gold" 6 [TREASURE] Basic Both;
    Estate "estate" "Estate" 2 [VICTORY] Basic Both;
    Duchy "duchy" "Duchy" 5 [VICTORY] Basic Both;
    Province "province" "Province" 8 [VICTORY] Basic Both;
    Curse "curse" "Curse" 0 [CURSE] Basic Both;
    Cellar "cellar" "Cellar" 2 [ACTION] Base Both;
    Chapel "chapel" "Chapel" 2 [ACTION] Base Both;
    Moat "moat" "Moat" 2 [ACTION | REACTION] Base Both;
    Merchant "merchant" "Merchant" 3 [ACTION] Base SecondOnly;
    Village "village" "Village" 3 [ACTION] Base Both;
    Workshop "workshop" "Workshop" 3 [ACTION] Base Both;
    Militia "militia" "Militia" 4 [ACTION | ATTACK] Base Both;
    Remodel "remodel" "Remodel" 4 [ACTION] Base Both;
    Smithy "smithy" "Smithy" 4 [ACTION] Base Both;
    ThroneRoom "throne_room" "Throne Room" 4 [ACTION] Base Both;
    CouncilRoom "council_room" "Council Room" 5 [ACTION] Base Both;
    Festival "festival" "Festival" 5 [ACTION] Base Both;
    Laboratory "laboratory" "Laboratory" 5 [ACTION] Base Both;
    Market "market" "Market" 5 [ACTION] Base Both;
    Mine "mine" "Mine" 5 [ACTION] Base Both;
    Witch "witch" "Witch" 5 [ACTION | ATTACK] Base Both;
    Adventurer "adventurer" "Adventurer" 6 [ACTION] Base FirstOnly;
    Artisan "artisan" "Artisan" 6 [ACTION] Base SecondOnly;
    Bandit "bandit" "Bandit" 5 [ACTION | ATTACK] Base SecondOnly;
    Bureaucrat "bureaucrat" "Bureaucrat" 4 [ACTION | ATTACK] Base Both;
    Chancellor "chancellor" "Chancellor" 3 [ACTION] Base FirstOnly;
    Feast "feast" "Feast" 4 [ACTION] Base FirstOnly;
    Gardens "gardens" "Gardens" 4 [VICTORY] Base Both;
    Harbinger "harbinger" "Harbinger" 3 [ACTION] Base SecondOnly;
    Library "library" "Library" 5 [ACTION] Base Both;
    Moneylender "moneylender" "Moneylender" 4 [ACTION] Base Both;
    Poacher "poacher" "Poacher" 4 [ACTION] Base SecondOnly;
    Sentry "sentry" "Sentry" 5 [ACTION] Base SecondOnly;
    Spy "spy" "Spy" 4 [ACTION | ATTACK] Base FirstOnly;
    Thief "thief" "Thief" 4 [ACTION | ATTACK] Base FirstOnly;
    Vassal "vassal" "Vassal" 3 [ACTION] Base SecondOnly;
    Woodcutter "woodcutter" "Woodcutter" 3 [ACTION] Base FirstOnly;
    Courtyard "courtyard" "Courtyard" 2 [ACTION] Intrigue Both;
    Lurker "lurker" "Lurker" 2 [ACTION] Intrigue SecondOnly;
    Pawn "pawn" "Pawn" 2 [ACTION] Intrigue Both;
    SecretChamber "secret_chamber" "Secret Chamber" 2 [ACTION | REACTION] Intrigue FirstOnly;
    GreatHall "great_hall" "Great Hall" 3 [ACTION | VICTORY] Intrigue FirstOnly;
    Masquerade "masquerade" "Masquerade" 3 [ACTION] Intrigue Both;
    ShantyTown "shanty_town" "Shanty Town" 3 [ACTION] Intrigue Both;
    Steward "steward" "Steward" 3 [ACTION] Intrigue Both;
    Swindler "swindler" "Swindler" 3 [ACTION | ATTACK] Intrigue Both;
    WishingWell "wishing_well" "Wishing Well" 3 [ACTION] Intrigue Both;
    Baron "baron" "Baron" 4 [ACTION] Intrigue Both;
    Bridge "bridge" "Bridge" 4 [ACTION] Intrigue Both;
    Conspirator "conspirator" "Conspirator" 4 [ACTION] Intrigue Both;
    Coppersmith "coppersmith" "Coppersmith" 4 [ACTION] Intrigue FirstOnly;
    Diplomat "diplomat" "Diplomat" 4 [ACTION | REACTION] Intrigue SecondOnly;
    Ironworks "ironworks" "Ironworks" 4 [ACTION] Intrigue Both;
    Mill "mill" "Mill" 4 [ACTION | VICTORY] Intrigue SecondOnly;
    MiningVillage "mining_village" "Mining Village" 4 [ACTION] Intrigue Both;
    Scout "scout" "Scout" 4 [ACTION] Intrigue FirstOnly;
    SecretPassage "secret_passage" "Secret Passage" 4 [ACTION] Intrigue SecondOnly;
    Courtier "courtier" "Courtier" 5 [ACTION] Intrigue SecondOnly;
    Duke "duke" "Duke" 5 [VICTORY] Intrigue Both;
    Minion "minion" "Minion" 5 [ACTION | ATTACK] Intrigue Both;
    Patrol "patrol" "Patrol" 5 [ACTION] Intrigue SecondOnly;
    Replace "replace" "Replace" 5 [ACTION | ATTACK] Intrigue SecondOnly;
    Saboteur "saboteur" "Saboteur" 5 [ACTION | ATTACK] Intrigue FirstOnly;
    Torturer "torturer" "Torturer" 5 [ACTION | ATTACK] Intrigue Both;
    TradingPost "trading_post" "Trading Post" 5 [ACTION] Intrigue Both;
    Tribute "tribute" "Tribute" 5 [ACTION] Intrigue FirstOnly;
    Upgrade "upgrade" "Upgrade" 5 [ACTION] Intrigue Both;
    Harem "harem" "Harem" 6 [TREASURE | VICTORY] Intrigue Both;
    Nobles "nobles" "Nobles" 6 [ACTION | VICTORY] Intrigue Both;
}

/// A set of distinct cards, one bit per `CardId`: what a request's option list is built
/// from when only which cards occur matters (not how many).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CardSet(u128);

const _: () = assert!(CARD_COUNT <= 128, "CardSet holds one bit per card");

impl CardSet {
    pub(crate) fn insert(&mut self, c: CardId) {
        self.0 |= 1 << c as u32;
    }
    /// Appends the cards to `v` in `CardId` order (the order of a sorted option list).
    pub(crate) fn drain_into(self, v: &mut Vec<CardId>) {
        let mut bits = self.0;
        while bits != 0 {
            v.push(CARD_TABLE[bits.trailing_zeros() as usize].id);
            bits &= bits - 1;
        }
    }
}

impl FromIterator<CardId> for CardSet {
    fn from_iter<I: IntoIterator<Item = CardId>>(cards: I) -> CardSet {
        let mut set = CardSet::default();
        cards.into_iter().for_each(|c| set.insert(c));
        set
    }
}

impl CardId {
    #[inline]
    pub fn def(self) -> &'static CardDef {
        &CARD_TABLE[self as usize]
    }
    pub fn all() -> impl Iterator<Item = CardId> {
        CARDS.iter().map(|d| d.id)
    }
    pub fn key(self) -> &'static str {
        self.def().key
    }
    pub fn name(self) -> &'static str {
        self.def().name
    }
    /// The printed cost, before any reductions (see `State::cost` for the cost now).
    #[inline]
    pub fn base_cost(self) -> u8 {
        COSTS[self as usize]
    }
    #[inline]
    pub fn types(self) -> Types {
        TYPES[self as usize]
    }
    #[inline]
    pub fn is(self, t: Types) -> bool {
        self.types().intersects(t)
    }
    pub fn is_action(self) -> bool {
        self.is(Types::ACTION)
    }
    pub fn is_treasure(self) -> bool {
        self.is(Types::TREASURE)
    }
    pub fn is_victory(self) -> bool {
        self.is(Types::VICTORY)
    }
    /// A kingdom card is any card that is not one of the seven basic cards.
    pub fn is_kingdom(self) -> bool {
        self.def().set != Set::Basic
    }
}

impl fmt::Display for CardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The id string named no implemented card.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown card id {0:?}")]
pub struct UnknownCard(pub String);

impl FromStr for CardId {
    type Err = UnknownCard;
    fn from_str(s: &str) -> Result<CardId, UnknownCard> {
        CARDS
            .iter()
            .find(|d| d.key == s)
            .map(|d| d.id)
            .ok_or_else(|| UnknownCard(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(set: CardSet) -> Vec<CardId> {
        let mut v = Vec::new();
        set.drain_into(&mut v);
        v
    }

    #[test]
    fn a_card_set_lists_each_card_once_in_card_id_order() {
        use CardId::*;
        let hand = [Nobles, Copper, Harem, Copper, Gold, Nobles, Curse];
        let set: CardSet = hand.into_iter().collect();
        let mut sorted = hand.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(listed(set), sorted);
        assert_eq!(listed(set), vec![Copper, Gold, Curse, Harem, Nobles]);
        assert_eq!(listed(CardSet::default()), vec![]);
        let mut v = vec![Silver];
        set.drain_into(&mut v);
        assert_eq!(v, vec![Silver, Copper, Gold, Curse, Harem, Nobles]);
        let all: CardSet = CardId::all().collect();
        assert!(
            listed(all).into_iter().eq(CardId::all()),
            "the last card fits too"
        );
    }

    #[test]
    fn table_is_indexed_by_id_and_keys_round_trip() {
        for (i, d) in CARDS.iter().enumerate() {
            assert_eq!(d.id as usize, i, "{} out of place", d.key);
            assert_eq!(d.key.parse::<CardId>().unwrap(), d.id);
            let json = serde_json::to_string(&d.id).unwrap();
            assert_eq!(json, format!("\"{}\"", d.key), "serde name must equal key");
        }
        assert!("nope".parse::<CardId>().is_err());
    }

    #[test]
    fn every_set_is_listed() {
        // A new variant makes this match non-exhaustive: add it to `Set::ALL` too.
        let listed = |s: Set| match s {
            Set::Basic | Set::Base | Set::Intrigue => Set::ALL.contains(&s),
        };
        assert!(Set::ALL.into_iter().all(listed));
        for d in CARDS {
            assert!(Set::ALL.contains(&d.set), "{}", d.key);
        }
        assert_eq!(
            Set::kingdom_sets().collect::<Vec<_>>(),
            [Set::Base, Set::Intrigue]
        );
        for set in Set::ALL {
            assert_eq!(set.key().parse::<Set>(), Ok(set));
            let json = serde_json::to_string(&set).unwrap();
            assert_eq!(
                json,
                format!("\"{}\"", set.key()),
                "serde name must equal key"
            );
            // Every set but Basic has kingdom cards, and Basic has none.
            let kingdom = CARDS
                .iter()
                .filter(|d| d.set == set)
                .all(|d| d.id.is_kingdom());
            assert_eq!(kingdom, set != Set::Basic, "{set}");
            assert!(CARDS.iter().any(|d| d.set == set), "{set} has cards");
        }
        assert_eq!("seaside".parse::<Set>(), Err(UnknownSet("seaside".into())));
    }
}
