//! Replies: refused ones change nothing; an accepted one is stored, numbered, before
//! anyone hears of it; the history pages through the events.

use super::*;

#[tokio::test(start_paused = true)]
async fn a_stale_decision_number_is_refused_and_changes_nothing() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let (mut first, mut other) = two_players_started(&mut h).await;
    let d = first.pending.clone().expect("asked");
    assert!(is_ack(&h.reply(&mut first, d.decision, end_phase()).await));
    let now = first.pending.clone().expect("the Buy phase");
    assert_ne!(now.decision, d.decision);
    first.take();
    other.take();
    let steps = h.log.steps().len();
    let summary = h.summary();

    // The decision just answered, again (a double click).
    let stale = h.reply(&mut first, d.decision, end_phase()).await;
    let (code, message) = refusal(&stale);
    assert_eq!(code, ErrorCode::StaleDecision);
    assert_eq!(
        message,
        format!(
            "decision {} is not pending; decision {} is, for seat {}",
            d.decision, now.decision, now.seat
        )
    );
    // Only the refusal: no events, no new decision, for anyone; nothing stored.
    assert_eq!(kinds(&first.take()), ["error"]);
    assert!(other.take().is_empty());
    assert_eq!(h.log.steps().len(), steps);
    assert_eq!(h.summary(), summary);
    // The pending decision still takes its answer.
    let ok = h.reply(&mut first, now.decision, end_phase()).await;
    assert!(is_ack(&ok), "{ok:?}");
    assert_eq!(h.log.replies().len(), 2);
}

#[tokio::test(start_paused = true)]
async fn a_reply_for_another_seat_or_one_the_prompt_does_not_take_is_refused() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let (mut first, mut other) = two_players_started(&mut h).await;
    let d = first.pending.clone().expect("asked");
    first.take();
    other.take();

    let theirs = h.reply(&mut other, d.decision, end_phase()).await;
    assert_eq!(refusal(&theirs).0, ErrorCode::NotYourDecision);
    // An Action phase takes no chosen cards; a Buy only of what the Treasures in hand
    // afford (a starting hand brings $2 to $5: never a Province); no card that is not
    // in the Supply.
    let wrong = h
        .reply(&mut first, d.decision, wire::Reply::Cards { cards: vec![] })
        .await;
    assert_eq!(refusal(&wrong).0, ErrorCode::WrongKind, "{wrong:?}");
    let dear = h
        .reply(
            &mut first,
            d.decision,
            wire::Reply::Buy {
                card: "province".into(),
            },
        )
        .await;
    assert_eq!(refusal(&dear).0, ErrorCode::NotAnOption, "{dear:?}");
    let unknown = h
        .reply(
            &mut first,
            d.decision,
            wire::Reply::Play {
                card: "dragon".into(),
            },
        )
        .await;
    assert_eq!(refusal(&unknown).0, ErrorCode::UnknownCard, "{unknown:?}");
    assert!(h.log.replies().is_empty());
    assert_eq!(kinds(&first.take()), ["error", "error", "error"]);
    assert_eq!(kinds(&other.take()), ["error"]);
    assert_eq!(h.metrics.replies_rejected.get(), 4);
}

#[tokio::test(start_paused = true)]
async fn an_accepted_reply_is_stored_before_any_viewer_is_told() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let (mut first, mut other) = two_players_started(&mut h).await;
    let mut cleo = h.client("Cleo");
    h.spectate(&mut cleo).await.expect("watching");
    let d = first.pending.clone().expect("asked");
    for c in [&mut first, &mut other, &mut cleo] {
        c.take();
    }

    // The log takes the step but does not commit it yet.
    h.log.hold(Some(StepKind::ReplyAccepted));
    let cmd = first.next_cmd();
    let msg = RoomMsg::Command {
        conn: first.conn.clone(),
        cmd,
        command: Command::Reply {
            decision: d.decision,
            reply: end_phase(),
        },
    };
    h.handle.tx.send(msg).await.expect("the room runs");
    for _ in 0..100 {
        if !h.log.held().is_empty() {
            break;
        }
        tokio::task::yield_now().await;
    }
    let held = h.log.held();
    assert!(
        matches!(&held[..], [Step::ReplyAccepted { index: 0, reply: Reply::EndPhase, command: Some(c), player, .. }]
            if *c == cmd && Some(player.0) == first.seat),
        "{held:?}"
    );
    for _ in 0..100 {
        tokio::task::yield_now().await;
    }
    // Not durable yet: nobody has heard of it, not even the player (no ack).
    for c in [&mut first, &mut other, &mut cleo] {
        assert!(c.take().is_empty(), "{} was told too early", c.name);
    }
    assert!(h.log.replies().is_empty());

    // Committed: now everyone is told.
    h.log.release();
    h.settle().await;
    let seat = first.seat.expect("seated");
    let mine = first.take();
    assert_eq!(kinds(&mine), ["events", "decision", "ack"]);
    assert!(
        matches!(&mine[1], ServerMessage::Decision(n) if n.seat == seat && n.decision != d.decision)
    );
    assert_eq!(kinds(&other.take()), ["events"]);
    assert_eq!(kinds(&cleo.take()), ["events"]);
    assert_eq!(h.log.replies().len(), 1);
}

