//! HTTP routes: health, the read-only API a client needs to build its forms, and the
//! WebSocket upgrade (with the Origin allowlist of `net::origin` and the connection cap);
//! the account endpoints are `net::account_api`'s, merged in here. An upgrade carrying
//! the session cookie is signed in before it is upgraded (a link from another node of the
//! cluster: as the account it vouches for with the cluster's key).
//!
//! **History.** `/api/games` lists ended games; `/api/games/{id}` publishes one as the
//! protocol's `GameRecord` (`convert::record::published`: setup, seed, every reply with
//! its decision number). Until the game is over it answers 409 and nothing else: the
//! seed and the replies would reveal every hand and deck. `/api/games/{id}/steps/{n}`
//! replays the first `n` stored replies in the engine (`convert::record::replay_step`)
//! and shows the result to one seat, as that seat knew it, or to everyone, every hand
//! and event — allowed because the game is over and its record public. So the browser's
//! replay page needs no rules of its own. These handlers read the store from
//! `spawn_blocking`: no database call runs on the async workers (see
//! `gamelog::durable`).
//!
//! A forwarded connection from another node of the cluster carries its client's address
//! in a header, believed only with the cluster's key (`net::forward`); a link with a
//! wrong key is refused (403), one without an address 400. A WebSocket keeps its
//! connection's place in its address's count (`net::accept`) for as long as it lives; a
//! link vouched for with the key is counted under the client it carries instead.
//!
//! Every other request's client is the one `net::accept` found (`ClientAddr`: the
//! peer, or the client a trusted proxy named in `X-Forwarded-For`), so a node that got
//! its client through a proxy forwards that client's address, not the proxy's.

use crate::accounts::Accounts;
use crate::net::accept::{self, AddressSlot, HttpPlace};
use crate::net::client_addr::ClientAddr;
use crate::net::connection;
use crate::net::origin::origin_allowed;
use crate::rooms::hub::Hub;
use axum::Extension;
use axum::Json;
use axum::Router;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use dominion_engine::card::CARDS;
use dominion_engine::{Edition, Set, bots, setup};
use dominion_protocol as wire;
use std::net::SocketAddr;
use std::sync::Arc;
use tower_http::trace::TraceLayer;

/// Frames above the protocol limit are still read whole up to this multiple of it, so
/// the server can answer with close code 1009 itself (tungstenite would only fail, and
/// closing with unread data can reset the connection before the close frame arrives).
const HARD_CAP_FACTOR: usize = 16;

/// The chunk a WebSocket reads at a time.
const READ_BUFFER: usize = 4096;
/// Frames fed to a WebSocket stay in its buffer until it holds this much or is flushed:
/// the writer feeds what one reply sends a viewer and flushes once.
const WRITE_BUFFER: usize = 64 * 1024;
/// Bytes a WebSocket may hold unwritten on top of the outbound queue before a write fails
/// (then the connection ends): at least one frame of the largest kind.
const WRITE_BUFFER_MAX: usize = 4 << 20;

/// `shared`: a cluster's automatch queue (None: this node's own, in memory).
pub fn router(
    hub: Arc<Hub>,
    accounts: Arc<Accounts>,
    shared: Option<Arc<dyn crate::matchmaking::shared::SharedQueue>>,
) -> Router {
    // With --metrics-addr, /metrics is served there only.
    let metrics_here = hub.config.metrics_addr.as_deref().is_none_or(str::is_empty);
    let router = Router::new();
    let router = if metrics_here {
        router.route("/metrics", get(metrics))
    } else {
        router
    };
    router
        .route("/healthz", get(healthz))
        .route("/api/rooms", get(rooms))
        .route("/api/cards", get(cards))
        .route("/api/kingdoms", get(kingdoms))
        .route("/api/bots", get(bot_names))
        .route("/api/bot-levels", get(bot_levels))
        .route("/api/games", get(games))
        .route("/api/games/{id}", get(game))
        .route("/api/games/{id}/steps/{n}", get(game_step))
        .route("/ws", get(websocket))
        .layer(Extension(accounts.clone()))
        .layer(Extension(crate::net::automatch::Automatch::start(
            hub.clone(),
            accounts.clone(),
            shared,
        )))
        .with_state(hub.clone())
        .merge(crate::net::social_api::router(
            accounts.clone(),
            hub.clone(),
        ))
        .merge(crate::net::account_api::router(accounts, hub.clone()))
        .layer(TraceLayer::new_for_http().make_span_with(request_span))
        .merge(dominion_web::router())
}

