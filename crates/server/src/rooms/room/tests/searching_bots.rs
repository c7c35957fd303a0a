//! `--search-rooms-per-address` in the room (issue 23, finding 3): a room made by a
//! known address holds a place among that address's rooms with searching bots while a
//! searching bot may play in it — from its settings, or a seat the host sets — and gives
//! it back when the bot goes or the game is over.

use super::*;
use std::net::{IpAddr, Ipv4Addr};

fn key() -> crate::budget::AddressKey {
    address_key(IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1)))
}

fn bot(b: &str) -> wire::SeatSetting {
    wire::SeatSetting::Bot { bot: b.into() }
}

#[tokio::test(start_paused = true)]
async fn a_searching_seat_takes_a_place_only_if_one_is_free_and_gives_it_back() {
    let counts = Arc::new(AddressCounts::default());
    // Another room of the same address holds the only place.
    let other = counts.try_hold(key(), 1).expect("free");
    let claim = Claim::new(counts.clone(), key(), 1);
    let mut h = Harness::with_claim(
        settings(&[true, true, false]),
        config(),
        Arc::new(MemoryLog::new()),
        Some(claim),
    )
    .await;
    let mut ann = h.client("Ann");
    h.take_seat(&mut ann, None).await.expect("seated");
    let saved = h.log.count(StepKind::RoomSaved);
    let set = |seat: u8, occupant| Command::SetSeat { seat, occupant };

    let refused = h.ask(&mut ann, set(1, bot("search"))).await;
    assert_eq!(
        refusal(&refused),
        (
            ErrorCode::TooManyRooms,
            "your address has 1 rooms with searching bots (\"search\") open, the most it may; choose another bot, or wait until one of those games ends".into()
        )
    );
    assert_eq!(h.log.count(StepKind::RoomSaved), saved, "nothing stored");
    assert_eq!(h.summary().seats[1].occupant, wire::Occupant::Empty);
    // Other bots need no place.
    assert!(is_ack(&h.ask(&mut ann, set(2, bot("militia"))).await));

    drop(other);
    assert!(is_ack(&h.ask(&mut ann, set(1, bot("search"))).await));
    assert_eq!(counts.held(key()), 1, "the room holds the place now");
    // A second searching seat in the same room takes no second place.
    assert!(is_ack(&h.ask(&mut ann, set(2, bot("search"))).await));
    assert_eq!(counts.held(key()), 1);
    assert!(is_ack(&h.ask(&mut ann, set(1, bot("easy"))).await));
    assert_eq!(counts.held(key()), 1, "one searching seat is left");
    assert!(is_ack(
        &h.ask(&mut ann, set(2, wire::SeatSetting::Open {})).await
    ));
    assert_eq!(counts.held(key()), 0, "no searching bot: the place is free");
}

#[tokio::test(start_paused = true)]
async fn a_seat_change_that_cannot_be_stored_takes_no_place() {
    let counts = Arc::new(AddressCounts::default());
    let claim = Claim::new(counts.clone(), key(), 1);
    let log = Arc::new(MemoryLog::new());
    let mut h =
        Harness::with_claim(settings(&[true, true]), config(), log.clone(), Some(claim)).await;
    let mut ann = h.client("Ann");
    h.take_seat(&mut ann, None).await.expect("seated");
    log.fail(
        Some(StepKind::RoomSaved),
        LogError::Failed("disk full".into()),
    );
    let refused = h
        .ask(
            &mut ann,
            Command::SetSeat {
                seat: 1,
                occupant: bot("search"),
            },
        )
        .await;
    assert_eq!(refusal(&refused).0, ErrorCode::Internal);
    assert_eq!(counts.held(key()), 0, "a refused command takes nothing");
}

/// A room whose settings have a searching bot (here the one standing in for absent
/// players) holds its place while its game goes on and gives it back at the end, before
/// the room closes.
#[tokio::test(start_paused = true)]
async fn the_place_is_given_back_when_the_game_is_over() {
    let counts = Arc::new(AddressCounts::default());
    let mut claim = Claim::new(counts.clone(), key(), 1);
    assert!(claim.hold(), "as the hub does for such settings");
    let mut s = settings(&[true, true]);
    s.abandoned = wire::AbandonPolicy::BotAfter {
        seconds: 0,
        bot: Some("search".into()),
    };
    // Bob stays connected and lets his time run out at every decision (a game nobody
    // is connected to would stand still), so the game ends on the paused clock.
    s.decision_seconds = Some(1);
    // No bot thinkers: the searching bot answers as `standard` at once (a thinker is a
    // thread of its own, which the paused clock would not wait for); the room holds its
    // place all the same, since its settings name a searching bot.
    let config = Config {
        bot_delay: Duration::ZERO,
        bot_threads: Some(0),
        ..config()
    };
    let mut h = Harness::with_claim(s, config, Arc::new(MemoryLog::new()), Some(claim)).await;
    let (mut first, _second) = two_players_started(&mut h).await;
    assert_eq!(counts.held(key()), 1);
    // One player leaves: the searching bot plays that seat to the end.
    assert!(is_ack(&h.ask(&mut first, Command::Leave).await));
    let mut summary = h.handle.summary.clone();
    summary
        .wait_for(|s| s.status == wire::RoomStatus::Finished)
        .await
        .expect("the game ends");
    h.settle().await;
    assert!(!h.ended(), "the finished room stays open for its players");
    assert_eq!(counts.held(key()), 0, "its bots think no more");
}
