//! Mining Village: +1 Card, +2 Actions. You may trash this card immediately. If you do,
//! +$2.
//!
//! The choice is made as this play resolves, after its +1 Card +2 Actions and before
//! anything else is done (the rulebook: decided before another Action or a buy; it
//! cannot be taken back in the Buy phase). It trashes *its own* copy through the play
//! number, and +$2 only if that happened: under Throne Room it can be trashed once; the
//! play after it is trashed still gives +1 Card +2 Actions but does not ask. If the
//! first play keeps it, the second may still trash it.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;

pub fn play(cx: &mut Ctx, play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 1);
    cx.plus_actions(2);
    if cx.still_in_play(play)
        && cx.yes_no(p, CardId::MiningVillage, Purpose::Trash)?
        && cx.trash_from_play(play)
    {
        cx.plus_coins(2);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{Event, Prompt, Purpose, Reply, Request};

    fn ask() -> Request {
        Request {
            player: P0,
            card: Some(MiningVillage),
            about: None,
            purpose: Purpose::Trash,
            prompt: Prompt::YesNo,
        }
    }

    #[test]
    fn trashing_it_gives_two_coins() {
        let mut g = table(2)
            .hand(P0, &[MiningVillage, Estate])
            .deck(P0, &[Gold, Silver])
            .start();
        g.play(MiningVillage);
        assert_eq!(g.hand(P0), vec![Gold, Estate], "+1 Card first");
        assert_eq!(g.actions(), 2);
        assert_eq!(g.req(), &ask());
        g.ok(P0, Reply::YesNo(true));
        assert_eq!(g.coins(), 2);
        assert_eq!(g.in_play(P0), vec![]);
        assert_eq!(g.trash(), vec![MiningVillage]);
        assert_eq!(g.hand(P0), vec![Gold, Estate]);
        assert_eq!(g.deck(P0), vec![Silver]);
        assert_eq!(g.actions(), 2);
        assert!(g.events().contains(&Event::Trashed {
            player: P0,
            cards: vec![MiningVillage]
        }));
    }

    #[test]
    fn keeping_it_gives_no_coins() {
        let mut g = table(2)
            .hand(P0, &[MiningVillage])
            .deck(P0, &[Gold, Silver])
            .start();
        g.play(MiningVillage);
        assert_eq!(g.req(), &ask());
        g.ok(P0, Reply::YesNo(false));
        assert_eq!((g.coins(), g.actions()), (0, 2));
        assert_eq!(g.in_play(P0), vec![MiningVillage]);
        assert_eq!(g.trash(), vec![]);
        assert_eq!(g.hand(P0), vec![Gold]);
    }

    #[test]
    fn under_throne_room_it_is_trashed_once_and_both_plays_give_card_and_actions() {
        let mut g = table(2)
            .hand(P0, &[ThroneRoom, MiningVillage])
            .deck(P0, &[Gold, Silver, Copper])
            .start();
        g.play(ThroneRoom).choose(P0, &[MiningVillage]);
        assert_eq!(g.req(), &ask());
        assert_eq!(g.hand(P0), vec![Gold]);
        g.ok(P0, Reply::YesNo(true));
        // The second play finds it gone: +1 Card +2 Actions, no question, no +$2.
        g.end_actions();
        assert_eq!(g.req().purpose, Purpose::BuyPhase);
        assert_eq!(g.coins(), 2);
        assert_eq!(g.actions(), 4);
        assert_eq!(g.hand(P0), vec![Silver, Gold]);
        assert_eq!(g.deck(P0), vec![Copper]);
        assert_eq!(g.trash(), vec![MiningVillage]);
        assert_eq!(g.in_play(P0), vec![ThroneRoom]);
        let asked = g
            .replies()
            .iter()
            .filter(|(_, r)| matches!(r, Reply::YesNo(_)))
            .count();
        assert_eq!(asked, 1);
    }

    #[test]
    fn under_throne_room_kept_by_the_first_play_the_second_may_trash_it() {
        let mut g = table(2)
            .hand(P0, &[ThroneRoom, MiningVillage])
            .deck(P0, &[Gold, Silver, Copper])
            .start();
        g.play(ThroneRoom).choose(P0, &[MiningVillage]);
        g.ok(P0, Reply::YesNo(false));
        assert_eq!(g.req(), &ask(), "asked again on the second play");
        assert_eq!(g.hand(P0), vec![Silver, Gold]);
        g.ok(P0, Reply::YesNo(true));
        assert_eq!((g.coins(), g.actions()), (2, 4));
        assert_eq!(g.trash(), vec![MiningVillage]);
        assert_eq!(g.in_play(P0), vec![ThroneRoom]);
    }
}