/// The span of one request (at `debug`, as tower-http's default), with its client's
/// address as `net::accept` found it.
fn request_span(req: &axum::http::Request<axum::body::Body>) -> tracing::Span {
    let client = req
        .extensions()
        .get::<ClientAddr>()
        .map(|ClientAddr(ip)| ip.to_string())
        .unwrap_or_default();
    tracing::debug_span!(
        "request",
        method = %req.method(),
        uri = %req.uri(),
        version = ?req.version(),
        %client,
    )
}

/// What `--metrics-addr` serves: `/metrics` (and `/healthz`, for the scraper's own check).
pub fn metrics_router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/metrics", get(metrics))
        .route("/healthz", get(healthz))
        .with_state(hub)
}

/// What `/healthz` answers: `ok`, then the server's name and version, so an operator
/// (or a monitor) can see which release answers. `ok` stays the first word for health
/// checks written before the version was added.
pub const HEALTHZ: &str = concat!("ok dominion-server ", env!("CARGO_PKG_VERSION"), "\n");

async fn healthz() -> &'static str {
    HEALTHZ
}

async fn rooms(State(hub): State<Arc<Hub>>) -> Json<Vec<wire::RoomSummary>> {
    Json(hub.list())
}

async fn cards() -> Json<Vec<wire::CardInfo>> {
    Json(
        CARDS
            .iter()
            .map(|d| wire::CardInfo {
                id: d.key.to_string(),
                name: d.name.to_string(),
                cost: u32::from(d.cost),
                types: d.types.names().into_iter().map(String::from).collect(),
                kingdom: d.id.is_kingdom(),
                editions: [
                    (Edition::First, wire::Edition::First),
                    (Edition::Second, wire::Edition::Second),
                ]
                .into_iter()
                .filter(|(e, _)| d.printed.in_edition(*e))
                .map(|(_, w)| w)
                .collect(),
                set: match d.set {
                    Set::Basic => None,
                    Set::Base => Some(wire::CardSet::Base),
                    Set::Intrigue => Some(wire::CardSet::Intrigue),
                },
            })
            .collect(),
    )
}

async fn kingdoms() -> Json<Vec<wire::KingdomInfo>> {
    Json(
        setup::recommended_kingdoms()
            .map(|r| wire::KingdomInfo {
                id: r.id.to_string(),
                name: r.name.to_string(),
                edition: recommended_by(r.id),
                cards: r.cards.iter().map(|c| c.to_string()).collect(),
            })
            .collect(),
    )
}

/// The edition whose rulebook recommends a kingdom: its id names the rulebook
/// (`base_1e/…`, `base_intrigue_2e/…`); a unit test holds every id to that form.
fn recommended_by(id: &str) -> wire::Edition {
    let book = id.split('/').next().unwrap_or_default();
    if book.ends_with("_1e") {
        wire::Edition::First
    } else {
        wire::Edition::Second
    }
}

async fn bot_names() -> Json<Vec<&'static str>> {
    Json(bots::NAMES.to_vec())
}

/// The bots offered to players as levels, weakest first; a subset of `/api/bots`, whose
/// other names are the reference bots. A second endpoint rather than a new shape of
/// `/api/bots`, so clients written for the name list keep working.
async fn bot_levels() -> Json<Vec<&'static str>> {
    Json(bots::LEVELS.to_vec())
}

