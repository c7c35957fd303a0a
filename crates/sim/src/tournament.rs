//! `dominion-sim tournament`: pairings of bots played on many kingdoms.
//!
//! Each pairing plays `games` games on each kingdom, alternating who sits first (game
//! `i` seats the pair by [`seating`]`(i, 2)`), so with an even count each bot plays each
//! seat equally often; the report gives both seat orders separately as well.
//!
//! A tie (shared win) counts as half a win in `win_rate` and in its interval, and is
//! also reported on its own, so a reader can recompute wins-only rates.
//!
//! Reproducibility: the games of one pairing on one kingdom are seeded by (`--seed`,
//! kingdom id, both bot names) and the game's index, never by the position of the
//! kingdom or pairing in the lists or by the thread that plays them; so adding a
//! kingdom or a pairing changes no other row, and results are identical for any
//! `--threads` (as long as the budget has no wall clock, see [`ThinkBudget`]).
//!
//! `best-reference` stands for, on each kingdom, the reference bot (shared bots.md)
//! whose card(s) the kingdom holds that beats `big_money` most often there, measured by
//! a pre-run of [`PRE_RUN_GAMES`] games per candidate with the fixed seed
//! [`PRE_RUN_SEED`] (independent of `--seed`, so the choice is stable between runs).
//! A kingdom holding no reference bot's card has no such opponent: its row says so and
//! the overall row leaves it out.
//!
//! Why 2000 pre-run games: measured with three pre-run seeds on the 20 recommended and
//! 48 random kingdoms (`random:24:7:2e`, `random:24:7:1e`), 200 games changed the pick
//! on 4 of 29 kingdoms, between bots up to several points apart against `big_money`
//! (bureaucrat/laboratory, witch/workshop_gardens); with 2000 (and 4000) a pick changes
//! only between candidates within about two points of each other (smithy/militia,
//! duke/smithy, masquerade/torturer): equally strong opponents, which no practical
//! count separates. Reference bots are fast: the pre-run of 2000 games costs about
//! 12 s of one core for 30 kingdoms.
//!
//! Tables of 3 or 4 players (`players`) seat the bot against copies of its opponent;
//! the games are seeded by [`table_seed`] (two-player series keep [`series_seed`]), a
//! win the copies share is a loss for the bot, and `second_seat` holds every seat
//! after the first. The pre-run plays at the same table size.

use crate::aggregate::{GameResult, Outcome};
use crate::kingdoms::{TourneyKingdom, edition_key};
use crate::think::ThinkBudget;
use crate::wilson::wilson95;
use crate::{SimError, play_game_winners, seating, splitmix64};
use dominion_engine::{CardId, Setup, bots};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The opponent name that stands for the best reference bot of each kingdom.
pub const BEST_REFERENCE: &str = "best-reference";
/// Games each candidate plays against `big_money` to pick the best reference bot.
pub const PRE_RUN_GAMES: u64 = 2000;
/// The pre-run's seed: fixed, so the best reference bot of a kingdom never depends on
/// `--seed`.
pub const PRE_RUN_SEED: u64 = 0x0005_EED0_BE57;
/// The baseline the best reference bot is chosen against.
const BASELINE: &str = "big_money";
/// A bot "wins" a kingdom when it reaches this win rate there (the overall row counts
/// such kingdoms).
pub const STRONG_WIN_RATE: f64 = 0.6;

/// Everything a tournament depends on.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// (bot, opponent) pairs; either may be [`BEST_REFERENCE`].
    pub pairings: Vec<(String, String)>,
    /// Games per pairing per kingdom.
    pub games: u64,
    pub kingdoms: Vec<TourneyKingdom>,
    /// Players per table: the bot against `players - 1` copies of its opponent.
    pub players: u8,
    pub seed: u64,
    /// The best-reference pre-run: games per candidate and seed ([`PRE_RUN_GAMES`],
    /// [`PRE_RUN_SEED`] unless a stability check asks otherwise).
    pub pre_run_games: u64,
    pub pre_run_seed: u64,
    pub threads: usize,
    pub think: ThinkBudget,
}

