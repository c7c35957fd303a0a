//! The kingdoms a tournament plays: `--kingdoms` reads recommended ids, explicit card
//! lists and seeded random draws into one list of [`TourneyKingdom`]s.
//!
//! Syntax (comma-separated, mixable, `--kingdoms` may repeat):
//! - `SET/NAME`: a recommended kingdom, in its own edition (`*_1e/` is the 1st);
//! - `cards:C1,...,C10` or `cards:1e:C1,...,C10`: exactly 10 different kingdom card ids
//!   (the 10 ids that follow `cards:` belong to it), 2nd edition texts unless `1e:`;
//! - `random:N:SEED` or `random:N:SEED:1e`: N kingdoms of 10 cards drawn from the cards
//!   printed in that edition (default 2nd) by a generator seeded by SEED alone, so
//!   `random:24:7` is the same 24 kingdoms on every machine and in every run (the draw
//!   is SplitMix64 over the card-id order, independent of the engine's game RNG).
//!
//! A kingdom's id keys its games' seeds (see `tournament::series_seed`): a recommended
//! kingdom keeps its id, so its rows are the same as before card lists existed.

use crate::{SimError, splitmix64};
use dominion_engine::setup::{CardPool, pool_cards, recommended_kingdoms};
use dominion_engine::{CardId, Edition, Kingdom, Setup};

/// One kingdom of a tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct TourneyKingdom {
    /// The recommended id, `cards:1e:a,b,...` or `random:N:SEED:2e#I`.
    pub id: String,
    /// The recommended name, or the cards' keys.
    pub name: String,
    pub edition: Edition,
    pub cards: Vec<CardId>,
    /// What the games are set up with (a recommended kingdom by its id, as before).
    pub kingdom: Kingdom,
}

impl TourneyKingdom {
    pub fn setup(&self, players: u8) -> Setup {
        Setup {
            players,
            kingdom: self.kingdom.clone(),
            edition: self.edition,
        }
    }
}

pub fn edition_key(e: Edition) -> &'static str {
    match e {
        Edition::First => "1e",
        Edition::Second => "2e",
    }
}

fn bad(msg: String) -> SimError {
    SimError::BadKingdom(msg)
}

fn parse_edition(s: &str) -> Option<Edition> {
    match s {
        "1e" => Some(Edition::First),
        "2e" => Some(Edition::Second),
        _ => None,
    }
}

fn keys(cards: &[CardId]) -> String {
    cards.iter().map(|c| c.key()).collect::<Vec<_>>().join(",")
}

/// A kingdom of exactly these cards, checked like a game's setup.
pub fn from_cards(cards: Vec<CardId>, edition: Edition) -> Result<TourneyKingdom, SimError> {
    let setup = Setup {
        players: 2,
        kingdom: Kingdom::Cards(cards.clone()),
        edition,
    };
    setup.validate()?;
    let list = keys(&cards);
    Ok(TourneyKingdom {
        id: format!("cards:{}:{list}", edition_key(edition)),
        name: list,
        edition,
        cards,
        kingdom: setup.kingdom,
    })
}

/// `n` kingdoms drawn from `seed` among the cards printed in `edition`.
pub fn random(n: usize, seed: u64, edition: Edition) -> Vec<TourneyKingdom> {
    let pool = pool_cards(CardPool::of(edition));
    let mut state = splitmix64(seed);
    (0..n)
        .map(|i| {
            let mut left = pool.clone();
            let mut cards = Vec::with_capacity(10);
            for _ in 0..10 {
                state = splitmix64(state);
                cards.push(left.swap_remove((state % left.len() as u64) as usize));
            }
            cards.sort_by_key(|c| (c.base_cost(), c.name()));
            let mut k = from_cards(cards, edition).expect("10 different kingdom cards");
            k.id = format!("random:{n}:{seed}:{}#{}", edition_key(edition), i + 1);
            k
        })
        .collect()
}

fn recommended(id: &str) -> Result<TourneyKingdom, SimError> {
    let r = recommended_kingdoms()
        .find(|r| r.id == id)
        .ok_or_else(|| SimError::UnknownKingdom(id.to_string()))?;
    let edition = if r.id.contains("_1e/") {
        Edition::First
    } else {
        Edition::Second
    };
    Ok(TourneyKingdom {
        id: r.id.to_string(),
        name: r.name.to_string(),
        edition,
        cards: r.card_ids().unwrap_or_default(),
        kingdom: Kingdom::Recommended(r.id.to_string()),
    })
}

