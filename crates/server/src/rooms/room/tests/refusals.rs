//! What the room refuses before and around the start: starting too early or from the
//! wrong place, seat changes from anyone but the host, re-sent commands.

use super::*;

#[tokio::test(start_paused = true)]
async fn any_seated_player_starts_once_every_seat_is_filled_and_only_once() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let mut ann = h.client("Ann");
    let mut bob = h.client("Bob");
    let mut cleo = h.client("Cleo");
    h.take_seat(&mut ann, None).await.expect("seated");
    h.spectate(&mut cleo).await.expect("watching");

    let early = h.ask(&mut ann, Command::Start).await;
    assert_eq!(
        refusal(&early),
        (ErrorCode::SeatsNotFilled, "seats 1 are still open".into())
    );
    let watcher = h.ask(&mut cleo, Command::Start).await;
    assert_eq!(
        refusal(&watcher),
        (
            ErrorCode::NotSeated,
            "only a seated player may start the game".into()
        )
    );
    assert_eq!(h.log.count(StepKind::GameStarted), 0);
    assert_eq!(h.summary().status, wire::RoomStatus::Lobby);

    // Bob is not the host, and may start all the same (docs/protocol.md, `start`).
    h.take_seat(&mut bob, None).await.expect("seated");
    let cmd = h.send(&mut bob, Command::Start).await;
    assert_eq!(bob.answer(cmd), Some(ServerMessage::Ack { re: cmd }));
    let started: Vec<_> = h
        .log
        .steps()
        .into_iter()
        .filter_map(|s| match s {
            Step::GameStarted {
                room,
                setup,
                command,
                ..
            } => Some((room, setup, command)),
            _ => None,
        })
        .collect();
    assert_eq!(started.len(), 1);
    let (room, setup, command) = &started[0];
    assert_eq!((room.as_str(), *command), ("r1", Some((1, cmd))));
    assert_eq!(setup.players, 2);
    assert!(
        matches!(&setup.kingdom, dominion_engine::Kingdom::Cards(c) if c.len() == 10),
        "the kingdom is stored as drawn: {:?}",
        setup.kingdom
    );
    assert_eq!(h.summary().status, wire::RoomStatus::Playing);

    let again = h.ask(&mut ann, Command::Start).await;
    assert_eq!(refusal(&again).0, ErrorCode::GameAlreadyStarted);
    let mut late = h.client("Late");
    assert_eq!(h.take_seat(&mut late, None).await, None);
    assert_eq!(refusal(&late.take()[0]).0, ErrorCode::GameAlreadyStarted);
    assert_eq!(h.log.count(StepKind::GameStarted), 1);
}

#[tokio::test(start_paused = true)]
async fn only_the_host_changes_seats_only_unseated_ones_and_only_before_the_start() {
    let mut h = Harness::new(settings(&[true, true, true])).await;
    let mut ann = h.client("Ann"); // the creator
    let mut bob = h.client("Bob");
    // Bob sits down first: the creator is host all the same.
    h.take_seat(&mut bob, Some(1)).await.expect("seated");
    h.take_seat(&mut ann, Some(0)).await.expect("seated");
    assert_eq!(h.summary().host, Some(0));
    let bot = |b: &str| wire::SeatSetting::Bot { bot: b.into() };
    let set = |seat: u8, occupant: wire::SeatSetting| Command::SetSeat { seat, occupant };
    let saved = h.log.count(StepKind::RoomSaved);

    let not_host = h.ask(&mut bob, set(2, bot("big_money"))).await;
    assert_eq!(refusal(&not_host).0, ErrorCode::NotHost);
    let cases = [
        // Bob's seat, Ann's own, one that does not exist, a bot nobody knows.
        (set(1, bot("big_money")), ErrorCode::SeatUnavailable),
        (
            set(0, wire::SeatSetting::Open {}),
            ErrorCode::SeatUnavailable,
        ),
        (set(7, bot("big_money")), ErrorCode::SeatUnavailable),
        (set(2, bot("nobody")), ErrorCode::UnknownBot),
    ];
    for (command, code) in cases {
        let answer = h.ask(&mut ann, command).await;
        assert_eq!(refusal(&answer).0, code, "{answer:?}");
    }
    assert_eq!(h.log.count(StepKind::RoomSaved), saved, "nothing stored");
    assert_eq!(h.summary().seats[2].occupant, wire::Occupant::Empty);
    bob.take();

    // In, and everyone sees it; stored with the settings.
    assert!(is_ack(&h.ask(&mut ann, set(2, bot("militia"))).await));
    let seen = bob.take();
    assert!(
        matches!(&seen[..], [ServerMessage::Room { room }]
            if room.seats[2].occupant == wire::Occupant::Bot { bot: "militia".into() }
            && room.settings.seats[2] == bot("militia")),
        "{seen:?}"
    );
    let stored = h.log.last_room().expect("saved");
    assert!(matches!(&stored.seats[2], SeatRecord::Bot { bot } if bot == "militia"));
    assert_eq!(stored.settings.seats[2], bot("militia"));
    // Out again.
    assert!(is_ack(
        &h.ask(&mut ann, set(2, wire::SeatSetting::Open {})).await
    ));
    assert!(matches!(
        h.log.last_room().expect("saved").seats[2],
        SeatRecord::Open
    ));
    assert!(is_ack(&h.ask(&mut ann, set(2, bot("smithy"))).await));

    // After the start nothing changes.
    h.start(&mut ann).await;
    let late = h.ask(&mut ann, set(2, wire::SeatSetting::Open {})).await;
    assert_eq!(
        refusal(&late),
        (
            ErrorCode::GameAlreadyStarted,
            "seats change only before the game starts".into()
        )
    );
}

#[tokio::test(start_paused = true)]
async fn a_command_id_not_above_the_seats_last_is_a_duplicate_and_not_applied() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let (mut first, mut other) = two_players_started(&mut h).await;
    let d = first.pending.clone().expect("asked");
    let cmd = first.next_cmd();
    let reply = || Command::Reply {
        decision: d.decision,
        reply: end_phase(),
    };
    h.send_as(&mut first, cmd, reply()).await;
    assert_eq!(first.answer(cmd), Some(ServerMessage::Ack { re: cmd }));
    let replies = h.log.replies();
    assert_eq!(replies.len(), 1);
    assert_eq!(replies[0].3, Some(cmd), "stored with its command id");
    other.take();

    // The same command again (a client re-sending after a reconnect): refused as a
    // duplicate, before it is judged; nothing is stored or shown.
    first.take();
    h.send_as(&mut first, cmd, reply()).await;
    let frames = first.take();
    assert_eq!(frames.len(), 1, "{frames:?}");
    let (code, message) = refusal(&frames[0]);
    assert_eq!(code, ErrorCode::DuplicateCommand);
    assert!(
        message.contains(&format!("command {cmd} is not above")),
        "{message}"
    );
    assert_eq!(h.log.replies().len(), 1);
    assert!(other.take().is_empty());
}
