//! Chat in the room: who reads and writes it, how much each may say, and how much of it
//! the room keeps.
//!
//! A line reaches the room already checked (`chat::check`): that is the connection's
//! part, covered where the connection is (tests/it/social.rs). Here the room's part: the
//! limits (5 lines per 10 s per seat, whatever its connections, and per spectator; and
//! `--chat-per-address` for all lines from one client address), and it keeps the last
//! `chat::KEEP` lines, whoever sent them, and never stores them. The same limits over
//! real sockets, under attack: tests/it/chat_limits.rs.

use super::*;

fn say(text: &str) -> Command {
    Command::Chat {
        text: text.to_string(),
        from: None,
    }
}

fn lines(msg: &ServerMessage) -> Vec<String> {
    match msg {
        ServerMessage::ChatLog { lines, .. } => lines.iter().map(|l| l.text.clone()).collect(),
        other => panic!("not a chat log: {other:?}"),
    }
}

#[tokio::test(start_paused = true)]
async fn a_line_reaches_everyone_who_reads_the_chat_and_nobody_else() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let mut ann = h.client("Ann");
    let mut bob = h.client("Bob");
    let mut cleo = h.client("Cleo");
    h.take_seat(&mut ann, None).await.expect("seated");
    h.take_seat(&mut bob, None).await.expect("seated");
    h.spectate(&mut cleo).await.expect("watching");
    for c in [&mut ann, &mut bob, &mut cleo] {
        c.take();
    }
    let steps = h.log.steps().len();

    let cmd = h.send(&mut ann, say("<b>hi</b> & welcome")).await;
    let mine = ann.take();
    assert_eq!(kinds(&mine), ["chat", "ack"]);
    assert_eq!(mine[1], ServerMessage::Ack { re: cmd });
    let ServerMessage::Chat(line) = &mine[0] else {
        unreachable!()
    };
    assert_eq!(
        line.from,
        wire::ChatSender::Seat {
            seat: 0,
            name: "Ann".into()
        }
    );
    assert_eq!(line.text, "<b>hi</b> & welcome", "passed on as written");
    assert!(
        line.at > 1_700_000_000_000,
        "Unix milliseconds: {}",
        line.at
    );
    assert_eq!(bob.take(), [ServerMessage::Chat(line.clone())]);
    // This room's spectators neither read nor write its chat.
    assert!(cleo.take().is_empty());
    let said = h.ask(&mut cleo, say("hello?")).await;
    assert_eq!(refusal(&said).0, ErrorCode::ChatNotAllowed);
    let mut eve = h.client("Eve");
    let outside = h.ask(&mut eve, say("anyone?")).await;
    assert_eq!(refusal(&outside).0, ErrorCode::NotInRoom);
    assert!(ann.take().is_empty() && bob.take().is_empty());
    assert_eq!(h.log.steps().len(), steps, "chat is never stored");
}

#[tokio::test(start_paused = true)]
async fn where_spectators_may_chat_they_read_the_log_and_their_lines_carry_their_name() {
    let mut s = settings(&[true, true]);
    s.spectator_chat = true;
    let mut h = Harness::new(s).await;
    let mut ann = h.client("Ann");
    h.take_seat(&mut ann, None).await.expect("seated");
    assert!(is_ack(&h.ask(&mut ann, say("before anyone watches")).await));
    let mut cleo = h.client("Cleo");
    h.spectate(&mut cleo).await.expect("watching");
    let arrived = cleo.take();
    assert_eq!(kinds(&arrived), ["spectating", "room", "chat_log"]);
    assert_eq!(lines(&arrived[2]), ["before anyone watches"]);
    ann.take();

    assert!(is_ack(&h.ask(&mut cleo, say("hi all")).await));
    let seen = ann.take();
    let [ServerMessage::Chat(line)] = &seen[..] else {
        panic!("{seen:?}")
    };
    assert_eq!(
        (&line.from, line.text.as_str()),
        (
            &wire::ChatSender::Spectator {
                name: "Cleo".into()
            },
            "hi all"
        )
    );
}

