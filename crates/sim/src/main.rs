//! `dominion-sim`: parse arguments, run the simulation, print the summary.
//! All logic lives in the library; see `dominion_sim::run`.

use clap::{CommandFactory, Parser, error::ErrorKind};
use dominion_engine::{CardId, bots};
use dominion_sim::cli::{AnalyseArgs, Cli, SimCommand, TournamentArgs};
use dominion_sim::tournament::run_tournament_with_progress;
use dominion_sim::{report, run_with_progress};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// mimalloc instead of glibc's malloc, as the server allocates: games with recorded
/// events and the search bot's playouts make many small short-lived allocations.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Below this many games a run is over before a bar would be worth drawing.
const PROGRESS_MIN_GAMES: u64 = 1000;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        Some(SimCommand::Tournament(args)) => return tournament(args),
        Some(SimCommand::Analyse(args)) => return analyse(args),
        None => {}
    }
    if cli.list_cards {
        let keys: String = CardId::all().map(|c| format!("{}\n", c.key())).collect();
        return emit(&keys);
    }
    if cli.list_bots {
        let names: String = bots::NAMES.iter().map(|n| format!("{n}\n")).collect();
        return emit(&names);
    }
    let config = match cli.config() {
        Ok(c) => c,
        // Same format and exit code (2) as clap's own argument errors.
        Err(msg) => Cli::command().error(ErrorKind::ValueValidation, msg).exit(),
    };

    if cli.bench {
        let report = match dominion_sim::bench::run(&config) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        };
        let lines = report::bench_lines(&report);
        if cli.json {
            // Stdout carries only the JSON object; the figures still reach the reader.
            eprintln!("{lines}");
            return emit_json(&report.summary);
        }
        return emit(&format!("{}\n{lines}\n", report::table(&report.summary)));
    }

    // Short runs are over before a bar would be worth drawing.
    let result = with_progress(config.games, config.games >= PROGRESS_MIN_GAMES, |tick| {
        run_with_progress(&config, tick)
    });
    let summary = match result {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };

    if cli.json {
        return emit_json(&summary);
    }
    emit(&report::table(&summary))
}

/// `dominion-sim tournament`.
fn tournament(args: &TournamentArgs) -> ExitCode {
    let config = match args.config() {
        Ok(c) => c,
        Err(msg) => Cli::command().error(ErrorKind::ValueValidation, msg).exit(),
    };
    // Tournaments are long: a bar from the first game.
    let result = with_progress(config.game_count(), true, |tick| {
        run_tournament_with_progress(&config, tick)
    });
    let summary = match result {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if args.json {
        emit_json(&summary)
    } else {
        emit(&report::tournament_table(&summary))
    }
}

/// `dominion-sim analyse`: reviews one recorded game, with a bar over its decisions.
fn analyse(args: &AnalyseArgs) -> ExitCode {
    use dominion_sim::analyse;
    let loaded = std::fs::read_to_string(&args.game)
        .map_err(|e| format!("cannot read {}: {e}", args.game.display()))
        .and_then(|text| analyse::load(&text));
    let loaded = match loaded {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let seats = match analyse::seats(&loaded, args.seats.as_deref()) {
        Ok(s) => s,
        Err(msg) => Cli::command().error(ErrorKind::ValueValidation, msg).exit(),
    };
    let budget = analyse::budget(args.playouts, args.budget_ms);
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        |t| t as usize,
    );
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(0);
        if let Ok(style) =
            ProgressStyle::with_template("{wide_bar} {pos}/{len} decisions  eta {eta}")
        {
            bar.set_style(style);
        }
        bar
    });
    let cpu = analyse::process_cpu_secs();
    let wall = std::time::Instant::now();
    let result = analyse::analyse(
        &loaded.record,
        &seats,
        args.seed,
        &budget,
        threads,
        &|done, total| {
            if let Some(bar) = &bar {
                bar.set_length(total as u64);
                bar.set_position(done as u64);
            }
        },
    );
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let review = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let cpu = cpu.zip(analyse::process_cpu_secs()).map(|(a, b)| b - a);
    let cost = format!(
        "{} decisions reviewed in {:.1} s CPU ({:.1} s wall, {threads} thread{})\n",
        review.decisions.len(),
        cpu.unwrap_or(f64::NAN),
        wall.elapsed().as_secs_f64(),
        if threads == 1 { "" } else { "s" },
    );
    if args.json {
        // Stdout carries only the JSON object; the cost still reaches the reader.
        eprint!("{cost}");
        return emit_json(&review);
    }
    emit(&(analyse::report(&loaded, &review) + &cost))
}

/// Runs `run` with a progress bar of `games` games on stderr, drawn only when `wanted`
/// and stderr is a terminal: stdout stays clean for --json and pipes, and logs are not
/// filled with redraws. `run` calls the tick it is given after each game.
fn with_progress<T>(games: u64, wanted: bool, run: impl FnOnce(&(dyn Fn() + Sync)) -> T) -> T {
    let bar = (wanted && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(games);
        if let Ok(style) = ProgressStyle::with_template("{wide_bar} {pos}/{len} games  eta {eta}") {
            bar.set_style(style);
        }
        bar
    });
    let result = run(&|| {
        if let Some(bar) = &bar {
            bar.inc(1);
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    result
}

/// Writes `summary` as one JSON object on stdout.
fn emit_json(summary: &impl serde::Serialize) -> ExitCode {
    match serde_json::to_string(summary) {
        Ok(json) => emit(&(json + "\n")),
        Err(e) => {
            eprintln!("error: could not serialise the summary: {e}");
            ExitCode::FAILURE
        }
    }
}
/// Writes to stdout without panicking when it is closed early (e.g. piped into `head`).
fn emit(text: &str) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: could not write output: {e}");
            ExitCode::FAILURE
        }
    }
}
