//! Steward: Choose one: +2 Cards; or +$2; or trash 2 cards from your hand.
//!
//! "Trash 2" trashes exactly 2 when there are 2 or more cards in hand (the player picks
//! which), and the one card with only one; it may be chosen with an empty hand (do as
//! much as you can).

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::{Mode, Purpose};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    let options = vec![Mode::PlusTwoCards, Mode::PlusTwoCoins, Mode::TrashTwo];
    for m in cx.choose_modes(p, CardId::Steward, options, 1, 1)? {
        match m {
            Mode::PlusTwoCards => {
                cx.draw(p, 2);
            }
            Mode::PlusTwoCoins => cx.plus_coins(2),
            Mode::TrashTwo => {
                let chosen =
                    cx.choose_from_hand(p, CardId::Steward, Purpose::Trash, |_| true, 2, 2)?;
                cx.trash_from_hand(p, &chosen);
            }
            m => unreachable!("validated mode {m:?}"),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::{self, *};
    use crate::cards::testkit::*;
    use crate::{Mode, Prompt, Purpose, Reply, Request, Zone};

    fn modes() -> Request {
        Request {
            player: P0,
            card: Some(Steward),
            about: None,
            purpose: Purpose::ChooseModes,
            prompt: Prompt::ChooseModes {
                options: vec![Mode::PlusTwoCards, Mode::PlusTwoCoins, Mode::TrashTwo],
                min: 1,
                max: 1,
            },
        }
    }

    fn trash_ask(options: Vec<CardId>, n: u8) -> Request {
        Request {
            player: P0,
            card: Some(Steward),
            about: None,
            purpose: Purpose::Trash,
            prompt: Prompt::ChooseCards {
                zone: Zone::Hand,
                options,
                min: n,
                max: n,
            },
        }
    }

    #[test]
    fn plus_two_cards() {
        let mut g = table(2)
            .hand(P0, &[Steward, Estate])
            .deck(P0, &[Gold, Silver, Copper])
            .start();
        g.play(Steward);
        assert_eq!(g.req(), &modes());
        g.ok(P0, Reply::Modes(vec![Mode::PlusTwoCards]));
        assert_eq!(g.hand(P0), vec![Silver, Gold, Estate]);
        assert_eq!(g.deck(P0), vec![Copper]);
        assert_eq!((g.coins(), g.actions()), (0, 0));
        assert_eq!(g.trash(), vec![]);
        assert_eq!(g.in_play(P0), vec![Steward]);
    }

    #[test]
    fn plus_two_coins() {
        let mut g = table(2)
            .hand(P0, &[Steward, Estate])
            .deck(P0, &[Gold])
            .start();
        g.play(Steward)
            .ok(P0, Reply::Modes(vec![Mode::PlusTwoCoins]));
        assert_eq!(g.coins(), 2);
        assert_eq!(g.hand(P0), vec![Estate]);
        assert_eq!(g.deck(P0), vec![Gold]);
        assert_eq!(g.trash(), vec![]);
    }

    #[test]
    fn trash_two_with_two_or_more_cards_trashes_exactly_two() {
        let mut g = table(2).hand(P0, &[Steward, Estate, Curse, Copper]).start();
        g.play(Steward).ok(P0, Reply::Modes(vec![Mode::TrashTwo]));
        assert_eq!(g.req(), &trash_ask(vec![Copper, Estate, Curse], 2));
        assert!(g.reply(P0, Reply::Cards(vec![Curse])).is_err());
        g.choose(P0, &[Estate, Curse]);
        assert_eq!(g.trash(), vec![Estate, Curse]);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Steward]);
        assert_eq!(g.coins(), 0);
    }

    #[test]
    fn trash_two_with_one_card_trashes_that_one_unasked() {
        let mut g = table(2)
            .hand(P0, &[Steward, Estate])
            .deck(P0, &[Gold])
            .start();
        g.play(Steward).ok(P0, Reply::Modes(vec![Mode::TrashTwo]));
        assert_eq!(g.req().purpose, Purpose::BuyPhase);
        assert_eq!(g.trash(), vec![Estate]);
        assert_eq!(g.hand(P0), vec![]);
        assert_eq!(g.deck(P0), vec![Gold], "trashes from hand only");
    }

    #[test]
    fn trash_two_with_an_empty_hand_trashes_nothing() {
        let mut g = table(2).hand(P0, &[Steward]).start();
        g.play(Steward).ok(P0, Reply::Modes(vec![Mode::TrashTwo]));
        assert_eq!(g.trash(), vec![]);
        assert_eq!(g.hand(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Steward]);
    }
}
