//! Picks a plan from the kingdom, once per kingdom (the bot caches it).
//!
//! Plans, simplest first:
//! - **Money**: Silver/Gold/Province with the kingdom's best "money" card (roles.rs:
//!   Witch, Torturer, Masquerade, Courtyard, Smithy…) in the copies its row asks, plus
//!   the non-terminal support cards (Laboratory, Market…) instead of Silvers.
//! - **Gardens**: with Gardens and a gainer (Workshop, Ironworks, Woodcutter), gain
//!   cheap cards and Gardens (the `workshop_gardens` reference line, which beats money
//!   decks, even Witch + money).
//! - **Duke**: with Duke and no money card stronger than Library, the money plan's
//!   deck buys Duchies (then Dukes) before Provinces once its money reaches 14, the
//!   `duke` reference line (see [`DUKE_PLAN_MAX_MAIN`]).
//! - **Festival/Library engine**: Festivals (+2 Actions, +$2, +Buy, no card) let a
//!   deck play several Libraries, each drawing to 7. Taken only when the money plan's
//!   card is Library or weaker (see [`engine_for`]).
//!
//! Other engines are not planned: measured against the money plan on the same seeds,
//! every village + draw pair tried lost — Village/Smithy (First Game 75% → 40% vs
//! `big_money`), Shanty Town/Courtyard (Best Wishes 86% → 31%), Festival/Council Room
//! (Deck Top), Mining Village/Council Room (Grand Scheme 74% → 65%) — and so did a
//! Chapel-thinned Laboratory deck (Silver & Gold 76% → 60–70%, Big Money (1E)
//! 72% → 50–56%, whatever Copper floor it kept), and any village with Library where
//! Festival is missing (24 random kingdoms: 71.7% → 58.4% vs `big_money`, docs/bots.md),
//! and so did a Chapel engine with +Buy (Chapel, a village, a terminal draw card and
//! Market, Festival or Council Room: on the 59 such kingdoms of `random:2000:22`,
//! 81.5% → 30–69% vs `big_money` and 56.1% → 16–43% vs the best reference bot,
//! whatever its Copper floor, Province threshold or engine size; docs/bots.md). Without strong draw or
//! trashing, Base/Intrigue engines lose to a good card + money deck in two-player
//! games; the search bot adds the tactics on top. The plan is a pure function of the
//! kingdom, so it is computed once.

use super::roles::{Kind, SUPPORT, role};
use crate::card::CardId::{self, *};
use crate::view::Observation;

/// The bit set of the Supply's cards: the cache key of a plan.
pub fn kingdom_key(obs: &Observation) -> u128 {
    obs.supply_cards().fold(0, |k, c| k | 1u128 << (c as u8))
}

#[derive(Clone, Debug)]
pub struct Plan {
    pub key: u128,
    /// The money deck's chosen card (None: pure money).
    pub main: Option<CardId>,
    /// Support cards in the kingdom, best first, with their copies wanted.
    pub support: Vec<(CardId, u8)>,
    /// The Gardens plan's gainer, when the plan is Gardens.
    pub gardens: Option<CardId>,
    /// Duke is in the kingdom: Duchies are contested.
    pub duke: bool,
    /// The Duke plan: with Duke and no card stronger than [`DUKE_PLAN_MAX_MAIN`], the
    /// `duke` reference line's Duchies (and Dukes once Duchies are gone) come before
    /// Provinces once the deck's money reaches 14.
    pub duke_plan: bool,
    /// Buy Provinces once the deck's money (bots.md's measure) reaches this.
    pub province_money: u32,
    /// The engine this kingdom supports, when the plan is an engine.
    pub engine: Option<Engine>,
}

/// An engine's cards: villages that let it play several terminal draw cards a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Engine {
    pub village: CardId,
    pub draw: CardId,
}

/// The engine worth building in a kingdom whose money plan would take `main`.
///
/// Only Festival/Library: Festival draws no card, so each Library that follows draws
/// more, and its +$2 and +Buy are the payload. Measured against the money plan on the
/// same seeds it wins where Library (or something weaker) is the money deck's card —
/// Underlings (2E) and the random kingdoms where this rule takes it (+2.9 points
/// against `big_money` over 118 of them, none worse by more than noise) — and loses where a stronger card leads the money deck: Patrol
/// (−7 points), Council Room (−1), Smithy, Witch; and where Market is there
/// (Library + Markets, −1 to −2 points).
pub fn engine_for(has: impl Fn(CardId) -> bool, main: Option<CardId>) -> Option<Engine> {
    let strong_main = main.is_some_and(|c| role(c).money > role(Library).money);
    // Market gives a money deck the +Buy and coins without the Festivals' dead draws.
    (has(Festival) && has(Library) && !has(Market) && !strong_main).then_some(Engine {
        village: Festival,
        draw: Library,
    })
}

/// The strongest money card (roles.rs's `money`) a Duke plan is preferred to: Library.
///
/// Measured on 36 random kingdoms holding Duke (`random:150:11` and `random:150:12`,
/// 400 games per kingdom and opponent), against the money plan on the same seeds: the
/// Duke plan where the money card is Library (70) or weaker gains 1.5-1.8 points against
/// `big_money` (up to +16 on one kingdom) and +1.2 / -0.8 points against the `duke` bot
/// (from +13 with Baron/Bridge to -12 with Mine/Steward); with a threshold of 80 it
/// lost (-2.6 against `duke` on the first set). Going Duke regardless of the money card, or buying
/// Duchies before Gold whenever an opponent holds Duchies, lost 10-30 points.
pub const DUKE_PLAN_MAX_MAIN: u8 = 70;

impl Plan {
    pub fn for_kingdom(obs: &Observation) -> Plan {
        let key = kingdom_key(obs);
        let has = |c: CardId| key & (1u128 << (c as u8)) != 0;
        let main = obs
            .supply_cards()
            .filter(|c| c.is_kingdom())
            .filter(|c| role(*c).money > 0 && role(*c).kind == Kind::Terminal)
            .max_by_key(|c| (role(*c).money, *c));
        let support = SUPPORT.iter().copied().filter(|(c, _)| has(*c)).collect();
        // Measured: `workshop_gardens` beats even Witch + money (84% in Size
        // Distortion), so Gardens with a gainer is the plan whatever else is there.
        let gardens = has(Gardens)
            .then(|| {
                [Workshop, Ironworks, Woodcutter]
                    .into_iter()
                    .find(|c| has(*c))
            })
            .flatten();
        let draws = main.is_some_and(|c| role(c).draws);
        let engine = gardens.is_none().then(|| engine_for(has, main)).flatten();
        Plan {
            key,
            main,
            support,
            gardens,
            duke: has(Duke),
            duke_plan: has(Duke)
                && gardens.is_none()
                && main.is_none_or(|c| role(c).money <= DUKE_PLAN_MAX_MAIN),
            province_money: if draws { 16 } else { 18 },
            engine,
        }
    }

    /// Copies of the main card wanted with `treasures` Treasures owned.
    pub fn main_copies(&self, treasures: usize) -> usize {
        self.main.map_or(0, |c| {
            let r = role(c);
            r.base as usize + (treasures / r.per.max(1) as usize) * usize::from(r.per > 0)
        })
    }
}
