//! Players' card preferences (issue 25): which kingdom cards an account bans (never in
//! its automatch games) and dislikes (left out when enough other cards remain), and the
//! random kingdom drawn with them.
//!
//! Here, at the floor of the layers, because both sides need it: `accounts` checks the
//! lists a player sends (known kingdom cards, at most [`MAX_BANS`] and
//! [`MAX_DISLIKES`]), and whoever creates an automatch room draws its kingdom with
//! [`draw_kingdom`]. Pure: no I/O, the randomness comes from the caller's generator, so
//! a test draws a thousand kingdoms from a fixed seed.
//!
//! The draw starts from exactly the cards a random kingdom of that edition and those
//! sets would draw from (the engine's `Setup::draw_pool`), removes every banned card,
//! and draws the ten uniformly from the cards nobody dislikes; only when fewer than ten
//! of those remain are all of them taken and the rest drawn uniformly from the disliked
//! ones. The result says how many banned and disliked cards it kept out, so the room can
//! say so.

use dominion_engine::setup::CardPool;
use dominion_engine::{CardId, Edition, Kingdom, Set, Setup, SetupError};
use dominion_protocol as wire;
use rand::seq::IndexedRandom;

/// Kingdom cards an account may ban.
pub const MAX_BANS: usize = 3;
/// Kingdom cards an account may dislike.
pub const MAX_DISLIKES: usize = 10;
/// Cards in a kingdom.
const KINGDOM: usize = 10;

/// What a draw kept out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Avoided {
    /// Banned cards that were in the pool (each one is out, always).
    pub bans: usize,
    /// Disliked cards that were in the pool and are not in the kingdom.
    pub dislikes: usize,
    /// Disliked cards the kingdom had to take, as too few others remained.
    pub dislikes_drawn: usize,
}

impl Avoided {
    /// What the draw kept out, in English, for a room's notice ("2 banned cards and 3
    /// disliked cards were kept out"); None when it kept nothing out.
    pub fn describe(&self) -> Option<String> {
        let cards =
            |n: usize, what: &str| format!("{n} {what} card{}", if n == 1 { "" } else { "s" });
        let kept = match (self.bans, self.dislikes) {
            (0, 0) => return None,
            (b, 0) => cards(b, "banned"),
            (0, d) => cards(d, "disliked"),
            (b, d) => format!("{} and {}", cards(b, "banned"), cards(d, "disliked")),
        };
        let verb = if self.bans + self.dislikes == 1 {
            "was"
        } else {
            "were"
        };
        Some(format!("{kept} {verb} kept out of the kingdom"))
    }
}

/// Why no kingdom could be drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    /// The sets are not a valid choice (none, twice, not kingdom sets).
    #[error("{0}")]
    Setup(#[from] SetupError),
    /// Fewer than ten cards of the edition and sets are left once the bans are out.
    #[error("only {left} cards of the chosen sets are not banned; 10 are needed")]
    TooFew { left: usize },
}

/// Ten distinct kingdom cards of `edition`'s printings and `sets` (every set when
/// empty), none of them in `bans`, none of them in `dislikes` unless fewer than ten other
/// cards remain; sorted by cost and name, as a game shows them. A card in both lists
/// counts as banned. Give every player's lists together (their union).
pub fn draw_kingdom<R: rand::Rng + ?Sized>(
    edition: Edition,
    sets: &[Set],
    bans: &[CardId],
    dislikes: &[CardId],
    rng: &mut R,
) -> Result<(Vec<CardId>, Avoided), DrawError> {
    let pool = CardPool::of(edition);
    let setup = Setup {
        players: 2,
        kingdom: if sets.is_empty() {
            Kingdom::RandomFrom(pool)
        } else {
            Kingdom::RandomDraw {
                pool,
                sets: sets.to_vec(),
            }
        },
        edition,
    };
    let cards = setup.draw_pool()?;
    let allowed: Vec<CardId> = cards
        .iter()
        .copied()
        .filter(|c| !bans.contains(c))
        .collect();
    if allowed.len() < KINGDOM {
        return Err(DrawError::TooFew {
            left: allowed.len(),
        });
    }
    let (disliked, liked): (Vec<CardId>, Vec<CardId>) =
        allowed.iter().partition(|c| dislikes.contains(c));
    let mut kingdom: Vec<CardId> = if liked.len() >= KINGDOM {
        liked.sample(rng, KINGDOM).copied().collect()
    } else {
        let mut k = liked.clone();
        k.extend(disliked.sample(rng, KINGDOM - liked.len()).copied());
        k
    };
    kingdom.sort_by_key(|c| (c.base_cost(), c.name()));
    let dislikes_drawn = kingdom.iter().filter(|c| disliked.contains(c)).count();
    Ok((
        kingdom,
        Avoided {
            bans: cards.len() - allowed.len(),
            dislikes: disliked.len() - dislikes_drawn,
            dislikes_drawn,
        },
    ))
}

