//! Taking a seat (and its token), resuming with the token, watching.

use super::*;
use crate::token::TokenHash;

#[tokio::test(start_paused = true)]
async fn a_seat_is_stored_with_its_token_hash_before_the_token_is_told() {
    let mut h = Harness::new(settings(&[true, true])).await;
    assert_eq!(h.log.kinds(), [StepKind::RoomSaved], "the new room");
    let mut ann = h.client("Ann");
    assert_eq!(h.take_seat(&mut ann, None).await, Some(Role::Seat(0)));

    let frames = ann.take();
    assert_eq!(kinds(&frames), ["seated", "room"]);
    let ServerMessage::Seated {
        re,
        room,
        seat,
        token,
        last_command,
    } = &frames[0]
    else {
        unreachable!()
    };
    assert_eq!((*re, room.as_str(), *seat, *last_command), (1, "r1", 0, 1));
    assert!(crate::token::well_formed(token), "{token}");
    let ServerMessage::Room { room } = &frames[1] else {
        unreachable!()
    };
    assert_eq!(room.host, Some(0), "the creator's seat is the host's");
    assert_eq!(
        room.seats[0].occupant,
        wire::Occupant::Human {
            name: "Ann".into(),
            connected: true,
            bot_playing: None,
            account: None,
            level: None,
        }
    );
    assert_eq!(room.seats[1].occupant, wire::Occupant::Empty);

    // The store holds the seat with the token's hash (never the token) and the command.
    let saved = h.log.last_room().expect("saved");
    assert_eq!(saved.host, Some(0));
    let SeatRecord::Human {
        name,
        token_hash,
        last_command,
        ..
    } = &saved.seats[0]
    else {
        panic!("{saved:?}")
    };
    assert_eq!(name, "Ann");
    assert_eq!(*token_hash, TokenHash::of(token).to_hex());
    assert_ne!(token_hash, token);
    assert_eq!(*last_command, 1);
    assert!(matches!(saved.seats[1], SeatRecord::Open));

    // The next player takes the next open seat; Ann sees it.
    let mut bob = h.client("Bob");
    assert_eq!(h.take_seat(&mut bob, None).await, Some(Role::Seat(1)));
    let seen = ann.take();
    assert_eq!(kinds(&seen), ["room"]);
    let ServerMessage::Room { room } = &seen[0] else {
        unreachable!()
    };
    assert!(matches!(&room.seats[1].occupant, wire::Occupant::Human { name, .. } if name == "Bob"));
    assert_eq!(room.host, Some(0), "still Ann");
    assert_ne!(bob.token(), ann.token());
    assert_eq!(h.log.count(StepKind::RoomSaved), 3);
}

#[tokio::test(start_paused = true)]
async fn a_taken_missing_or_full_seat_and_a_bad_name_are_refused() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let mut ann = h.client("Ann");
    h.take_seat(&mut ann, Some(1)).await.expect("seat 1");
    let saved = h.log.count(StepKind::RoomSaved);
    let refused = |c: &mut Client| refusal(c.take().last().expect("an answer"));

    let mut bob = h.client("Bob");
    assert_eq!(h.take_seat(&mut bob, Some(1)).await, None);
    assert_eq!(
        refused(&mut bob),
        (ErrorCode::SeatUnavailable, "seat 1 is taken".into())
    );
    assert_eq!(h.take_seat(&mut bob, Some(7)).await, None);
    assert_eq!(
        refused(&mut bob),
        (
            ErrorCode::SeatUnavailable,
            "no seat 7: this room has seats 0 to 1".into()
        )
    );
    let mut nameless = h.client("a\u{200B}b");
    assert_eq!(h.take_seat(&mut nameless, None).await, None);
    assert_eq!(refused(&mut nameless).0, ErrorCode::InvalidName);
    assert_eq!(h.take_seat(&mut bob, None).await, Some(Role::Seat(0)));
    let mut cid = h.client("Cid");
    assert_eq!(h.take_seat(&mut cid, None).await, None);
    assert_eq!(
        refused(&mut cid),
        (ErrorCode::SeatUnavailable, "no seat is open".into())
    );
    assert_eq!(
        h.log.count(StepKind::RoomSaved),
        saved + 1,
        "only Bob's seat was stored"
    );
    assert_eq!(
        h.summary().host,
        Some(1),
        "the creator's seat is the host's"
    );
}

