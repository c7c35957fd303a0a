//! `--lobby-timeout` (issue 23, finding 5): a room whose game has not started closes
//! that long after it opened, however many are connected, so idle clients cannot keep
//! rooms waiting forever and fill `--max-rooms`.

use super::*;

fn ten_minutes() -> Config {
    Config {
        lobby_timeout: Duration::from_secs(600),
        ..config()
    }
}

#[tokio::test(start_paused = true)]
async fn a_lobby_closes_at_its_timeout_however_many_are_connected_and_they_are_told() {
    let mut h = Harness::with(
        settings(&[true, true]),
        ten_minutes(),
        Arc::new(MemoryLog::new()),
    )
    .await;
    let mut ann = h.client("Ann");
    let mut bob = h.client("Bob");
    let mut cleo = h.client("Cleo");
    h.take_seat(&mut ann, None).await.expect("seated");
    h.take_seat(&mut bob, None).await.expect("seated");
    h.spectate(&mut cleo).await.expect("watching");
    // Busy, but never starting: chat and seat changes keep nothing open.
    h.pass(Duration::from_secs(300)).await;
    assert!(is_ack(
        &h.ask(
            &mut bob,
            Command::Chat {
                text: "ready?".into(),
                from: None,
            }
        )
        .await
    ));
    h.pass(Duration::from_secs(299)).await;
    assert!(!h.ended(), "still open a second before the timeout");
    assert_eq!(h.log.count(StepKind::RoomClosed), 0);
    for c in [&mut ann, &mut bob, &mut cleo] {
        c.take();
    }

    h.pass(Duration::from_secs(1)).await;
    let told = ServerMessage::Error {
        re: None,
        code: ErrorCode::UnknownRoom,
        message: "this room has closed: its game did not start within 600 s".into(),
    };
    for c in [&mut ann, &mut bob, &mut cleo] {
        assert_eq!(c.take(), std::slice::from_ref(&told), "{} is told", c.name);
        assert_eq!(
            c.closed(),
            None,
            "the connection stays open for other rooms"
        );
    }
    assert!(h.ended(), "the room task ended");
    assert_eq!(h.log.kinds().last(), Some(&StepKind::RoomClosed));
    // Its tokens lead nowhere now.
    let mut back = h.client("Ann");
    assert_eq!(h.resume(&mut back, &ann.token(), None).await, None);
}

#[tokio::test(start_paused = true)]
async fn a_game_started_before_the_timeout_plays_on_past_it() {
    let mut h = Harness::with(
        settings(&[true, true]),
        ten_minutes(),
        Arc::new(MemoryLog::new()),
    )
    .await;
    let mut ann = h.client("Ann");
    let mut bob = h.client("Bob");
    h.take_seat(&mut ann, None).await.expect("seated");
    h.pass(Duration::from_secs(590)).await;
    h.take_seat(&mut bob, None).await.expect("seated");
    h.start(&mut ann).await;
    h.pass(Duration::from_secs(3000)).await;
    assert!(!h.ended());
    assert_eq!(h.summary().status, wire::RoomStatus::Playing);
    for c in [&mut ann, &mut bob] {
        let errors: Vec<_> = c
            .take()
            .into_iter()
            .filter(|m| matches!(m, ServerMessage::Error { .. }))
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
    }
}

/// As the campaign found it: one connected, idle client. Before issue 23 nothing closed
/// such a room (it was still open after a day of paused time); now the default timeout,
/// 30 minutes, does.
#[tokio::test(start_paused = true)]
async fn an_idle_client_keeps_a_lobby_no_longer_than_the_default_timeout() {
    let mut h = Harness::new(settings(&[true, true])).await;
    assert_eq!(Config::default().lobby_timeout, Duration::from_secs(1800));
    let mut ann = h.client("Ann");
    h.take_seat(&mut ann, None).await.expect("seated");
    ann.take();
    h.pass(Duration::from_secs(1799)).await;
    assert!(!h.ended());
    h.pass(Duration::from_secs(1)).await;
    assert!(h.ended());
    let told = ann.take();
    assert!(
        matches!(&told[..], [ServerMessage::Error { code: ErrorCode::UnknownRoom, message, .. }]
            if message == "this room has closed: its game did not start within 1800 s"),
        "{told:?}"
    );
}
