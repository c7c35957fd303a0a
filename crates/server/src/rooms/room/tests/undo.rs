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
    let mut ann = h.client("Ann");
    h.take_seat(&mut ann, None).await.expect("seated");
    h.start(&mut ann).await;
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
