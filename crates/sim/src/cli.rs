//! Command-line arguments and their translation into a [`Config`].
//!
//! Parsing lives in the library (not `main.rs`) so the kingdom rules and the default
//! kingdom can be unit tested.

use crate::think::ThinkBudget;
use crate::tournament::{self, BEST_REFERENCE, TournamentConfig};
use crate::{Config, SimError};
use clap::{Args, Parser, Subcommand, ValueEnum};
use dominion_engine::setup::{self, CardPool, recommended_kingdoms};
use dominion_engine::{CardId, Edition, Kingdom, Set, bots};

/// The default kingdom: every kingdom card the original bots buy (Smithy, Witch, Militia,
/// Council Room, Laboratory, Festival, Moat) plus Village, Market and Cellar, so those
/// matchups are played as designed; the recommended First Game lacks Witch, Council
/// Room, Laboratory and Festival, so those bots would silently fall back to Big Money.
/// It stays as it was so that default runs stay comparable; the Base reference bots
/// added since (library, moneylender, chancellor, adventurer, bureaucrat) need a
/// `--kingdom` holding their card.
/// The list itself lives in the engine ([`setup::BENCH_KINGDOM`]), so that the engine's
/// own benchmark examples play the same kingdom.
pub const DEFAULT_KINGDOM: [&str; 10] = setup::BENCH_KINGDOM;

/// [`DEFAULT_KINGDOM`] as card ids.
pub fn default_kingdom() -> Vec<CardId> {
    DEFAULT_KINGDOM
        .iter()
        .map(|k| k.parse().expect("default kingdom cards are implemented"))
        .collect()
}

/// The edition of the card texts, as spelt on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EditionArg {
    #[value(name = "1e")]
    First,
    #[value(name = "2e")]
    Second,
}

impl From<EditionArg> for Edition {
    fn from(e: EditionArg) -> Edition {
        match e {
            EditionArg::First => Edition::First,
            EditionArg::Second => Edition::Second,
        }
    }
}

/// The printings a random kingdom draws from, as spelt on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PoolArg {
    /// Cards printed in the 1st edition.
    #[value(name = "1e")]
    First,
    /// Cards printed in the 2nd edition.
    #[value(name = "2e")]
    Second,
    /// Every implemented card of either edition.
    Both,
}

impl From<PoolArg> for CardPool {
    fn from(p: PoolArg) -> CardPool {
        match p {
            PoolArg::First => CardPool::First,
            PoolArg::Second => CardPool::Second,
            PoolArg::Both => CardPool::Both,
        }
    }
}

/// A `--sets` value: a set with kingdom cards, by its key.
fn parse_set(s: &str) -> Result<Set, String> {
    let s = s.trim();
    s.parse::<Set>()
        .ok()
        .filter(|set| *set != Set::Basic)
        .ok_or_else(|| format!("unknown set {s:?}; sets: {}", kingdom_set_keys()))
}