/// The kingdom cards a reference bot is built around, read from its name (`witch` →
/// Witch, `workshop_gardens` → Workshop and Gardens); None for bots that are not
/// reference bots of a card (`big_money`, `basic_big_money`, `random`, the levels).
pub fn reference_cards(name: &str) -> Option<Vec<CardId>> {
    if bots::LEVELS.contains(&name) || name == "random" {
        return None;
    }
    if let Ok(card) = name.parse::<CardId>() {
        return Some(vec![card]);
    }
    name.split('_').map(|part| part.parse().ok()).collect()
}

/// The reference bots that can play their strategy on `kingdom`, in [`bots::NAMES`]
/// order.
pub fn reference_candidates(kingdom: &[CardId]) -> Vec<&'static str> {
    bots::NAMES
        .iter()
        .copied()
        .filter(|name| {
            reference_cards(name).is_some_and(|cards| cards.iter().all(|c| kingdom.contains(c)))
        })
        .collect()
}

/// Reads `--kingdoms` (recommended ids, card lists, random draws: see
/// [`crate::kingdoms`]); all recommended kingdoms when empty.
pub fn kingdoms_by_id(ids: &[String]) -> Result<Vec<TourneyKingdom>, SimError> {
    crate::kingdoms::parse(ids)
}

/// The pairings `--bots` and `--vs` ask for: each of `bots` against each of `vs`, or,
/// without `vs`, every pair of `bots` (in list order).
pub fn pairings(bots: &[String], vs: &[String]) -> Vec<(String, String)> {
    if vs.is_empty() {
        let mut out = Vec::new();
        for (i, a) in bots.iter().enumerate() {
            for b in &bots[i + 1..] {
                out.push((a.clone(), b.clone()));
            }
        }
        out
    } else {
        bots.iter()
            .flat_map(|a| vs.iter().map(move |b| (a.clone(), b.clone())))
            .collect()
    }
}

impl TournamentConfig {
    pub fn validate(&self) -> Result<(), SimError> {
        if self.pairings.is_empty() {
            return Err(SimError::NoPairings);
        }
        for name in self.pairings.iter().flat_map(|(a, b)| [a, b]) {
            if name != BEST_REFERENCE && !bots::NAMES.contains(&name.as_str()) {
                return Err(SimError::UnknownBot { name: name.clone() });
            }
        }
        if self.games == 0 || self.pre_run_games == 0 {
            return Err(SimError::NoGames);
        }
        if self.threads == 0 {
            return Err(SimError::NoThreads);
        }
        if self.kingdoms.is_empty() {
            return Err(SimError::UnknownKingdom(String::new()));
        }
        if !(2..=4).contains(&self.players) {
            return Err(SimError::TablePlayers(self.players));
        }
        Ok(())
    }

    fn uses_best_reference(&self) -> bool {
        self.pairings
            .iter()
            .any(|(a, b)| a == BEST_REFERENCE || b == BEST_REFERENCE)
    }

    /// How many games the whole tournament plays (pre-run included), for a progress
    /// bar; an upper bound when a kingdom has no reference bot.
    pub fn game_count(&self) -> u64 {
        let pre: u64 = if self.uses_best_reference() {
            self.kingdoms
                .iter()
                .map(|k| reference_candidates(&k.cards).len() as u64 * self.pre_run_games)
                .sum()
        } else {
            0
        };
        pre + self.kingdoms.len() as u64 * self.pairings.len() as u64 * self.games
    }
}

/// One bot's results in one seat order (or both).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatRecord {
    pub games: u64,
    pub wins: u64,
    pub losses: u64,
    pub ties: u64,
    /// (wins + ties / 2) / games.
    pub win_rate: f64,
}

