//! When the log fails: the room tells nobody of a step that was not stored. A step it
//! cannot store breaks the room (its game could not be recovered); a log fenced off by
//! another node hands the room over quietly; a seat change that was not stored is simply
//! refused.

use super::*;

fn disk_full() -> LogError {
    LogError::Failed("disk full".into())
}

/// The internal error every viewer of a broken room is sent.
fn broken(re: Option<u64>) -> ServerMessage {
    ServerMessage::Error {
        re,
        code: ErrorCode::Internal,
        message: "this room stopped after an internal error; its game cannot continue".into(),
    }
}

fn is_room(msg: &ServerMessage, status: wire::RoomStatus) -> bool {
    matches!(msg, ServerMessage::Room { room } if room.status == status)
}

/// No frame about the game: no events, snapshot, decision or result.
fn nothing_of_the_game(frames: &[ServerMessage]) -> bool {
    !frames.iter().any(|m| {
        matches!(
            m,
            ServerMessage::Events { .. }
                | ServerMessage::Snapshot { .. }
                | ServerMessage::Decision(_)
                | ServerMessage::GameOver(_)
                | ServerMessage::Ack { .. }
        )
    })
}

#[tokio::test(start_paused = true)]
async fn a_reply_that_cannot_be_stored_breaks_the_room_and_is_never_shown() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let (mut first, mut other) = two_players_started(&mut h).await;
    let mut cleo = h.client("Cleo");
    h.spectate(&mut cleo).await.expect("watching");
    for c in [&mut first, &mut other, &mut cleo] {
        c.take();
    }
    let d = first.pending.clone().expect("asked");

    h.log.fail(Some(StepKind::ReplyAccepted), disk_full());
    let cmd = h
        .send(
            &mut first,
            Command::Reply {
                decision: d.decision,
                reply: end_phase(),
            },
        )
        .await;
    let mine = first.take();
    assert_eq!(mine.len(), 3, "{mine:?}");
    assert_eq!(mine[0], broken(None));
    assert!(is_room(&mine[1], wire::RoomStatus::Broken), "{mine:?}");
    assert_eq!(mine[2], broken(Some(cmd)), "the reply is refused");
    for c in [&mut other, &mut cleo] {
        let frames = c.take();
        assert_eq!(frames.len(), 2, "{frames:?}");
        assert_eq!(frames[0], broken(None));
        assert!(is_room(&frames[1], wire::RoomStatus::Broken));
        assert!(nothing_of_the_game(&frames));
    }
    assert!(h.log.replies().is_empty(), "nothing was stored");
    assert!(matches!(
        &h.log.refused()[..],
        [Step::ReplyAccepted { index: 0, .. }]
    ));
    assert_eq!(h.summary().status, wire::RoomStatus::Broken);

    // The room takes no more commands; its past can still be read.
    let more = h
        .ask(
            &mut other,
            Command::Chat {
                text: "hello?".into(),
                from: None,
            },
        )
        .await;
    assert_eq!(refusal(&more).0, ErrorCode::Internal);
    let past = h
        .ask(&mut other, Command::History { from: 0, to: None })
        .await;
    assert!(matches!(past, ServerMessage::History { .. }), "{past:?}");
    // Nor does time move it: no bot, no deadline, until it closes like a finished room.
    h.pass(Duration::from_secs(599)).await;
    assert!(!h.ended());
    assert!(nothing_of_the_game(&other.take()));
    h.pass(Duration::from_secs(1)).await;
    assert!(h.ended());
    assert_eq!(h.log.kinds().last(), Some(&StepKind::RoomClosed));
    assert!(h.log.replies().is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_bots_reply_that_cannot_be_stored_breaks_the_room_too() {
    let mut h = Harness::new(settings(&[true, false])).await;
    let mut ann = one_player_against_a_bot(&mut h).await;
    h.pass_turn(&mut ann).await;
    ann.take();
    let stored = h.log.replies().len();

    h.log.fail(None, disk_full());
    h.pass(Duration::from_millis(300)).await;
    let frames = ann.take();
    assert_eq!(frames.len(), 2, "{frames:?}");
    assert_eq!(frames[0], broken(None));
    assert!(is_room(&frames[1], wire::RoomStatus::Broken));
    assert_eq!(h.log.replies().len(), stored);
    assert_eq!(h.log.refused().len(), 1, "the bot tried once, and stopped");
    h.pass(Duration::from_secs(30)).await;
    assert_eq!(h.log.refused().len(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_seat_that_cannot_be_stored_is_not_given_and_its_token_never_told() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let mut ann = h.client("Ann");
    h.take_seat(&mut ann, None).await.expect("seated");
    ann.take();

    h.log.fail(Some(StepKind::RoomSaved), disk_full());
    let mut bob = h.client("Bob");
    assert_eq!(h.take_seat(&mut bob, None).await, None);
    assert_eq!(bob.take(), [broken(Some(1))], "no seated, no token");
    let told = ann.take();
    assert_eq!(told[0], broken(None));
    let ServerMessage::Room { room } = &told[1] else {
        panic!("{told:?}")
    };
    assert_eq!(room.status, wire::RoomStatus::Broken);
    assert_eq!(
        room.seats[1].occupant,
        wire::Occupant::Empty,
        "Bob's seat was not kept"
    );
    assert!(matches!(
        h.log.last_room().expect("saved").seats[1],
        SeatRecord::Open
    ));
    assert_eq!(h.log.refused().len(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_start_that_cannot_be_stored_shows_no_game() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let mut ann = h.client("Ann");
    let mut bob = h.client("Bob");
    h.take_seat(&mut ann, None).await.expect("seated");
    h.take_seat(&mut bob, None).await.expect("seated");
    ann.take();
    bob.take();

    h.log.fail(Some(StepKind::GameStarted), disk_full());
    let cmd = h.send(&mut ann, Command::Start).await;
    let mine = ann.take();
    assert_eq!(mine.len(), 3, "{mine:?}");
    assert_eq!((&mine[0], &mine[2]), (&broken(None), &broken(Some(cmd))));
    assert!(is_room(&mine[1], wire::RoomStatus::Broken));
    let theirs = bob.take();
    assert!(
        nothing_of_the_game(&theirs) && theirs.len() == 2,
        "{theirs:?}"
    );
    assert_eq!(h.log.count(StepKind::GameStarted), 0);
    assert_eq!(h.metrics.games_started.get(), 0);
}

#[tokio::test(start_paused = true)]
async fn a_seat_change_that_cannot_be_stored_is_refused_and_undone_without_breaking_the_room() {
    let mut h = Harness::new(settings(&[true, true, true])).await;
    let mut ann = h.client("Ann");
    h.take_seat(&mut ann, None).await.expect("seated");
    ann.take();
    let bot = wire::SeatSetting::Bot {
        bot: "big_money".into(),
    };

    h.log.fail(Some(StepKind::RoomSaved), disk_full());
    let set = || Command::SetSeat {
        seat: 2,
        occupant: bot.clone(),
    };
    let answer = h.ask(&mut ann, set()).await;
    assert_eq!(
        refusal(&answer),
        (
            ErrorCode::Internal,
            "the seat change could not be stored; try again later".into()
        )
    );
    assert_eq!(kinds(&ann.take()), ["error"], "no room update");
    let summary = h.summary();
    assert_eq!(summary.status, wire::RoomStatus::Lobby);
    assert_eq!(summary.seats[2].occupant, wire::Occupant::Empty);
    assert_eq!(summary.settings.seats[2], wire::SeatSetting::Open {});

    h.log.heal();
    assert!(is_ack(&h.ask(&mut ann, set()).await));
    assert!(
        matches!(&h.log.last_room().expect("saved").seats[2], SeatRecord::Bot { bot } if bot == "big_money")
    );
}

#[tokio::test(start_paused = true)]
async fn a_log_fenced_off_by_another_node_hands_the_room_over_without_a_word() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let (mut first, mut other) = two_players_started(&mut h).await;
    for c in [&mut first, &mut other] {
        c.take();
    }
    let d = first.pending.clone().expect("asked");
    h.log.fail(None, LogError::Fenced { room: "r1".into() });
    h.send(
        &mut first,
        Command::Reply {
            decision: d.decision,
            reply: end_phase(),
        },
    )
    .await;
    // Everyone is closed with 1012 (resume where the room runs now); nobody is told of
    // the reply, not even with an error, and the room writes nothing more.
    for c in [&mut first, &mut other] {
        assert!(c.take().is_empty(), "{}", c.name);
        assert_eq!(c.closed(), Some(CloseCode::ServiceRestart));
    }
    h.settle().await;
    assert!(h.ended());
    assert_eq!(
        h.log.refused().iter().map(Step::kind).collect::<Vec<_>>(),
        [StepKind::ReplyAccepted],
        "not even the room's close was attempted"
    );
    assert!(h.log.replies().is_empty());
}

/// When a reply's commit fails, the room is marked broken and its game goes back to
/// before the reply: whatever is read from the broken room afterwards — `history`, a new
/// spectator's `snapshot`, a `resume`'s catch-up — shows only what was stored.
#[tokio::test(start_paused = true)]
async fn a_broken_room_never_shows_the_step_it_could_not_store() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let (mut first, mut other) = two_players_started(&mut h).await;
    let d = first.pending.clone().expect("asked");
    let told = other.next_event;
    assert_eq!(first.next_event, told);
    h.log.fail(Some(StepKind::ReplyAccepted), disk_full());
    h.reply(&mut first, d.decision, end_phase()).await;
    assert_eq!(h.summary().status, wire::RoomStatus::Broken);
    assert_eq!((first.next_event, other.next_event), (told, told));

    let past = h
        .ask(&mut other, Command::History { from: 0, to: None })
        .await;
    let ServerMessage::History { events, .. } = &past else {
        panic!("{past:?}")
    };
    let mut cleo = h.client("Cleo");
    h.spectate(&mut cleo).await;
    let mut back = h.client("back");
    h.resume(&mut back, &first.token(), Some(told - 1)).await;
    assert_eq!(
        (events.len() as u64, cleo.next_event, back.next_event),
        (told, told, told),
        "history, a spectator's snapshot and a resume show only what was stored"
    );
}

/// An undo whose commit fails leaves the move in place: the log still has it, so the
/// broken room's history shows it and nothing of the position before it.
#[tokio::test(start_paused = true)]
async fn an_undo_that_cannot_be_stored_leaves_the_move_in_place() {
    let mut h = Harness::new(settings(&[true, false])).await;
    let mut ann = one_player_against_a_bot(&mut h).await;
    h.play_treasures(&mut ann).await;
    let stored = h.log.replies().len();
    let told = ann.next_event;
    ann.take();
    h.log.fail(Some(StepKind::RepliesTakenBack), disk_full());
    h.send(&mut ann, Command::Undo).await;
    assert_eq!(h.summary().status, wire::RoomStatus::Broken);
    assert_eq!(
        h.log.replies().len(),
        stored,
        "no step taken back in the log"
    );
    let mut cleo = h.client("Cleo");
    h.spectate(&mut cleo).await;
    assert_eq!(
        cleo.next_event, told,
        "the broken room still shows the game up to the move that stands"
    );
}
