//! Hints (issue 27): one at a time, for the asking player's pending decision only — a
//! hint whose decision was answered before it was thought is dropped, the next one
//! comes. On the real clock: a thinker is a thread of its own.

use super::*;

/// Every `hint` frame `c` got so far: (decision, reply).
fn hints(c: &Client) -> Vec<(u64, wire::Reply)> {
    c.frames
        .iter()
        .filter_map(|m| match m {
            ServerMessage::Hint { decision, reply } => Some((*decision, reply.clone())),
            _ => None,
        })
        .collect()
}

/// A room of Ann against one bot, whose hints think 5 ms on the one thinker; Ann's client.
async fn ann_against_a_bot() -> (Harness, Client) {
    let config = Config {
        bot_delay: Duration::ZERO,
        bot_think_ms: 5,
        bot_threads: Some(1),
        ..config()
    };
    let mut h = Harness::with(settings(&[true, false]), config, Arc::new(MemoryLog::new())).await;
    let ann = one_player_against_a_bot(&mut h).await;
    (h, ann)
}

/// Settles the room until `found` finds something in Ann's frames (a hang stop at
/// `until`, naming `what`).
async fn wait_for<T>(
    h: &mut Harness,
    ann: &mut Client,
    until: std::time::Instant,
    what: &str,
    mut found: impl FnMut(&Client) -> Option<T>,
) -> T {
    loop {
        assert!(std::time::Instant::now() < until, "{what}: not within 60 s");
        h.settle().await;
        ann.drain();
        if let Some(t) = found(ann) {
            return t;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test]
async fn a_hint_comes_only_for_the_decision_still_pending_and_one_at_a_time() {
    let (mut h, mut ann) = ann_against_a_bot().await;
    let until = std::time::Instant::now() + Duration::from_secs(60);
    let first = wait_for(&mut h, &mut ann, until, "Ann is asked", |c| {
        c.pending.clone()
    })
    .await;
    // The only thinker is busy: the hint waits for it.
    let held = h.thinkers.reserve().expect("the one thinker");
    let asked = h.ask(&mut ann, Command::Hint).await;
    assert!(is_ack(&asked), "{asked:?}");
    let again = h.ask(&mut ann, Command::Hint).await;
    let (code, why) = refusal(&again);
    assert_eq!(code, ErrorCode::HintUnavailable);
    assert!(why.contains("already"), "{why}");
    // Ann answers before the hint is thought; then the thinker is free.
    let answered = h.reply(&mut ann, first.decision, lazy_reply(&first)).await;
    assert!(is_ack(&answered), "{answered:?}");
    drop(held);
    // The late hint is taken and dropped; then a new one is accepted and comes.
    let now_pending = loop {
        assert!(
            std::time::Instant::now() < until,
            "no hint accepted in 60 s"
        );
        h.settle().await;
        ann.drain();
        if let Some(d) = ann.pending.clone() {
            let answer = h.ask(&mut ann, Command::Hint).await;
            if is_ack(&answer) {
                break d;
            }
            let (code, _) = refusal(&answer);
            assert_eq!(code, ErrorCode::HintUnavailable);
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    let got = wait_for(&mut h, &mut ann, until, "a hint", |c| {
        hints(c).into_iter().next()
    })
    .await;
    assert_eq!(
        got.0, now_pending.decision,
        "the hint is for the decision pending now"
    );
    assert!(
        !hints(&ann).iter().any(|(d, _)| *d == first.decision),
        "the hint for the answered decision was dropped"
    );
    // It is a legal answer.
    let taken = h.reply(&mut ann, got.0, got.1).await;
    assert!(is_ack(&taken), "{taken:?}");
}

#[tokio::test]
async fn a_hint_whose_thinking_fails_is_reported_and_may_be_asked_again() {
    let (mut h, mut ann) = ann_against_a_bot().await;
    let until = std::time::Instant::now() + Duration::from_secs(60);
    let pending = wait_for(&mut h, &mut ann, until, "Ann is asked", |c| {
        c.pending.clone()
    })
    .await;
    super::super::hint::FAILING_HINTS
        .lock()
        .unwrap()
        .push(h.id.clone());
    let asked = h.ask(&mut ann, Command::Hint).await;
    assert!(is_ack(&asked), "{asked:?}");
    // The failure comes as an error without `re`, for the decision still pending.
    let failed = wait_for(&mut h, &mut ann, until, "word of the failed hint", |c| {
        c.frames.iter().find_map(|m| match m {
            ServerMessage::Error {
                re: None,
                code,
                message,
            } => Some((*code, message.clone())),
            _ => None,
        })
    })
    .await;
    assert_eq!(failed.0, ErrorCode::HintUnavailable);
    assert!(failed.1.contains("ask again"), "{}", failed.1);
    assert!(hints(&ann).is_empty(), "no hint came");
    assert_eq!(
        ann.pending.as_ref().map(|d| d.decision),
        Some(pending.decision),
        "the decision is still pending"
    );
    // Asked again (the fault gone), the hint comes for the same decision.
    super::super::hint::FAILING_HINTS
        .lock()
        .unwrap()
        .retain(|r| *r != h.id);
    let again = h.ask(&mut ann, Command::Hint).await;
    assert!(is_ack(&again), "{again:?}");
    let got = wait_for(&mut h, &mut ann, until, "a hint", |c| {
        hints(c).into_iter().next()
    })
    .await;
    assert_eq!(got.0, pending.decision);
}