/// The bot's results against the opponent on one kingdom.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub games: u64,
    pub wins: u64,
    pub losses: u64,
    pub ties: u64,
    /// (wins + ties / 2) / games.
    pub win_rate: f64,
    /// The 95% Wilson score interval of `win_rate`.
    pub ci_low: f64,
    pub ci_high: f64,
    /// The games in which the bot sat first, and second.
    pub first_seat: SeatRecord,
    pub second_seat: SeatRecord,
    pub mean_rounds: f64,
}

/// One pairing on one kingdom.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairingResult {
    pub bot: String,
    /// As asked (may be `best-reference`).
    pub opponent: String,
    /// The bot that actually played: the opponent, or the kingdom's best reference bot;
    /// None when the kingdom has none (and `record` is None).
    pub opponent_bot: Option<String>,
    pub record: Option<Record>,
}

/// A candidate of the best-reference pre-run and its win rate against `big_money`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub bot: String,
    pub win_rate: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KingdomResult {
    pub id: String,
    pub name: String,
    /// "1e" or "2e".
    pub edition: String,
    /// The best reference bot (None: the kingdom holds no reference bot's card) and
    /// the pre-run it was chosen by; absent when no pairing asks for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_reference: Option<BestReference>,
    pub pairings: Vec<PairingResult>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BestReference {
    pub bot: Option<String>,
    pub candidates: Vec<Candidate>,
}

/// A pairing over every kingdom it was played on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Overall {
    pub bot: String,
    pub opponent: String,
    /// Kingdoms played (those without a best reference bot are left out).
    pub kingdoms: u64,
    /// The mean of the per-kingdom win rates (each kingdom weighs the same).
    pub mean_win_rate: f64,
    /// Kingdoms where the bot's win rate is at least 60%.
    pub kingdoms_at_least_60: u64,
}

/// The tournament's result; serialised as-is for `--json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentSummary {
    pub seed: u64,
    /// Players per table (2: one against one; 3-4: the bot against copies).
    pub players: u8,
    pub games_per_kingdom: u64,
    /// How ties are counted: always "half" (half a win in win rates; also reported).
    pub ties_count_as: String,
    pub kingdoms: Vec<KingdomResult>,
    pub overall: Vec<Overall>,
}

/// FNV-1a, to key seeds by names (stable across builds and platforms, unlike `Hash`).
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The run seed of a pairing's games on a kingdom at tables of `players`: two-player
/// series keep [`series_seed`] (their games are the same as before tables grew).
pub fn table_seed(seed: u64, players: u8, kingdom: &str, a: &str, b: &str) -> u64 {
    let s = series_seed(seed, kingdom, a, b);
    if players == 2 {
        s
    } else {
        splitmix64(s ^ u64::from(players))
    }
}

/// The pre-run's seed at tables of `players`.
fn pre_run_seed(seed: u64, players: u8) -> u64 {
    if players == 2 {
        seed
    } else {
        splitmix64(seed ^ u64::from(players))
    }
}

/// The run seed of a pairing's games on a kingdom: see the module docs.
pub fn series_seed(seed: u64, kingdom: &str, a: &str, b: &str) -> u64 {
    splitmix64(seed ^ fnv(kingdom) ^ fnv(a).rotate_left(21) ^ fnv(b).rotate_left(42))
}

/// The bots of a table: `bot` against `players - 1` copies of `opponent`.
fn table(bot: &str, opponent: &str, players: u8) -> Vec<String> {
    std::iter::once(bot.to_string())
        .chain((1..players).map(|_| opponent.to_string()))
        .collect()
}

/// A series of games between a bot (position 0) and copies of another on one kingdom.
struct Series {
    setup: Setup,
    names: Vec<String>,
    seed: u64,
    games: u64,
}