fn kingdom_set_keys() -> String {
    Set::kingdom_sets()
        .map(Set::key)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The long help's closing section: examples, and the lists that depend on what is
/// implemented (bots, recommended kingdoms).
fn after_long_help() -> String {
    let kingdoms: Vec<&str> = recommended_kingdoms().map(|r| r.id).collect();
    format!(
        "\
Examples:
  dominion-sim --bots big_money,smithy --games 20000
  dominion-sim --bots witch,militia,big_money --kingdom base_2e/first_game --json
  dominion-sim --bots chancellor,big_money --edition 1e \\
      --kingdom chancellor,cellar,chapel,moat,village,workshop,remodel,smithy,market,laboratory
  dominion-sim --bots random,random --pool both --games 100
  dominion-sim --bots courtyard,big_money --sets intrigue --pool 1e --edition 1e
  dominion-sim --bench --bots big_money,big_money --games 20000
  dominion-sim --bots search,standard --playouts 200 --games 200
  dominion-sim tournament --bots standard,big_money --games 200   (see tournament --help)

Output: a table of wins and win rates per bot (numbered in --bots order), ties, mean
rounds and speed; with --json one object: games, bots [{{name, wins, win_rate}}], ties,
tie_rate, mean_rounds, games_per_sec. Everything but games_per_sec is the same for
the same arguments, whatever --threads is.

Bots (--list-bots; their buy lists are in crates/engine/src/bots/strategies.rs):
  {bots}

Recommended kingdoms (--kingdom SET/NAME; a *_1e set plays the 1st edition texts
unless --edition says otherwise):
  {kingdoms}",
        bots = bots::NAMES.join(", "),
        kingdoms = kingdoms.join("\n  "),
    )
}

/// Plays many Dominion games between built-in bots and reports each bot's win rate.
///
/// Seats rotate between games so every bot plays every seat equally often, and results
/// are identical for a given --seed whatever the thread count. Use --help for examples,
/// the bots and the recommended kingdoms.
#[derive(Debug, Parser)]
#[command(
    name = "dominion-sim",
    version,
    after_long_help = after_long_help(),
    subcommand_negates_reqs = true,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<SimCommand>,

    #[arg(
        long,
        value_delimiter = ',',
        required_unless_present_any = ["list_cards", "list_bots"]
    )]
    #[arg(help = format!("2 to 6 comma-separated bot names; a name may repeat. Bots: {}", bots::NAMES.join(", ")))]
    pub bots: Vec<String>,

    /// Number of games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,

    /// Run seed; each game's seed is derived from it and the game's index.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,

    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,

    /// Kingdom for every game [default: bots, or random with --pool or --sets]
    ///
    ///   bots        smithy, witch, militia, council_room, laboratory, festival, moat,
    ///               village, market, cellar: cards the original bots buy, so none of
    ///               them is handicapped by a missing card (the default)
    ///   first_game  the recommended First Game, base_2e/first_game; it lacks Witch,
    ///               Council Room, Laboratory and Festival, whose bots then buy money only
    ///   random      10 cards drawn per game from the implemented cards of --pool
    ///               (default: those printed in --edition) and --sets (default: all)
    ///   SET/NAME    a recommended kingdom by id, e.g. base_1e/big_money (all are listed
    ///               at the end of --help)
    ///   A,B,...     exactly 10 comma-separated card ids (see --list-cards)
    #[arg(long, verbatim_doc_comment)]
    pub kingdom: Option<String>,

    /// Edition of the card texts [default: 1e for a *_1e recommended kingdom, else 2e].
    ///
    /// Cards printed in one edition only may be used in either: they keep their text.
    #[arg(long, value_enum)]
    pub edition: Option<EditionArg>,

    /// Random kingdoms: draw from the cards printed in the 1st edition, the 2nd, or both.
    /// Implies --kingdom random.
    #[arg(long, value_enum)]
    pub pool: Option<PoolArg>,

    #[arg(long, value_delimiter = ',', value_parser = parse_set)]
    #[arg(help = format!(
        "Random kingdoms: draw only from these comma-separated sets, each named once \
         (with --pool's printings) [default: every set]. Implies --kingdom random. Sets: {}",
        kingdom_set_keys()
    ))]
    pub sets: Option<Vec<Set>>,

    /// Print one JSON object on stdout instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Benchmark: play the games on one thread (ignoring --threads) twice, unrecorded
    /// (the simulator's path) and recorded (one Game::answer per decision, as the server
    /// does), check both end alike, and print each path's games per second by wall clock
    /// and CPU time and their ratio (on stderr with --json).
    #[arg(long)]
    pub bench: bool,

    /// Print the implemented card ids, one per line, and exit.
    #[arg(long)]
    pub list_cards: bool,

    /// Print the bot names, one per line, and exit.
    #[arg(long)]
    pub list_bots: bool,

    #[command(flatten)]
    pub think: ThinkArgs,
}

/// How long the searching bot (`search`) may think per decision.
#[derive(Debug, Clone, Copy, Args)]
pub struct ThinkArgs {
    /// Wall-clock milliseconds per decision for the searching bot. Results then depend
    /// on the machine and its load: use --playouts alone for reproducible runs.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub think_ms: Option<u64>,

    /// Most playouts per decision for the searching bot (deterministic) [default: the
    /// engine's, without --think-ms].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub playouts: Option<u32>,
}

