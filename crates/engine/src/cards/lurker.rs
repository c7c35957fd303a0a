//! Lurker (2E): +1 Action. Choose one: Trash an Action card from the Supply; or gain an
//! Action card from the trash.
//!
//! Both choices are always offered: "choose one" may be chosen even if it cannot be done
//! (an empty trash, no Action pile left), and then it does nothing. Action–Victory cards
//! (Mill, Nobles, Great Hall) are Action cards. The card trashed from the Supply is
//! public like any trashing; the gained one goes to the discard pile.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::{Mode, Purpose, Zone};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.plus_actions(1);
    let options = vec![Mode::TrashFromSupply, Mode::GainFromTrash];
    let mode = cx.choose_modes(p, CardId::Lurker, options, 1, 1)?;
    if mode == [Mode::TrashFromSupply] {
        let pick = |_: &crate::state::State, c: CardId| c.is_action();
        if let Some(c) = cx.choose_pile(p, CardId::Lurker, Purpose::Trash, false, pick)? {
            cx.trash_from_supply(p, c);
        }
    } else {
        let mut actions: Vec<CardId> = cx
            .st
            .trash
            .iter()
            .copied()
            .filter(|c| c.is_action())
            .collect();
        actions.sort();
        let chosen =
            cx.choose_cards(p, CardId::Lurker, Purpose::Gain, Zone::Trash, actions, 1, 1)?;
        if let Some(&c) = chosen.first() {
            cx.gain_from_trash(p, c);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::{self, *};
    use crate::cards::testkit::*;
    use crate::{Event, InvalidReply, Mode, Prompt, Purpose, Reply, Viewer, Zone};

    fn both() -> Prompt {
        Prompt::ChooseModes {
            options: vec![Mode::TrashFromSupply, Mode::GainFromTrash],
            min: 1,
            max: 1,
        }
    }

    fn actions() -> Vec<CardId> {
        CardId::all().filter(|c| c.is_action()).collect()
    }

    #[test]
    fn trashes_an_action_card_from_the_supply() {
        let mut g = table(2).hand(P0, &[Lurker, Copper]).start();
        g.play(Lurker);
        assert_eq!(g.actions(), 1);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Lurker), None, Purpose::ChooseModes)
        );
        assert_eq!(r.prompt, both());
        g.ok(P0, Reply::Modes(vec![Mode::TrashFromSupply]));
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Lurker), None, Purpose::Trash)
        );
        // Every Action pile, Action–Victory ones included; no Treasure or Victory card.
        assert_eq!(
            r.prompt,
            Prompt::ChoosePile {
                options: actions(),
                optional: false
            }
        );
        assert!(actions().contains(&Mill) && !actions().contains(&Estate));
        assert_eq!(
            g.reply(P0, Reply::Pile(Some(Estate))),
            Err(InvalidReply::NotAnOption("estate".into()))
        );
        let n = g.events().len();
        g.ok(P0, Reply::Pile(Some(Smithy)));
        assert_eq!(g.trash(), vec![Smithy]);
        assert_eq!(g.supply(Smithy), 9);
        assert_eq!(
            g.events_since(n)[0].for_viewer(Viewer::Player(P1)),
            Event::Trashed {
                player: P0,
                cards: vec![Smithy]
            }
        );
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.discard_pile(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Lurker]);
    }

    #[test]
    fn gains_an_action_card_from_the_trash() {
        let mut g = table(2)
            .hand(P0, &[Lurker])
            .trash(&[Witch, Copper, GreatHall, Estate, Witch])
            .start();
        g.play(Lurker)
            .ok(P0, Reply::Modes(vec![Mode::GainFromTrash]));
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Lurker), None, Purpose::Gain)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Trash,
                options: vec![Witch, Witch, GreatHall],
                min: 1,
                max: 1
            }
        );
        assert!(g.reply(P0, Reply::Cards(vec![Copper])).is_err());
        g.choose(P0, &[GreatHall]);
        assert_eq!(g.discard_pile(P0), vec![GreatHall]);
        assert_eq!(g.trash(), vec![Copper, Estate, Witch, Witch]);
        assert_eq!(g.supply(GreatHall), 8);
        assert!(g.events().contains(&Event::GainedFromTrash {
            player: P0,
            card: GreatHall
        }));
    }

    #[test]
    fn either_choice_may_be_made_when_it_does_nothing() {
        // No Action card in the trash: offered anyway, gains nothing.
        let mut g = table(2).hand(P0, &[Lurker]).trash(&[Copper]).start();
        g.play(Lurker);
        assert_eq!(g.prompt(), &both());
        g.ok(P0, Reply::Modes(vec![Mode::GainFromTrash]));
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!((g.trash(), g.discard_pile(P0)), (vec![Copper], vec![]));
        assert_eq!(g.actions(), 1);

        // An empty trash too.
        let mut g = table(2).hand(P0, &[Lurker]).start();
        g.play(Lurker)
            .ok(P0, Reply::Modes(vec![Mode::GainFromTrash]));
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!((g.trash(), g.discard_pile(P0)), (vec![], vec![]));

        // No Action pile left in the Supply: trashing does nothing.
        let t = actions()
            .into_iter()
            .fold(table(2).hand(P0, &[Lurker]), |t, c| t.supply(c, 0));
        let mut g = t.start();
        g.play(Lurker)
            .ok(P0, Reply::Modes(vec![Mode::TrashFromSupply]));
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.trash(), vec![]);
    }

    #[test]
    fn the_only_action_card_in_the_trash_is_gained_unasked() {
        let mut g = table(2).hand(P0, &[Lurker]).trash(&[Nobles, Gold]).start();
        g.play(Lurker)
            .ok(P0, Reply::Modes(vec![Mode::GainFromTrash]));
        assert_eq!(g.discard_pile(P0), vec![Nobles]);
        assert_eq!(g.trash(), vec![Gold]);
    }
}