/// Prometheus text exposition; room counts are read from the hub now.
async fn metrics(State(hub): State<Arc<Hub>>) -> Response {
    let mut counts = [
        ("lobby", 0i64),
        ("playing", 0),
        ("finished", 0),
        ("broken", 0),
    ];
    for room in hub.list() {
        let i = match room.status {
            wire::RoomStatus::Lobby => 0,
            wire::RoomStatus::Playing => 1,
            wire::RoomStatus::Finished => 2,
            wire::RoomStatus::Broken => 3,
        };
        counts[i].1 += 1;
    }
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        hub.metrics.render(&counts),
    )
        .into_response()
}

#[derive(serde::Deserialize)]
struct ListQuery {
    limit: Option<u32>,
}

fn api_error(status: StatusCode, message: &str) -> Response {
    (status, Json(serde_json::json!({ "error": message }))).into_response()
}

/// Recent ended games (finished or abandoned), newest first (`?limit=`, at most 100):
/// a list of `GameSummary`.
async fn games(State(hub): State<Arc<Hub>>, Query(q): Query<ListQuery>) -> Response {
    let Some(store) = hub.history.clone() else {
        return Json(Vec::<wire::GameSummary>::new()).into_response();
    };
    let limit = q.limit.unwrap_or(20).clamp(1, 100);
    let list = match tokio::task::spawn_blocking(move || store.finished_games(limit)).await {
        Ok(Ok(list)) => list,
        Ok(Err(e)) => {
            tracing::error!("history: {e}");
            return unreadable_store();
        }
        Err(_) => return unreadable_store(),
    };
    let summaries = list
        .into_iter()
        .filter_map(|g| {
            let summary = crate::convert::record::summary(&g);
            if let Err(e) = &summary {
                // One unreadable game must not hide the others.
                tracing::error!(room = %g.room_id, "history: {e}");
            }
            summary.ok()
        })
        .collect::<Vec<_>>();
    Json(summaries).into_response()
}

fn unreadable_store() -> Response {
    api_error(
        StatusCode::INTERNAL_SERVER_ERROR,
        "the store could not be read",
    )
}

/// One ended game's published record (`GameRecord`: setup, seed, every reply with its
/// decision number, seats, scores unless abandoned). Before the game is over this says
/// so (409) and shows nothing else: the seed and the replies would reveal every hand and
/// deck.
async fn game(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Response {
    let Some(store) = hub.history.clone() else {
        return api_error(StatusCode::NOT_FOUND, "this server keeps no history");
    };
    if id.len() > 64 {
        return api_error(StatusCode::NOT_FOUND, "no such game");
    }
    // Decoding and replaying a game takes a millisecond or so: off the async workers.
    let built = tokio::task::spawn_blocking(move || {
        let Some((row, seats)) = store.game_and_seats(&id)? else {
            return Ok(None);
        };
        if row.finished_at.is_none() {
            return Ok(Some(Err(None)));
        }
        Ok(Some(
            crate::convert::record::published(&row, &seats).map_err(|e| {
                tracing::error!(room = %row.room_id, "history: {e}");
                Some(e)
            }),
        ))
    })
    .await;
    match built {
        Ok(Ok(Some(Ok(record)))) => Json(record).into_response(),
        Ok(Ok(Some(Err(None)))) => api_error(
            StatusCode::CONFLICT,
            "this game is not over yet; its replay is published when it ends",
        ),
        Ok(Ok(Some(Err(Some(_))))) => api_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "this game's record is unreadable",
        ),
        Ok(Ok(None)) => api_error(StatusCode::NOT_FOUND, "no such game"),
        Ok(Err(e)) => {
            let e: crate::gamelog::LogError = e;
            tracing::error!("history: {e}");
            unreadable_store()
        }
        Err(_) => unreadable_store(),
    }
}

#[derive(serde::Deserialize)]
struct StepQuery {
    /// `all`, or a seat number; `all` when absent.
    viewer: Option<String>,
    /// The first event to send (default: the step's own first event).
    since: Option<u64>,
}

