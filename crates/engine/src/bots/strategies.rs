//! The named buy strategies, exactly as shared bots.md specifies them. "left" is the
//! number of Provinces left in the Supply; "owns" counts every card the bot has;
//! "Treasures" is how many Treasure cards it owns; "money" is bots.md's (see
//! [`Observation::money`]). Fractions are not rounded. How each bot plays and answers
//! other decisions is [`PriorityBot`]'s; the card-specific rules bots.md gives (Library
//! sets aside Actions it cannot play, Moneylender always trashes a Copper, Chancellor
//! always discards its deck, Baron's play rule, Nobles' and Minion's modes, Courtyard's
//! put-back, Masquerade's passing and trashing, Torturer's and Saboteur's victims) are
//! answers every `PriorityBot` gives.

use super::priority::{PriorityBot, Rule};
use crate::card::CardId::{self, *};
use crate::view::Observation;

fn left(o: &Observation) -> u32 {
    o.supply_count(Province)
}
fn owns(o: &Observation, c: CardId) -> usize {
    o.count_owned(c)
}
fn treasures(o: &Observation) -> usize {
    o.owned().filter(|c| c.is_treasure()).count()
}

pub fn strategy(name: &str) -> Option<PriorityBot> {
    let rules = match name {
        "big_money" => vec![
            Rule::when(Province, |o| o.money() > 18),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::when(Duchy, |o| left(o) <= 6),
            Rule::always(Silver),
        ],
        "basic_big_money" => vec![
            Rule::always(Province),
            Rule::always(Gold),
            Rule::always(Silver),
        ],
        "smithy" => vec![
            Rule::when(Province, |o| o.money() > 15),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::when(Duchy, |o| left(o) <= 6),
            Rule::when(Smithy, |o| {
                (owns(o, Smithy) as f64) < treasures(o) as f64 / 11.0
            }),
            Rule::always(Silver),
        ],
        "witch" => vec![
            Rule::when(Province, |o| owns(o, Gold) > 0),
            Rule::when(Duchy, |o| left(o) <= 5),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::when(Witch, |o| owns(o, Witch) == 0),
            Rule::always(Gold),
            Rule::when(Witch, |o| owns(o, Witch) < 2),
            Rule::always(Silver),
        ],
        "militia" => vec![
            Rule::when(Province, |o| owns(o, Gold) > 0),
            Rule::when(Duchy, |o| left(o) <= 6),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::when(Militia, |o| owns(o, Militia) < 3),
            Rule::always(Silver),
        ],
        "council_room" => vec![
            Rule::when(Province, |o| owns(o, Gold) > 0),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::when(Duchy, |o| left(o) <= 6),
            Rule::when(CouncilRoom, |o| owns(o, CouncilRoom) == 0),
            Rule::when(CouncilRoom, |o| {
                (owns(o, CouncilRoom) as f64) < o.money() as f64 / 13.0
            }),
            Rule::always(Silver),
        ],
        "laboratory" => vec![
            Rule::when(Province, |o| owns(o, Gold) > 0),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::always(Laboratory),
            Rule::always(Silver),
        ],
        "festival" => vec![
            Rule::when(Province, |o| owns(o, Gold) > 0),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::when(Duchy, |o| left(o) <= 6),
            Rule::always(Festival),
            Rule::always(Silver),
        ],
        "moat" => vec![
            Rule::when(Province, |o| o.money() > 16),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::when(Duchy, |o| left(o) <= 6),
            Rule::when(Moat, |o| treasures(o) >= 10 && owns(o, Moat) == 0),
            Rule::always(Silver),
            Rule::when(Moat, |o| owns(o, Moat) < 2),
        ],
        "library" => vec![
            Rule::when(Province, |o| o.money() > 18),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::when(Duchy, |o| left(o) <= 6),
            Rule::when(Library, |o| owns(o, Library) == 0),
            Rule::always(Silver),
        ],
        "moneylender" => vec![
            Rule::when(Province, |o| o.money() > 18),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::when(Duchy, |o| left(o) <= 6),
            Rule::when(Moneylender, |o| owns(o, Moneylender) == 0),
            Rule::always(Silver),
        ],
        "chancellor" => vec![
            Rule::when(Province, |o| owns(o, Gold) > 0),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::when(Duchy, |o| left(o) <= 6),
            Rule::when(Chancellor, |o| {
                (owns(o, Chancellor) as f64) < treasures(o) as f64 / 19.0
            }),
            Rule::when(Chancellor, |o| owns(o, Chancellor) == 0),
            Rule::always(Silver),
        ],
        "adventurer" => vec![
            Rule::when(Province, |o| owns(o, Gold) > 0),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::when(Adventurer, |o| {
                owns(o, Gold) > 0 && owns(o, Adventurer) == 0
            }),
            Rule::always(Gold),
            Rule::when(Duchy, |o| left(o) <= 5),
            Rule::always(Silver),
        ],
        "bureaucrat" => vec![
            Rule::when(Province, |o| owns(o, Gold) > 0),
            Rule::when(Duchy, |o| left(o) <= 5),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::when(Duchy, |o| left(o) <= 6),
            Rule::when(Bureaucrat, |o| owns(o, Bureaucrat) == 0),
            Rule::when(Bureaucrat, |o| {
                (owns(o, Bureaucrat) as f64) < treasures(o) as f64 / 20.0
            }),
            Rule::always(Silver),
        ],
        "courtyard" => vec![
            Rule::when(Province, |o| owns(o, Gold) > 0),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::when(Duchy, |o| left(o) <= 5),
            Rule::when(Silver, |o| owns(o, Silver) == 0),
            Rule::when(Courtyard, |o| owns(o, Courtyard) == 0),
            Rule::when(Courtyard, |o| {
                (owns(o, Courtyard) as f64) < treasures(o) as f64 / 8.0
            }),
            Rule::always(Silver),
            Rule::when(Courtyard, |o| owns(o, Courtyard) < 2),
        ],
        "baron" => vec![
            Rule::when(Province, |o| o.money() > 18),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::when(Duchy, |o| left(o) <= 6),
            Rule::when(Baron, |o| owns(o, Baron) == 0),
            Rule::always(Silver),
        ],
        "nobles" => vec![
            Rule::when(Province, |o| o.money() > 18),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::when(Nobles, |o| owns(o, Nobles) == 0),
            Rule::always(Gold),
            Rule::when(Duchy, |o| left(o) <= 6),
            Rule::always(Silver),
        ],
        "great_hall" => vec![
            Rule::when(Province, |o| owns(o, Gold) > 0),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(GreatHall, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::when(Duchy, |o| left(o) <= 6),
            Rule::when(GreatHall, |o| owns(o, Silver) >= 7),
            Rule::always(Silver),
        ],
        "shanty_town" => vec![
            Rule::when(Province, |o| o.money() > 17),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::when(Duchy, |o| left(o) <= 6),
            Rule::when(ShantyTown, |o| {
                (owns(o, ShantyTown) as f64) < treasures(o) as f64 / 14.0 && treasures(o) >= 9
            }),
            Rule::always(Silver),
        ],
        "duke" => vec![
            Rule::when(Duchy, |o| o.money() >= 14),
            Rule::when(Province, |o| {
                o.supply_count(Duchy) == 0 && owns(o, Duchy) < 7
            }),
            Rule::when(Duke, |o| o.supply_count(Duchy) == 0),
            Rule::when(Estate, |o| o.supply_count(Duke) <= 3),
            Rule::always(Gold),
            Rule::always(Silver),
            Rule::always(Copper),
        ],
        "bridge" => vec![
            Rule::when(Province, |o| owns(o, Gold) > 0),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::when(Duchy, |o| left(o) <= 6),
            Rule::when(Bridge, |o| {
                (owns(o, Bridge) as f64) <= treasures(o) as f64 / 10.0
            }),
            Rule::when(Bridge, |o| owns(o, Bridge) == 0),
            Rule::always(Silver),
        ],
        "coppersmith" => vec![
            Rule::when(Province, |o| owns(o, Gold) > 0),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::when(Duchy, |o| left(o) <= 6),
            Rule::when(Coppersmith, |o| owns(o, Coppersmith) == 0),
            Rule::always(Silver),
        ],
        "masquerade" => vec![
            Rule::when(Province, |o| owns(o, Gold) >= 2),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::when(Duchy, |o| left(o) <= 5),
            Rule::when(Masquerade, |o| owns(o, Masquerade) == 0),
            Rule::always(Silver),
        ],
        "minion" => vec![
            Rule::when(Province, |o| owns(o, Minion) > 5),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Minion),
            Rule::always(Silver),
        ],
        "saboteur" => vec![
            Rule::always(Province),
            Rule::when(Duchy, |o| left(o) <= 5),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::when(Saboteur, |o| owns(o, Saboteur) < 2),
            Rule::always(Silver),
        ],
        "torturer" => vec![
            Rule::when(Province, |o| o.money() > 18),
            Rule::when(Duchy, |o| left(o) <= 4),
            Rule::when(Estate, |o| left(o) <= 2),
            Rule::always(Gold),
            Rule::when(Duchy, |o| left(o) <= 6),
            Rule::when(Torturer, |o| owns(o, Torturer) == 0),
            Rule::always(Silver),
        ],
        // Workshop gains by this list too (PriorityBot's gain: its first rule among the
        // cards offered, with the same end-of-game check as buying).
        "workshop_gardens" => vec![
            Rule::when(Gardens, |o| owns(o, Workshop) > 8),
            Rule::always(Workshop),
            Rule::always(Estate),
            Rule::always(Silver),
            Rule::always(Copper),
        ],
        _ => return None,
    };
    let name = super::NAMES.iter().find(|n| **n == name).copied()?;
    Some(PriorityBot { name, rules })
}
