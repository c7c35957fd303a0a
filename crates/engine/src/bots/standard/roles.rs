//! What each kingdom card does for a deck, as a small table the planner reads.
//!
//! The numbers are judgement, not rules: `money` rates a card as the one Action of a
//! "card + money" deck (how much it beats a plain Silver/Gold deck), tuned with the
//! simulator against `big_money` and the reference bots. Keeping every opinion about a
//! card in one row makes the plan code free of card names.

use crate::card::CardId::{self, *};

/// How a card fits a deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Uses up the turn's Action: one per hand unless a village helps.
    Terminal,
    /// Replaces itself (+1 Action or more): never costs a play.
    NonTerminal,
    /// Gives +2 Actions.
    Village,
    /// Not an Action (Gardens, Duke, Harem) or not worth playing.
    Other,
}

/// One card's row.
#[derive(Clone, Copy, Debug)]
pub struct Role {
    pub kind: Kind,
    /// Value as the chosen card of a money deck (0: never the chosen card).
    pub money: u8,
    /// Copies wanted in a money deck: `base`, plus one per `per` Treasures owned
    /// (`per` 0: just `base`).
    pub base: u8,
    pub per: u8,
    /// The first copy is worth more than a Gold (an attack that must come early).
    pub early: bool,
    /// Draws cards (for play order: draw before payload).
    pub draws: bool,
    /// Trashes the bot's own cards (Chapel-like thinning).
    pub trasher: bool,
    /// Gains cards (Workshop-like), which makes Gardens a plan.
    pub gainer: bool,
}

const fn r(kind: Kind, money: u8, base: u8, per: u8) -> Role {
    Role {
        kind,
        money,
        base,
        per,
        early: false,
        draws: false,
        trasher: false,
        gainer: false,
    }
}

impl Role {
    const fn early(mut self) -> Role {
        self.early = true;
        self
    }
    const fn draws(mut self) -> Role {
        self.draws = true;
        self
    }
    const fn trasher(mut self) -> Role {
        self.trasher = true;
        self
    }
    const fn gainer(mut self) -> Role {
        self.gainer = true;
        self
    }
}

/// The row of `card` (basic cards: `Other`, never chosen). The `match` names every card,
/// with no catch-all arm, so a card added to `CardId` does not compile until its row
/// is written here.
pub fn role(card: CardId) -> Role {
    use Kind::*;
    match card {
        Witch => r(Terminal, 100, 2, 0).early().draws(),
        Torturer => r(Terminal, 88, 1, 12).early().draws(),
        Masquerade => r(Terminal, 80, 1, 12).draws().trasher(),
        Courtyard => r(Terminal, 92, 1, 8).draws(),
        Smithy => r(Terminal, 78, 1, 11).draws(),
        Library => r(Terminal, 70, 1, 12).draws(),
        Patrol => r(Terminal, 72, 1, 12).draws(),
        Nobles => r(Terminal, 68, 1, 6).draws(),
        CouncilRoom => r(Terminal, 75, 1, 13).draws(),
        Militia => r(Terminal, 66, 2, 0).early(),
        Diplomat => r(Terminal, 50, 1, 12).draws(),
        Moat => r(Terminal, 56, 1, 10).draws(),
        Bandit => r(Terminal, 63, 1, 0),
        Courtier => r(Terminal, 56, 1, 12),
        Steward => r(Terminal, 54, 1, 12).draws().trasher(),
        Minion => r(Terminal, 52, 1, 10),
        Bureaucrat => r(Terminal, 50, 1, 20),
        Baron => r(Terminal, 48, 1, 0),
        Swindler => r(Terminal, 64, 1, 12),
        Tribute => r(Terminal, 60, 1, 12),
        Moneylender => r(Terminal, 46, 1, 0).trasher(),
        Bridge => r(Terminal, 46, 1, 10),
        Artisan => r(Terminal, 44, 1, 0).gainer(),
        Replace => r(Terminal, 52, 1, 0).trasher(),
        Coppersmith => r(Terminal, 42, 1, 0),
        TradingPost => r(Terminal, 40, 1, 0).trasher(),
        Vassal => r(Terminal, 36, 1, 12),
        Saboteur => r(Terminal, 34, 1, 0),
        Mine => r(Terminal, 50, 1, 0),
        Chancellor => r(Terminal, 30, 1, 0),
        Adventurer => r(Terminal, 30, 1, 0),
        Woodcutter => r(Terminal, 28, 1, 0).gainer(),
        Ironworks => r(Terminal, 55, 1, 0).gainer(),
        SecretChamber => r(Terminal, 26, 1, 0),
        Remodel => r(Terminal, 24, 1, 0).trasher(),
        Chapel => r(Terminal, 0, 0, 0).trasher(),
        Workshop => r(Terminal, 0, 0, 0).gainer(),
        Feast => r(Terminal, 0, 0, 0).gainer(),
        Thief => r(Terminal, 0, 0, 0),
        Laboratory => r(NonTerminal, 0, 0, 0).draws(),
        Market | Merchant | Poacher | Harbinger | Sentry | Cellar | GreatHall | WishingWell
        | Lurker | Pawn | Scout | Spy | Mill | SecretPassage | Conspirator => {
            r(NonTerminal, 0, 0, 0)
        }
        Upgrade => r(NonTerminal, 0, 0, 0).trasher(),
        CardId::Village | Festival | ShantyTown | MiningVillage => r(Kind::Village, 0, 0, 0),
        ThroneRoom => r(NonTerminal, 0, 0, 0),
        // Not Actions: never played, never a money deck's card.
        Copper | Silver | Gold | Estate | Duchy | Province | Curse | Gardens | Duke | Harem => {
            r(Other, 0, 0, 0)
        }
    }
}

/// Non-terminal cards a money deck takes instead of a Silver, best first, with the
/// most copies wanted. Measured: Laboratory and Market help a money deck; Festival,
/// Merchant, Poacher and Mill lost games against `big_money` (Merchant badly), so they
/// are not bought in a money plan.
pub const SUPPORT: &[(CardId, u8)] = &[(Laboratory, 8), (Market, 3), (Sentry, 1)];