impl From<ThinkArgs> for ThinkBudget {
    fn from(t: ThinkArgs) -> ThinkBudget {
        ThinkBudget {
            think_ms: t.think_ms,
            playouts: t.playouts,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum SimCommand {
    Tournament(TournamentArgs),
    Analyse(AnalyseArgs),
}

/// Reviews a finished game with the search bot: each reviewed player's decisions, from
/// what that player knew then, with inaccuracies, mistakes and blunders marked and the
/// better answer (docs/review.md).
#[derive(Debug, Args)]
#[command(after_long_help = crate::analyse::HELP)]
pub struct AnalyseArgs {
    /// The game: a record as downloaded from the server (GET /api/games/{id}) or the
    /// engine's own GameRecord JSON.
    pub game: std::path::PathBuf,

    /// Seats to review, comma-separated (0 is the first) [default: every seat with a
    /// player's name, i.e. the human ones; all if none has one].
    #[arg(long, value_delimiter = ',')]
    pub seats: Option<Vec<u8>>,

    /// Most playouts per decision, all candidates together [default: 4000 without
    /// --budget-ms, else none].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub playouts: Option<u32>,

    /// Wall-clock milliseconds per decision (results then depend on the machine).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub budget_ms: Option<u64>,

    /// The review's seed: each decision's samples derive from it and the decision.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,

    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,

    /// Print the review as one JSON object on stdout instead of the report.
    #[arg(long)]
    pub json: bool,
}

fn tournament_help() -> String {
    let kingdoms: Vec<&str> = recommended_kingdoms().map(|r| r.id).collect();
    format!(
        "\
Examples:
  dominion-sim tournament --bots standard,big_money --games 200
  dominion-sim tournament --bots search --vs standard,best-reference --games 100 --playouts 200
  dominion-sim tournament --bots easy,standard,search --kingdoms base_2e/first_game,intrigue_1e/victory_dance
  dominion-sim tournament --bots standard --vs best-reference --json > standard.json
  dominion-sim tournament --bots standard --vs best-reference,big_money --kingdoms random:24:7:2e
  dominion-sim tournament --bots standard --vs duke --kingdoms cards:duke,witch,village,smithy,market,moat,cellar,mine,festival,library
  dominion-sim tournament --bots standard --vs big_money --players 4 --games 400

Kingdoms (--kingdoms, comma-separated, mixable): recommended ids (below); card lists
cards:C1,...,C10 (the 10 ids after cards: belong to it; 2nd edition texts, cards:1e:C1,...
for the 1st); random:N:SEED[:1e|:2e], N kingdoms drawn from the cards printed in that
edition (default 2e) by SEED alone, the same on every machine.

Tables (--players 3|4): the first bot of each pairing against copies of the second;
seats rotate (--games a multiple of --players gives each seat the same count), a win
shared only by the copies is a loss, 1st/2nd report the first seat and every later one.

Pairings: without --vs, every pair of --bots (A,B,C gives A-B, A-C, B-C); with --vs,
each of --bots against each of --vs. Each pairing plays --games games on each kingdom,
alternating who sits first (an even --games gives each seat order half the games).

Table: per kingdom and pairing, the first bot's wins-losses-ties, its win rate with
ties counted as half a win, the 95% Wilson score interval of that rate, and its win
rate when seated first and second. Then an overall row per pairing: the mean of the
per-kingdom win rates and how many kingdoms reach 60%. --json prints one object:
seed, players, games_per_kingdom, ties_count_as (\"half\"), kingdoms [{{id, name, edition,
best_reference?, pairings [{{bot, opponent, opponent_bot, record {{games, wins, losses,
ties, win_rate, ci_low, ci_high, first_seat, second_seat, mean_rounds}}}}]}}], overall
[{{bot, opponent, kingdoms, mean_win_rate, kingdoms_at_least_60}}].

{best}: on each kingdom, the reference bot whose card(s) the kingdom holds (e.g.
witch needs Witch, workshop_gardens Workshop and Gardens) with the highest win rate
against big_money in a pre-run of {pre} games each with a fixed seed (not --seed, so the
choice is stable). A kingdom with no such bot is reported as such and left out of the
overall row.

Results are identical for the same arguments whatever --threads is, unless --think-ms
is given (a wall-clock budget depends on the machine).

Kingdoms (default: all, each in its own edition; *_1e are 1st edition):
  {kingdoms}",
        best = BEST_REFERENCE,
        pre = tournament::PRE_RUN_GAMES,
        kingdoms = kingdoms.join("\n  "),
    )
}

/// Plays bots against each other on every recommended kingdom (or those given), both
/// seat orders, and prints win rates with 95% intervals per kingdom and overall.
#[derive(Debug, Args)]
#[command(after_long_help = tournament_help())]
pub struct TournamentArgs {
    #[arg(long, value_delimiter = ',', required = true)]
    #[arg(help = format!(
        "Comma-separated bot names (or {BEST_REFERENCE}); without --vs every pair of them \
         plays. Bots: {}", bots::NAMES.join(", ")
    ))]
    pub bots: Vec<String>,

    /// Opponents: each of --bots plays each of these (may include best-reference).
    #[arg(long, value_delimiter = ',')]
    pub vs: Vec<String>,

    /// Games per pairing per kingdom (even: each seat order plays half).
    #[arg(long, default_value_t = 100)]
    pub games: u64,

    /// Kingdoms, comma-separated [default: every recommended one]: recommended ids,
    /// card lists `cards:C1,...,C10` (2nd edition; `cards:1e:C1,...` for the 1st) and
    /// seeded random draws `random:N:SEED` (`random:N:SEED:1e`); see --help.
    #[arg(long)]
    pub kingdoms: Vec<String>,

    /// Players per table: 3 or 4 seat the first bot of each pairing against copies of
    /// the second.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4))]
    pub players: u8,

    /// Games each best-reference candidate plays against big_money in the pre-run.
    #[arg(long, default_value_t = tournament::PRE_RUN_GAMES)]
    pub pre_run_games: u64,

    /// The pre-run's seed (to check that the pick is stable; the default keeps it
    /// independent of --seed).
    #[arg(long, default_value_t = tournament::PRE_RUN_SEED)]
    pub pre_run_seed: u64,

    /// Run seed; each series' seed derives from it, the kingdom and the two bots.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,

    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,

    /// Print one JSON object on stdout instead of the table.
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub think: ThinkArgs,
}

