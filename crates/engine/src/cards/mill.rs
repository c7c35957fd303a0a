//! Mill (2E, Action–Victory, 1 VP): +1 Card, +1 Action. You may discard 2 cards for +$2.
//!
//! Asked as a yes/no first, then which 2: "discard 2" is all or nothing, so once the
//! player says yes exactly 2 go whenever the hand has them. With a single card in hand
//! the player may still say yes and discard it, but +$2 needs 2 discarded (the 2E
//! ruling). With an empty hand nothing is asked. The discard is from hand: others see
//! how many and the new top of the discard pile.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 1);
    cx.plus_actions(1);
    if cx.st.player(p).hand.is_empty() || !cx.yes_no(p, CardId::Mill, Purpose::Discard)? {
        return Ok(());
    }
    let chosen = cx.choose_from_hand(p, CardId::Mill, Purpose::Discard, |_| true, 2, 2)?;
    cx.discard_from_hand(p, &chosen);
    if chosen.len() == 2 {
        cx.plus_coins(2);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{Event, InvalidReply, Prompt, Purpose, Reply, Viewer, Zone};

    #[test]
    fn discards_two_for_two_coins() {
        let mut g = table(2)
            .hand(P0, &[Mill, Estate, Curse])
            .deck(P0, &[Gold, Copper])
            .start();
        g.play(Mill);
        assert_eq!(g.hand(P0), vec![Gold, Estate, Curse], "+1 Card first");
        assert_eq!(g.actions(), 1);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose, &r.prompt),
            (P0, Some(Mill), None, Purpose::Discard, &Prompt::YesNo)
        );
        g.ok(P0, Reply::YesNo(true));
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Mill), None, Purpose::Discard)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Gold, Estate, Curse],
                min: 2,
                max: 2
            }
        );
        assert_eq!(
            g.reply(P0, Reply::Cards(vec![Curse])),
            Err(InvalidReply::WrongCount {
                got: 1,
                min: 2,
                max: 2
            })
        );
        let n = g.events().len();
        g.choose(P0, &[Estate, Curse]);
        assert_eq!((g.coins(), g.actions()), (2, 1));
        assert_eq!(g.hand(P0), vec![Gold]);
        assert_eq!(g.discard_pile(P0), vec![Estate, Curse]);
        assert_eq!(g.deck(P0), vec![Copper]);
        assert_eq!(g.in_play(P0), vec![Mill]);
        // Discarded from hand: others see how many and the new top.
        assert_eq!(
            g.events_since(n)[0].for_viewer(Viewer::Player(P1)),
            Event::Discarded {
                player: P0,
                count: 2,
                cards: None,
                top: Some(Curse),
                private: true
            }
        );
    }

    #[test]
    fn declining_discards_nothing() {
        let mut g = table(2)
            .hand(P0, &[Mill, Estate, Curse])
            .deck(P0, &[Gold])
            .start();
        g.play(Mill).ok(P0, Reply::YesNo(false));
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!((g.coins(), g.actions()), (0, 1));
        assert_eq!(g.hand(P0), vec![Gold, Estate, Curse]);
        assert_eq!(g.discard_pile(P0), vec![]);
    }

    #[test]
    fn with_one_card_it_may_be_discarded_for_nothing() {
        let mut g = table(2).hand(P0, &[Mill]).deck(P0, &[Estate]).start();
        g.play(Mill).ok(P0, Reply::YesNo(true));
        assert_eq!(g.discard_pile(P0), vec![Estate], "the only card: unasked");
        assert_eq!(g.hand(P0), vec![]);
        assert_eq!((g.coins(), g.actions()), (0, 1));
    }

    #[test]
    fn two_cards_alike_are_discarded_unasked_and_an_empty_hand_is_not_asked() {
        let mut g = table(2)
            .hand(P0, &[Mill, Copper])
            .deck(P0, &[Copper])
            .start();
        g.play(Mill).ok(P0, Reply::YesNo(true));
        assert_eq!(g.discard_pile(P0), vec![Copper, Copper]);
        assert_eq!(g.coins(), 2);

        let mut g = table(2).hand(P0, &[Mill]).start();
        g.play(Mill);
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!((g.coins(), g.actions()), (0, 1));
    }
}
