//! Ironworks: Gain a card costing up to $4. If it is an… Action card, +1 Action;
//! Treasure card, +$1; Victory card, +1 Card.
//!
//! The bonus follows every type of the card gained (Great Hall: +1 Card and +1 Action;
//! Harem: +$1 and +1 Card); a Curse gives nothing. "Costing up to" is the cost now, so
//! Bridge raises what can be gained.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;
use crate::event::Destination;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    let Some(c) = cx.choose_pile(p, CardId::Ironworks, Purpose::Gain, false, |st, c| {
        st.cost(c) <= 4
    })?
    else {
        return Ok(());
    };
    if !cx.gain(p, c, Destination::Discard) {
        return Ok(());
    }
    if c.is_action() {
        cx.plus_actions(1);
    }
    if c.is_treasure() {
        cx.plus_coins(1);
    }
    if c.is_victory() {
        cx.draw(p, 1);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::{self, *};
    use crate::card::Edition;
    use crate::cards::testkit::*;
    use crate::{Prompt, Purpose, Reply, Request};

    fn ask(options: Vec<CardId>) -> Request {
        Request {
            player: P0,
            card: Some(Ironworks),
            about: None,
            purpose: Purpose::Gain,
            prompt: Prompt::ChoosePile {
                options,
                optional: false,
            },
        }
    }

    /// Plays Ironworks (with Silver, Gold under it on the deck) and gains `card`.
    fn gain(card: CardId) -> crate::Game {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Ironworks, Copper])
            .deck(P0, &[Silver, Gold])
            .start();
        g.play(Ironworks);
        assert_eq!(g.req(), &ask(costing_up_to(4)));
        g.ok(P0, Reply::Pile(Some(card)));
        assert_eq!(g.discard_pile(P0), vec![card]);
        assert_eq!(g.in_play(P0), vec![Ironworks]);
        g
    }

    #[test]
    fn an_action_gives_an_action() {
        let g = gain(Village);
        assert_eq!((g.actions(), g.coins()), (1, 0));
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.deck(P0), vec![Silver, Gold]);
        assert_eq!(g.supply(Village), 9);
    }

    #[test]
    fn a_treasure_gives_a_coin() {
        let g = gain(Silver);
        assert_eq!((g.actions(), g.coins()), (0, 1));
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.deck(P0), vec![Silver, Gold]);
    }

    #[test]
    fn a_victory_card_gives_a_card() {
        let g = gain(Estate);
        assert_eq!((g.actions(), g.coins()), (0, 0));
        assert_eq!(g.hand(P0), vec![Copper, Silver]);
        assert_eq!(g.deck(P0), vec![Gold]);
    }

    #[test]
    fn great_hall_gives_a_card_and_an_action() {
        let g = gain(GreatHall);
        assert_eq!((g.actions(), g.coins()), (1, 0));
        assert_eq!(g.hand(P0), vec![Copper, Silver]);
        assert_eq!(g.deck(P0), vec![Gold]);
    }

    #[test]
    fn a_curse_gives_nothing() {
        let g = gain(Curse);
        assert_eq!((g.actions(), g.coins()), (0, 0));
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.deck(P0), vec![Silver, Gold]);
    }

    #[test]
    fn bridge_raises_the_bound() {
        let mut g = table(2)
            .hand(P0, &[Village, Bridge, Ironworks])
            .deck(P0, &[Estate])
            .start();
        g.play(Village).play(Bridge).play(Ironworks);
        assert_eq!(g.req(), &ask(costing_up_to(5)));
        g.ok(P0, Reply::Pile(Some(Laboratory)));
        assert_eq!(g.discard_pile(P0), vec![Laboratory]);
        assert_eq!((g.actions(), g.coins(), g.buys()), (1, 1, 2));
    }

    #[test]
    fn harem_under_throne_roomed_bridge_gives_a_coin_and_a_card() {
        let mut g = table(2)
            .hand(P0, &[Village, ThroneRoom, Bridge, Ironworks])
            .deck(P0, &[Copper, Gold, Silver])
            .start();
        g.play(Village).play(ThroneRoom).choose(P0, &[Bridge]);
        assert_eq!((g.actions(), g.coins()), (1, 2));
        g.play(Ironworks);
        assert_eq!(g.req(), &ask(costing_up_to(6)), "$6 costs $4 now");
        g.ok(P0, Reply::Pile(Some(Harem)));
        assert_eq!(g.discard_pile(P0), vec![Harem]);
        assert_eq!((g.actions(), g.coins()), (0, 3));
        assert_eq!(g.hand(P0), vec![Copper, Gold]);
        assert_eq!(g.deck(P0), vec![Silver]);
        assert_eq!(g.in_play(P0), vec![Village, ThroneRoom, Bridge, Ironworks]);
    }

    #[test]
    fn with_nothing_costing_up_to_four_left_gains_nothing() {
        let mut g = table(2)
            .hand(P0, &[Ironworks, Copper])
            .deck(P0, &[Gold])
            .empty_piles_costing_up_to(4)
            .start();
        g.play(Ironworks);
        assert_eq!(g.req().purpose, Purpose::BuyPhase);
        assert_eq!(g.discard_pile(P0), vec![]);
        assert_eq!((g.actions(), g.coins()), (0, 0));
        assert_eq!(g.deck(P0), vec![Gold]);
    }
}