/// Plays every series on one pool, in parallel over all their games, and returns each
/// series' results in game order.
fn play_series(
    series: &[Series],
    pool: &rayon::ThreadPool,
    think: &ThinkBudget,
    on_game: &(impl Fn() + Sync),
) -> Result<Vec<Vec<GameResult>>, SimError> {
    let jobs: Vec<(usize, u64)> = series
        .iter()
        .enumerate()
        .flat_map(|(s, ser)| (0..ser.games).map(move |i| (s, i)))
        .collect();
    let results: Vec<GameResult> = pool.install(|| {
        jobs.par_iter()
            .map(|&(s, i)| {
                let ser = &series[s];
                let r = play_game_winners(&ser.names, &ser.setup, ser.seed, i, &think.thinking());
                on_game();
                r.map(|(winners, rounds)| GameResult {
                    outcome: outcome_of(&winners),
                    rounds,
                })
            })
            .collect::<Result<_, _>>()
    })?;
    let mut out: Vec<Vec<GameResult>> = series
        .iter()
        .map(|s| Vec::with_capacity(s.games as usize))
        .collect();
    for (&(s, _), r) in jobs.iter().zip(results) {
        out[s].push(r);
    }
    Ok(out)
}

/// A game's outcome from bot 0's side given every winner (positions in the table): a
/// win alone, a shared win (a tie), or a loss, even when copies of the opponent share
/// the win.
pub fn outcome_of(winners: &[usize]) -> Outcome {
    match winners {
        [0] => Outcome::Win(0),
        w if w.contains(&0) => Outcome::Tie,
        _ => Outcome::Win(1),
    }
}

fn rate(score: f64, games: u64) -> f64 {
    if games == 0 {
        0.0
    } else {
        score / games as f64
    }
}

fn seat_record(wins: u64, losses: u64, ties: u64) -> SeatRecord {
    let games = wins + losses + ties;
    SeatRecord {
        games,
        wins,
        losses,
        ties,
        win_rate: rate(wins as f64 + ties as f64 / 2.0, games),
    }
}

/// Bot 0's record over `results` of a two-player series, game `i` seated by
/// `seating(i, 2)`.
pub fn record(results: &[GameResult]) -> Record {
    record_at(results, 2)
}

/// Bot 0's record over `results` of a series at tables of `players`, game `i` seated by
/// `seating(i, players)`; `second_seat` holds every seat after the first.
pub fn record_at(results: &[GameResult], players: u8) -> Record {
    // [seat of bot 0][win, loss, tie]
    let mut by_seat = [[0u64; 3]; 2];
    let mut rounds = 0u64;
    for (i, r) in results.iter().enumerate() {
        let seat = seating(i as u64, players as usize)
            .iter()
            .position(|&bot| bot == 0)
            .unwrap_or(0)
            .min(1);
        let k = match r.outcome {
            Outcome::Win(0) => 0,
            Outcome::Win(_) => 1,
            Outcome::Tie => 2,
        };
        by_seat[seat][k] += 1;
        rounds += u64::from(r.rounds);
    }
    let [first, second] = by_seat.map(|[w, l, t]| seat_record(w, l, t));
    let all = seat_record(
        first.wins + second.wins,
        first.losses + second.losses,
        first.ties + second.ties,
    );
    let (ci_low, ci_high) = wilson95(all.wins as f64 + all.ties as f64 / 2.0, all.games);
    Record {
        games: all.games,
        wins: all.wins,
        losses: all.losses,
        ties: all.ties,
        win_rate: all.win_rate,
        ci_low,
        ci_high,
        first_seat: first,
        second_seat: second,
        mean_rounds: rate(rounds as f64, all.games),
    }
}

