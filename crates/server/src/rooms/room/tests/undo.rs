//! Taking back a move: at once against a bot, with the other players' consent between
//! humans (accepted, refused, or left unanswered until it expires).

use super::*;

fn taken_back(h: &Harness) -> Vec<u64> {
    h.log
        .steps()
        .into_iter()
        .filter_map(|s| match s {
            Step::RepliesTakenBack { keep, .. } => Some(keep),
            _ => None,
        })
        .collect()
}

fn undo_result(seat: u8, outcome: wire::UndoOutcome, by: Option<u8>) -> ServerMessage {
    ServerMessage::UndoResult { seat, outcome, by }
}

#[tokio::test(start_paused = true)]
async fn against_a_bot_a_move_is_taken_back_at_once() {
    let mut h = Harness::new(settings(&[true, false])).await;
    let mut ann = one_player_against_a_bot(&mut h).await;
    let nothing = h.ask(&mut ann, Command::Undo).await;
    assert_eq!(
        refusal(&nothing).0,
        ErrorCode::UndoRefused,
        "nothing to take back"
    );
    let (first, _) = h.play_treasures(&mut ann).await;
    let stored = h.log.replies().len();
    ann.take();

    let cmd = h.send(&mut ann, Command::Undo).await;
    let frames = ann.take();
    assert_eq!(
        kinds(&frames),
        ["undo_result", "snapshot", "decision", "ack"],
        "{frames:?}"
    );
    assert_eq!(frames[0], undo_result(0, wire::UndoOutcome::Done, None));
    assert_eq!(frames[3], ServerMessage::Ack { re: cmd });
    assert_eq!(
        ann.pending.as_ref(),
        Some(&first),
        "the same decision is asked again"
    );
    // The log drops the reply: keep = the replies before the one taken back.
    assert_eq!(taken_back(&h), [stored as u64 - 1]);
    assert_eq!(
        h.log.replies().len(),
        stored,
        "the accepted steps stay as written"
    );
    // The state is the one after the reply before, to the digest.
    let steps = h.log.steps();
    let [.., before, _, back] = &steps[..] else {
        panic!("{steps:?}")
    };
    assert!(matches!(before, Step::ReplyAccepted { index, .. } if *index == stored as u64 - 2));
    assert_eq!(back.kind(), StepKind::RepliesTakenBack);
    assert_eq!(back.digest(), before.digest());
    // The same decision takes an answer again, numbered where the log now ends.
    assert!(is_ack(
        &h.reply(&mut ann, first.decision, wire::Reply::PlayAllTreasures {})
            .await
    ));
    let last = h.log.replies().pop().expect("stored");
    assert_eq!(
        (last.0, last.2),
        (stored as u64 - 1, Reply::PlayAllTreasures)
    );
}

#[tokio::test(start_paused = true)]
async fn between_humans_an_undo_asks_the_other_and_a_refusal_ends_it() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let (mut mover, mut other) = two_players_started(&mut h).await;
    let seat = mover.seat.expect("seated");
    let other_seat = other.seat.expect("seated");
    h.play_treasures(&mut mover).await;
    mover.take();
    other.take();

    let cmd = h.send(&mut mover, Command::Undo).await;
    let asked = ServerMessage::UndoRequested { seat, seconds: 30 };
    assert_eq!(
        mover.take(),
        [asked.clone(), ServerMessage::Ack { re: cmd }]
    );
    assert_eq!(other.take(), [asked]);
    assert!(taken_back(&h).is_empty(), "nothing taken back yet");

    let own = h
        .ask(&mut mover, Command::UndoAnswer { accept: true })
        .await;
    assert_eq!(
        refusal(&own),
        (
            ErrorCode::UndoRefused,
            "no undo request is waiting for your answer".into()
        )
    );
    let twice = h.ask(&mut mover, Command::Undo).await;
    assert_eq!(
        refusal(&twice),
        (
            ErrorCode::UndoRefused,
            "an undo request is already waiting for answers".into()
        )
    );
    mover.take();
    assert!(is_ack(
        &h.ask(&mut other, Command::UndoAnswer { accept: false })
            .await
    ));
    let refused = undo_result(seat, wire::UndoOutcome::Refused, Some(other_seat));
    assert_eq!(other.take()[0], refused);
    assert_eq!(mover.take(), [refused]);
    let late = h
        .ask(&mut other, Command::UndoAnswer { accept: true })
        .await;
    assert_eq!(refusal(&late).0, ErrorCode::UndoRefused, "no request left");
    assert!(taken_back(&h).is_empty());
}

#[tokio::test(start_paused = true)]
async fn between_humans_an_accepted_undo_takes_the_move_back_for_everyone() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let (mut mover, mut other) = two_players_started(&mut h).await;
    let seat = mover.seat.expect("seated");
    let (first, _) = h.play_treasures(&mut mover).await;
    let stored = h.log.replies().len() as u64;
    assert!(is_ack(&h.ask(&mut mover, Command::Undo).await));
    mover.take();
    other.take();

    assert!(is_ack(
        &h.ask(&mut other, Command::UndoAnswer { accept: true })
            .await
    ));
    let done = undo_result(seat, wire::UndoOutcome::Done, None);
    let theirs = other.take();
    assert_eq!(kinds(&theirs), ["undo_result", "snapshot", "ack"]);
    assert_eq!(theirs[0], done);
    let mine = mover.take();
    assert_eq!(kinds(&mine), ["undo_result", "snapshot", "decision"]);
    assert_eq!(mine[0], done);
    assert_eq!(mover.pending.as_ref(), Some(&first));
    // Event numbers go back for both: the snapshot says where the game is now.
    assert_eq!(mover.next_event, other.next_event);
    assert_eq!(taken_back(&h), [stored - 1]);
}

