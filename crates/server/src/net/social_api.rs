//! The card-preference and friends endpoints over HTTP (docs/protocol.md, "Card
//! preferences and friends"): an account's banned and disliked cards, whom it follows,
//! and which of them are online and at which open tables. The work is
//! `accounts::social`'s; this file reads requests, adds what only the network layer
//! sees (who is connected here, the lobby), and writes answers.
//!
//! As every account endpoint (`net::account_api`): signed in by the session cookie or an
//! API token, the Origin rule on state-changing requests, errors as JSON
//! `{"code", "message"}`.
//!
//! A friend is `online` when the account has a signed-in WebSocket on the node that
//! answers (in a cluster, another node's connections are not seen); its `tables` are the
//! rooms not started yet where a seat is taken under its name, from the lobby (which in
//! a cluster lists every node's rooms). An account that blocks you is shown offline and
//! at no table, as `invite` answers it. A signed-in seat always carries its account's
//! name and a guest cannot take a registered one, so the name is the account.

// The helpers return the refusal as the response to send, as `net::account_api` does.
#![allow(clippy::result_large_err)]

use crate::accounts::{Accounts, Refused};
use crate::net::account_api::{acting, signed_in, status_of};
use crate::rooms::hub::Hub;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, put};
use axum::{Extension, Json, Router};
use dominion_protocol as wire;
use std::sync::Arc;

pub fn router(accounts: Arc<Accounts>, hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/api/me/cards", get(cards).put(set_cards))
        .route("/api/me/follows", get(follows))
        .route("/api/me/follows/{name}", put(follow).delete(unfollow))
        .layer(Extension(hub))
        .with_state(accounts)
}

/// The status of this file's own codes, else the account endpoints'.
fn status(code: &str) -> StatusCode {
    match code {
        "too_many_bans" | "too_many_dislikes" | "unknown_card" => StatusCode::BAD_REQUEST,
        "too_many_follows" => StatusCode::CONFLICT,
        _ => status_of(code),
    }
}

fn refused(r: Refused) -> Response {
    let mut response = (
        status(r.code),
        Json(wire::ApiError {
            code: r.code.to_string(),
            message: r.message,
        }),
    )
        .into_response();
    if let Some(wait) = r.retry_after
        && let Ok(v) = HeaderValue::from_str(&wait.as_secs().max(1).to_string())
    {
        response.headers_mut().insert(header::RETRY_AFTER, v);
    }
    response
}

async fn cards(State(accounts): State<Arc<Accounts>>, headers: HeaderMap) -> Response {
    let who = match signed_in(&accounts, &headers).await {
        Ok(who) => who,
        Err(r) => return r,
    };
    match accounts.card_prefs(&who).await {
        Ok(p) => Json(p).into_response(),
        Err(r) => refused(r),
    }
}

/// `PUT /api/me/cards {bans, dislikes}`: both lists replaced (a list left out is
/// emptied), answered with the lists as stored.
async fn set_cards(
    State(accounts): State<Arc<Accounts>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Response {
    let who = match acting(&accounts, &headers).await {
        Ok(who) => who,
        Err(r) => return r,
    };
    let new: wire::CardPrefs = match serde_json::from_slice(&bytes) {
        Ok(p) => p,
        Err(e) => {
            return refused(Refused::new(
                "bad_request",
                format!("the body is not {{\"bans\": [card], \"dislikes\": [card]}}: {e}"),
            ));
        }
    };
    match accounts.set_card_prefs(&who, new).await {
        Ok(p) => Json(p).into_response(),
        Err(r) => refused(r),
    }
}

/// `GET /api/me/follows`: each followed account, online here or not, and its open
/// tables.
async fn follows(
    State(accounts): State<Arc<Accounts>>,
    Extension(hub): Extension<Arc<Hub>>,
    headers: HeaderMap,
) -> Response {
    let who = match signed_in(&accounts, &headers).await {
        Ok(who) => who,
        Err(r) => return r,
    };
    let rows = match accounts.following(&who).await {
        Ok(rows) => rows,
        Err(r) => return refused(r),
    };
    let open: Vec<wire::RoomSummary> = hub
        .list()
        .into_iter()
        .filter(|r| r.status == wire::RoomStatus::Lobby)
        .collect();
    // An account that blocks you looks offline and at no table, as `invite` answers.
    let friends: Vec<wire::Friend> = rows
        .into_iter()
        .map(|f| wire::Friend {
            online: !f.blocks && accounts.live.is_online(f.account_id),
            tables: open
                .iter()
                .filter(|_| !f.blocks)
                .filter(|r| {
                    r.seats.iter().any(|s| {
                        matches!(&s.occupant, wire::Occupant::Human { name, .. } if *name == f.name)
                    })
                })
                .map(|r| wire::FriendTable {
                    room: r.id.clone(),
                    name: r.name.clone(),
                })
                .collect(),
            name: f.name,
            bot: f.bot,
        })
        .collect();
    Json(friends).into_response()
}

async fn set_follow(accounts: &Accounts, headers: &HeaderMap, name: &str, on: bool) -> Response {
    let who = match acting(accounts, headers).await {
        Ok(who) => who,
        Err(r) => return r,
    };
    if name.len() > 200 {
        return refused(Refused::new(
            "unknown_player",
            "no player is registered under that name",
        ));
    }
    match accounts.set_follow(&who, name, on).await {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(r) => refused(r),
    }
}

async fn follow(
    State(accounts): State<Arc<Accounts>>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Response {
    set_follow(&accounts, &headers, &name, true).await
}

async fn unfollow(
    State(accounts): State<Arc<Accounts>>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Response {
    set_follow(&accounts, &headers, &name, false).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_its_status() {
        for code in ["too_many_bans", "too_many_dislikes", "unknown_card"] {
            assert_eq!(status(code), StatusCode::BAD_REQUEST);
        }
        assert_eq!(status("too_many_follows"), StatusCode::CONFLICT);
        assert_eq!(status("unknown_player"), StatusCode::NOT_FOUND);
        assert_eq!(status("bad_origin"), StatusCode::FORBIDDEN);
    }
}
