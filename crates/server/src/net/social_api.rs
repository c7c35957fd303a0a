//! The card-preference and friends endpoints over HTTP (docs/protocol.md, "Card
//! preferences and friends"): an account's banned and disliked cards, whom it follows,
//! and which of them are online and at which open tables. The work is
//! `accounts::social`'s; this file reads requests, adds what only the network layer
//! sees (who is connected here, the lobby), and writes answers.
//!
//! As every account endpoint, with `net::account_api`'s extractors (`Signed`, `Acting`,
//! `Body`): signed in by the session cookie or an API token, the Origin rule on
//! state-changing requests, errors as JSON `{"code", "message"}` (their statuses in
//! `account_api::status_of`).
//!
//! A friend is `online` when the account has a signed-in WebSocket on the node that
//! answers or, in a cluster, on another node (the cluster's presence in Redis,
//! `cluster::presence`, up to a few seconds behind); its `tables` are the
//! rooms not started yet where a seat is taken under its name, from the lobby (which in
//! a cluster lists every node's rooms). An account that blocks you is shown offline and
//! at no table, as `invite` answers it. A signed-in seat always carries its account's
//! name and a guest cannot take a registered one, so the name is the account.

use crate::accounts::{Accounts, Refused};
use crate::net::account_api::{Acting, Body, Signed};
use crate::rooms::hub::Hub;
use axum::extract::{Path, State};
use axum::http::StatusCode;
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

async fn cards(
    State(accounts): State<Arc<Accounts>>,
    Signed(who): Signed,
) -> Result<Response, Refused> {
    Ok(Json(accounts.card_prefs(&who).await?).into_response())
}

/// `PUT /api/me/cards {bans, dislikes}`: both lists replaced (a list left out is
/// emptied), answered with the lists as stored.
async fn set_cards(
    State(accounts): State<Arc<Accounts>>,
    Acting(who): Acting,
    Body(new): Body<wire::CardPrefs>,
) -> Result<Response, Refused> {
    Ok(Json(accounts.set_card_prefs(&who, new).await?).into_response())
}

/// `GET /api/me/follows`: each followed account, online here or not, and its open
/// tables.
async fn follows(
    State(accounts): State<Arc<Accounts>>,
    Extension(hub): Extension<Arc<Hub>>,
    Signed(who): Signed,
) -> Result<Response, Refused> {
    let rows = accounts.following(&who).await?;
    // In a cluster, friends signed in on another node are online too (one read for all).
    let elsewhere = accounts
        .online_elsewhere(
            rows.iter()
                .filter(|f| !f.blocks && !accounts.live.is_online(f.account_id))
                .map(|f| f.account_id)
                .collect(),
        )
        .await;
    let open: Vec<wire::RoomSummary> = hub
        .list()
        .into_iter()
        .filter(|r| r.status == wire::RoomStatus::Lobby)
        .collect();
    // An account that blocks you looks offline and at no table, as `invite` answers.
    let friends: Vec<wire::Friend> = rows
        .into_iter()
        .map(|f| wire::Friend {
            online: !f.blocks
                && (accounts.live.is_online(f.account_id) || elsewhere.contains(&f.account_id)),
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
    Ok(Json(friends).into_response())
}

async fn set_follow(
    accounts: &Accounts,
    who: &crate::accounts::SignedIn,
    name: &str,
    on: bool,
) -> Result<Response, Refused> {
    if name.len() > 200 {
        return Err(Refused::new(
            "unknown_player",
            "no player is registered under that name",
        ));
    }
    accounts.set_follow(who, name, on).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn follow(
    State(accounts): State<Arc<Accounts>>,
    Acting(who): Acting,
    Path(name): Path<String>,
) -> Result<Response, Refused> {
    set_follow(&accounts, &who, &name, true).await
}

async fn unfollow(
    State(accounts): State<Arc<Accounts>>,
    Acting(who): Acting,
    Path(name): Path<String>,
) -> Result<Response, Refused> {
    set_follow(&accounts, &who, &name, false).await
}

#[cfg(test)]
mod tests {
    use crate::net::account_api::status_of;
    use axum::http::StatusCode;

    #[test]
    fn every_code_has_its_status() {
        for code in ["too_many_bans", "too_many_dislikes", "unknown_card"] {
            assert_eq!(status_of(code), StatusCode::BAD_REQUEST);
        }
        assert_eq!(status_of("too_many_follows"), StatusCode::CONFLICT);
        assert_eq!(status_of("unknown_player"), StatusCode::NOT_FOUND);
    }
}
