//! A connection's writer: drains its bounded outbound queue into the socket, flushing in
//! batches, and performs the close the room or the reader asked for.
//!
//! The writer feeds the socket every frame already queued and flushes once, so what one
//! reply sends one viewer leaves in one write — one `send` syscall, and with
//! `TCP_NODELAY` (`net::accept`) nothing waits for the client's delayed ACK.
//!
//! A signed-in player who blocked other accounts does not get their chat lines: the
//! writer leaves them out of `chat` frames (the frame is not sent) and out of the lines of
//! `chat_log` and `chat_history` pages. Only chat frames are read for that, and only on a
//! connection that blocks someone.

use super::*;

/// Most frames written before one flush: what one reply sends a viewer (events,
/// decision, ack) is far fewer, and the bound keeps a busy queue from delaying the flush.
const FLUSH_EVERY: usize = 64;

/// Writes queued frames and pings until a close frame is written or the queue closes.
///
/// Frames already queued are fed to the socket together and flushed once, so what one
/// reply sends one viewer leaves in one write (one TCP segment when it fits) rather than
/// one write per frame.
pub(super) async fn write_loop(
    mut sink: SplitSink<WebSocket, Message>,
    mut rx: mpsc::Receiver<OutFrame>,
    queued: Arc<Queued>,
    metrics: Arc<Metrics>,
    heartbeat: Duration,
    blocked: Arc<Blocked>,
) {
    // A zero heartbeat turns pings off.
    let period = if heartbeat.is_zero() {
        Duration::from_secs(365 * 24 * 3600)
    } else {
        heartbeat
    };
    let mut ping = tokio::time::interval_at(Instant::now() + period, period);
    loop {
        tokio::select! {
            frame = rx.recv() => {
                let mut next = frame;
                let mut fed = 0;
                loop {
                    match next {
                        Some(OutFrame::Text(text)) => {
                            queued.taken(text.len());
                            metrics.frames_out.inc();
                            metrics.bytes_out.inc_by(text.len() as u64);
                            let text = if blocked.is_empty() {
                                Some(text)
                            } else {
                                without_blocked(text, &blocked)
                            };
                            if let Some(text) = text
                                && sink.feed(Message::Text(text.into())).await.is_err()
                            {
                                return;
                            }
                        }
                        Some(OutFrame::Close(code, reason)) => {
                            let frame = CloseFrame { code: code.code(), reason: reason.into() };
                            let _ = sink.send(Message::Close(Some(frame))).await;
                            return;
                        }
                        None => {
                            let _ = sink.flush().await;
                            return;
                        }
                    }
                    fed += 1;
                    if fed == FLUSH_EVERY {
                        break;
                    }
                    match rx.try_recv() {
                        Ok(frame) => next = Some(frame),
                        Err(mpsc::error::TryRecvError::Empty) => break,
                        Err(mpsc::error::TryRecvError::Disconnected) => next = None,
                    }
                }
                if sink.flush().await.is_err() {
                    return;
                }
            }
            _ = ping.tick() => {
                if sink.send(Message::Ping(Default::default())).await.is_err() {
                    return;
                }
            }
        }
    }
}

/// `text` without the chat lines of blocked speakers: None when nothing is left to send
/// (a `chat` frame from one of them). Frames of every other type pass as they are.
fn without_blocked(text: String, blocked: &Blocked) -> Option<String> {
    const CHAT: &str = r#"{"type":"chat"#;
    if !text.starts_with(CHAT) {
        return Some(text);
    }
    let Ok(mut v) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Some(text);
    };
    let speaker = |line: &serde_json::Value| {
        line.pointer("/from/name")
            .and_then(serde_json::Value::as_str)
            .is_some_and(|name| blocked.contains(name))
    };
    match v.get("type").and_then(serde_json::Value::as_str) {
        Some("chat") if speaker(&v) => None,
        Some("chat_log" | "chat_history") => {
            let Some(lines) = v.get_mut("lines").and_then(serde_json::Value::as_array_mut) else {
                return Some(text);
            };
            let before = lines.len();
            lines.retain(|l| !speaker(l));
            if lines.len() == before {
                Some(text)
            } else {
                Some(v.to_string())
            }
        }
        _ => Some(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocked_speakers_lines_are_left_out() {
        let blocked = Blocked::default();
        blocked.set(vec!["Rude".into()]);
        let chat = |name: &str| {
            format!(
                r#"{{"type":"chat","from":{{"type":"seat","seat":1,"name":"{name}"}},"text":"hi","at":1}}"#
            )
        };
        assert_eq!(without_blocked(chat("Rude"), &blocked), None);
        assert_eq!(without_blocked(chat("Kind"), &blocked), Some(chat("Kind")));
        let log = r#"{"type":"chat_log","first":0,"lines":[{"from":{"type":"spectator","name":"Rude"},"text":"a","at":1},{"from":{"type":"seat","seat":0,"name":"Kind"},"text":"b","at":2}]}"#;
        let kept = without_blocked(log.to_string(), &blocked).unwrap();
        assert!(!kept.contains("Rude") && kept.contains("Kind"), "{kept}");
        let other = r#"{"type":"events","first":0}"#.to_string();
        assert_eq!(without_blocked(other.clone(), &blocked), Some(other));
        blocked.set(Vec::new());
        assert!(blocked.is_empty());
    }
}
