//! The load clients' policy: a legal answer to any decision, computed from the request
//! alone, with no memory and no view of the game.
//!
//! It is the smallest answer that still ends games in a few dozen turns: play the first
//! playable Action, play all Treasures, buy Province, else Gold, else Silver, and
//! otherwise take the first / fewest options the prompt allows. Buying only money keeps
//! every game short and alike, so figures from different runs compare.

use dominion_protocol::{Prompt, Reply};

/// The cards the buy phase takes, in order of preference.
const BUYS: [&str; 3] = ["province", "gold", "silver"];

/// A legal reply to `prompt`.
pub fn reply(prompt: &Prompt) -> Reply {
    match prompt {
        Prompt::ActionPhase { playable } => match playable.first() {
            Some(card) => Reply::Play { card: card.clone() },
            None => Reply::EndPhase {},
        },
        Prompt::BuyPhase { treasures, buyable } => {
            if !treasures.is_empty() {
                return Reply::PlayAllTreasures {};
            }
            match BUYS.iter().find(|want| buyable.iter().any(|b| b == *want)) {
                Some(card) => Reply::Buy {
                    card: (*card).to_string(),
                },
                None => Reply::EndPhase {},
            }
        }
        Prompt::ChooseCards { options, min, .. } => Reply::Cards {
            cards: options.iter().take(usize::from(*min)).cloned().collect(),
        },
        Prompt::ChoosePile { options, optional } => Reply::Pile {
            card: if *optional && options.is_empty() {
                None
            } else {
                options.first().cloned()
            },
        },
        Prompt::ChooseModes { options, min, .. } => Reply::Modes {
            modes: options.iter().take(usize::from(*min)).copied().collect(),
        },
        Prompt::OrderCards { cards } => Reply::Cards {
            cards: cards.clone(),
        },
        Prompt::YesNo => Reply::YesNo { yes: true },
        Prompt::NameCard { options } => match options.first() {
            Some(card) => Reply::Name { card: card.clone() },
            // No option to name: not a prompt the server sends; any answer is refused alike.
            None => Reply::Name {
                card: "copper".to_string(),
            },
        },
        Prompt::ChooseNumber { min, .. } => Reply::Number { number: *min },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dominion_protocol::{Mode, Zone};

    fn cards(ids: &[&str]) -> Vec<String> {
        ids.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn phases_play_then_buy_money() {
        assert_eq!(
            reply(&Prompt::ActionPhase {
                playable: cards(&["smithy", "village"])
            }),
            Reply::Play {
                card: "smithy".into()
            }
        );
        assert_eq!(
            reply(&Prompt::ActionPhase { playable: vec![] }),
            Reply::EndPhase {}
        );
        assert_eq!(
            reply(&Prompt::BuyPhase {
                treasures: cards(&["copper"]),
                buyable: cards(&["copper", "province"])
            }),
            Reply::PlayAllTreasures {}
        );
        assert_eq!(
            reply(&Prompt::BuyPhase {
                treasures: vec![],
                buyable: cards(&["copper", "silver", "gold"])
            }),
            Reply::Buy {
                card: "gold".into()
            }
        );
        assert_eq!(
            reply(&Prompt::BuyPhase {
                treasures: vec![],
                buyable: cards(&["copper", "curse"])
            }),
            Reply::EndPhase {}
        );
    }

    #[test]
    fn choices_take_the_fewest_first_options() {
        assert_eq!(
            reply(&Prompt::ChooseCards {
                zone: Zone::Hand,
                options: cards(&["estate", "copper", "copper"]),
                min: 2,
                max: 3
            }),
            Reply::Cards {
                cards: cards(&["estate", "copper"])
            }
        );
        assert_eq!(
            reply(&Prompt::ChoosePile {
                options: cards(&["silver", "village"]),
                optional: false
            }),
            Reply::Pile {
                card: Some("silver".into())
            }
        );
        assert_eq!(
            reply(&Prompt::ChoosePile {
                options: vec![],
                optional: true
            }),
            Reply::Pile { card: None }
        );
        assert_eq!(
            reply(&Prompt::ChooseModes {
                options: vec![Mode::PlusCard, Mode::PlusAction, Mode::PlusBuy],
                min: 2,
                max: 2
            }),
            Reply::Modes {
                modes: vec![Mode::PlusCard, Mode::PlusAction]
            }
        );
        assert_eq!(
            reply(&Prompt::OrderCards {
                cards: cards(&["gold", "estate"])
            }),
            Reply::Cards {
                cards: cards(&["gold", "estate"])
            }
        );
        assert_eq!(reply(&Prompt::YesNo), Reply::YesNo { yes: true });
        assert_eq!(
            reply(&Prompt::NameCard {
                options: cards(&["duchy", "gold"])
            }),
            Reply::Name {
                card: "duchy".into()
            }
        );
        assert_eq!(
            reply(&Prompt::ChooseNumber { min: 0, max: 5 }),
            Reply::Number { number: 0 }
        );
    }
}
