//! `--abandon-after`: a started game no player is connected to ends as abandoned.

use super::*;

/// A room that waits for absent players (no bot takes their seats), with
/// `--abandon-after 10m`.
async fn waiting_room() -> Harness {
    let mut s = settings(&[true, true]);
    s.abandoned = wire::AbandonPolicy::Wait {};
    let config = Config {
        abandon_after: Duration::from_secs(600),
        ..config()
    };
    Harness::with(s, config, Arc::new(MemoryLog::new())).await
}

#[tokio::test(start_paused = true)]
async fn a_game_no_player_is_connected_to_is_abandoned_and_its_room_closes() {
    let mut h = waiting_room().await;
    let (mut ann, bob) = two_players_started(&mut h).await;
    let mut cleo = h.client("Cleo");
    h.spectate(&mut cleo).await.expect("watching");
    // One leaves, the other's connection drops; the spectator stays (and does not count).
    assert!(is_ack(&h.ask(&mut ann, Command::Leave).await));
    h.detach(&bob).await;
    cleo.take();
    let steps = h.log.steps().len();

    h.pass(Duration::from_secs(599)).await;
    assert!(!h.ended());
    assert_eq!(h.log.steps().len(), steps, "nothing happens for 10 minutes");
    assert!(cleo.take().is_empty());
    h.pass(Duration::from_secs(1)).await;

    assert_eq!(
        &h.log.kinds()[steps..],
        [StepKind::GameAbandoned, StepKind::RoomClosed],
        "stored as abandoned (history), then closed"
    );
    let told = cleo.take();
    assert_eq!(
        told,
        [ServerMessage::Error {
            re: None,
            code: ErrorCode::UnknownRoom,
            message: "this room has closed: its game was abandoned after 600 s without a player"
                .into(),
        }]
    );
    assert!(h.ended(), "the room task ended");
    assert_eq!(h.metrics.games_abandoned.get(), 1);
    assert_eq!(h.log.count(StepKind::GameFinished), 0);
}

#[tokio::test(start_paused = true)]
async fn a_player_back_in_time_keeps_the_game_and_the_clock_starts_again_when_all_are_gone() {
    let mut h = waiting_room().await;
    let (ann, bob) = two_players_started(&mut h).await;
    h.detach(&ann).await;
    h.detach(&bob).await;
    h.pass(Duration::from_secs(599)).await;

    // Ann reconnects a second before the end, and goes again.
    let mut back = h.client("Ann");
    h.resume(&mut back, &ann.token(), None)
        .await
        .expect("seated");
    h.pass(Duration::from_secs(60)).await;
    h.detach(&back).await;
    h.pass(Duration::from_secs(599)).await;
    assert!(
        !h.ended(),
        "ten minutes from the last player's going, not the first's"
    );
    assert_eq!(h.log.count(StepKind::GameAbandoned), 0);
    h.pass(Duration::from_secs(1)).await;
    assert_eq!(h.log.count(StepKind::GameAbandoned), 1);
    assert!(h.ended());
}

/// One human and five bots, `--abandon-after 10m`: the human starts the game, plays
/// their first turn if it is theirs, and goes (`going` leaves or drops the connection).
async fn bots_left_alone(going: Going) -> (Harness, Client) {
    let config = Config {
        abandon_after: Duration::from_secs(600),
        ..config()
    };
    let mut s = settings(&[true, false, false, false, false, false]);
    // `standard` makes each phase move on its own: the bot whose turn it is moves again
    // a delay later (a reference bot's money turn is one move, after which the next may
    // be Ann's).
    for seat in &mut s.seats[1..] {
        *seat = wire::SeatSetting::Bot {
            bot: "standard".into(),
        };
    }
    let mut h = Harness::with(s, config, Arc::new(MemoryLog::new())).await;
    let mut ann = h.client("Ann");
    h.take_seat(&mut ann, None).await.expect("seated");
    h.start(&mut ann).await;
    h.pass_turn(&mut ann).await;
    match going {
        Going::Leaves => assert!(is_ack(&h.ask(&mut ann, Command::Leave).await)),
        Going::Drops => h.detach(&ann).await,
    }
    (h, ann)
}

enum Going {
    Leaves,
    Drops,
}

/// Issue 23: a room of bots kept playing for its hour after its only human left (to the
/// end of the game, on the CPU of everyone else), where a room of humans who all left
/// waited. Now no bot moves while no player is connected, and the game ends as
/// abandoned on the same rule as any other.
#[tokio::test(start_paused = true)]
async fn a_game_whose_humans_all_left_stands_still_and_is_abandoned_whoever_sits_in_it() {
    let (h, _ann) = bots_left_alone(Going::Leaves).await;
    let replies = h.log.replies().len();
    let steps = h.log.steps().len();
    // Ten minutes at the bots' pace (a move per 300 ms delay, were they to move).
    for _ in 0..1999 {
        h.pass(Duration::from_millis(300)).await;
    }
    let moved = h.log.replies().len() - replies;
    let finished = h.log.count(StepKind::GameFinished);
    assert_eq!(
        (moved, finished),
        (0, 0),
        "(bot replies stored, games finished) while no player was connected"
    );
    assert!(!h.ended());
    h.pass(Duration::from_millis(300)).await;
    assert_eq!(
        &h.log.kinds()[steps..],
        [StepKind::GameAbandoned, StepKind::RoomClosed],
        "abandoned after --abandon-after, like a room of humans"
    );
    assert!(h.ended());
    assert_eq!(h.metrics.games_abandoned.get(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_player_back_sets_the_bots_going_again() {
    let (mut h, ann) = bots_left_alone(Going::Drops).await;
    let replies = h.log.replies().len();
    h.pass(Duration::from_secs(60)).await;
    assert_eq!(
        h.log.replies().len(),
        replies,
        "nothing moves while Ann is away"
    );

    let mut back = h.client("Ann");
    h.resume(&mut back, &ann.token(), None)
        .await
        .expect("seated");
    // The bot whose move it was has waited longer than its delay: it moves at once,
    // then at its pace.
    h.pass(Duration::ZERO).await;
    assert_eq!(h.log.replies().len(), replies + 1);
    h.pass(Duration::from_millis(300)).await;
    assert_eq!(h.log.replies().len(), replies + 2);
}

#[tokio::test(start_paused = true)]
async fn no_decision_time_runs_out_while_no_player_is_connected() {
    let mut s = settings(&[true, true]);
    s.decision_seconds = Some(5);
    s.abandoned = wire::AbandonPolicy::Wait {};
    let mut h = Harness::new(s).await;
    let (ann, bob) = two_players_started(&mut h).await;
    h.detach(&ann).await;
    h.detach(&bob).await;
    h.pass(Duration::from_secs(60)).await;
    assert_eq!(
        h.log.replies().len(),
        0,
        "nobody waits for the player out of time: the server does not answer"
    );
}