/// One step of an ended game's replay (`ReplayStep`): the engine replays the record's
/// first `n` replies and the projection shows the game to `viewer` (`all`, or a seat).
/// 409 while the game is played, 404 for an unknown game, 400 for a step past the end
/// or a viewer that is not `all` or one of the game's seats. Each request replays up to
/// `n` replies (a few thousand at most: milliseconds), off the async workers.
async fn game_step(
    State(hub): State<Arc<Hub>>,
    Path((id, n)): Path<(String, String)>,
    Query(q): Query<StepQuery>,
) -> Response {
    use crate::convert::record::StepError;
    use crate::convert::to_wire::StepViewer;
    let Some(store) = hub.history.clone() else {
        return api_error(StatusCode::NOT_FOUND, "this server keeps no history");
    };
    if id.len() > 64 {
        return api_error(StatusCode::NOT_FOUND, "no such game");
    }
    let Ok(n) = n.parse::<u32>() else {
        return api_error(
            StatusCode::BAD_REQUEST,
            "the step is a number from 0 to the record's number of replies",
        );
    };
    let viewer = match q.viewer.as_deref().unwrap_or("all") {
        "all" => StepViewer::All,
        seat => match seat.parse::<u8>() {
            Ok(s) => StepViewer::Player(dominion_engine::PlayerId(s)),
            Err(_) => {
                return api_error(
                    StatusCode::BAD_REQUEST,
                    "viewer is `all` or a seat number (0, 1, …)",
                );
            }
        },
    };
    let since = q.since;
    let built = tokio::task::spawn_blocking(move || {
        let Some((row, _)) = store.game_and_seats(&id)? else {
            return Ok(None);
        };
        let step = crate::convert::record::replay_step(&row, n, viewer, since);
        if let Err(StepError::Unreadable(e)) = &step {
            tracing::error!(room = %row.room_id, "history: {e}");
        }
        Ok(Some(step))
    })
    .await;
    match built {
        Ok(Ok(Some(Ok(step)))) => Json(step).into_response(),
        Ok(Ok(Some(Err(StepError::NotOver)))) => api_error(
            StatusCode::CONFLICT,
            "this game is not over yet; its replay is published when it ends",
        ),
        Ok(Ok(Some(Err(StepError::OutOfRange { steps })))) => api_error(
            StatusCode::BAD_REQUEST,
            &format!("no step {n}: this game has steps 0 to {steps}"),
        ),
        Ok(Ok(Some(Err(StepError::NoSuchSeat { players })))) => api_error(
            StatusCode::BAD_REQUEST,
            &format!(
                "no such seat: this game has seats 0 to {}, or viewer=all",
                players.saturating_sub(1)
            ),
        ),
        Ok(Ok(Some(Err(StepError::Unreadable(_))))) => api_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "this game's record is unreadable",
        ),
        Ok(Ok(None)) => api_error(StatusCode::NOT_FOUND, "no such game"),
        Ok(Err(e)) => {
            let e: crate::gamelog::LogError = e;
            tracing::error!("history: {e}");
            unreadable_store()
        }
        Err(_) => unreadable_store(),
    }
}

