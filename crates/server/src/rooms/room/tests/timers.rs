//! Time in a room, on tokio's paused clock: the bots' delay, the decision deadline, seats
//! of absent players (freed in the lobby, played by a bot in a game), the empty lobby.

use super::*;

/// The replies stored for `seat`, with their command ids.
fn replies_of(h: &Harness, seat: u8) -> Vec<Option<u64>> {
    h.log
        .replies()
        .into_iter()
        .filter(|r| r.1 == PlayerId(seat))
        .map(|r| r.3)
        .collect()
}

#[tokio::test(start_paused = true)]
async fn a_bot_answers_after_the_bot_delay_and_only_then() {
    // `standard` answers each phase move on its own (a reference bot ends its Action
    // phase with its Buy: one move a money turn), so one turn shows several delays.
    let mut s = settings(&[true, false]);
    s.seats[1] = wire::SeatSetting::Bot {
        bot: "standard".into(),
    };
    let mut h = Harness::new(s).await;
    let mut ann = one_player_against_a_bot(&mut h).await;
    // Whoever starts, bring the game to the bot's first decision.
    h.pass_turn(&mut ann).await;
    ann.take();
    let replies = h.log.replies().len();

    h.pass(Duration::from_millis(299)).await;
    assert_eq!(h.log.replies().len(), replies, "not before the delay");
    assert!(ann.take().is_empty());
    h.pass(Duration::from_millis(1)).await;
    let new = &h.log.replies()[replies..];
    assert_eq!(new.len(), 1, "one move per delay: {new:?}");
    let (index, player, _, command) = &new[0];
    assert_eq!(
        (*index, *player, *command),
        (replies as u64, PlayerId(1), None),
        "a bot's reply carries no command id"
    );
    let seen = ann.take();
    assert_eq!(kinds(&seen), ["events"], "Ann sees the bot's move");
    // And the next one a delay later.
    h.pass(Duration::from_millis(300)).await;
    assert_eq!(h.log.replies().len(), replies + 2);
}

#[tokio::test(start_paused = true)]
async fn when_decision_time_runs_out_the_server_answers_for_the_player() {
    let mut s = settings(&[true, true]);
    s.decision_seconds = Some(5);
    let mut h = Harness::new(s).await;
    let (mut first, mut other) = two_players_started(&mut h).await;
    let seat = first.seat.expect("seated");
    let asked = first.pending.clone().expect("asked");
    assert_eq!(asked.deadline_ms, Some(5000));
    other.take();
    first.take();

    h.pass(Duration::from_millis(4999)).await;
    assert!(h.log.replies().is_empty(), "not before the deadline");
    h.pass(Duration::from_millis(1)).await;
    assert_eq!(replies_of(&h, seat), [None], "answered by the server");
    let mine = first.take();
    assert_eq!(kinds(&mine), ["events", "decision"]);
    let ServerMessage::Decision(next) = &mine[1] else {
        unreachable!()
    };
    assert_ne!(next.decision, asked.decision);
    assert_eq!(
        next.deadline_ms,
        Some(5000),
        "a new decision, a new deadline"
    );
    assert_eq!(kinds(&other.take()), ["events"]);
    // The player answering in time keeps the seat's next deadline away.
    h.pass(Duration::from_millis(4000)).await;
    let ok = h.reply(&mut first, next.decision, end_phase()).await;
    assert!(is_ack(&ok), "{ok:?}");
    assert_eq!(replies_of(&h, seat).len(), 2);
    assert!(replies_of(&h, seat)[1].is_some(), "the player's own reply");
}

#[tokio::test(start_paused = true)]
async fn a_lobby_seat_is_freed_after_the_absence_allowed_and_the_empty_room_then_closes() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let mut ann = h.client("Ann");
    h.take_seat(&mut ann, None).await.expect("seated");
    h.detach(&ann).await;
    assert!(matches!(
        &h.summary().seats[0].occupant,
        wire::Occupant::Human {
            connected: false,
            ..
        }
    ));
    let saved = h.log.count(StepKind::RoomSaved);

    // The room's `abandoned` allows 60 s (the default) before the seat is freed.
    h.pass(Duration::from_secs(59)).await;
    assert_eq!(h.log.count(StepKind::RoomSaved), saved);
    h.pass(Duration::from_secs(1)).await;
    let stored = h.log.last_room().expect("saved");
    assert!(matches!(stored.seats[0], SeatRecord::Open), "{stored:?}");
    assert_eq!(stored.host, None, "nobody is host of an empty room");
    assert_eq!(h.summary().seats[0].occupant, wire::Occupant::Empty);
    assert!(!h.ended());

    // Nobody connected for `--empty-room-ttl` (5 min from the detach): the room closes.
    h.pass(Duration::from_secs(239)).await;
    assert!(!h.ended());
    assert_eq!(h.log.count(StepKind::RoomClosed), 0);
    h.pass(Duration::from_secs(1)).await;
    assert!(h.ended(), "the room task ended");
    assert_eq!(h.log.kinds().last(), Some(&StepKind::RoomClosed));
    // Its token no longer leads anywhere: the room is gone.
    let mut back = h.client("Ann");
    assert_eq!(h.resume(&mut back, &ann.token(), None).await, None);
}

