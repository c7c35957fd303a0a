//! Several Reactions against one Attack (rules 2): each *copy* may be revealed once, one
//! after another, each resolved before the next is offered (the Intrigue rulebook: a
//! player may reveal several Reactions to one event). Rules 1 offered each kind once.
//!
//! Every position is played with the attacker on each seat of a three-player table,
//! the victim being the next seat, so nothing depends on seat numbers.

use crate::card::CardId::{self, *};
use crate::cards::testkit::*;
use crate::decision::{Prompt, Purpose, Reply};
use crate::event::Event;
use crate::state::PlayerId;

/// What the victim does when asked: the Reactions to reveal, in order; other questions
/// are answered with the first cards offered (in the order offered).
struct Victim<'a> {
    reveal: &'a [CardId],
}

/// Plays `attack` from `attacker` (holding it and 2 Coppers) against the next seat,
/// holding `hand` over `deck` (top last); returns the Reactions revealed, in order, and
/// the purposes of the questions the victim was asked.
fn attack_with(
    rules: u32,
    attacker: PlayerId,
    attack: CardId,
    hand: &[CardId],
    deck: &[CardId],
    victim: Victim,
) -> (Vec<CardId>, Vec<(Option<CardId>, Purpose)>) {
    let v = PlayerId((attacker.0 + 1) % 3);
    let third = PlayerId((attacker.0 + 2) % 3);
    let mut g = table(3)
        .rules(rules)
        .current(attacker)
        .hand(attacker, &[attack, Copper, Copper])
        .deck(attacker, &[Copper, Copper, Copper, Copper])
        .hand(v, hand)
        .deck(v, deck)
        .hand(third, &[Copper, Copper, Copper])
        .start();
    g.play(attack);
    let mut asked = Vec::new();
    let mut next = victim.reveal.iter();
    while let Some(req) = g.pending().cloned() {
        if req.player != v {
            break;
        }
        asked.push((req.card, req.purpose));
        let reply = match (&req.purpose, &req.prompt) {
            (Purpose::React, Prompt::ChooseCards { options, .. }) => match next.next() {
                Some(c) => {
                    assert!(options.contains(c), "{c:?} not offered: {options:?}");
                    Reply::Cards(vec![*c])
                }
                None => Reply::Cards(vec![]),
            },
            (_, Prompt::ChooseCards { options, min, .. }) => {
                Reply::Cards(options[..*min as usize].to_vec())
            }
            (_, Prompt::OrderCards { cards }) => Reply::Cards(cards.clone()),
            (_, Prompt::ChooseModes { options, min, .. }) => {
                Reply::Modes(options[..*min as usize].to_vec())
            }
            (_, p) => panic!("unexpected {p:?}"),
        };
        g.ok(v, reply);
    }
    let revealed = g
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Revealed { player, cards } if *player == v => Some(cards.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    (revealed, asked)
}

const SEATS: [PlayerId; 3] = [P0, P1, P2];

#[test]
fn two_secret_chambers_are_each_revealed_against_one_militia() {
    for attacker in SEATS {
        let (revealed, asked) = attack_with(
            2,
            attacker,
            Militia,
            &[SecretChamber, SecretChamber, Copper, Copper, Estate],
            &[Silver, Gold, Duchy, Province],
            Victim {
                reveal: &[SecretChamber, SecretChamber],
            },
        );
        assert_eq!(revealed, vec![SecretChamber, SecretChamber], "{attacker}");
        // Reveal, put back two, (order), reveal again, put back two, (order), then
        // Militia's discard; no third offer: both copies were revealed.
        let reacts = asked.iter().filter(|a| a.1 == Purpose::React).count();
        assert_eq!(reacts, 2, "no third offer: {asked:?}");
        assert_eq!(
            asked.last(),
            Some(&(Some(Militia), Purpose::Discard)),
            "{asked:?}"
        );
    }
}

/// Rules 1 (games stored by an earlier release): the second copy is never offered.
#[test]
fn under_rules_1_a_second_secret_chamber_is_not_offered() {
    let (revealed, asked) = attack_with(
        1,
        P0,
        Militia,
        &[SecretChamber, SecretChamber, Copper, Copper, Estate],
        &[Silver, Gold, Duchy, Province],
        Victim {
            reveal: &[SecretChamber],
        },
    );
    assert_eq!(revealed, vec![SecretChamber]);
    assert_eq!(asked.iter().filter(|a| a.1 == Purpose::React).count(), 1);
}

#[test]
fn secret_chamber_then_moat_and_moat_then_secret_chamber() {
    for attacker in SEATS {
        for order in [[SecretChamber, Moat], [Moat, SecretChamber]] {
            let (revealed, _) = attack_with(
                2,
                attacker,
                Militia,
                &[SecretChamber, Moat, Copper, Copper, Estate],
                &[Silver, Gold, Duchy, Province],
                Victim { reveal: &order },
            );
            assert_eq!(revealed, order.to_vec(), "{attacker} {order:?}");
        }
    }
}

/// Diplomat reacts from five or more cards: +2 Cards, discard 3. From six cards the
/// first leaves five, so the second may still be revealed.
#[test]
fn two_diplomats_are_each_revealed_while_the_hand_allows() {
    for attacker in SEATS {
        let (revealed, _) = attack_with(
            2,
            attacker,
            Militia,
            &[Diplomat, Diplomat, Copper, Copper, Estate, Estate],
            &[Silver, Gold, Duchy, Province],
            Victim {
                reveal: &[Diplomat, Diplomat],
            },
        );
        assert_eq!(revealed, vec![Diplomat, Diplomat], "{attacker}");
    }
    // From five cards the first leaves four: the second is not offered.
    let (revealed, asked) = attack_with(
        2,
        P1,
        Militia,
        &[Diplomat, Diplomat, Copper, Copper, Estate],
        &[Silver, Gold, Duchy, Province],
        Victim {
            reveal: &[Diplomat],
        },
    );
    assert_eq!(revealed, vec![Diplomat]);
    assert_eq!(asked.iter().filter(|a| a.1 == Purpose::React).count(), 1);
}

#[test]
fn diplomat_then_moat_blocks_the_attack() {
    for attacker in SEATS {
        let (revealed, asked) = attack_with(
            2,
            attacker,
            Militia,
            &[Diplomat, Moat, Copper, Copper, Estate, Estate],
            &[Silver, Gold, Duchy, Province],
            Victim {
                reveal: &[Diplomat, Moat],
            },
        );
        assert_eq!(revealed, vec![Diplomat, Moat], "{attacker}");
        // Moat made the victim unaffected: Militia asks it to discard nothing.
        assert!(
            !asked.contains(&(Some(Militia), Purpose::Discard)),
            "{asked:?}"
        );
    }
}

/// `cards::react` ends in a catch-all (a revealed card that does nothing): every Reaction
/// card is offered against an Attack, and revealing it does something — blocks the
/// Attack (Moat) or asks or draws before the Attack's own question (Secret Chamber,
/// Diplomat). A new Reaction card fails here until `react` (and `can_react`) know it.
#[test]
fn every_reaction_card_is_offered_and_does_something_when_revealed() {
    let reactions: Vec<CardId> = CardId::all()
        .filter(|c| c.is(crate::card::Types::REACTION))
        .collect();
    assert!(reactions.len() >= 3, "{reactions:?}");
    for c in reactions {
        let (revealed, asked) = attack_with(
            crate::RULES_VERSION,
            P0,
            Militia,
            &[c, Copper, Copper, Copper, Estate],
            &[Silver, Gold, Duchy, Province],
            Victim { reveal: &[c] },
        );
        assert_eq!(revealed, vec![c], "{c:?} is offered and revealed");
        let militia_discard = (Some(Militia), Purpose::Discard);
        let blocked = !asked.contains(&militia_discard);
        let reacted = asked
            .iter()
            .any(|a| a.1 != Purpose::React && *a != militia_discard);
        assert!(blocked || reacted, "{c:?} revealed to no effect: {asked:?}");
    }
}