/// Picks each kingdom's best reference bot by the pre-run (see the module docs).
fn choose_best_references(
    config: &TournamentConfig,
    pool: &rayon::ThreadPool,
    on_game: &(impl Fn() + Sync),
) -> Result<Vec<BestReference>, SimError> {
    let candidates: Vec<Vec<&str>> = config
        .kingdoms
        .iter()
        .map(|k| reference_candidates(&k.cards))
        .collect();
    let series: Vec<Series> = config
        .kingdoms
        .iter()
        .zip(&candidates)
        .flat_map(|(k, cands)| {
            cands.iter().map(|c| Series {
                setup: k.setup(config.players),
                names: table(c, BASELINE, config.players),
                seed: series_seed(
                    pre_run_seed(config.pre_run_seed, config.players),
                    &k.id,
                    c,
                    BASELINE,
                ),
                games: config.pre_run_games,
            })
        })
        .collect();
    // Reference bots do not search: the budget is irrelevant, the default is exact.
    let mut results = play_series(&series, pool, &ThinkBudget::default(), on_game)?.into_iter();
    Ok(candidates
        .iter()
        .map(|cands| {
            let scored: Vec<Candidate> = cands
                .iter()
                .zip(results.by_ref())
                .map(|(c, r)| Candidate {
                    bot: c.to_string(),
                    win_rate: record_at(&r, config.players).win_rate,
                })
                .collect();
            // The first of the highest (NAMES order breaks exact ties).
            let best = scored
                .iter()
                .fold(None::<&Candidate>, |best, c| match best {
                    Some(b) if b.win_rate >= c.win_rate => Some(b),
                    _ => Some(c),
                })
                .map(|c| c.bot.clone());
            BestReference {
                bot: best,
                candidates: scored,
            }
        })
        .collect())
}

/// Runs the tournament; see [`run_tournament_with_progress`].
pub fn run_tournament(config: &TournamentConfig) -> Result<TournamentSummary, SimError> {
    run_tournament_with_progress(config, || {})
}