#[tokio::test(start_paused = true)]
async fn the_token_resumes_the_seat_and_closes_the_old_connection_a_wrong_one_is_refused() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let mut ann = h.client("Ann");
    let mut bob = h.client("Bob");
    h.take_seat(&mut ann, None).await.expect("seated");
    h.take_seat(&mut bob, None).await.expect("seated");
    assert!(is_ack(
        &h.ask(
            &mut ann,
            Command::Chat {
                text: "hello".into(),
                from: None,
            }
        )
        .await
    ));
    let token = ann.token();
    bob.take();

    // Another tab of Ann's resumes: same seat and token, the commands numbered so far,
    // the room and the chat; the first tab is closed (4004).
    let mut tab = h.client("Ann");
    assert_eq!(h.resume(&mut tab, &token, None).await, Some(Role::Seat(0)));
    let frames = tab.take();
    assert_eq!(kinds(&frames), ["seated", "room", "chat_log"]);
    assert_eq!(
        frames[0],
        ServerMessage::Seated {
            re: 1,
            room: "r1".into(),
            seat: 0,
            token: token.clone(),
            last_command: 1,
        }
    );
    assert_eq!(ann.closed(), Some(CloseCode::Replaced));
    assert_eq!(tab.closed(), None);
    assert_eq!(kinds(&bob.take()), ["room"]);

    // A token of no seat here, and garbage, are refused alike; nothing changes.
    let saved = h.log.steps().len();
    let (other, _) = crate::token::new_token().expect("randomness");
    for wrong in [other.as_str(), "xyz", ""] {
        let mut eve = h.client("Eve");
        assert_eq!(h.resume(&mut eve, wrong, None).await, None);
        assert_eq!(
            refusal(&eve.take()[0]),
            (
                ErrorCode::BadToken,
                "this token holds no seat in this room".into()
            )
        );
    }
    assert_eq!(h.log.steps().len(), saved, "resuming writes nothing");
    assert!(bob.take().is_empty(), "nobody hears of refused resumes");
}

#[tokio::test(start_paused = true)]
async fn a_resume_in_a_game_catches_up_from_last_event_or_with_a_snapshot() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let (mut first, mut other) = two_players_started(&mut h).await;
    let d = first.pending.clone().expect("asked");
    assert!(is_ack(&h.reply(&mut first, d.decision, end_phase()).await));
    let seen = first.next_event;
    assert!(seen > 3, "{seen}");
    let token = first.token();
    let seat = first.seat.expect("seated");
    other.take();

    // With the last event it saw: the events after it, then its decision again.
    let mut tab = h.client("again");
    assert_eq!(
        h.resume(&mut tab, &token, Some(2)).await,
        Some(Role::Seat(seat))
    );
    let frames = tab.take();
    assert_eq!(kinds(&frames), ["seated", "room", "events", "decision"]);
    let ServerMessage::Events {
        first: from,
        events,
        view,
    } = &frames[2]
    else {
        unreachable!()
    };
    assert_eq!(*from, 3);
    assert_eq!(*from + events.len() as u64, seen);
    assert_eq!(view.seat, Some(seat));
    assert_eq!(tab.pending, first.pending, "the same decision");

    // Without it: a snapshot.
    let mut tab2 = h.client("again2");
    h.resume(&mut tab2, &token, None).await.expect("seated");
    let frames = tab2.take();
    assert_eq!(kinds(&frames), ["seated", "room", "snapshot", "decision"]);
    assert!(matches!(frames[2], ServerMessage::Snapshot { next_event, .. } if next_event == seen));
    assert_eq!(
        other.take().len(),
        2,
        "the other player saw two room updates"
    );
}

#[tokio::test(start_paused = true)]
async fn spectators_watch_without_a_seat_up_to_the_rooms_limit() {
    let config = Config {
        max_spectators: 1,
        ..config()
    };
    let mut h = Harness::with(settings(&[true, false]), config, Arc::new(MemoryLog::new())).await;
    let mut ann = h.client("Ann");
    h.take_seat(&mut ann, None).await.expect("seated");
    ann.take();
    let mut cleo = h.client("Cleo");
    assert_eq!(h.spectate(&mut cleo).await, Some(Role::Spectator));
    let frames = cleo.take();
    assert_eq!(kinds(&frames), ["spectating", "room"], "no game yet");
    assert_eq!(
        frames[0],
        ServerMessage::Spectating {
            re: 1,
            room: "r1".into()
        }
    );
    assert!(matches!(&frames[1], ServerMessage::Room { room } if room.spectators == 1));
    assert!(matches!(&ann.take()[..], [ServerMessage::Room { room }] if room.spectators == 1));

    let mut dan = h.client("Dan");
    assert_eq!(h.spectate(&mut dan).await, None);
    assert_eq!(
        refusal(&dan.take()[0]),
        (
            ErrorCode::TooManySpectators,
            "this room has its 1 spectators already".into()
        )
    );

    // A spectator neither starts nor answers.
    let start = h.ask(&mut cleo, Command::Start).await;
    assert_eq!(refusal(&start).0, ErrorCode::NotSeated);
    cleo.take();
    h.start(&mut ann).await;
    let watched = cleo.take();
    assert_eq!(kinds(&watched), ["room", "events"], "never a decision");
    let ServerMessage::Events { view, .. } = &watched[1] else {
        unreachable!()
    };
    assert_eq!((view.seat, view.hand.as_ref()), (None, None));
    let answer = h
        .ask(
            &mut cleo,
            Command::Reply {
                decision: 0,
                reply: end_phase(),
            },
        )
        .await;
    assert_eq!(refusal(&answer).0, ErrorCode::NotSeated);

    // A spectator who arrives now gets the game as a snapshot; leaving frees the place.
    assert!(is_ack(&h.ask(&mut cleo, Command::Leave).await));
    assert_eq!(h.spectate(&mut dan).await, Some(Role::Spectator));
    assert_eq!(kinds(&dan.take()), ["spectating", "room", "snapshot"]);
    assert_eq!(h.summary().spectators, 1);
}
