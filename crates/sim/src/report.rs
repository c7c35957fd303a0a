//! Human-readable output. The `--json` output is the [`Summary`] serialised directly.

use crate::aggregate::Summary;
use crate::bench::{BenchReport, Timing};
use crate::tournament::{BEST_REFERENCE, TournamentSummary};
use std::fmt::Write;

/// The results table: one row per bot (numbered, since a name may repeat), then ties,
/// mean rounds and speed.
pub fn table(s: &Summary) -> String {
    let width = s
        .bots
        .iter()
        .map(|b| b.name.len())
        .max()
        .unwrap_or(0)
        .max(4);
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        out,
        "{:>2}  {:<width$}  {:>9}  {:>7}",
        "#", "bot", "wins", "win %"
    );
    for (i, b) in s.bots.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>2}  {:<width$}  {:>9}  {:>6.2}%",
            i + 1,
            b.name,
            b.wins,
            100.0 * b.win_rate
        );
    }
    let _ = writeln!(
        out,
        "{:>2}  {:<width$}  {:>9}  {:>6.2}%",
        "",
        "ties",
        s.ties,
        100.0 * s.tie_rate
    );
    let _ = writeln!(
        out,
        "games: {}   mean rounds: {:.2}   games/s: {:.0}",
        s.games, s.mean_rounds, s.games_per_sec
    );
    out
}

/// The `--bench` lines: each path's speed by the wall clock and by CPU time, and how
/// much longer the recorded path takes, e.g.
///
/// ```text
/// bench: unrecorded  98000 games/s wall, 101000 games/s CPU (single thread, big_money vs big_money, 20000 games)
/// bench: recorded    61000 games/s wall,  63000 games/s CPU
/// bench: recorded/unrecorded time 1.60 (CPU)
/// ```
pub fn bench_lines(r: &BenchReport) -> String {
    let names: Vec<&str> = r.summary.bots.iter().map(|b| b.name.as_str()).collect();
    let speed = |t: &Timing| {
        let cpu = t
            .games_per_cpu_sec()
            .map_or("CPU time unknown".to_string(), |g| {
                format!("{g:>6.0} games/s CPU")
            });
        format!("{:>6.0} games/s wall, {cpu}", t.games_per_wall_sec())
    };
    let by = if r.unrecorded.cpu_secs.is_some() && r.recorded.cpu_secs.is_some() {
        "CPU"
    } else {
        "wall"
    };
    format!(
        "bench: unrecorded {} (single thread, {}, {} games)\n\
         bench: recorded   {}\n\
         bench: recorded/unrecorded time {:.2} ({by})",
        speed(&r.unrecorded),
        names.join(" vs "),
        r.summary.games,
        speed(&r.recorded),
        r.ratio(),
    )
}

fn pct(r: f64) -> String {
    format!("{:.1}%", 100.0 * r)
}

/// The tournament table: one row per kingdom and pairing, from the first bot's side,
/// then one overall row per pairing.
pub fn tournament_table(s: &TournamentSummary) -> String {
    let label = |bot: &str, opponent: &str, actual: Option<&str>| match actual {
        Some(a) if opponent == BEST_REFERENCE => format!("{bot} vs {a} (best ref.)"),
        _ => format!("{bot} vs {opponent}"),
    };
    let rows: Vec<(String, String, String)> = s
        .kingdoms
        .iter()
        .flat_map(|k| {
            k.pairings.iter().map(move |p| {
                let cells = match &p.record {
                    Some(r) => format!(
                        "{:>5}  {:>13}  {:>6}  {:>15}  {:>6}  {:>6}",
                        r.games,
                        format!("{}-{}-{}", r.wins, r.losses, r.ties),
                        pct(r.win_rate),
                        format!("{}..{}", pct(r.ci_low), pct(r.ci_high)),
                        pct(r.first_seat.win_rate),
                        pct(r.second_seat.win_rate),
                    ),
                    None => "no reference bot has its card in this kingdom".to_string(),
                };
                (
                    format!("{} ({})", k.id, k.edition),
                    label(&p.bot, &p.opponent, p.opponent_bot.as_deref()),
                    cells,
                )
            })
        })
        .collect();
    let kw = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(7);
    let pw = rows
        .iter()
        .map(|r| r.1.len())
        .chain(s.overall.iter().map(|o| o.bot.len() + o.opponent.len() + 4))
        .max()
        .unwrap_or(0)
        .max(7);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<kw$}  {:<pw$}  {:>5}  {:>13}  {:>6}  {:>15}  {:>6}  {:>6}",
        "kingdom", "pairing", "games", "won-lost-tied", "win", "95% interval", "1st", "2nd"
    );
    for (k, p, cells) in &rows {
        let _ = writeln!(out, "{k:<kw$}  {p:<pw$}  {cells}");
    }
    let _ = writeln!(out);
    for o in &s.overall {
        let _ = writeln!(
            out,
            "overall  {:<pw$}  mean win {:>6} over {} kingdoms; >= 60% on {} of {}",
            format!("{} vs {}", o.bot, o.opponent),
            pct(o.mean_win_rate),
            o.kingdoms,
            o.kingdoms_at_least_60,
            o.kingdoms,
        );
    }
    let _ = writeln!(
        out,
        "win = (wins + ties/2) / games for the first bot named; 1st/2nd: its win rate when \
         seated first/second; seed {}, {} games per kingdom",
        s.seed, s.games_per_kingdom
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aggregate::BotSummary;

    #[test]
    fn bench_lines_give_both_paths_and_their_ratio() {
        let s = Summary {
            games: 20000,
            bots: vec![
                BotSummary {
                    name: "big_money".into(),
                    wins: 9000,
                    win_rate: 0.45,
                },
                BotSummary {
                    name: "smithy".into(),
                    wins: 9000,
                    win_rate: 0.45,
                },
            ],
            ties: 2000,
            tie_rate: 0.1,
            mean_rounds: 20.0,
            games_per_sec: 27123.4,
        };
        let r = BenchReport {
            summary: s.clone(),
            unrecorded: Timing {
                games: 20000,
                wall_secs: 0.25,
                cpu_secs: Some(0.2),
            },
            recorded: Timing {
                games: 20000,
                wall_secs: 0.5,
                cpu_secs: Some(0.32),
            },
        };
        assert_eq!(
            bench_lines(&r),
            "bench: unrecorded  80000 games/s wall, 100000 games/s CPU \
             (single thread, big_money vs smithy, 20000 games)\n\
             bench: recorded    40000 games/s wall,  62500 games/s CPU\n\
             bench: recorded/unrecorded time 1.60 (CPU)"
        );
        let t = table(&s);
        assert!(
            t.contains("smithy")
                && t.contains("45.00%")
                && t.contains("ties")
                && t.contains("27123")
        );
    }
}