fn default_threads(threads: Option<u64>) -> usize {
    match threads {
        Some(t) => t as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    }
}

impl TournamentArgs {
    /// The tournament these arguments ask for, checked: a message on any problem.
    pub fn config(&self) -> Result<TournamentConfig, String> {
        let trim = |v: &[String]| v.iter().map(|b| b.trim().to_string()).collect::<Vec<_>>();
        let config = TournamentConfig {
            pairings: tournament::pairings(&trim(&self.bots), &trim(&self.vs)),
            games: self.games,
            kingdoms: tournament::kingdoms_by_id(&self.kingdoms).map_err(|e| e.to_string())?,
            players: self.players,
            pre_run_games: self.pre_run_games,
            pre_run_seed: self.pre_run_seed,
            seed: self.seed,
            threads: default_threads(self.threads),
            think: self.think.into(),
        };
        config.validate().map_err(|e| e.to_string())?;
        Ok(config)
    }
}

/// Reads a `--kingdom` value (see its help) into an engine kingdom.
pub fn parse_kingdom(s: &str) -> Result<Kingdom, String> {
    let s = s.trim();
    match s {
        "bots" | "default" => Ok(Kingdom::Cards(default_kingdom())),
        "first_game" => Ok(Kingdom::Recommended("base_2e/first_game".into())),
        "random" => Ok(Kingdom::Random),
        _ if s.contains(',') => s
            .split(',')
            .map(|k| {
                let k = k.trim();
                k.parse::<CardId>().map_err(|_| {
                    format!("unknown card id {k:?}; run with --list-cards to see them")
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Kingdom::Cards),
        _ if s.contains('/') => Ok(Kingdom::Recommended(s.to_string())),
        _ => Err(format!(
            "unknown kingdom {s:?}; use bots, first_game, random, 10 comma-separated card ids, \
             or a recommended kingdom: {}",
            recommended_ids()
        )),
    }
}

fn recommended_ids() -> String {
    recommended_kingdoms()
        .map(|r| r.id)
        .collect::<Vec<_>>()
        .join(", ")
}

impl Cli {
    /// The run these arguments ask for, checked: a message on any problem.
    pub fn config(&self) -> Result<Config, String> {
        let threads = if self.bench {
            1
        } else {
            default_threads(self.threads)
        };
        let random_only = self.pool.is_some() || self.sets.is_some();
        let kingdom = match &self.kingdom {
            None if random_only => Kingdom::Random,
            None => Kingdom::Cards(default_kingdom()),
            Some(k) => parse_kingdom(k)?,
        };
        if random_only && kingdom != Kingdom::Random {
            return Err("--pool and --sets apply only to --kingdom random".into());
        }
        let edition = match (self.edition, &kingdom) {
            (Some(e), _) => e.into(),
            (None, Kingdom::Recommended(id)) if id.contains("_1e/") => Edition::First,
            (None, _) => Edition::Second,
        };
        // Without --sets, exactly the random kingdoms of before sets could be chosen.
        let kingdom = match (kingdom, self.pool, &self.sets) {
            (Kingdom::Random, Some(pool), None) => Kingdom::RandomFrom(pool.into()),
            (Kingdom::Random, pool, Some(sets)) => Kingdom::RandomDraw {
                pool: pool.map_or(CardPool::of(edition), CardPool::from),
                sets: sets.clone(),
            },
            (k, _, _) => k,
        };
        let config = Config {
            bots: self.bots.iter().map(|b| b.trim().to_string()).collect(),
            games: self.games,
            seed: self.seed,
            threads,
            kingdom,
            edition,
            think: self.think.into(),
        };
        config.validate().map_err(|e| match e {
            SimError::Setup(dominion_engine::SetupError::UnknownRecommended(id)) => format!(
                "no recommended kingdom {id:?} with all cards implemented; available: {}",
                recommended_ids()
            ),
            e => e.to_string(),
        })?;
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dominion_engine::Setup;

    #[test]
    fn default_kingdom_has_every_card_a_bot_buys() {
        let cards = default_kingdom();
        for key in [
            "smithy",
            "witch",
            "militia",
            "council_room",
            "laboratory",
            "festival",
            "moat",
        ] {
            assert!(cards.contains(&key.parse().unwrap()), "{key} missing");
        }
        for edition in [Edition::First, Edition::Second] {
            Setup {
                players: 6,
                kingdom: Kingdom::Cards(cards.clone()),
                edition,
            }
            .validate()
            .unwrap();
        }
    }

    #[test]
    fn kingdom_values() {
        assert_eq!(parse_kingdom("bots"), Ok(Kingdom::Cards(default_kingdom())));
        assert_eq!(
            parse_kingdom("first_game"),
            Ok(Kingdom::Recommended("base_2e/first_game".into()))
        );
        assert_eq!(parse_kingdom("random"), Ok(Kingdom::Random));
        assert_eq!(
            parse_kingdom("base_2e/first_game"),
            Ok(Kingdom::Recommended("base_2e/first_game".into()))
        );
        assert_eq!(
            parse_kingdom(&DEFAULT_KINGDOM.join(",")),
            Ok(Kingdom::Cards(default_kingdom()))
        );
        assert!(parse_kingdom("smithy,nope").unwrap_err().contains("nope"));
        assert!(parse_kingdom("whatever").is_err());
    }

    fn config(args: &[&str]) -> Result<Config, String> {
        let mut all = vec!["dominion-sim", "--bots", "big_money,library"];
        all.extend_from_slice(args);
        Cli::parse_from(all).config()
    }

    #[test]
    fn every_recommended_kingdom_is_accepted_with_its_edition() {
        for r in dominion_engine::setup::RECOMMENDED {
            let Ok(c) = config(&["--kingdom", r.id]) else {
                // Offered only once all its cards are implemented.
                assert!(r.card_ids().is_none(), "{} refused", r.id);
                continue;
            };
            assert_eq!(c.kingdom, Kingdom::Recommended(r.id.into()));
            let first = r.id.contains("_1e/");
            assert_eq!(c.edition == Edition::First, first, "{}", r.id);
        }
        let base = |id: &str| dominion_engine::setup::recommended_kingdoms().any(|r| r.id == id);
        assert!(base("base_1e/big_money") && base("base_2e/deck_top"));
        let c = config(&["--kingdom", "base_1e/big_money", "--edition", "2e"]).unwrap();
        assert_eq!(c.edition, Edition::Second, "--edition wins");
    }

    #[test]
    fn pool_draws_random_kingdoms_from_the_printings_asked() {
        let c = config(&["--pool", "both"]).unwrap();
        assert_eq!(c.kingdom, Kingdom::RandomFrom(CardPool::Both));
        assert_eq!(c.edition, Edition::Second);
        let c = config(&["--kingdom", "random", "--pool", "1e"]).unwrap();
        assert_eq!(c.kingdom, Kingdom::RandomFrom(CardPool::First));
        assert_eq!(
            config(&["--kingdom", "random"]).unwrap().kingdom,
            Kingdom::Random
        );
        assert_eq!(
            config(&[]).unwrap().kingdom,
            Kingdom::Cards(default_kingdom())
        );
        let err = config(&["--kingdom", "first_game", "--pool", "2e"]).unwrap_err();
        assert!(err.contains("--pool"), "{err}");
    }

    #[test]
    fn sets_draw_random_kingdoms_from_the_sets_asked() {
        let c = config(&["--sets", "intrigue"]).unwrap();
        assert_eq!(
            c.kingdom,
            Kingdom::RandomDraw {
                pool: CardPool::Second,
                sets: vec![Set::Intrigue]
            },
            "no --pool: the edition's printings"
        );
        let c = config(&["--sets", "intrigue", "--edition", "1e"]).unwrap();
        assert_eq!(
            c.kingdom,
            Kingdom::RandomDraw {
                pool: CardPool::First,
                sets: vec![Set::Intrigue]
            }
        );
        let c = config(&[
            "--kingdom",
            "random",
            "--sets",
            "base, intrigue",
            "--pool",
            "both",
        ])
        .unwrap();
        assert_eq!(
            c.kingdom,
            Kingdom::RandomDraw {
                pool: CardPool::Both,
                sets: vec![Set::Base, Set::Intrigue]
            }
        );
        let err = config(&["--kingdom", "bots", "--sets", "base"]).unwrap_err();
        assert!(err.contains("--sets"), "{err}");
        assert_eq!(
            config(&["--sets", "base,base"]).unwrap_err(),
            "bad kingdom: the set Base is named twice"
        );
        let parsed = Cli::try_parse_from(["dominion-sim", "--bots", "a,b", "--sets", "basic"]);
        let err = parsed.unwrap_err().to_string();
        assert!(
            err.contains(r#"unknown set "basic"; sets: base, intrigue"#),
            "{err}"
        );
    }

    #[test]
    fn bench_forces_one_thread() {
        let cli = Cli::parse_from([
            "dominion-sim",
            "--bots",
            "big_money,smithy",
            "--threads",
            "2",
            "--bench",
        ]);
        assert_eq!(cli.config().unwrap().threads, 1);
    }

    #[test]
    fn bad_arguments_give_messages() {
        let err = |args: &[&str]| {
            let mut all = vec!["dominion-sim"];
            all.extend_from_slice(args);
            Cli::parse_from(all).config().unwrap_err()
        };
        assert!(err(&["--bots", "big_money"]).contains("2 to 6"));
        assert!(err(&["--bots", "big_money,nope"]).contains("big_money, basic_big_money"));
        assert!(err(&["--bots", "a,b", "--kingdom", "x/y"]).contains("unknown bot"));
        assert!(
            err(&["--bots", "smithy,witch", "--kingdom", "x/y"]).contains("base_2e/first_game")
        );
        assert!(err(&["--bots", "smithy,witch", "--kingdom", "smithy,witch"]).contains("10"));
    }

    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