#[tokio::test(start_paused = true)]
async fn the_room_keeps_the_last_hundred_lines_for_those_who_arrive_or_come_back() {
    let mut s = settings(&[true, true]);
    s.spectator_chat = true;
    let mut h = Harness::new(s).await;
    let mut ann = h.client("Ann");
    h.take_seat(&mut ann, None).await.expect("seated");
    let token = ann.token();
    // 105 lines, from 21 spectators of five lines each (a spectator's limit).
    for s in 0..21 {
        let mut c = h.client(&format!("S{s}"));
        h.spectate(&mut c).await.expect("watching");
        for i in 0..5 {
            assert!(is_ack(&h.ask(&mut c, say(&(s * 5 + i).to_string())).await));
        }
        assert!(is_ack(&h.ask(&mut c, Command::Leave).await));
    }
    let want: Vec<String> = (5..105).map(|i| i.to_string()).collect();

    // A player who sits down gets the last hundred, oldest first.
    let mut bob = h.client("Bob");
    h.take_seat(&mut bob, None).await.expect("seated");
    let arrived = bob.take();
    assert_eq!(kinds(&arrived), ["seated", "room", "chat_log"]);
    assert_eq!(lines(&arrived[2]), want);
    let ServerMessage::ChatLog { lines: log, .. } = &arrived[2] else {
        unreachable!()
    };
    assert_eq!(
        log[0].from,
        wire::ChatSender::Spectator { name: "S1".into() }
    );
    // So does a player who comes back.
    let mut back = h.client("Ann");
    h.resume(&mut back, &token, None).await.expect("seated");
    let again = back.take();
    assert_eq!(kinds(&again), ["seated", "room", "chat_log"]);
    assert_eq!(lines(&again[2]), want);
}

/// A line of 1,000 bytes in 253 characters, the most bytes a line may hold.
fn long_line(i: usize) -> String {
    format!("{i:03} {}", "😀".repeat(249))
}

/// The bytes of `frames` as the room queued them.
fn bytes(frames: &[ServerMessage]) -> usize {
    frames
        .iter()
        .map(|f| serde_json::to_string(f).expect("serializable").len())
        .sum()
}

#[tokio::test(start_paused = true)]
async fn a_newcomer_gets_the_latest_chat_within_a_page_and_pages_back_for_the_rest() {
    let mut s = settings(&[true, true]);
    s.spectator_chat = true;
    let mut h = Harness::new(s).await;
    let mut ann = h.client("Ann");
    h.take_seat(&mut ann, None).await.expect("seated");
    // 105 lines of 1,000 bytes, from 21 spectators of five lines each: the room keeps
    // the last 100, numbered 5 to 104.
    for s in 0..21 {
        let mut c = h.client(&format!("S{s}"));
        h.spectate(&mut c).await.expect("watching");
        for i in 0..5 {
            assert!(is_ack(&h.ask(&mut c, say(&long_line(s * 5 + i))).await));
        }
        assert!(is_ack(&h.ask(&mut c, Command::Leave).await));
    }
    let mut dan = h.client("Dan");
    h.spectate(&mut dan).await.expect("watching");
    let arrived = dan.take();
    assert_eq!(kinds(&arrived), ["spectating", "room", "chat_log"]);
    let sent = bytes(&arrived);
    eprintln!("spectate: {sent} bytes on arrival");
    assert!(sent <= 10 * 1024, "{sent} bytes on arrival");
    let ServerMessage::ChatLog {
        lines,
        first: Some(first),
        oldest: Some(oldest),
    } = &arrived[2]
    else {
        panic!("{:?}", arrived[2])
    };
    assert_eq!(*oldest, 5);
    assert_eq!(*first + lines.len() as u64, 105, "the latest lines");
    assert!(lines.len() >= 7, "{}", lines.len());
    // Page back, as the history: up to the first line held, until the oldest kept.
    let mut all: Vec<String> = lines.iter().map(|l| l.text.clone()).collect();
    let mut upto = *first;
    while upto > *oldest {
        let answer = h
            .ask(
                &mut dan,
                Command::ChatHistory {
                    from: 0,
                    to: Some(upto),
                },
            )
            .await;
        assert!(bytes(std::slice::from_ref(&answer)) <= 10 * 1024);
        let ServerMessage::ChatHistory { first, lines, .. } = answer else {
            panic!("{answer:?}")
        };
        assert_eq!(first + lines.len() as u64, upto);
        assert!(!lines.is_empty());
        all.splice(0..0, lines.iter().map(|l| l.text.clone()));
        upto = first;
    }
    let want: Vec<String> = (5..105).map(long_line).collect();
    assert_eq!(all, want, "every kept line once, in order");
    // From a number on, as the history pages: the latest of the range that fit.
    let answer = h
        .ask(
            &mut dan,
            Command::ChatHistory {
                from: 100,
                to: None,
            },
        )
        .await;
    let ServerMessage::ChatHistory { first, lines, .. } = answer else {
        panic!("{answer:?}")
    };
    assert_eq!((first, lines.len()), (100, 5));
    // Those who do not read the chat do not page it.
    let mut h2 = Harness::new(settings(&[true, true])).await;
    let mut eve = h2.client("Eve");
    h2.spectate(&mut eve).await.expect("watching");
    let refused = h2
        .ask(&mut eve, Command::ChatHistory { from: 0, to: None })
        .await;
    assert_eq!(refusal(&refused).0, ErrorCode::ChatNotAllowed);
    let mut nobody = h2.client("Nobody");
    let refused = h2
        .ask(&mut nobody, Command::ChatHistory { from: 0, to: None })
        .await;
    assert_eq!(refusal(&refused).0, ErrorCode::NotInRoom);
}