#[tokio::test(start_paused = true)]
async fn a_bot_plays_a_seat_away_too_long_until_its_player_resumes() {
    let mut s = settings(&[true, true]);
    s.abandoned = wire::AbandonPolicy::BotAfter {
        seconds: 30,
        bot: Some("big_money".into()),
    };
    let mut h = Harness::new(s).await;
    let (mut first, mut away) = two_players_started(&mut h).await;
    // The first player ends the turn; the other is asked and has gone.
    h.pass_turn(&mut first).await;
    away.drain();
    assert!(away.pending.is_some());
    let away_seat = away.seat.expect("seated");
    h.detach(&away).await;
    first.take();
    let replies = h.log.replies().len();

    h.pass(Duration::from_secs(29)).await;
    assert_eq!(h.log.replies().len(), replies, "the game waits");
    h.pass(Duration::from_secs(1)).await;
    let seen = first.take();
    let ServerMessage::Room { room } = &seen[0] else {
        panic!("{seen:?}")
    };
    assert_eq!(
        room.seats[away_seat as usize].occupant,
        wire::Occupant::Human {
            name: away.name.clone(),
            connected: false,
            bot_playing: Some("big_money".into()),
            account: None,
            level: None,
        }
    );
    // The bot answers at once (the decision has waited longer than the bot delay)...
    assert_eq!(replies_of(&h, away_seat), [None]);
    // ...then at the bot's pace, to the end of the turn (big_money's money turn is one
    // move: its Buy answered at the Action phase; a turn it buys nothing in, two).
    h.until_asked(&mut first).await;
    let by_bot = replies_of(&h, away_seat);
    assert!(
        !by_bot.is_empty() && by_bot.iter().all(Option::is_none),
        "{by_bot:?}"
    );
    h.pass_turn(&mut first).await;

    // The player comes back: the seat is theirs again, its decision with it, and the bot
    // no longer plays it.
    let mut back = h.client("back");
    assert_eq!(
        h.resume(&mut back, &away.token(), None).await,
        Some(Role::Seat(away_seat))
    );
    assert_eq!(
        kinds(&back.take()),
        ["seated", "room", "snapshot", "decision"]
    );
    assert!(matches!(
        &h.summary().seats[away_seat as usize].occupant,
        wire::Occupant::Human {
            connected: true,
            bot_playing: None,
            ..
        }
    ));
    let before = h.log.replies().len();
    h.pass(Duration::from_secs(600)).await;
    assert_eq!(
        h.log.replies().len(),
        before,
        "the game waits for its player"
    );
}

/// While a node of an earlier release may read the game (a rolling upgrade: its engine
/// cannot replay a Buy answered at the Action phase), a reference bot's money turn is
/// made a move at a time — the Action phase ended, then the Buy phase's moves; once no
/// such node is left, in one reply.
#[tokio::test(start_paused = true)]
async fn a_bots_money_turn_is_split_while_an_earlier_release_may_read_the_game() {
    let mut h = Harness::new(settings(&[true, false])).await;
    let mut ann = one_player_against_a_bot(&mut h).await;
    // The bot's turns, each as (its first reply, how many replies it made).
    let bot_turn = |h: &Harness, from: usize| {
        let bots: Vec<Reply> = h.log.replies()[from..]
            .iter()
            .filter(|r| r.1 == PlayerId(1))
            .map(|r| r.2.clone())
            .collect();
        (bots.first().cloned(), bots.len())
    };
    h.log.set_earlier_release(true);
    for _ in 0..3 {
        h.pass_turn(&mut ann).await;
        let from = h.log.replies().len();
        h.until_asked(&mut ann).await;
        let (first, n) = bot_turn(&h, from);
        assert_eq!(first, Some(Reply::EndPhase), "split: {n} replies");
        assert!(n >= 2, "the Buy phase's moves one by one: {n}");
    }
    h.log.set_earlier_release(false);
    let mut combined = 0;
    for _ in 0..3 {
        h.pass_turn(&mut ann).await;
        let from = h.log.replies().len();
        h.until_asked(&mut ann).await;
        let (first, n) = bot_turn(&h, from);
        if matches!(first, Some(Reply::Buy(_))) {
            assert_eq!(n, 1, "a money turn in one reply");
            combined += 1;
        }
    }
    assert!(
        combined > 0,
        "no Buy answered at the Action phase in three turns"
    );
}
