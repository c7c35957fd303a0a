//! Courtier (2E): Reveal a card from your hand. For each type it has, choose one (all
//! different): +1 Action; +1 Buy; +$3; gain a Gold.
//!
//! The revealed card stays in hand. A two-type card (Mill, Harem, Great Hall, Moat, an
//! Attack) gives two different choices; no card has more than four types, and the count
//! is clamped to the four options anyway. "Gain a Gold" may be chosen with none left
//! (it then gains nothing). An empty hand reveals nothing and gives nothing.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::{Mode, Purpose};
use crate::event::Destination;

const MODES: [Mode; 4] = [
    Mode::PlusAction,
    Mode::PlusBuy,
    Mode::PlusThreeCoins,
    Mode::GainGold,
];

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    let Some(&shown) = cx
        .choose_from_hand(p, CardId::Courtier, Purpose::Reveal, |_| true, 1, 1)?
        .first()
    else {
        return Ok(());
    };
    cx.reveal(p, &[shown]);
    let n = shown.types().names().len().min(MODES.len()) as u8;
    for m in cx.choose_modes(p, CardId::Courtier, MODES.to_vec(), n, n)? {
        match m {
            Mode::PlusAction => cx.plus_actions(1),
            Mode::PlusBuy => cx.plus_buys(1),
            Mode::PlusThreeCoins => cx.plus_coins(3),
            Mode::GainGold => {
                cx.gain(p, CardId::Gold, Destination::Discard);
            }
            m => unreachable!("validated mode {m:?}"),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{Event, InvalidReply, Mode, Prompt, Purpose, Reply, Viewer, Zone};

    fn modes(n: u8) -> Prompt {
        Prompt::ChooseModes {
            options: vec![
                Mode::PlusAction,
                Mode::PlusBuy,
                Mode::PlusThreeCoins,
                Mode::GainGold,
            ],
            min: n,
            max: n,
        }
    }

    #[test]
    fn a_one_type_card_gives_one_choice() {
        let mut g = table(2).hand(P0, &[Courtier, Copper, Estate]).start();
        g.play(Courtier);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Courtier), None, Purpose::Reveal)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Copper, Estate],
                min: 1,
                max: 1
            }
        );
        let n = g.events().len();
        g.choose(P0, &[Copper]);
        // Revealed in the open; it stays in hand.
        assert_eq!(
            g.events_since(n)
                .iter()
                .map(|e| e.for_viewer(Viewer::Player(P1)))
                .collect::<Vec<_>>(),
            vec![Event::Revealed {
                player: P0,
                cards: vec![Copper]
            }]
        );
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Courtier), None, Purpose::ChooseModes)
        );
        assert_eq!(r.prompt, modes(1));
        assert_eq!(
            g.reply(P0, Reply::Modes(vec![Mode::PlusBuy, Mode::GainGold])),
            Err(InvalidReply::WrongCount {
                got: 2,
                min: 1,
                max: 1
            })
        );
        g.ok(P0, Reply::Modes(vec![Mode::PlusThreeCoins]));
        assert_eq!((g.coins(), g.actions(), g.buys()), (3, 0, 1));
        assert_eq!(g.hand(P0), vec![Copper, Estate]);
        assert_eq!(g.discard_pile(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Courtier]);
    }

    #[test]
    fn a_two_type_card_gives_two_different_choices() {
        for shown in [Mill, Harem, GreatHall, Moat, Witch] {
            let mut g = table(2).hand(P0, &[Courtier, shown]).start();
            g.play(Courtier);
            // The only card in hand: revealed unasked.
            assert!(g.events().contains(&Event::Revealed {
                player: P0,
                cards: vec![shown]
            }));
            assert_eq!(g.prompt(), &modes(2), "{shown}");
            assert_eq!(
                g.reply(P0, Reply::Modes(vec![Mode::PlusAction, Mode::PlusAction])),
                Err(InvalidReply::NotAnOption("PlusAction".into()))
            );
            assert!(g.reply(P0, Reply::Modes(vec![Mode::GainGold])).is_err());
            g.ok(P0, Reply::Modes(vec![Mode::GainGold, Mode::PlusAction]));
            assert_eq!((g.coins(), g.actions(), g.buys()), (0, 1, 1));
            assert_eq!(g.discard_pile(P0), vec![Gold]);
            assert_eq!(g.supply(Gold), 29);
            assert_eq!(g.hand(P0), vec![shown]);
        }
    }

    #[test]
    fn gain_a_gold_may_be_chosen_with_none_left() {
        let mut g = table(2)
            .hand(P0, &[Courtier, Nobles])
            .supply(Gold, 0)
            .start();
        g.play(Courtier);
        g.ok(P0, Reply::Modes(vec![Mode::PlusBuy, Mode::GainGold]));
        assert_eq!((g.coins(), g.actions(), g.buys()), (0, 0, 2));
        assert_eq!(g.discard_pile(P0), vec![]);
        assert_eq!(g.hand(P0), vec![Nobles]);
    }

    #[test]
    fn with_an_empty_hand_nothing_happens() {
        let mut g = table(2).hand(P0, &[Courtier]).start();
        g.play(Courtier);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!((g.coins(), g.actions(), g.buys()), (0, 0, 1));
        assert_eq!(g.discard_pile(P0), vec![]);
    }
}