fn say_from(text: &str, addr: [u8; 4]) -> Command {
    Command::Chat {
        text: text.to_string(),
        from: Some(std::net::IpAddr::from(addr)),
    }
}

#[tokio::test(start_paused = true)]
async fn a_seats_chat_limit_outlives_its_connections() {
    let mut h = Harness::new(settings(&[true, true])).await;
    let mut ann = h.client("Ann");
    let mut bob = h.client("Bob");
    h.take_seat(&mut ann, None).await.expect("seated");
    h.take_seat(&mut bob, None).await.expect("seated");
    for i in 0..5 {
        assert!(is_ack(&h.ask(&mut ann, say(&format!("line {i}"))).await));
    }
    let over = h.ask(&mut ann, say("one more")).await;
    assert_eq!(
        refusal(&over),
        (
            ErrorCode::ChatTooFast,
            "at most 5 chat messages per 10 s; wait a moment".into()
        )
    );
    // Ann comes back on another connection: the same seat, the same budget.
    let token = ann.token();
    h.detach(&ann).await;
    let mut back = h.client("Ann");
    h.resume(&mut back, &token, None).await.expect("seated");
    back.number_from(100);
    let again = h.ask(&mut back, say("still me")).await;
    assert_eq!(refusal(&again).0, ErrorCode::ChatTooFast);
    // Bob's seat has its own.
    assert!(is_ack(&h.ask(&mut bob, say("hi")).await));
    // Refilled at 5 per 10 s: one line 2 s later, not two.
    h.pass(Duration::from_secs(2)).await;
    assert!(is_ack(&h.ask(&mut back, say("after a while")).await));
    assert_eq!(
        refusal(&h.ask(&mut back, say("and again")).await).0,
        ErrorCode::ChatTooFast
    );
    let lines: Vec<String> = bob
        .take()
        .iter()
        .filter_map(|m| match m {
            ServerMessage::Chat(l) => Some(l.text.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        lines,
        [
            "line 0",
            "line 1",
            "line 2",
            "line 3",
            "line 4",
            "hi",
            "after a while"
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn the_lines_of_one_address_share_its_limit_across_seats_and_spectators() {
    let mut s = settings(&[true, true]);
    s.spectator_chat = true;
    let config = Config {
        chat_per_address: 6,
        ..config()
    };
    let mut h = Harness::with(s, config, Arc::new(MemoryLog::new())).await;
    let home = [10, 0, 0, 1];
    let mut ann = h.client("Ann");
    h.take_seat(&mut ann, None).await.expect("seated");
    for i in 0..3 {
        assert!(is_ack(
            &h.ask(&mut ann, say_from(&format!("ann {i}"), home)).await
        ));
    }
    // Spectators from Ann's address, one after another under new names: the address's
    // budget is the one they cannot renew.
    let mut said = 0;
    for n in 0..3 {
        let mut c = h.client(&format!("S{n}"));
        h.spectate(&mut c).await.expect("watching");
        loop {
            let answer = h.ask(&mut c, say_from("flood", home)).await;
            if !is_ack(&answer) {
                assert_eq!(
                    refusal(&answer),
                    (
                        ErrorCode::ChatTooFast,
                        "at most 6 chat messages per 10 s from one address, shared by everyone on it; wait a moment".into()
                    )
                );
                break;
            }
            said += 1;
        }
        assert!(is_ack(&h.ask(&mut c, Command::Leave).await));
    }
    assert_eq!(said, 3, "six lines from the address in all");
    // Another address is not held to it.
    let mut cleo = h.client("Cleo");
    h.spectate(&mut cleo).await.expect("watching");
    assert!(is_ack(
        &h.ask(&mut cleo, say_from("hello", [10, 0, 0, 2])).await
    ));
    // Ann's refused line spent nothing of her seat's budget: once the address has
    // refilled one line (10 s / 6), she says her fourth of five.
    assert_eq!(
        refusal(&h.ask(&mut ann, say_from("ann 3", home)).await).0,
        ErrorCode::ChatTooFast
    );
    h.pass(Duration::from_millis(1700)).await;
    assert!(is_ack(&h.ask(&mut ann, say_from("ann 3", home)).await));
}
