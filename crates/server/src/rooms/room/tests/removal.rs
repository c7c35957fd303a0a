//! The host's `remove` (issue 24): a player or a spectator taken out of a room that has
//! not started, told so, and kept out of it by address and by name.

use super::*;
use std::net::{IpAddr, Ipv4Addr};

fn addr(last: u8) -> Option<IpAddr> {
    Some(IpAddr::V4(Ipv4Addr::new(192, 0, 2, last)))
}

fn removed_from(c: &mut Client) -> Vec<String> {
    c.take()
        .into_iter()
        .filter_map(|m| match m {
            ServerMessage::Removed { room } => Some(room),
            _ => None,
        })
        .collect()
}

/// Ann hosts a three-seat room; Bob (192.0.2.2) sits in seat 1.
async fn hosted() -> (Harness, Client, Client) {
    let mut h = Harness::new(settings(&[true, true, true])).await;
    let mut ann = h.client("Ann");
    ann.from = addr(1);
    let mut bob = h.client("Bob");
    bob.from = addr(2);
    assert_eq!(h.take_seat(&mut ann, None).await, Some(Role::Seat(0)));
    assert_eq!(h.take_seat(&mut bob, None).await, Some(Role::Seat(1)));
    assert_eq!(h.summary().host, Some(0));
    (h, ann, bob)
}

#[tokio::test(start_paused = true)]
async fn the_host_removes_a_player_whose_seat_opens_and_who_cannot_come_back() {
    let (mut h, mut ann, mut bob) = hosted().await;
    let saved = h.log.count(StepKind::RoomSaved);
    bob.take();
    let answer = h
        .ask(
            &mut ann,
            Command::Remove {
                who: wire::Removable::Seat { seat: 1 },
            },
        )
        .await;
    assert!(is_ack(&answer), "{answer:?}");
    assert_eq!(removed_from(&mut bob), ["r1"]);
    assert!(bob.conn.take_let_go().is_some(), "the connection is let go");
    let seats = h.summary().seats;
    assert!(
        matches!(seats[1].occupant, wire::Occupant::Empty),
        "{seats:?}"
    );
    assert_eq!(
        h.log.count(StepKind::RoomSaved),
        saved + 1,
        "the freed seat is stored"
    );

    // Back from the same address under another name: refused, and nothing changes.
    let mut again = h.client("Robert");
    again.from = addr(2);
    assert_eq!(h.take_seat(&mut again, None).await, None);
    assert_eq!(
        refusal(again.frames.last().expect("an answer")),
        (
            ErrorCode::RemovedByHost,
            "the room's host removed you from this room".into()
        )
    );
    // Under the same name from another address (case aside): refused too, watching too.
    let mut renamed = h.client("BOB");
    renamed.from = addr(3);
    assert_eq!(h.take_seat(&mut renamed, None).await, None);
    assert_eq!(h.spectate(&mut renamed).await, None);
    // Anyone else takes the seat.
    let mut cleo = h.client("Cleo");
    cleo.from = addr(4);
    assert_eq!(h.take_seat(&mut cleo, Some(1)).await, Some(Role::Seat(1)));
}

#[tokio::test(start_paused = true)]
async fn the_host_removes_every_spectator_watching_under_a_name() {
    let (mut h, mut ann, _bob) = hosted().await;
    let mut eve = h.client("Eve");
    eve.from = addr(5);
    let mut eve2 = h.client("eve");
    eve2.from = addr(6);
    let mut dan = h.client("Dan");
    dan.from = addr(7);
    for c in [&mut eve, &mut eve2, &mut dan] {
        assert_eq!(h.spectate(c).await, Some(Role::Spectator));
    }
    assert_eq!(h.summary().spectators, 3);
    let answer = h
        .ask(
            &mut ann,
            Command::Remove {
                who: wire::Removable::Spectator { name: "EVE".into() },
            },
        )
        .await;
    assert!(is_ack(&answer), "{answer:?}");
    assert_eq!(removed_from(&mut eve), ["r1"]);
    assert_eq!(removed_from(&mut eve2), ["r1"]);
    assert!(removed_from(&mut dan).is_empty());
    assert_eq!(h.summary().spectators, 1);
    // Removed spectators no longer get the room's frames.
    ann.take();
    h.ask(&mut ann, Command::Leave).await;
    h.settle().await;
    assert!(eve.take().is_empty());
    let mut back = h.client("Evelyn");
    back.from = addr(6);
    assert_eq!(h.spectate(&mut back).await, None);
}

#[tokio::test(start_paused = true)]
async fn only_the_host_removes_only_others_and_only_before_the_start() {
    let (mut h, mut ann, mut bob) = hosted().await;
    let remove = |seat| Command::Remove {
        who: wire::Removable::Seat { seat },
    };
    let not_host = h.ask(&mut bob, remove(0)).await;
    assert_eq!(refusal(&not_host).0, ErrorCode::NotHost);
    let own = h.ask(&mut ann, remove(0)).await;
    assert_eq!(
        refusal(&own),
        (
            ErrorCode::SeatUnavailable,
            "that is your own seat: leave the room instead".into()
        )
    );
    let empty = h.ask(&mut ann, remove(2)).await;
    assert_eq!(
        refusal(&empty),
        (
            ErrorCode::SeatUnavailable,
            "no player sits in seat 2".into()
        )
    );
    let nobody = h
        .ask(
            &mut ann,
            Command::Remove {
                who: wire::Removable::Spectator { name: "Zed".into() },
            },
        )
        .await;
    assert_eq!(
        refusal(&nobody),
        (
            ErrorCode::NotInRoom,
            "nobody watches this room as \"Zed\"".into()
        )
    );
    let mut cleo = h.client("Cleo");
    assert_eq!(h.take_seat(&mut cleo, None).await, Some(Role::Seat(2)));
    h.start(&mut ann).await;
    let started = h.ask(&mut ann, remove(1)).await;
    assert_eq!(
        refusal(&started),
        (
            ErrorCode::GameAlreadyStarted,
            "players are removed only before the game starts".into()
        )
    );
    assert!(matches!(
        h.summary().seats[1].occupant,
        wire::Occupant::Human { .. }
    ));
}
