//! A connection's writer: drains its bounded outbound queue into the socket, flushing in
//! batches, and performs the close the room or the reader asked for.
//!
//! The writer feeds the socket every frame already queued and flushes once, so what one
//! reply sends one viewer leaves in one write — one `send` syscall, and with
//! `TCP_NODELAY` (`net::accept`) nothing waits for the client's delayed ACK.

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
                            if sink.feed(Message::Text(text.into())).await.is_err() {
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
