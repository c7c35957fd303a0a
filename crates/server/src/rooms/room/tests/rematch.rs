//! The end of a game and a rematch: the result is stored before anyone hears it, then a
//! player offers a rematch to the room's other members.

use super::*;

#[tokio::test(start_paused = true)]
async fn a_finished_game_is_stored_then_told_and_a_rematch_is_offered_to_the_others() {
    // Ann stays connected and lets her time run out at every decision (the server
    // answers for her), and the bot plays without a delay, so the whole game takes no
    // time on the paused clock. (A game nobody is connected to would stand still.)
    let mut s = settings(&[true, false]);
    s.decision_seconds = Some(1);
    let config = Config {
        bot_delay: Duration::ZERO,
        ..config()
    };
    let mut h = Harness::with(s, config, Arc::new(MemoryLog::new())).await;
    let mut ann = h.client("Ann");
    let mut cleo = h.client("Cleo");
    h.take_seat(&mut ann, None).await.expect("seated");
    h.spectate(&mut cleo).await.expect("watching");
    h.start(&mut ann).await;

    // Not before the end.
    let early = h
        .ask(
            &mut ann,
            Command::Rematch {
                room: "r2".into(),
                ours: true,
            },
        )
        .await;
    assert_eq!(
        refusal(&early),
        (
            ErrorCode::GameNotOver,
            "a rematch is offered once the game is over".into()
        )
    );
    let token = ann.token();
    let mut summary = h.handle.summary.clone();
    summary
        .wait_for(|s| s.status == wire::RoomStatus::Finished)
        .await
        .expect("the game ends");
    h.settle().await;

    // The spectator saw the end: the last events, the result, the room finished.
    let seen = cleo.take();
    let tail = kinds(&seen[seen.len() - 3..]);
    assert_eq!(tail, ["events", "game_over", "room"], "{tail:?}");
    let ServerMessage::GameOver(result) = &seen[seen.len() - 2] else {
        unreachable!()
    };
    assert_eq!(result.scores.len(), 2);
    assert_eq!(
        result.replies.len(),
        h.log.replies().len(),
        "every stored reply"
    );
    // Stored once, with the same scores.
    let finished: Vec<_> = h
        .log
        .steps()
        .into_iter()
        .filter_map(|s| match s {
            Step::GameFinished { scores, .. } => Some(scores),
            _ => None,
        })
        .collect();
    assert_eq!(finished.len(), 1);
    let stored: Vec<(u8, i32)> = finished[0].iter().map(|s| (s.player.0, s.vp)).collect();
    let told: Vec<(u8, i32)> = result.scores.iter().map(|s| (s.seat, s.vp)).collect();
    assert_eq!(stored, told);
    assert_eq!(h.metrics.games_finished.get(), 1);
    // The seed, secret until now, is the one stored at the start.
    let seeds: Vec<u64> = h
        .log
        .steps()
        .into_iter()
        .filter_map(|s| match s {
            Step::GameStarted { seed, .. } => Some(seed),
            _ => None,
        })
        .collect();
    assert_eq!(seeds.len(), 1);
    assert_eq!(result.seed, seeds[0].to_string());

    // Ann comes back on another connection for the result, and offers a rematch.
    let mut back = h.client("Ann");
    let seated = h.resume(&mut back, &token, None).await;
    assert_eq!(seated, Some(Role::Seat(0)));
    let frames = back.take();
    assert_eq!(kinds(&frames), ["seated", "room", "snapshot", "game_over"]);
    let ServerMessage::Seated { last_command, .. } = &frames[0] else {
        unreachable!()
    };
    back.number_from(*last_command);
    let same = h
        .ask(
            &mut back,
            Command::Rematch {
                room: h.id.clone(),
                ours: true,
            },
        )
        .await;
    assert_eq!(
        refusal(&same).0,
        ErrorCode::GameAlreadyStarted,
        "a new room"
    );
    back.take();
    let watcher = h
        .ask(
            &mut cleo,
            Command::Rematch {
                room: "r2".into(),
                ours: true,
            },
        )
        .await;
    assert_eq!(refusal(&watcher).0, ErrorCode::NotSeated);
    cleo.take();
    // Only in a room the offering connection created (the connection says whether it
    // did: tests/it/rematch.rs).
    let theirs = h
        .ask(
            &mut back,
            Command::Rematch {
                room: "r3".into(),
                ours: false,
            },
        )
        .await;
    assert_eq!(refusal(&theirs).0, ErrorCode::NotHost);
    back.take();
    let cmd = h
        .send(
            &mut back,
            Command::Rematch {
                room: "r2".into(),
                ours: true,
            },
        )
        .await;
    let offer = ServerMessage::Rematch {
        room: "r2".into(),
        seat: 0,
    };
    assert_eq!(
        back.take(),
        [ServerMessage::Ack { re: cmd }],
        "not to the offerer"
    );
    assert_eq!(cleo.take(), [offer]);

    // Whoever arrives later gets it after the result.
    let mut dan = h.client("Dan");
    h.spectate(&mut dan).await.expect("watching");
    assert_eq!(
        kinds(&dan.take()),
        ["spectating", "room", "snapshot", "game_over", "rematch"]
    );
    // The finished room closes after `--finished-room-ttl`.
    h.pass(Duration::from_secs(600)).await;
    assert!(h.ended());
    assert_eq!(h.log.kinds().last(), Some(&StepKind::RoomClosed));
    assert!(
        h.log.steps().iter().all(|s| s.room() == h.id),
        "one room's log"
    );
}
