//! Decision requests (what the engine asks one player) and replies (their answer).
//!
//! Every choice in the game, from "play this Action" to "reveal Moat?", is a [`Request`]
//! addressed to one player. The request carries everything a client or bot needs to
//! answer it without knowing the card's code: who asks, which card, why, the legal
//! options and the bounds. [`Request::validate`] is the single gate every reply passes,
//! whether it comes from a socket or a bot; an invalid reply changes nothing.
//!
//! A card's question with exactly one legal answer is not asked (a Militia victim with
//! four Coppers); the phase moves are always asked (see `turn`). Only the phase
//! moves are public decisions: every card's question is private, because whether it is
//! asked can depend on a hidden card (see `Game::visible`).

use crate::card::CardId;
use crate::state::PlayerId;
use serde::{Deserialize, Serialize};

/// Where the cards offered by a [`Prompt::ChooseCards`] currently are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Zone {
    Hand,
    Deck,
    Discard,
    InPlay,
    Revealed,
    Trash,
    Supply,
}

/// Why a request is made: what will happen to the chosen cards or pile.
/// Clients use it (with the asking card) to phrase the question.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// Action phase: play an Action card or end the phase.
    ActionPhase,
    /// Buy phase: play Treasures, buy a card, or end the turn.
    BuyPhase,
    Discard,
    Trash,
    Gain,
    /// Put onto the deck.
    TopDeck,
    /// Choose an Action card to play several times (Throne Room).
    PlayTwice,
    /// Reveal a Reaction in answer to an Attack.
    React,
    /// Pick one or more of a card's modes.
    ChooseModes,
    /// Set aside (Library: skip a drawn Action card).
    SetAside,
    /// Play the chosen card (Vassal: the Action it discarded).
    Play,
    /// Yes: put your whole deck into your discard pile (Chancellor).
    DiscardDeck,
    /// Pass the chosen card to the next player (Masquerade).
    Pass,
    /// Reveal the chosen card (Courtier).
    Reveal,
    /// Name a card (Wishing Well).
    Name,
    /// Where in your deck to put a card: how many cards go above it (Secret Passage).
    PlaceInDeck,
}

/// One of a card's labelled options (for "choose one"/"choose two" cards).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    PlusCard,
    PlusAction,
    PlusBuy,
    PlusCoin,
    /// +2 Cards (Steward).
    PlusTwoCards,
    /// +3 Cards (Nobles).
    PlusThreeCards,
    /// +2 Actions (Nobles).
    PlusTwoActions,
    /// +$2 (Steward, Minion).
    PlusTwoCoins,
    /// +$3 (Courtier).
    PlusThreeCoins,
    /// Gain a Gold (Courtier).
    GainGold,
    /// Trash 2 cards from your hand (Steward).
    TrashTwo,
    /// Discard your hand, +4 Cards; others with 5+ cards do the same (Minion's attack).
    DiscardAndDraw,
    /// Discard 2 cards (Torturer's victim).
    DiscardTwo,
    /// Gain a Curse to your hand (Torturer's victim).
    GainCurse,
    /// Trash an Action card from the Supply (Lurker).
    TrashFromSupply,
    /// Gain an Action card from the trash (Lurker).
    GainFromTrash,
}