/// [`draw_kingdom`] with the wire's edition and sets (`None`: every set), as a
/// `find_match` names them.
pub fn draw_kingdom_wire<R: rand::Rng + ?Sized>(
    edition: wire::Edition,
    sets: Option<&[wire::CardSet]>,
    bans: &[CardId],
    dislikes: &[CardId],
    rng: &mut R,
) -> Result<(Vec<CardId>, Avoided), DrawError> {
    let sets: Vec<Set> = sets
        .unwrap_or_default()
        .iter()
        .map(|s| super::from_wire::card_set(*s))
        .collect();
    draw_kingdom(
        super::from_wire::edition(edition),
        &sets,
        bans,
        dislikes,
        rng,
    )
}

/// Why a player's lists were refused; [`PrefsError::code`] is the HTTP error code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PrefsError {
    #[error("at most {MAX_BANS} cards may be banned, not {0}")]
    TooManyBans(usize),
    #[error("at most {MAX_DISLIKES} cards may be disliked, not {0}")]
    TooManyDislikes(usize),
    #[error("{0:?} is not a kingdom card id (GET /api/cards lists them)")]
    UnknownCard(String),
    #[error("{0:?} is both banned and disliked; choose one")]
    BothLists(String),
}

impl PrefsError {
    pub fn code(&self) -> &'static str {
        match self {
            PrefsError::TooManyBans(_) => "too_many_bans",
            PrefsError::TooManyDislikes(_) => "too_many_dislikes",
            PrefsError::UnknownCard(_) => "unknown_card",
            PrefsError::BothLists(_) => "bad_request",
        }
    }
}

/// A player's lists checked: every id a known kingdom card (of either edition), each
/// named once (repeats are dropped), none in both lists, at most [`MAX_BANS`] and
/// [`MAX_DISLIKES`]. Each list comes back in card-key order.
pub fn check_prefs(
    bans: &[String],
    dislikes: &[String],
) -> Result<(Vec<CardId>, Vec<CardId>), PrefsError> {
    let list = |ids: &[String]| -> Result<Vec<CardId>, PrefsError> {
        let mut cards = Vec::with_capacity(ids.len().min(64));
        for id in ids {
            let card = kingdom_card(id)
                .ok_or_else(|| PrefsError::UnknownCard(id.chars().take(40).collect::<String>()))?;
            if !cards.contains(&card) {
                cards.push(card);
            }
        }
        cards.sort_by_key(|c| c.key());
        Ok(cards)
    };
    let bans = list(bans)?;
    let dislikes = list(dislikes)?;
    if bans.len() > MAX_BANS {
        return Err(PrefsError::TooManyBans(bans.len()));
    }
    if dislikes.len() > MAX_DISLIKES {
        return Err(PrefsError::TooManyDislikes(dislikes.len()));
    }
    if let Some(both) = bans.iter().find(|c| dislikes.contains(c)) {
        return Err(PrefsError::BothLists(both.key().to_string()));
    }
    Ok((bans, dislikes))
}

/// The kingdom card with this id, if there is one.
pub fn kingdom_card(id: &str) -> Option<CardId> {
    id.parse::<CardId>().ok().filter(|c| c.is_kingdom())
}

