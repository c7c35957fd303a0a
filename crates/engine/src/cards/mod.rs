//! What each card does: one short module per card, dispatched by id.
//!
//! A card's `play` is straight-line code against [`Ctx`]; it asks for decisions through
//! `cx.choose…` and never needs to know whether a bot or a human answers, or whether it
//! is being played once or twice (Throne Room).

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::state::PlayerId;

mod adventurer;
mod artisan;
mod bandit;
mod basic;
mod bureaucrat;
mod cellar;
mod chancellor;
mod chapel;
mod council_room;
mod feast;
mod festival;
mod gardens;
mod harbinger;
mod laboratory;
mod library;
mod market;
mod merchant;
mod militia;
mod mine;
mod moat;
mod moneylender;
mod poacher;
mod remodel;
mod sentry;
mod smithy;
mod spy;
mod thief;
mod throne_room;
mod vassal;
mod village;
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
        Gardens => Ok(()),
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

/// `who` has revealed the Reaction `card` against an Attack. Returns whether it makes
/// them unaffected by that Attack.
pub(crate) fn react(_cx: &mut Ctx, card: CardId, _who: PlayerId) -> Res<bool> {
    match card {
        CardId::Moat => Ok(true),
        _ => Ok(false),
    }
}
