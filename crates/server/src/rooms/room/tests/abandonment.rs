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
