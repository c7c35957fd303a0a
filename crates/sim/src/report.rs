//! Human-readable output. The `--json` output is the [`Summary`] serialised directly.

use crate::aggregate::Summary;
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

/// The `--bench` line, e.g.
/// `bench: 27123 games/s (single thread, big_money vs big_money, 20000 games)`.
pub fn bench_line(s: &Summary) -> String {
    let names: Vec<&str> = s.bots.iter().map(|b| b.name.as_str()).collect();
    format!(
        "bench: {:.0} games/s (single thread, {}, {} games)",
        s.games_per_sec,
        names.join(" vs "),
        s.games
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aggregate::BotSummary;

    #[test]
    fn bench_line_names_the_matchup() {
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
        assert_eq!(
            bench_line(&s),
            "bench: 27123 games/s (single thread, big_money vs smithy, 20000 games)"
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