/// The shape of a question and its legal options.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Prompt {
    /// Answer with [`Reply::Play`] (one of `playable`) or [`Reply::EndPhase`]; or with a
    /// Buy-phase move that ends the phase first (`crate::combined`):
    /// [`Reply::PlayAllTreasures`] with a Treasure in hand, or [`Reply::Buy`] of a card
    /// the Treasures in hand afford, played first. Those two are checked against the
    /// state, not this prompt: [`Game::check`](crate::Game::check).
    ActionPhase { playable: Vec<CardId> },
    /// Answer with [`Reply::Play`] (one of `treasures`), [`Reply::PlayAllTreasures`]
    /// (when `treasures` is not empty), [`Reply::Buy`] (one of `buyable`) or
    /// [`Reply::EndPhase`]. `treasures` is empty once a card has been bought.
    BuyPhase {
        treasures: Vec<CardId>,
        buyable: Vec<CardId>,
    },
    /// Answer with [`Reply::Cards`]: a sub-multiset of `options` of size `min..=max`.
    ChooseCards {
        zone: Zone,
        options: Vec<CardId>,
        min: u8,
        max: u8,
    },
    /// Answer with [`Reply::Pile`]: one of `options`, or `None` when `optional`.
    ChoosePile {
        options: Vec<CardId>,
        optional: bool,
    },
    /// Answer with [`Reply::Modes`]: `min..=max` distinct entries of `options`.
    ChooseModes {
        options: Vec<Mode>,
        min: u8,
        max: u8,
    },
    /// Answer with [`Reply::Cards`]: a permutation of `cards`; the first card ends on top.
    OrderCards { cards: Vec<CardId> },
    /// Answer with [`Reply::YesNo`].
    YesNo,
    /// Answer with [`Reply::Name`]: any one of `options`.
    NameCard { options: Vec<CardId> },
    /// Answer with [`Reply::Number`]: a whole number from `min` to `max`.
    ChooseNumber { min: u32, max: u32 },
}

/// A question addressed to one player.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Request {
    pub player: PlayerId,
    /// The card that asks (None for the phase moves).
    pub card: Option<CardId>,
    /// Whose cards the question is about, when they are not the chooser's own (Spy and
    /// Thief decide over other players' revealed cards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about: Option<PlayerId>,
    pub purpose: Purpose,
    pub prompt: Prompt,
}

/// A player's answer to the pending [`Request`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Reply {
    Play(CardId),
    /// Every Treasure in hand played; at the Action-phase decision, that phase ended first.
    PlayAllTreasures,
    /// A card bought; at the Action-phase decision, that phase ended and every Treasure in
    /// hand played first.
    Buy(CardId),
    EndPhase,
    Cards(Vec<CardId>),
    Pile(Option<CardId>),
    Modes(Vec<Mode>),
    YesNo(bool),
    Name(CardId),
    Number(u32),
}

/// Why a reply was refused. The game is unchanged when this is returned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InvalidReply {
    #[error("the game is over")]
    GameOver,
    #[error("it is not player {got}'s decision (waiting for player {expected})")]
    NotYourDecision { expected: PlayerId, got: PlayerId },
    #[error("no such player {0}")]
    NoSuchPlayer(PlayerId),
    #[error("this reply does not answer a {expected} question")]
    WrongKind { expected: &'static str },
    #[error("{0} is not one of the options")]
    NotAnOption(String),
    #[error("chose {got} but must choose between {min} and {max}")]
    WrongCount { got: usize, min: u8, max: u8 },
    #[error("{0} chosen more times than offered")]
    TooMany(CardId),
    #[error("a pile must be chosen here")]
    PileRequired,
    #[error("the order must list exactly the offered cards")]
    NotAPermutation,
}

