//! `dominion-sim analyse GAME.json`: the search bot's review of a finished game from
//! the command line, the same review the server computes in the background.
//!
//! The record is either a game as downloaded from the server (`GET /api/games/{id}`,
//! the published wire format) or the engine's own `GameRecord` JSON. A published
//! record is turned into an engine record by the server's own conversion
//! (`dominion_server::convert::published`), so there is one way from the wire to the
//! engine, not two. The decisions are evaluated in parallel on `--threads` (each
//! decision's samples are seeded from the review seed and the decision alone, so the
//! result does not depend on the thread count unless a wall-clock budget is given).

use crate::think::ThinkBudget;
use dominion_engine::review::{self, DecisionReview, Mark, Review};
use dominion_engine::{CardId, GameRecord, PlayerId, Reply};
use dominion_protocol as wire;
use rayon::prelude::*;

/// `analyse --help`'s closing section.
pub const HELP: &str = "\
Examples:
  dominion-sim analyse game.json
  dominion-sim analyse game.json --seats 0,1 --playouts 4000 --threads 2
  dominion-sim analyse game.json --budget-ms 300 --json > review.json

Output: per reviewed seat its counts of inaccuracies, mistakes and blunders, each marked
decision with its turn, the answer given, the better answer and the win chances of
both, then the CPU time the review took. A mark is earned by the drop in win chance
from the best answer found to the answer given: 5, 10 and 20 points (inaccuracy,
mistake, blunder), and only when the drop is more than twice its standard error
(docs/review.md). --json prints the review itself: version, players [{player, graph
[{index, turn, win}], inaccuracies, mistakes, blunders}], decisions [{index, player,
turn, given, best, given_win, best_win, drop, drop_se, samples, candidates, mark}].
Without --budget-ms the review is the same for the same arguments whatever --threads
is.";

/// A record read from a file, with the seats' names (empty for a bot or unknown).
#[derive(Clone, Debug)]
pub struct Loaded {
    pub record: GameRecord,
    pub names: Vec<String>,
}

/// Reads a published record (it has a `format` field) or an engine record.
pub fn load(text: &str) -> Result<Loaded, String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    if value.get("format").is_some() {
        let published: wire::GameRecord = serde_json::from_value(value)
            .map_err(|e| format!("not a published game record: {e}"))?;
        let record = dominion_server::convert::published::engine_record(&published)?;
        let mut names = vec![String::new(); usize::from(record.setup.players)];
        for s in &published.seats {
            if let Some(n) = names.get_mut(usize::from(s.seat)) {
                n.clone_from(&s.name);
            }
        }
        return Ok(Loaded { record, names });
    }
    let record: GameRecord = serde_json::from_value(value)
        .map_err(|e| format!("neither a published nor an engine game record: {e}"))?;
    let names = vec![String::new(); usize::from(record.setup.players)];
    Ok(Loaded { record, names })
}

/// The seats to review: `asked` if given (each checked), else every seat with a name
/// (the human ones), else all.
pub fn seats(loaded: &Loaded, asked: Option<&[u8]>) -> Result<Vec<PlayerId>, String> {
    let players = loaded.record.setup.players;
    if let Some(asked) = asked {
        if let Some(bad) = asked.iter().find(|s| **s >= players) {
            return Err(format!(
                "no seat {bad}: the game has seats 0–{}",
                players - 1
            ));
        }
        let mut seats: Vec<u8> = asked.to_vec();
        seats.sort_unstable();
        seats.dedup();
        return Ok(seats.into_iter().map(PlayerId).collect());
    }
    let named: Vec<PlayerId> = (0..players)
        .filter(|s| !loaded.names[usize::from(*s)].is_empty())
        .map(PlayerId)
        .collect();
    Ok(if named.is_empty() {
        (0..players).map(PlayerId).collect()
    } else {
        named
    })
}

