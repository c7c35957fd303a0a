//! HTTP routes: health, the read-only API a client needs to build its forms, and the
//! WebSocket upgrade (with the Origin allowlist and the connection cap).

use crate::connection;
use crate::hub::Hub;
use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::extract::ws::WebSocketUpgrade;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use dominion_engine::card::CARDS;
use dominion_engine::{Edition, bots, setup};
use dominion_protocol as wire;
use std::sync::Arc;
use tower_http::trace::TraceLayer;

/// Frames above the protocol limit are still read whole up to this multiple of it, so
/// the server can answer with close code 1009 itself (tungstenite would only fail, and
/// closing with unread data can reset the connection before the close frame arrives).
const HARD_CAP_FACTOR: usize = 16;

pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/api/rooms", get(rooms))
        .route("/api/cards", get(cards))
        .route("/api/kingdoms", get(kingdoms))
        .route("/api/bots", get(bot_names))
        .route("/ws", get(websocket))
        .layer(TraceLayer::new_for_http())
        .with_state(hub)
        .merge(dominion_web::router())
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
                cards: r.cards.iter().map(|c| c.to_string()).collect(),
            })
            .collect(),
    )
}

async fn bot_names() -> Json<Vec<&'static str>> {
    Json(bots::NAMES.to_vec())
}

async fn websocket(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    if let Err(why) = origin_allowed(&headers, &hub.config.allowed_origins) {
        tracing::info!("websocket refused: {why}");
        return (StatusCode::FORBIDDEN, why).into_response();
    }
    let Some(admission) = hub.admit() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "too many connections; try again later\n",
        )
            .into_response();
    };
    let cap = hub
        .config
        .max_message_bytes
        .saturating_mul(HARD_CAP_FACTOR)
        .max(1 << 20);
    ws.max_message_size(cap)
        .max_frame_size(cap)
        .on_upgrade(move |socket| connection::run(socket, admission))
}

/// Browsers send `Origin`; other clients usually do not. With no allowlist, only
/// same-origin pages (Origin matching Host) and clients without Origin may connect;
/// `*` allows any origin.
fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> Result<(), String> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin
        .to_str()
        .map_err(|_| "unreadable Origin header".to_string())?;
    if allowed
        .iter()
        .any(|a| a == "*" || a.trim_end_matches('/') == origin)
    {
        return Ok(());
    }
    if allowed.is_empty() {
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or_default();
        let authority = origin.split_once("://").map_or("", |(_, rest)| rest);
        if !host.is_empty() && authority == host {
            return Ok(());
        }
    }
    Err(format!("origin {origin} is not allowed\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        if let Some(o) = origin {
            h.insert(header::ORIGIN, HeaderValue::from_str(o).unwrap());
        }
        h
    }

    #[test]
    fn origins_are_checked_against_the_allowlist_or_the_host() {
        let none: Vec<String> = vec![];
        assert!(origin_allowed(&headers(None, "a:1"), &none).is_ok());
        assert!(origin_allowed(&headers(Some("http://a:1"), "a:1"), &none).is_ok());
        assert!(origin_allowed(&headers(Some("http://evil"), "a:1"), &none).is_err());
        let list = vec!["https://play.example.org".to_string()];
        assert!(origin_allowed(&headers(Some("https://play.example.org"), "a:1"), &list).is_ok());
        assert!(origin_allowed(&headers(Some("http://a:1"), "a:1"), &list).is_err());
        let any = vec!["*".to_string()];
        assert!(origin_allowed(&headers(Some("http://evil"), "a:1"), &any).is_ok());
    }
}