impl Prompt {
    /// A short name of the prompt kind, for errors and logs.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Prompt::ActionPhase { .. } => "action_phase",
            Prompt::BuyPhase { .. } => "buy_phase",
            Prompt::ChooseCards { .. } => "choose_cards",
            Prompt::ChoosePile { .. } => "choose_pile",
            Prompt::ChooseModes { .. } => "choose_modes",
            Prompt::OrderCards { .. } => "order_cards",
            Prompt::YesNo => "yes_no",
            Prompt::NameCard { .. } => "name_card",
            Prompt::ChooseNumber { .. } => "choose_number",
        }
    }

    /// Whether more than one answer is legal: [`Prompt::forced`] has none, and an
    /// Action phase with nothing to play (only "end the phase") has none either.
    pub fn has_choice(&self) -> bool {
        match self {
            Prompt::ActionPhase { playable } => !playable.is_empty(),
            // What `forced` says of a Buy phase, without building its answer: the
            // question a simulation asks most.
            Prompt::BuyPhase { treasures, buyable } => !treasures.is_empty() || !buyable.is_empty(),
            p => p.forced().is_none(),
        }
    }

    /// The only legal answer to a phase move without a choice (see `has_choice`): None
    /// for every other prompt.
    #[inline]
    pub fn forced_phase_move(&self) -> Option<Reply> {
        match self {
            Prompt::ActionPhase { playable } if playable.is_empty() => Some(Reply::EndPhase),
            Prompt::BuyPhase { treasures, buyable }
                if treasures.is_empty() && buyable.is_empty() =>
            {
                Some(Reply::EndPhase)
            }
            _ => None,
        }
    }

    /// The answer, when exactly one legal answer exists: such questions are not asked.
    #[inline]
    pub fn forced(&self) -> Option<Reply> {
        match self {
            Prompt::ChooseCards {
                options, min, max, ..
            } => {
                let all_same = options.windows(2).all(|w| w[0] == w[1]);
                if *max == 0 || options.is_empty() {
                    Some(Reply::Cards(vec![]))
                } else if min == max && (all_same || options.len() == *min as usize) {
                    Some(Reply::Cards(options[..*min as usize].to_vec()))
                } else {
                    None
                }
            }
            Prompt::OrderCards { cards } if cards.windows(2).all(|w| w[0] == w[1]) => {
                Some(Reply::Cards(cards.clone()))
            }
            Prompt::ChoosePile { options, .. } if options.is_empty() => Some(Reply::Pile(None)),
            Prompt::ChoosePile { options, optional } if options.len() == 1 && !optional => {
                Some(Reply::Pile(Some(options[0])))
            }
            // Nothing to play and nothing to buy: ending the turn is the only answer.
            Prompt::BuyPhase { treasures, buyable }
                if treasures.is_empty() && buyable.is_empty() =>
            {
                Some(Reply::EndPhase)
            }
            Prompt::ChooseModes { options, min, max }
                if *min as usize == options.len() && min == max =>
            {
                Some(Reply::Modes(options.clone()))
            }
            Prompt::NameCard { options } if options.len() == 1 => Some(Reply::Name(options[0])),
            Prompt::ChooseNumber { min, max } if min == max => Some(Reply::Number(*min)),
            _ => None,
        }
    }

    /// Checks that `reply` is a legal answer. Pure: touches no state — so a Buy-phase move
    /// answered at the Action-phase decision, which depends on the coins of the hand's
    /// Treasures, is refused here and checked by the game instead
    /// ([`Game::check`](crate::Game::check), `crate::combined`).
    ///
    /// The phase moves' valid answers are checked here, inline where it is called (every
    /// reply of a recorded game passes here, and most are phase moves); everything else,
    /// errors included, in `validate_other`.
    #[inline]
    pub fn validate(&self, reply: &Reply) -> Result<(), InvalidReply> {
        let ok = match (self, reply) {
            (Prompt::ActionPhase { playable }, Reply::Play(c)) => playable.contains(c),
            (Prompt::BuyPhase { treasures, .. }, Reply::Play(c)) => treasures.contains(c),
            (Prompt::BuyPhase { treasures, .. }, Reply::PlayAllTreasures) => !treasures.is_empty(),
            (Prompt::BuyPhase { buyable, .. }, Reply::Buy(c)) => buyable.contains(c),
            (Prompt::ActionPhase { .. } | Prompt::BuyPhase { .. }, Reply::EndPhase) => true,
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            self.validate_other(reply)
        }
    }

    /// [`Prompt::validate`] of every reply but a phase move's valid answer.
    #[inline(never)]
    fn validate_other(&self, reply: &Reply) -> Result<(), InvalidReply> {
        let wrong = || InvalidReply::WrongKind {
            expected: self.kind_name(),
        };
        match (self, reply) {
            (Prompt::ActionPhase { playable }, Reply::Play(c)) => one_of(playable, *c),
            (Prompt::ActionPhase { .. }, Reply::EndPhase) => Ok(()),
            (Prompt::BuyPhase { treasures, .. }, Reply::Play(c)) => one_of(treasures, *c),
            (Prompt::BuyPhase { treasures, .. }, Reply::PlayAllTreasures) => {
                if treasures.is_empty() {
                    Err(InvalidReply::NotAnOption("play_all_treasures".into()))
                } else {
                    Ok(())
                }
            }
            (Prompt::BuyPhase { buyable, .. }, Reply::Buy(c)) => one_of(buyable, *c),
            (Prompt::BuyPhase { .. }, Reply::EndPhase) => Ok(()),
            (
                Prompt::ChooseCards {
                    options, min, max, ..
                },
                Reply::Cards(chosen),
            ) => {
                if chosen.len() < *min as usize || chosen.len() > *max as usize {
                    return Err(InvalidReply::WrongCount {
                        got: chosen.len(),
                        min: *min,
                        max: *max,
                    });
                }
                sub_multiset(options, chosen)
            }
            (Prompt::ChoosePile { options, optional }, Reply::Pile(choice)) => match choice {
                None if *optional => Ok(()),
                None => Err(InvalidReply::PileRequired),
                Some(c) => one_of(options, *c),
            },
            (Prompt::ChooseModes { options, min, max }, Reply::Modes(chosen)) => {
                if chosen.len() < *min as usize || chosen.len() > *max as usize {
                    return Err(InvalidReply::WrongCount {
                        got: chosen.len(),
                        min: *min,
                        max: *max,
                    });
                }
                for (i, m) in chosen.iter().enumerate() {
                    if !options.contains(m) || chosen[..i].contains(m) {
                        return Err(InvalidReply::NotAnOption(format!("{m:?}")));
                    }
                }
                Ok(())
            }
            (Prompt::OrderCards { cards }, Reply::Cards(order)) => {
                if order.len() != cards.len() || sub_multiset(cards, order).is_err() {
                    Err(InvalidReply::NotAPermutation)
                } else {
                    Ok(())
                }
            }
            (Prompt::YesNo, Reply::YesNo(_)) => Ok(()),
            (Prompt::NameCard { options }, Reply::Name(c)) => one_of(options, *c),
            (Prompt::ChooseNumber { min, max }, Reply::Number(n)) => {
                if (*min..=*max).contains(n) {
                    Ok(())
                } else {
                    Err(InvalidReply::NotAnOption(n.to_string()))
                }
            }
            _ => Err(wrong()),
        }
    }
}

