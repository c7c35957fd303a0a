//! What each card does: one short module per card, dispatched by id.
//!
//! A card's `play` is straight-line code against [`Ctx`]; it asks for decisions through
//! `cx.choose…` and never needs to know whether a bot or a human answers, or whether it
//! is being played once or twice (Throne Room).

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::state::{PlayerId, State};

mod adventurer;
mod artisan;
mod bandit;
mod baron;
mod basic;
mod bridge;
mod bureaucrat;
mod cellar;
mod chancellor;
mod chapel;
mod conspirator;
mod coppersmith;
mod council_room;
mod courtier;
mod courtyard;
mod diplomat;
mod duke;
mod feast;
mod festival;
mod gardens;
mod great_hall;
mod harbinger;
mod harem;
mod ironworks;
mod laboratory;
mod library;
mod lurker;
mod market;
mod masquerade;
mod merchant;
mod militia;
mod mill;
mod mine;
mod mining_village;
mod minion;
mod moat;
mod moneylender;
mod nobles;
mod patrol;
mod pawn;
mod poacher;
mod remodel;
mod replace;
mod saboteur;
mod scout;
mod secret_chamber;
mod secret_passage;
mod sentry;
mod shanty_town;
mod smithy;
mod spy;
mod steward;
mod swindler;
mod thief;
mod throne_room;
mod torturer;
mod trading_post;
mod tribute;
mod upgrade;
mod vassal;
mod village;
mod wishing_well;
mod witch;
mod woodcutter;
mod workshop;

#[cfg(test)]
pub(crate) mod testkit;

/// Resolves one play of `play.card`.
pub(crate) fn on_play(cx: &mut Ctx, play: &Play) -> Res {
    use CardId::*;
    match play.card {
        Copper => basic::copper(cx),
        Silver => basic::silver(cx),
        Gold => basic::gold(cx),
        Estate | Duchy | Province | Curse => Ok(()),
        Cellar => cellar::play(cx, play),
        Chapel => chapel::play(cx, play),
        Moat => moat::play(cx, play),
        Merchant => merchant::play(cx, play),
        Village => village::play(cx, play),
        Workshop => workshop::play(cx, play),
        Militia => militia::play(cx, play),
        Remodel => remodel::play(cx, play),
        Smithy => smithy::play(cx, play),
        ThroneRoom => throne_room::play(cx, play),
        CouncilRoom => council_room::play(cx, play),
        Festival => festival::play(cx, play),
        Laboratory => laboratory::play(cx, play),
        Market => market::play(cx, play),
        Mine => mine::play(cx, play),
        Witch => witch::play(cx, play),
        Gardens | Duke => Ok(()),
        Courtyard => courtyard::play(cx, play),
        Lurker => lurker::play(cx, play),
        Pawn => pawn::play(cx, play),
        SecretChamber => secret_chamber::play(cx, play),
        GreatHall => great_hall::play(cx, play),
        Masquerade => masquerade::play(cx, play),
        ShantyTown => shanty_town::play(cx, play),
        Steward => steward::play(cx, play),
        Swindler => swindler::play(cx, play),
        WishingWell => wishing_well::play(cx, play),
        Baron => baron::play(cx, play),
        Bridge => bridge::play(cx, play),
        Conspirator => conspirator::play(cx, play),
        Coppersmith => coppersmith::play(cx, play),
        Diplomat => diplomat::play(cx, play),
        Ironworks => ironworks::play(cx, play),
        Mill => mill::play(cx, play),
        MiningVillage => mining_village::play(cx, play),
        Scout => scout::play(cx, play),
        SecretPassage => secret_passage::play(cx, play),
        Courtier => courtier::play(cx, play),
        Minion => minion::play(cx, play),
        Patrol => patrol::play(cx, play),
        Replace => replace::play(cx, play),
        Saboteur => saboteur::play(cx, play),
        Torturer => torturer::play(cx, play),
        TradingPost => trading_post::play(cx, play),
        Tribute => tribute::play(cx, play),
        Upgrade => upgrade::play(cx, play),
        Harem => harem::play(cx, play),
        Nobles => nobles::play(cx, play),
        Adventurer => adventurer::play(cx, play),
        Artisan => artisan::play(cx, play),
        Bandit => bandit::play(cx, play),
        Bureaucrat => bureaucrat::play(cx, play),
        Chancellor => chancellor::play(cx, play),
        Feast => feast::play(cx, play),
        Harbinger => harbinger::play(cx, play),
        Library => library::play(cx, play),
        Moneylender => moneylender::play(cx, play),
        Poacher => poacher::play(cx, play),
        Sentry => sentry::play(cx, play),
        Spy => spy::play(cx, play),
        Thief => thief::play(cx, play),
        Vassal => vassal::play(cx, play),
        Woodcutter => woodcutter::play(cx, play),
    }
}

/// Whether `who` may reveal the Reaction `card` against an Attack now (Diplomat needs
/// 5 or more cards in hand).
pub(crate) fn can_react(st: &State, card: CardId, who: PlayerId) -> bool {
    match card {
        CardId::Diplomat => st.player(who).hand.len() >= 5,
        _ => true,
    }
}

/// `who` has revealed the Reaction `card` against an Attack. Returns whether it makes
/// them unaffected by that Attack.
pub(crate) fn react(cx: &mut Ctx, card: CardId, who: PlayerId) -> Res<bool> {
    match card {
        CardId::Moat => Ok(true),
        CardId::SecretChamber => secret_chamber::react(cx, who),
        CardId::Diplomat => diplomat::react(cx, who),
        _ => Ok(false),
    }
}