/// Stored ids as cards, skipping any no longer known (a list saved by another build).
pub fn stored_cards(ids: &[String]) -> Vec<CardId> {
    ids.iter().filter_map(|id| kingdom_card(id)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::collections::BTreeMap;

    fn cards(keys: &[&str]) -> Vec<CardId> {
        keys.iter().map(|k| k.parse().expect(k)).collect()
    }

    fn pool(edition: Edition, sets: &[Set]) -> Vec<CardId> {
        Setup {
            players: 2,
            kingdom: Kingdom::RandomDraw {
                pool: CardPool::of(edition),
                sets: sets.to_vec(),
            },
            edition,
        }
        .draw_pool()
        .unwrap()
    }

    /// Draws `n` kingdoms and counts each card; checks every kingdom is one the engine
    /// plays and has none of `never`.
    fn draw_many(
        n: usize,
        edition: Edition,
        sets: &[Set],
        bans: &[CardId],
        dislikes: &[CardId],
    ) -> (BTreeMap<CardId, usize>, Vec<Avoided>) {
        let mut rng = ChaCha8Rng::seed_from_u64(25);
        let mut seen = BTreeMap::new();
        let mut avoided = Vec::new();
        for _ in 0..n {
            let (k, a) = draw_kingdom(edition, sets, bans, dislikes, &mut rng).unwrap();
            Setup {
                players: 2,
                kingdom: Kingdom::Cards(k.clone()),
                edition,
            }
            .validate()
            .expect("ten distinct kingdom cards");
            for c in &k {
                assert!(!bans.contains(c), "banned {c} drawn");
                *seen.entry(*c).or_insert(0) += 1;
            }
            avoided.push(a);
        }
        (seen, avoided)
    }

    #[test]
    fn bans_never_appear_and_dislikes_are_avoided_over_a_thousand_kingdoms() {
        // Four players' bans (12) and dislikes (some shared, one also banned).
        let bans = cards(&[
            "witch",
            "chapel",
            "militia",
            "moat",
            "mine",
            "smithy",
            "cellar",
            "village",
            "courtyard",
            "masquerade",
            "torturer",
            "minion",
        ]);
        let dislikes = cards(&[
            "harbinger",
            "laboratory",
            "market",
            "festival",
            "library",
            "sentry",
            "bandit",
            "lurker",
            "pawn",
            "steward",
            "swindler",
            "witch",
        ]);
        let sets = [Set::Base, Set::Intrigue];
        let all = pool(Edition::Second, &sets);
        let (seen, avoided) = draw_many(1000, Edition::Second, &sets, &bans, &dislikes);
        let liked: Vec<CardId> = all
            .iter()
            .copied()
            .filter(|c| !bans.contains(c) && !dislikes.contains(c))
            .collect();
        assert!(liked.len() >= 10, "the case needs enough liked cards");
        for c in &dislikes {
            assert!(
                !seen.contains_key(c),
                "disliked {c} drawn though others remained"
            );
        }
        // Still varied: every allowed card appears, none far from its share.
        let share = 1000.0 * 10.0 / liked.len() as f64;
        for c in &liked {
            let n = seen.get(c).copied().unwrap_or(0) as f64;
            assert!(
                (0.75 * share..=1.25 * share).contains(&n),
                "{c} drawn {n} times, its share is {share:.0}"
            );
        }
        let in_pool = |list: &[CardId]| list.iter().filter(|c| all.contains(c)).count();
        assert!(avoided.iter().all(|a| a.bans == in_pool(&bans)
            && a.dislikes == in_pool(&dislikes) - 1
            && a.dislikes_drawn == 0));
    }

    #[test]
    fn dislikes_fill_in_only_when_too_few_other_cards_remain() {
        // Base 2E alone: 26 cards; 3 banned, 15 disliked → 8 liked.
        let all = pool(Edition::Second, &[Set::Base]);
        let bans = all[..3].to_vec();
        let dislikes = all[3..18].to_vec();
        let liked = &all[18..];
        assert_eq!(liked.len(), 8);
        let (seen, avoided) = draw_many(1000, Edition::Second, &[Set::Base], &bans, &dislikes);
        for c in liked {
            assert_eq!(seen[c], 1000, "{c} is in every kingdom");
        }
        for c in &dislikes {
            assert!(seen.get(c).copied().unwrap_or(0) > 0, "{c} never drawn");
        }
        assert!(
            avoided
                .iter()
                .all(|a| a.bans == 3 && a.dislikes == 13 && a.dislikes_drawn == 2)
        );
    }

    #[test]
    fn without_preferences_every_card_of_the_edition_appears() {
        let (seen, avoided) = draw_many(1000, Edition::First, &[], &[], &[]);
        let all = pool(Edition::First, &[Set::Base, Set::Intrigue]);
        assert_eq!(seen.keys().copied().collect::<Vec<_>>().len(), all.len());
        assert!(seen.keys().all(|c| all.contains(c)));
        assert!(avoided.iter().all(|a| *a == Avoided::default()));
    }

    #[test]
    fn too_few_cards_or_bad_sets_are_refused() {
        let all = pool(Edition::Second, &[Set::Base]);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert_eq!(
            draw_kingdom(Edition::Second, &[Set::Base], &all[..17], &[], &mut rng),
            Err(DrawError::TooFew {
                left: all.len() - 17
            })
        );
        assert!(matches!(
            draw_kingdom(Edition::Second, &[Set::Base, Set::Base], &[], &[], &mut rng),
            Err(DrawError::Setup(SetupError::DuplicateSet(Set::Base)))
        ));
        assert!(matches!(
            draw_kingdom(Edition::Second, &[Set::Basic], &[], &[], &mut rng),
            Err(DrawError::Setup(_))
        ));
        // The wire's names reach the same draw.
        let (k, _) = draw_kingdom_wire(
            wire::Edition::First,
            Some(&[wire::CardSet::Intrigue]),
            &[],
            &[],
            &mut rng,
        )
        .unwrap();
        assert!(k.iter().all(|c| c.def().set == Set::Intrigue));
    }

    #[test]
    fn what_was_kept_out_is_said() {
        let a = |bans, dislikes| Avoided {
            bans,
            dislikes,
            dislikes_drawn: 0,
        };
        assert_eq!(a(0, 0).describe(), None);
        assert_eq!(
            a(1, 0).describe().unwrap(),
            "1 banned card was kept out of the kingdom"
        );
        assert_eq!(
            a(2, 3).describe().unwrap(),
            "2 banned cards and 3 disliked cards were kept out of the kingdom"
        );
        assert_eq!(
            a(0, 1).describe().unwrap(),
            "1 disliked card was kept out of the kingdom"
        );
    }

    #[test]
    fn lists_are_checked() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            check_prefs(&s(&["witch", "chapel", "witch"]), &s(&["moat"])),
            Ok((cards(&["chapel", "witch"]), cards(&["moat"])))
        );
        assert_eq!(
            check_prefs(&s(&["witch", "chapel", "moat", "mine"]), &[]),
            Err(PrefsError::TooManyBans(4))
        );
        let eleven = s(&[
            "cellar",
            "moat",
            "village",
            "smithy",
            "market",
            "mine",
            "festival",
            "library",
            "laboratory",
            "bandit",
            "harbinger",
        ]);
        assert_eq!(
            check_prefs(&[], &eleven).unwrap_err().code(),
            "too_many_dislikes"
        );
        assert_eq!(check_prefs(&[], &eleven[..10]).unwrap().1.len(), 10);
        // Basic cards and unknown ids are not kingdom cards.
        for bad in ["copper", "province", "curse", "Witch", "nope", ""] {
            let e = check_prefs(&s(&[bad]), &[]).unwrap_err();
            assert_eq!(e.code(), "unknown_card", "{bad}");
        }
        assert_eq!(
            check_prefs(&s(&["moat"]), &s(&["moat"]))
                .unwrap_err()
                .code(),
            "bad_request"
        );
        // Cards of either edition are accepted (a 1E-only and a 2E-only card).
        assert!(check_prefs(&s(&["woodcutter", "artisan"]), &[]).is_ok());
        assert_eq!(
            stored_cards(&s(&["witch", "gone", "copper"])),
            cards(&["witch"])
        );
    }
}