/// Every recommended kingdom, in order.
pub fn all_recommended() -> Vec<TourneyKingdom> {
    recommended_kingdoms()
        .map(|r| recommended(r.id).expect("listed"))
        .collect()
}

/// Reads `--kingdoms` values (see the module docs); all recommended kingdoms when empty.
pub fn parse(values: &[String]) -> Result<Vec<TourneyKingdom>, SimError> {
    let tokens: Vec<&str> = values
        .iter()
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.is_empty() {
        return Ok(all_recommended());
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        i += 1;
        if let Some(rest) = t.strip_prefix("cards:") {
            let (edition, first) = match rest.split_once(':') {
                Some((e, first)) => (
                    parse_edition(e)
                        .ok_or_else(|| bad(format!("{t:?}: the edition is 1e or 2e")))?,
                    first,
                ),
                None => (Edition::Second, rest),
            };
            let mut names = vec![first];
            while names.len() < 10
                && i < tokens.len()
                && !tokens[i].contains(':')
                && !tokens[i].contains('/')
            {
                names.push(tokens[i]);
                i += 1;
            }
            let cards = names
                .iter()
                .map(|k| {
                    k.parse::<CardId>().map_err(|_| {
                        bad(format!(
                            "unknown card id {k:?}; run dominion-sim --list-cards"
                        ))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            out.push(from_cards(cards, edition)?);
        } else if let Some(rest) = t.strip_prefix("random:") {
            let parts: Vec<&str> = rest.split(':').collect();
            let usage = || bad(format!("{t:?}: use random:N:SEED or random:N:SEED:1e|2e"));
            let (n, seed, edition) = match parts.as_slice() {
                [n, s] => (n, s, Edition::Second),
                [n, s, e] => (n, s, parse_edition(e).ok_or_else(usage)?),
                _ => return Err(usage()),
            };
            let n: usize = n.parse().map_err(|_| usage())?;
            let seed: u64 = seed.parse().map_err(|_| usage())?;
            if !(1..=10_000).contains(&n) {
                return Err(bad(format!("{t:?}: N must be 1 to 10000")));
            }
            out.extend(random(n, seed, edition));
        } else {
            out.push(recommended(t)?);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_draws_depend_on_the_seed_only_and_are_valid() {
        let a = random(5, 7, Edition::Second);
        assert_eq!(a, random(5, 7, Edition::Second));
        assert_ne!(a[0].cards, random(5, 8, Edition::Second)[0].cards);
        // A longer draw starts with the same kingdoms.
        assert_eq!(
            a[..],
            random(6, 7, Edition::Second)[..5]
                .iter()
                .map(|k| {
                    let mut k = k.clone();
                    k.id = k.id.replace("random:6:", "random:5:");
                    k
                })
                .collect::<Vec<_>>()[..]
        );
        for k in &a {
            assert!(k.setup(2).validate().is_ok());
        }
        assert_eq!(a[2].id, "random:5:7:2e#3");
    }

    #[test]
    fn specs_are_read_and_checked() {
        let ks = parse(&[
            "base_2e/first_game,cards:1e:chapel,witch,village,smithy,market,moat,cellar,mine,festival,library,random:2:3".into(),
        ])
        .unwrap();
        assert_eq!(ks.len(), 4);
        assert_eq!(
            ks[0].kingdom,
            Kingdom::Recommended("base_2e/first_game".into())
        );
        assert_eq!(ks[1].edition, Edition::First);
        assert_eq!(ks[1].cards[0], CardId::Chapel);
        assert_eq!(ks[3].id, "random:2:3:2e#2");
        for wrong in [
            "cards:chapel,witch",
            "cards:chapel,witch,village,smithy,market,moat,cellar,mine,festival,chapel",
            "cards:3e:chapel",
            "cards:chapel,witch,village,smithy,market,moat,cellar,mine,festival,copper",
            "cards:nope,witch,village,smithy,market,moat,cellar,mine,festival,library",
            "random:0:1",
            "random:x:1",
            "random:2:1:3e",
            "nope/nope",
        ] {
            assert!(parse(&[wrong.into()]).is_err(), "{wrong}");
        }
    }
}
