//! Bots that think (`search`) think on the server's bot thinkers, and answer as
//! `standard` at once when every thinker is busy (issue 23).
//!
//! These tests run on the real clock (no `start_paused`): a thinker is a thread of its
//! own, which tokio's paused clock does not know to wait for. The bots' delay is 0, so
//! a game moves as fast as the bots answer.

use super::*;

/// `seats` (true: open for a human; false: a `search` bot), bots moving at once, each
/// searched decision given `think_ms`, with `threads` bot thinkers.
async fn search_room(seats: &[bool], threads: u16, think_ms: u64) -> Harness {
    let mut s = settings(seats);
    for seat in &mut s.seats {
        if let wire::SeatSetting::Bot { bot } = seat {
            *bot = "search".into();
        }
    }
    let config = Config {
        bot_delay: Duration::ZERO,
        bot_think_ms: think_ms,
        bot_threads: Some(threads),
        ..config()
    };
    Harness::with(s, config, Arc::new(MemoryLog::new())).await
}

/// Plays `rounds` of Ann's turns lazily, letting the bots play theirs (on the real
/// clock, at most `limit` for all of it).
async fn play_rounds(h: &Harness, ann: &mut Client, rounds: usize, limit: Duration) {
    let until = std::time::Instant::now() + limit;
    for _ in 0..rounds {
        loop {
            h.settle().await;
            ann.drain();
            if ann.pending.is_some() {
                break;
            }
            assert!(
                std::time::Instant::now() < until,
                "the bots did not play their turns within {limit:?}"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        h.pass_turn(ann).await;
    }
}

/// The number after `name` in the metrics text (0 when absent).
fn metric(h: &Harness, name: &str) -> f64 {
    let text = h.metrics.render(&[]);
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.trim().parse().ok())
        .unwrap_or(0.0)
}

#[tokio::test]
async fn a_searching_bot_thinks_on_a_thinker_and_the_game_goes_on() {
    let mut h = search_room(&[true, false], 1, 2).await;
    let mut ann = h.client("Ann");
    h.take_seat(&mut ann, None).await.expect("seated");
    h.start(&mut ann).await;
    h.pass_turn(&mut ann).await;
    play_rounds(&h, &mut ann, 3, Duration::from_secs(60)).await;

    let searched = metric(&h, "dominion_bot_think_seconds_count{bot=\"search\"}");
    assert!(searched >= 3.0, "the bot's decisions, thought: {searched}");
    assert_eq!(metric(&h, "dominion_bot_decisions_downgraded_total"), 0.0);
    assert_eq!(metric(&h, "dominion_bot_thinkers"), 1.0);
    assert_eq!(
        metric(&h, "dominion_bot_thinkers_busy"),
        0.0,
        "free between decisions"
    );
}

/// With no thinker free (here: none at all) a searching bot does not wait: it answers
/// as `standard` at once — a thinking budget of a minute per decision would otherwise
/// keep this game from moving — and every such decision is counted.
#[tokio::test]
async fn with_every_thinker_busy_a_searching_bot_answers_as_standard_at_once() {
    let mut h = search_room(&[true, false, false], 0, 60_000).await;
    let mut ann = h.client("Ann");
    h.take_seat(&mut ann, None).await.expect("seated");
    h.start(&mut ann).await;
    h.pass_turn(&mut ann).await;
    play_rounds(&h, &mut ann, 3, Duration::from_secs(120)).await;

    let downgraded = metric(&h, "dominion_bot_decisions_downgraded_total");
    // How many of the bots' decisions are ones a search would think about depends on
    // the deal (the room's seed is random): 5 of two bots' three turns in one CI run.
    assert!(
        downgraded >= 1.0,
        "two bots, three turns each: no decision answered as standard"
    );
    // The searching bot answered the decisions it would not have searched itself, at
    // once; none took anything like the minute a search may (the bound is half of one
    // search, for all of them together: a loaded machine is slow, never that slow).
    let thought = metric(&h, "dominion_bot_think_seconds_sum{bot=\"search\"}");
    assert!(thought < 30.0, "{thought} s spent by searching bots");
    let by_standard = metric(&h, "dominion_bot_think_seconds_count{bot=\"standard\"}");
    assert!(by_standard >= downgraded, "{by_standard} < {downgraded}");
    assert_eq!(metric(&h, "dominion_bot_thinkers"), 0.0);
}