#[tokio::test(start_paused = true)]
async fn an_undo_request_nobody_answers_expires_after_thirty_seconds() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let (mut mover, mut other) = two_players_started(&mut h).await;
    let seat = mover.seat.expect("seated");
    h.play_treasures(&mut mover).await;
    assert!(is_ack(&h.ask(&mut mover, Command::Undo).await));
    mover.take();
    other.take();

    h.pass(Duration::from_secs(29)).await;
    assert!(mover.take().is_empty() && other.take().is_empty());
    h.pass(Duration::from_secs(1)).await;
    let expired = undo_result(seat, wire::UndoOutcome::Expired, None);
    let (mine, theirs) = (mover.take(), other.take());
    assert_eq!(mine, [expired]);
    assert_eq!(theirs, mine);
    assert!(taken_back(&h).is_empty());
    let late = h
        .ask(&mut other, Command::UndoAnswer { accept: true })
        .await;
    assert_eq!(refusal(&late).0, ErrorCode::UndoRefused);
}

#[tokio::test(start_paused = true)]
async fn answering_a_decision_cancels_ones_own_undo_request() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let (mut mover, mut other) = two_players_started(&mut h).await;
    let seat = mover.seat.expect("seated");
    let (_, next) = h.play_treasures(&mut mover).await;
    assert!(is_ack(&h.ask(&mut mover, Command::Undo).await));
    mover.take();
    other.take();

    let ok = h.reply(&mut mover, next.decision, end_phase()).await;
    assert!(is_ack(&ok), "{ok:?}");
    let cancelled = undo_result(seat, wire::UndoOutcome::Cancelled, None);
    assert_eq!(mover.take()[0], cancelled);
    assert_eq!(other.take()[0], cancelled);
    assert!(taken_back(&h).is_empty());
}

/// Ann against a bot, with 5 s per decision, at her first decision of the game; the
/// clock is at the moment she was asked.
async fn timed_game_against_a_bot() -> (Harness, Client) {
    let mut s = settings(&[true, false]);
    s.decision_seconds = Some(5);
    let mut h = Harness::new(s).await;
    let mut ann = h.client("Ann");
    h.take_seat(&mut ann, None).await.expect("seated");
    h.start(&mut ann).await;
    let asked = h.until_asked(&mut ann).await;
    assert_eq!(asked.deadline_ms, Some(5000));
    ann.take();
    (h, ann)
}

/// A reply to `d` after which Ann is asked again in the same turn.
fn same_turn_reply(d: &DecisionRequest) -> wire::Reply {
    match d.purpose {
        wire::Purpose::ActionPhase => end_phase(),
        wire::Purpose::BuyPhase => wire::Reply::PlayAllTreasures {},
        other => panic!("not a phase move: {other:?}"),
    }
}

#[tokio::test(start_paused = true)]
async fn the_servers_answer_when_time_ran_out_is_not_taken_back() {
    let (h, mut ann) = timed_game_against_a_bot().await;
    let asked = ann.pending.clone().expect("asked");
    h.pass(Duration::from_secs(5)).await;
    ann.take();
    let next = ann.pending.clone().expect("asked again in the same turn");
    assert_ne!(next.decision, asked.decision, "the server answered");

    let undo = h.ask(&mut ann, Command::Undo).await;
    let (code, message) = refusal(&undo);
    assert_eq!(code, ErrorCode::UndoRefused, "{message}");
    assert!(message.contains("time ran out"), "{message}");
    assert!(taken_back(&h).is_empty(), "nothing taken back");
    assert_eq!(
        ann.pending.as_ref(),
        Some(&next),
        "still the decision after"
    );
}

#[tokio::test(start_paused = true)]
async fn a_move_taken_back_comes_back_with_the_time_it_had_left() {
    let (h, mut ann) = timed_game_against_a_bot().await;
    let asked = ann.pending.clone().expect("asked");
    // Answered with 1 s left; the next decision then waits 2 s of its 5.
    h.pass(Duration::from_secs(4)).await;
    let reply = same_turn_reply(&asked);
    assert!(is_ack(
        &h.reply(&mut ann, asked.decision, reply.clone()).await
    ));
    let next = ann.pending.clone().expect("asked again in the same turn");
    assert_eq!(next.deadline_ms, Some(5000));
    h.pass(Duration::from_secs(2)).await;
    ann.take();

    assert!(is_ack(&h.ask(&mut ann, Command::Undo).await));
    let again = ann.pending.clone().expect("asked again");
    assert_eq!(again.decision, asked.decision);
    assert_eq!(
        again.deadline_ms,
        Some(1000),
        "the time it had left when answered, not a fresh 5 s"
    );
    // Answered again at once: the decision after it has the 3 s it had left.
    assert!(is_ack(&h.reply(&mut ann, again.decision, reply).await));
    let after = ann.pending.clone().expect("asked again in the same turn");
    assert_eq!(after.deadline_ms, Some(3000));
    // And the clock runs out on those 3 s.
    let stored = h.log.replies().len();
    h.pass(Duration::from_millis(2999)).await;
    assert_eq!(h.log.replies().len(), stored, "not before its time");
    h.pass(Duration::from_millis(1)).await;
    assert_eq!(h.log.replies().len(), stored + 1, "answered by the server");
}