/// Runs the tournament on a dedicated pool of `config.threads` threads, calling
/// `on_game` after each game (pre-run included).
pub fn run_tournament_with_progress(
    config: &TournamentConfig,
    on_game: impl Fn() + Sync,
) -> Result<TournamentSummary, SimError> {
    config.validate()?;
    let pool = crate::pool(config.threads, "tournament")?;
    let best = if config.uses_best_reference() {
        Some(choose_best_references(config, &pool, &on_game)?)
    } else {
        None
    };
    let resolve = |name: &str, k: usize| -> Option<String> {
        if name == BEST_REFERENCE {
            best.as_ref().and_then(|b| b[k].bot.clone())
        } else {
            Some(name.to_string())
        }
    };
    // (kingdom, pairing) -> the series index, or None without a best reference bot.
    let mut slots: Vec<Vec<Option<usize>>> = Vec::new();
    let mut series = Vec::new();
    for (ki, k) in config.kingdoms.iter().enumerate() {
        let mut row = Vec::new();
        for (a, b) in &config.pairings {
            match (resolve(a, ki), resolve(b, ki)) {
                (Some(a), Some(b)) => {
                    row.push(Some(series.len()));
                    series.push(Series {
                        setup: k.setup(config.players),
                        seed: table_seed(config.seed, config.players, &k.id, &a, &b),
                        names: table(&a, &b, config.players),
                        games: config.games,
                    });
                }
                _ => row.push(None),
            }
        }
        slots.push(row);
    }
    let results = play_series(&series, &pool, &config.think, &on_game)?;

    let kingdoms: Vec<KingdomResult> = config
        .kingdoms
        .iter()
        .enumerate()
        .map(|(ki, k)| KingdomResult {
            id: k.id.clone(),
            name: k.name.clone(),
            edition: edition_key(k.edition).to_string(),
            best_reference: best.as_ref().map(|b| b[ki].clone()),
            pairings: config
                .pairings
                .iter()
                .zip(&slots[ki])
                .map(|((a, b), slot)| PairingResult {
                    bot: a.clone(),
                    opponent: b.clone(),
                    opponent_bot: slot.map(|s| series[s].names[1].clone()),
                    record: slot.map(|s| record_at(&results[s], config.players)),
                })
                .collect(),
        })
        .collect();
    let overall = config
        .pairings
        .iter()
        .enumerate()
        .map(|(pi, (a, b))| {
            let rates: Vec<f64> = kingdoms
                .iter()
                .filter_map(|k| k.pairings[pi].record.as_ref().map(|r| r.win_rate))
                .collect();
            Overall {
                bot: a.clone(),
                opponent: b.clone(),
                kingdoms: rates.len() as u64,
                mean_win_rate: rate(rates.iter().sum(), rates.len() as u64),
                kingdoms_at_least_60: rates.iter().filter(|&&r| r >= STRONG_WIN_RATE).count()
                    as u64,
            }
        })
        .collect();
    Ok(TournamentSummary {
        seed: config.seed,
        players: config.players,
        games_per_kingdom: config.games,
        ties_count_as: "half".into(),
        kingdoms,
        overall,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dominion_engine::setup::recommended_kingdoms;

    fn result(outcome: Outcome) -> GameResult {
        GameResult {
            outcome,
            rounds: 10,
        }
    }

    #[test]
    fn record_splits_seat_orders_and_counts_ties_as_half() {
        // Even games: bot 0 sits first; odd games: second.
        let results = [
            result(Outcome::Win(0)), // first seat, win
            result(Outcome::Win(1)), // second seat, loss
            result(Outcome::Tie),    // first seat, tie
            result(Outcome::Win(0)), // second seat, win
        ];
        let r = record(&results);
        assert_eq!((r.games, r.wins, r.losses, r.ties), (4, 2, 1, 1));
        assert_eq!(r.win_rate, 2.5 / 4.0);
        assert_eq!(
            r.first_seat,
            SeatRecord {
                games: 2,
                wins: 1,
                losses: 0,
                ties: 1,
                win_rate: 0.75
            }
        );
        assert_eq!(
            r.second_seat,
            SeatRecord {
                games: 2,
                wins: 1,
                losses: 1,
                ties: 0,
                win_rate: 0.5
            }
        );
        assert_eq!((r.ci_low, r.ci_high), wilson95(2.5, 4));
        assert_eq!(r.mean_rounds, 10.0);
    }

    #[test]
    fn a_win_shared_by_copies_of_the_opponent_is_a_loss() {
        assert_eq!(outcome_of(&[0]), Outcome::Win(0));
        assert_eq!(outcome_of(&[0, 2]), Outcome::Tie);
        assert_eq!(outcome_of(&[1]), Outcome::Win(1));
        assert_eq!(outcome_of(&[1, 3]), Outcome::Win(1));
        // Four players: bot 0 sits first in game 0, 4, 8…; second_seat takes the rest.
        let results: Vec<GameResult> = (0..8).map(|_| result(Outcome::Win(0))).collect();
        let r = record_at(&results, 4);
        assert_eq!((r.first_seat.games, r.second_seat.games), (2, 6));
    }

    #[test]
    fn reference_bots_are_matched_to_their_cards() {
        let card = |k: &str| k.parse::<CardId>().unwrap();
        assert_eq!(reference_cards("witch"), Some(vec![card("witch")]));
        assert_eq!(
            reference_cards("council_room"),
            Some(vec![card("council_room")])
        );
        assert_eq!(
            reference_cards("workshop_gardens"),
            Some(vec![card("workshop"), card("gardens")])
        );
        for none in [
            "big_money",
            "basic_big_money",
            "random",
            "easy",
            "standard",
            "search",
        ] {
            assert_eq!(reference_cards(none), None, "{none}");
        }
        // Every other bot is a reference bot of a card.
        for name in bots::NAMES {
            let plain = ["big_money", "basic_big_money", "random"].contains(name)
                || bots::LEVELS.contains(name);
            assert_eq!(reference_cards(name).is_some(), !plain, "{name}");
        }
        let first_game = &kingdoms_by_id(&["base_2e/first_game".into()]).unwrap()[0];
        // Cellar, Market, Merchant, Militia, Mine, Moat, Remodel, Smithy, Village, Workshop.
        assert_eq!(
            reference_candidates(&first_game.cards),
            vec!["smithy", "militia", "moat"]
        );
    }

    #[test]
    fn pairings_are_all_pairs_or_each_against_each() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let p = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(
            pairings(&s(&["a", "b", "c"]), &[]),
            vec![p("a", "b"), p("a", "c"), p("b", "c")]
        );
        assert_eq!(
            pairings(&s(&["a", "b"]), &s(&["x", "y"])),
            vec![p("a", "x"), p("a", "y"), p("b", "x"), p("b", "y")]
        );
    }

    fn config(pairs: &[(&str, &str)], kingdoms: &[&str], threads: usize) -> TournamentConfig {
        TournamentConfig {
            pairings: pairs
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            games: 10,
            kingdoms: kingdoms_by_id(&kingdoms.iter().map(|k| k.to_string()).collect::<Vec<_>>())
                .unwrap(),
            players: 2,
            seed: 4,
            pre_run_games: 200,
            pre_run_seed: PRE_RUN_SEED,
            threads,
            think: ThinkBudget::default(),
        }
    }

    #[test]
    fn rows_do_not_depend_on_threads_or_on_the_other_rows() {
        let both = ["base_2e/first_game", "base_1e/big_money"];
        let one = run_tournament(&config(&[("smithy", "big_money")], &both, 1)).unwrap();
        let two = run_tournament(&config(&[("smithy", "big_money")], &both, 2)).unwrap();
        assert_eq!(one, two);
        let alone = run_tournament(&config(
            &[("smithy", "big_money")],
            &["base_1e/big_money"],
            2,
        ))
        .unwrap();
        assert_eq!(alone.kingdoms[0], one.kingdoms[1]);
        assert_eq!(one.kingdoms[1].edition, "1e");
        assert_eq!(one.kingdoms[0].edition, "2e");
        let r = one.kingdoms[0].pairings[0].record.as_ref().unwrap();
        assert_eq!((r.first_seat.games, r.second_seat.games), (5, 5));
    }

    #[test]
    fn best_reference_is_chosen_per_kingdom_or_reported_missing() {
        // base_2e/first_game holds Smithy, Militia and Moat; add a kingdom holding no
        // reference bot's card, if the recommended sets have one.
        let none = recommended_kingdoms()
            .find(|k| reference_candidates(&k.card_ids().unwrap()).is_empty())
            .map(|k| k.id);
        let mut ids = vec!["base_2e/first_game"];
        ids.extend(none);
        let s = run_tournament(&config(&[("big_money", BEST_REFERENCE)], &ids, 2)).unwrap();
        let first = &s.kingdoms[0];
        let best = first.best_reference.as_ref().unwrap();
        assert_eq!(
            best.candidates
                .iter()
                .map(|c| c.bot.as_str())
                .collect::<Vec<_>>(),
            vec!["smithy", "militia", "moat"]
        );
        let top = best
            .candidates
            .iter()
            .map(|c| c.win_rate)
            .fold(0.0, f64::max);
        let chosen = best.bot.clone().unwrap();
        assert_eq!(
            best.candidates
                .iter()
                .find(|c| c.bot == chosen)
                .unwrap()
                .win_rate,
            top
        );
        assert_eq!(first.pairings[0].opponent, BEST_REFERENCE);
        assert_eq!(first.pairings[0].opponent_bot.as_deref(), Some(&*chosen));
        if none.is_some() {
            let k = &s.kingdoms[1];
            assert_eq!(k.best_reference.as_ref().unwrap().bot, None);
            assert_eq!(k.pairings[0].record, None);
            assert_eq!(
                s.overall[0].kingdoms, 1,
                "a kingdom without one is left out"
            );
        }
    }

    #[test]
    fn bad_configs_are_refused() {
        let mut c = config(&[("smithy", "nope")], &["base_2e/first_game"], 1);
        assert!(matches!(
            run_tournament(&c),
            Err(SimError::UnknownBot { .. })
        ));
        c.pairings.clear();
        assert!(matches!(run_tournament(&c), Err(SimError::NoPairings)));
        assert!(matches!(
            kingdoms_by_id(&["nope/nope".into()]),
            Err(SimError::UnknownKingdom(_))
        ));
    }
}