// Each argument is an axum extractor: what the upgrade needs, no more.
#[allow(clippy::too_many_arguments)]
async fn websocket(
    State(hub): State<Arc<Hub>>,
    Extension(accounts): Extension<Arc<Accounts>>,
    Extension(automatch): Extension<Arc<crate::net::automatch::Automatch>>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    client: Option<Extension<ClientAddr>>,
    slot: Option<Extension<Arc<AddressSlot>>>,
    place: Option<Extension<Arc<HttpPlace>>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let forwarded = match forwarded_client(&hub, &headers) {
        Ok(forwarded) => forwarded,
        Err((status, why)) => {
            tracing::warn!("websocket link refused: {}", why.trim_end());
            return (status, why).into_response();
        }
    };
    // A link from a node of the cluster counts under its client's address, for the
    // connection cap as for every other per-address limit, never under the node's.
    if let (Some(client), Some(Extension(slot))) = (forwarded, &slot)
        && !slot.move_to(client)
    {
        return (StatusCode::SERVICE_UNAVAILABLE, accept::BUSY_ADDRESS_TEXT).into_response();
    }
    // The client: as a node of the cluster vouches, else as `net::accept` found it (a
    // trusted proxy's X-Forwarded-For, or the peer).
    let peer = forwarded
        .or(client.map(|Extension(ClientAddr(ip))| ip))
        .or(peer.map(|Extension(ConnectInfo(addr))| addr.ip()));
    if let Err(why) = origin_allowed(&headers, &hub.config.allowed_origins) {
        let client = peer.map(|ip| ip.to_string()).unwrap_or_default();
        tracing::info!(%client, "websocket refused: {}", why.trim_end());
        return (StatusCode::FORBIDDEN, why).into_response();
    }
    // Signed in: a link from a node of the cluster as the account it vouches for, a
    // browser by its session cookie (after the Origin check: same-origin pages only).
    let signed_in = if forwarded.is_some() {
        let account = headers
            .get(crate::net::forward::ACCOUNT_HEADER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok());
        match account {
            Some(id) => accounts.by_link(id).await.ok().flatten(),
            None => None,
        }
    } else {
        match crate::net::account_api::session_cookie(&headers) {
            Some(cookie) => accounts.by_cookie(cookie).await.ok().flatten(),
            None => None,
        }
    };
    let Some(admission) = hub.admit() else {
        return (StatusCode::SERVICE_UNAVAILABLE, accept::BUSY_TEXT).into_response();
    };
    // The hub counts this connection now: it leaves the count of plain connections.
    if let Some(Extension(place)) = &place {
        place.release();
    }
    let cap = hub
        .config
        .max_message_bytes
        .saturating_mul(HARD_CAP_FACTOR)
        .max(1 << 20);
    ws.max_message_size(cap)
        .max_frame_size(cap)
        // A small read buffer: most frames are a few hundred bytes, and tungstenite's
        // default (128 KiB, zero-filled on first read) made every idle connection cost
        // ~138 kB. It grows as a larger message needs.
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .max_write_buffer_size(WRITE_BUFFER_MAX)
        .on_upgrade(move |socket| async move {
            connection::run(socket, admission, peer, accounts, signed_in, automatch).await;
            // The connection's place in its address's count, held as long as it lives.
            drop(slot);
        })
}

/// The client address a forwarding node of our cluster vouches for, if the request is
/// such a link: it carries the cluster's key, which only nodes know (they read it from
/// the database they share), and the address of the client it serves. Without the key
/// header the request is an ordinary client's (a client's own address header is
/// ignored). A wrong key, or a link that names no address, is refused rather than
/// served under the forwarding node's address: that would make every client of that
/// node share one address's limits.
fn forwarded_client(
    hub: &Hub,
    headers: &HeaderMap,
) -> Result<Option<std::net::IpAddr>, (StatusCode, &'static str)> {
    use crate::net::forward::{CLIENT_ADDR_HEADER, NODE_KEY_HEADER};
    let Some(key) = headers.get(NODE_KEY_HEADER) else {
        return Ok(None);
    };
    let Some(placement) = hub.placement() else {
        // Not in a cluster: no link is expected, the header means nothing.
        return Ok(None);
    };
    if !constant_time_eq(key.as_bytes(), placement.node_key().as_bytes()) {
        return Err((
            StatusCode::FORBIDDEN,
            "the node key is not this cluster's\n",
        ));
    }
    headers
        .get(CLIENT_ADDR_HEADER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .map(Some)
        .ok_or((
            StatusCode::BAD_REQUEST,
            "a forwarded connection must name its client's address\n",
        ))
}

/// Compares without stopping at the first difference, so timing does not reveal how
/// much of a guessed key was right.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_recommended_kingdom_names_its_rulebook_edition() {
        for r in setup::RECOMMENDED {
            let book = r.id.split_once('/').map_or("", |(b, _)| b);
            assert!(
                book.ends_with("_1e") || book.ends_with("_2e"),
                "{}: the id must name its rulebook's edition",
                r.id
            );
        }
        assert_eq!(recommended_by("base_1e/big_money"), wire::Edition::First);
        assert_eq!(
            recommended_by("base_intrigue_2e/underlings"),
            wire::Edition::Second
        );
    }
}
