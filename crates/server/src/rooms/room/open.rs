//! Opening a room: a new one (which stores itself before anyone hears of it), or one
//! rebuilt from the store after a restart or a takeover (its players count as away
//! from now on, so the downtime is never charged to anyone).

use super::*;

/// Starts the task of a new room. `on_close` runs when the task ends, however it ends,
/// with the room's id and [`RoomHandle::run`].
/// The room's first act is to store itself; [`Stored`] says how that went (a room that
/// could not be stored ends at once).
pub fn spawn(
    id: String,
    plan: RoomPlan,
    creator: Option<u64>,
    cx: Context,
    on_close: impl FnOnce(&str, u64) + Send + 'static,
) -> (RoomHandle, Stored) {
    let seats: Vec<Seat> = plan
        .settings
        .seats
        .iter()
        .map(|s| match s {
            wire::SeatSetting::Open {} => Seat::Open,
            wire::SeatSetting::Bot { bot } => Seat::Bot { bot: bot.clone() },
        })
        .collect();
    let state = RoomState {
        id,
        settings: plan.settings,
        setup: plan.setup,
        status: wire::RoomStatus::Lobby,
        seats,
        spectators: 0,
        game: None,
        decision_deadline: None,
        host: None,
        creator,
        chat: Default::default(),
        rematch: None,
        ratings: None,
    };
    let (stored_tx, stored) = oneshot::channel();
    (launch(state, cx, on_close, Some(stored_tx)), stored)
}

/// Reopens a room rebuilt from the store after a restart. Its players count as away
/// since now, so abandon timers and decision clocks start afresh: the downtime is never
/// charged to anyone.
pub fn restore(
    rec: Recovered,
    cx: Context,
    on_close: impl FnOnce(&str, u64) + Send + 'static,
) -> Result<RoomHandle, String> {
    let now = Instant::now();
    let seats = rec
        .seats
        .iter()
        .map(|s| match s {
            SeatRecord::Open => Ok(Seat::Open),
            SeatRecord::Bot { bot } => Ok(Seat::Bot { bot: bot.clone() }),
            SeatRecord::Human {
                name,
                token_hash,
                last_command,
                account,
            } => {
                let hash = TokenHash::from_hex(token_hash).ok_or("unreadable seat token hash")?;
                let mut h = HumanSeat::new(name.clone(), hash);
                h.last_command = *last_command;
                h.account = *account;
                h.connected = false;
                h.away_since = Some(now);
                Ok(Seat::Human(h))
            }
        })
        .collect::<Result<Vec<_>, String>>()?;
    let (setup, game, status) = match rec.game {
        Some(g) if rec.finished => (g.setup, Some(g.game), wire::RoomStatus::Finished),
        Some(g) => (g.setup, Some(g.game), wire::RoomStatus::Playing),
        None => {
            let plan = from_wire::room_plan(&rec.settings).map_err(|r| r.message)?;
            (plan.setup, None, wire::RoomStatus::Lobby)
        }
    };
    let state = RoomState {
        id: rec.id,
        settings: rec.settings,
        setup,
        status,
        seats,
        spectators: 0,
        game,
        decision_deadline: None,
        host: rec.host,
        creator: None,
        chat: Default::default(),
        rematch: None,
        ratings: None,
    };
    tracing::info!(room = %state.id, status = ?state.status, "room reopened from the store");
    Ok(launch(state, cx, on_close, None))
}

/// Starts a room's task; `stored` is set for a new room, which stores itself first.
fn launch(
    state: RoomState,
    cx: Context,
    on_close: impl FnOnce(&str, u64) + Send + 'static,
    stored: Option<oneshot::Sender<Result<(), String>>>,
) -> RoomHandle {
    static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let n = state.seats.len();
    let id = state.id.clone();
    let creator = state.creator;
    let (summary_tx, summary) = watch::channel(projection::summary(&state));
    let (tx, rx) = mpsc::channel(INBOX);
    let now = Instant::now();
    let mut room = Room {
        state,
        config: cx.config,
        log: cx.log,
        metrics: cx.metrics,
        thinkers: cx.thinkers,
        downgrade_told: false,
        chat_addresses: cx.chat,
        seat_chat: (0..n).map(|_| chat::speaker_budget(now)).collect(),
        spectator_chat: HashMap::new(),
        summary_tx,
        seat_conns: vec![None; n],
        spectator_conns: Vec::new(),
        spectator_names: HashMap::new(),
        member_addresses: HashMap::new(),
        barred: Default::default(),
        agents: (0..n).map(|_| None).collect(),
        shown: Shown::new(n),
        announced: None,
        over_announced: false,
        empty_since: Some(now),
        unattended_since: Some(now),
        closing: false,
        evicted: false,
        finished_at: None,
        undo: None,
        hint: None,
        undo_floor: None,
        time_left: Default::default(),
        snapshot_mark: Default::default(),
        opened_at: now,
        search_claim: cx.search_claim,
    };
    if room.state.status == wire::RoomStatus::Finished {
        // Reopened so that players who missed the end can still `resume` and see it; the
        // end is already recorded.
        room.over_announced = true;
        room.finished_at = Some(now);
    }
    if let Some(game) = &room.state.game {
        // A reopened game: its events so far were published before the restart; viewers
        // catch up by `resume`. Bots get their agents back.
        room.shown.catch_up(game);
        let seed = game.seed();
        for (i, seat) in room.state.seats.iter().enumerate() {
            if let Seat::Bot { bot } = seat {
                room.agents[i] = bot_agent(
                    &room.config,
                    bot,
                    bot_seed(seed, i),
                    room.state.settings.rated,
                );
            }
        }
    }
    tokio::spawn(async move {
        let _guard = OnClose(Some(Box::new(move || on_close(&id, run))));
        if let Some(stored) = stored {
            let saved = room.log.room_saved(&room.state.record()).await;
            let ok = saved.is_ok();
            if let Err(e) = &saved {
                tracing::error!(room = %room.state.id, "a new room could not be stored: {e}");
            }
            let _ = stored.send(saved.map_err(|e| e.to_string()));
            if !ok {
                // Nobody was told of it: the room simply never existed.
                return;
            }
        } else {
            room.publish().await;
            room.load_ratings().await;
        }
        room.run(rx).await;
    });
    RoomHandle {
        tx,
        run,
        summary,
        creator,
    }
}

/// Runs `on_close` when the room task ends, even by a panic.
struct OnClose(Option<Box<dyn FnOnce() + Send>>);

impl Drop for OnClose {
    fn drop(&mut self) {
        if let Some(f) = self.0.take() {
            f();
        }
    }
}