fn one_of(options: &[CardId], c: CardId) -> Result<(), InvalidReply> {
    if options.contains(&c) {
        Ok(())
    } else {
        Err(InvalidReply::NotAnOption(c.key().to_string()))
    }
}

fn sub_multiset(options: &[CardId], chosen: &[CardId]) -> Result<(), InvalidReply> {
    for (i, c) in chosen.iter().enumerate() {
        let offered = options.iter().filter(|o| *o == c).count();
        if offered == 0 {
            return Err(InvalidReply::NotAnOption(c.key().to_string()));
        }
        if chosen[..=i].iter().filter(|o| *o == c).count() > offered {
            return Err(InvalidReply::TooMany(*c));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use CardId::*;

    /// `validate`'s inline check of the phase moves agrees with the full check
    /// (`validate_other`, the code every reply went through before) on every reply to
    /// Action- and Buy-phase prompts of many offered lists, errors included.
    #[test]
    fn the_inline_phase_check_agrees_with_the_full_one() {
        let cards: Vec<CardId> = CardId::all().collect();
        let mut x = 11u64;
        let mut pick = |n: usize| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) as usize % n
        };
        let mut checked = 0;
        for _ in 0..400 {
            let (a, b, c) = (pick(4), pick(4), pick(12));
            let mut list = |len: usize| (0..len).map(|_| cards[pick(cards.len())]).collect();
            let prompts = [
                Prompt::ActionPhase { playable: list(a) },
                Prompt::BuyPhase {
                    treasures: list(b),
                    buyable: list(c),
                },
            ];
            for p in &prompts {
                let mut replies = vec![
                    Reply::EndPhase,
                    Reply::PlayAllTreasures,
                    Reply::Cards(vec![]),
                    Reply::Pile(None),
                    Reply::YesNo(true),
                ];
                for &c in &cards {
                    replies.extend([Reply::Play(c), Reply::Buy(c), Reply::Name(c)]);
                }
                for r in &replies {
                    assert_eq!(p.validate(r), p.validate_other(r), "{p:?} {r:?}");
                    checked += usize::from(p.validate(r).is_ok());
                }
            }
        }
        assert!(checked > 1000, "only {checked} valid replies");
    }

    #[test]
    fn choose_cards_checks_bounds_and_multiset() {
        let p = Prompt::ChooseCards {
            zone: Zone::Hand,
            options: vec![Copper, Copper, Estate],
            min: 1,
            max: 2,
        };
        assert!(p.validate(&Reply::Cards(vec![Copper, Copper])).is_ok());
        assert!(p.validate(&Reply::Cards(vec![Estate])).is_ok());
        assert_eq!(
            p.validate(&Reply::Cards(vec![])),
            Err(InvalidReply::WrongCount {
                got: 0,
                min: 1,
                max: 2
            })
        );
        assert_eq!(
            p.validate(&Reply::Cards(vec![Estate, Estate])),
            Err(InvalidReply::TooMany(Estate))
        );
        assert!(matches!(
            p.validate(&Reply::Cards(vec![Gold])),
            Err(InvalidReply::NotAnOption(_))
        ));
        assert!(matches!(
            p.validate(&Reply::YesNo(true)),
            Err(InvalidReply::WrongKind { .. })
        ));
    }

    #[test]
    fn forced_answers_only_when_unique() {
        let p = |options: Vec<CardId>, min, max| Prompt::ChooseCards {
            zone: Zone::Hand,
            options,
            min,
            max,
        };
        assert_eq!(
            p(vec![Copper, Copper], 1, 1).forced(),
            Some(Reply::Cards(vec![Copper]))
        );
        assert_eq!(p(vec![Copper, Estate], 1, 1).forced(), None);
        assert_eq!(
            p(vec![Copper, Estate], 2, 2).forced(),
            Some(Reply::Cards(vec![Copper, Estate]))
        );
        assert_eq!(p(vec![Copper], 0, 1).forced(), None);
        assert_eq!(p(vec![], 0, 4).forced(), Some(Reply::Cards(vec![])));
    }

    #[test]
    fn buy_phase_refuses_play_all_without_treasures() {
        let p = Prompt::BuyPhase {
            treasures: vec![],
            buyable: vec![Copper],
        };
        assert!(p.validate(&Reply::PlayAllTreasures).is_err());
        assert!(p.validate(&Reply::Buy(Copper)).is_ok());
        assert!(p.validate(&Reply::Buy(Gold)).is_err());
    }

    #[test]
    fn order_modes_name_and_pile_prompts_validate() {
        let order = Prompt::OrderCards {
            cards: vec![Copper, Estate, Copper],
        };
        assert!(
            order
                .validate(&Reply::Cards(vec![Estate, Copper, Copper]))
                .is_ok()
        );
        assert_eq!(
            order.validate(&Reply::Cards(vec![Estate, Copper])),
            Err(InvalidReply::NotAPermutation)
        );
        assert_eq!(
            order.validate(&Reply::Cards(vec![Estate, Estate, Copper])),
            Err(InvalidReply::NotAPermutation)
        );

        let modes = Prompt::ChooseModes {
            options: vec![
                Mode::PlusCard,
                Mode::PlusAction,
                Mode::PlusBuy,
                Mode::PlusCoin,
            ],
            min: 2,
            max: 2,
        };
        assert!(
            modes
                .validate(&Reply::Modes(vec![Mode::PlusCard, Mode::PlusCoin]))
                .is_ok()
        );
        assert!(
            modes
                .validate(&Reply::Modes(vec![Mode::PlusCard, Mode::PlusCard]))
                .is_err(),
            "must differ"
        );
        assert!(matches!(
            modes.validate(&Reply::Modes(vec![Mode::PlusBuy])),
            Err(InvalidReply::WrongCount { .. })
        ));

        let name = Prompt::NameCard {
            options: vec![Copper, Gold],
        };
        assert!(name.validate(&Reply::Name(Gold)).is_ok());
        assert!(name.validate(&Reply::Name(Estate)).is_err());

        let pile = |optional| Prompt::ChoosePile {
            options: vec![Silver],
            optional,
        };
        assert!(pile(true).validate(&Reply::Pile(None)).is_ok());
        assert_eq!(
            pile(false).validate(&Reply::Pile(None)),
            Err(InvalidReply::PileRequired)
        );
        assert_eq!(pile(false).forced(), Some(Reply::Pile(Some(Silver))));
        assert_eq!(pile(true).forced(), None);
        assert!(Prompt::YesNo.validate(&Reply::YesNo(false)).is_ok());
        assert!(Prompt::YesNo.validate(&Reply::Name(Gold)).is_err());
    }

    #[test]
    fn forced_answers_for_buy_phase_modes_names_orders_and_piles() {
        let buy = |treasures: Vec<CardId>, buyable: Vec<CardId>| {
            Prompt::BuyPhase { treasures, buyable }.forced()
        };
        assert_eq!(buy(vec![], vec![]), Some(Reply::EndPhase));
        assert_eq!(buy(vec![Copper], vec![]), None, "may play the Copper");
        assert_eq!(buy(vec![], vec![Curse]), None, "may buy the Curse");

        let modes =
            |options: Vec<Mode>, min, max| Prompt::ChooseModes { options, min, max }.forced();
        assert_eq!(
            modes(vec![Mode::PlusCard, Mode::PlusCoin], 2, 2),
            Some(Reply::Modes(vec![Mode::PlusCard, Mode::PlusCoin]))
        );
        assert_eq!(
            modes(vec![Mode::PlusBuy], 1, 1),
            Some(Reply::Modes(vec![Mode::PlusBuy]))
        );
        assert_eq!(modes(vec![Mode::PlusCard, Mode::PlusCoin], 1, 1), None);
        assert_eq!(modes(vec![Mode::PlusCard, Mode::PlusCoin], 1, 2), None);

        let name = |options: Vec<CardId>| Prompt::NameCard { options }.forced();
        assert_eq!(name(vec![Gold]), Some(Reply::Name(Gold)));
        assert_eq!(name(vec![Copper, Gold]), None);

        let order = |cards: Vec<CardId>| Prompt::OrderCards { cards }.forced();
        assert_eq!(
            order(vec![Copper, Copper]),
            Some(Reply::Cards(vec![Copper, Copper]))
        );
        assert_eq!(order(vec![Copper, Estate]), None);

        let pile =
            |options: Vec<CardId>, optional| Prompt::ChoosePile { options, optional }.forced();
        assert_eq!(pile(vec![], false), Some(Reply::Pile(None)));
        assert_eq!(pile(vec![], true), Some(Reply::Pile(None)));
        assert_eq!(pile(vec![Silver, Gold], false), None);

        // Ending a phase is always a second answer; a yes/no always has two.
        assert_eq!(
            Prompt::ActionPhase {
                playable: vec![Smithy]
            }
            .forced(),
            None
        );
        assert_eq!(Prompt::YesNo.forced(), None);
    }

    #[test]
    fn forced_card_choices_need_one_multiset_of_the_required_size() {
        let p = |options: Vec<CardId>, min, max| Prompt::ChooseCards {
            zone: Zone::Hand,
            options,
            min,
            max,
        };
        // A Militia victim with 4 Coppers: any 1 of them is the same answer.
        assert_eq!(
            p(vec![Copper; 4], 1, 1).forced(),
            Some(Reply::Cards(vec![Copper]))
        );
        assert_eq!(
            p(vec![Copper; 5], 2, 2).forced(),
            Some(Reply::Cards(vec![Copper; 2]))
        );
        assert_eq!(p(vec![Copper, Copper, Estate], 2, 2).forced(), None);
        assert_eq!(
            p(vec![Copper, Estate], 0, 0).forced(),
            Some(Reply::Cards(vec![]))
        );
        // A Reaction may always be declined.
        assert_eq!(p(vec![Moat], 0, 1).forced(), None);
    }
}