#[tokio::test(start_paused = true)]
async fn accepted_replies_are_numbered_with_their_seat_digest_and_command() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let (mut first, mut other) = two_players_started(&mut h).await;
    let seat = first.seat.expect("seated");
    // The first player's whole turn: Action phase, Buy phase (treasures, then end).
    let (_, buy) = h.play_treasures(&mut first).await;
    let cmd = h
        .send(
            &mut first,
            Command::Reply {
                decision: buy.decision,
                reply: end_phase(),
            },
        )
        .await;
    assert!(first.pending.is_none(), "the turn passed");
    other.drain();
    assert!(other.pending.is_some(), "to the other player");
    let steps = h.log.steps();
    let replies: Vec<_> = steps
        .iter()
        .filter_map(|s| match s {
            Step::ReplyAccepted {
                room,
                index,
                player,
                reply,
                digest,
                command,
            } => Some((
                room.clone(),
                *index,
                *player,
                reply.clone(),
                *digest,
                *command,
            )),
            _ => None,
        })
        .collect();
    assert_eq!(replies.len(), 3, "{replies:?}");
    for (i, (room, index, player, _, _, command)) in replies.iter().enumerate() {
        assert_eq!((room.as_str(), *index), ("r1", i as u64));
        assert_eq!(*player, PlayerId(seat));
        assert!(command.is_some());
    }
    assert_eq!(replies[0].3, Reply::EndPhase);
    assert_eq!(replies[1].3, Reply::PlayAllTreasures);
    assert_eq!(replies[2].3, Reply::EndPhase);
    assert_eq!(replies[2].5, Some(cmd));
    assert!(
        replies[0].4 != replies[1].4 && replies[1].4 != replies[2].4,
        "each reply moves the digest"
    );
    assert_eq!(h.metrics.replies.get(), 3);
}

#[tokio::test(start_paused = true)]
async fn history_pages_through_the_events_as_each_viewer_may_see_them() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let mut early = h.client("Early");
    h.take_seat(&mut early, None).await.expect("seated");
    let before = h
        .ask(&mut early, Command::History { from: 0, to: None })
        .await;
    assert_eq!(
        refusal(&before),
        (ErrorCode::GameNotStarted, "the game has not started".into())
    );
    let mut bob = h.client("Bob");
    h.take_seat(&mut bob, None).await.expect("seated");
    h.start(&mut early).await;
    bob.drain();
    let (mut first, _) = match (early.pending.is_some(), bob.pending.is_some()) {
        (true, _) => (early, bob),
        _ => (bob, early),
    };
    // A whole turn: its clean-up draws the next hand.
    let (_, buy) = h.play_treasures(&mut first).await;
    assert!(is_ack(
        &h.reply(&mut first, buy.decision, end_phase()).await
    ));
    let total = first.next_event;
    // Every event the player was sent, in order, as it was sent.
    let sent: Vec<wire::GameEvent> = first
        .frames
        .iter()
        .flat_map(|m| match m {
            ServerMessage::Events { events, .. } => events.clone(),
            _ => Vec::new(),
        })
        .collect();
    assert_eq!(sent.len() as u64, total);

    let all = h
        .ask(&mut first, Command::History { from: 0, to: None })
        .await;
    let ServerMessage::History {
        first: from,
        events,
        ..
    } = &all
    else {
        panic!("{all:?}")
    };
    assert_eq!((*from, events), (0, &sent));
    // A page in the middle; past the end is cut to what exists.
    let page = h
        .ask(
            &mut first,
            Command::History {
                from: 1,
                to: Some(3),
            },
        )
        .await;
    assert!(
        matches!(&page, ServerMessage::History { first: 1, events, .. } if events[..] == sent[1..3]),
        "{page:?}"
    );
    let past = h
        .ask(
            &mut first,
            Command::History {
                from: total + 10,
                to: Some(total + 20),
            },
        )
        .await;
    assert!(
        matches!(&past, ServerMessage::History { first, events, .. } if *first == total && events.is_empty()),
        "{past:?}"
    );

    // A spectator gets the same events without the private parts (the cards drawn).
    let mut cleo = h.client("Cleo");
    h.spectate(&mut cleo).await.expect("watching");
    let watched = h
        .ask(&mut cleo, Command::History { from: 0, to: None })
        .await;
    let ServerMessage::History { events, .. } = &watched else {
        panic!("{watched:?}")
    };
    assert_eq!(events.len(), sent.len());
    let drawn = |e: &wire::GameEvent| matches!(e, wire::GameEvent::Drew { cards: Some(_), .. });
    assert!(sent.iter().any(drawn), "the player saw its cards: {sent:?}");
    assert!(!events.iter().any(drawn), "the spectator does not");
    // Someone outside the room gets nothing.
    let mut eve = h.client("Eve");
    let outside = h
        .ask(&mut eve, Command::History { from: 0, to: None })
        .await;
    assert_eq!(refusal(&outside).0, ErrorCode::NotInRoom);
}