/// The review's budget per decision: `--playouts` (default
/// [`review::DEFAULT_PLAYOUTS`] without `--budget-ms`) and `--budget-ms`.
pub fn budget(playouts: Option<u32>, budget_ms: Option<u64>) -> ThinkBudget {
    ThinkBudget {
        think_ms: budget_ms,
        playouts: playouts.or(budget_ms.is_none().then_some(review::DEFAULT_PLAYOUTS)),
    }
}

/// Reviews `record` for `seats` on `threads` threads, calling `tick(done, total)` after
/// each decision.
pub fn analyse(
    record: &GameRecord,
    seats: &[PlayerId],
    seed: u64,
    budget: &ThinkBudget,
    threads: usize,
    tick: &(dyn Fn(usize, usize) + Sync),
) -> Result<Review, String> {
    let points = review::points(record, seats).map_err(|e| format!("the record: {e}"))?;
    let thinking = budget.thinking();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| format!("could not start the worker threads: {e}"))?;
    let done = std::sync::atomic::AtomicUsize::new(0);
    let total = points.len();
    let decisions: Vec<DecisionReview> = pool.install(|| {
        points
            .par_iter()
            .map(|p| {
                let d = review::evaluate(p, seed, &thinking);
                tick(
                    done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
                    total,
                );
                d
            })
            .collect()
    });
    Ok(review::assemble(seats, decisions))
}

/// The readable report: per reviewed seat its counts, then each marked decision.
pub fn report(loaded: &Loaded, review: &Review) -> String {
    let mut out = String::new();
    let who = |p: PlayerId| {
        let name = &loaded.names[p.idx()];
        if name.is_empty() {
            format!("seat {}", p.0)
        } else {
            format!("seat {} ({name})", p.0)
        }
    };
    for pr in &review.players {
        let reviewed = review
            .decisions
            .iter()
            .filter(|d| d.player == pr.player)
            .count();
        out += &format!(
            "{}: {} decisions reviewed, {} inaccurac{}, {} mistake{}, {} blunder{}\n",
            who(pr.player),
            reviewed,
            pr.inaccuracies,
            if pr.inaccuracies == 1 { "y" } else { "ies" },
            pr.mistakes,
            plural(pr.mistakes),
            pr.blunders,
            plural(pr.blunders),
        );
        for d in review
            .decisions
            .iter()
            .filter(|d| d.player == pr.player && d.mark.is_some())
        {
            out += &format!(
                "  turn {:>2}  {:<10}  {}; better: {}  (win chance {:.0}% → {:.0}%)\n",
                d.turn,
                mark_name(d.mark),
                reply_text(&d.given),
                reply_text(&d.best),
                100.0 * d.given_win,
                100.0 * d.best_win,
            );
        }
    }
    out
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn mark_name(m: Option<Mark>) -> &'static str {
    match m {
        Some(Mark::Inaccuracy) => "inaccuracy",
        Some(Mark::Mistake) => "mistake",
        Some(Mark::Blunder) => "blunder",
        None => "",
    }
}

/// An answer in words.
pub fn reply_text(r: &Reply) -> String {
    let cards = |cs: &[CardId]| {
        if cs.is_empty() {
            "nothing".to_string()
        } else {
            cs.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
        }
    };
    match r {
        Reply::Play(c) => format!("play {}", c.name()),
        Reply::PlayAllTreasures => "play all Treasures".into(),
        Reply::Buy(c) => format!("buy {}", c.name()),
        Reply::EndPhase => "end the phase".into(),
        Reply::Cards(cs) => format!("choose {}", cards(cs)),
        Reply::Pile(Some(c)) => format!("gain {}", c.name()),
        Reply::Pile(None) => "gain nothing".into(),
        other => format!("{other:?}"),
    }
}

/// Seconds of CPU time this process has used (all threads), if the system tells.
#[cfg(unix)]
pub fn process_cpu_secs() -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the call only writes it.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) } == 0;
    ok.then_some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
}

#[cfg(not(unix))]
pub fn process_cpu_secs() -> Option<f64> {
    None
}
