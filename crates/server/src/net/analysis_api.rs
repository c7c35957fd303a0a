//! `GET /api/games/{id}/analysis`: an ended game's review (`crate::analysis`).
//!
//! 404 for an unknown game (or a server that keeps no history), 409 while the game is
//! played (its replies would reveal every hand), 503 when this server makes no reviews
//! (`--analysis-workers 0`) or its queue is full (then with `Retry-After`), 202 with
//! `AnalysisProgress` while the review waits or runs — the first request queues it,
//! under its requester: the signed-in account (API token or session cookie), else the
//! client address, so that the queue is fair across players — and 200 with the
//! `GameAnalysis` once it is made. The store is read off the async workers.

use crate::accounts::Accounts;
use crate::analysis::queue::Requester;
use crate::analysis::{Analysis, Answer, RETRY_AFTER_SECS};
use crate::net::account_api::{bearer, peer, session_cookie};
use crate::net::client_addr::ClientAddr;
use crate::rooms::hub::Hub;
use axum::extract::{ConnectInfo, Path};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Json, Router};
use dominion_protocol as wire;
use std::net::SocketAddr;
use std::sync::Arc;

pub fn router(_hub: Arc<Hub>, accounts: Arc<Accounts>, analysis: Arc<Analysis>) -> Router {
    Router::new()
        .route("/api/games/{id}/analysis", get(game_analysis))
        .layer(Extension(accounts))
        .layer(Extension(analysis))
}

fn api_error(status: StatusCode, message: &str) -> Response {
    (status, Json(serde_json::json!({ "error": message }))).into_response()
}

async fn game_analysis(
    Extension(accounts): Extension<Arc<Accounts>>,
    Extension(analysis): Extension<Arc<Analysis>>,
    client: Option<Extension<ClientAddr>>,
    info: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    if id.len() > 64 {
        return api_error(StatusCode::NOT_FOUND, "no such game");
    }
    // Signed in or not, a review is public: a bad credential only queues it under the
    // client's address.
    let who = match bearer(&headers) {
        Some(token) => accounts.by_token(token).await.ok().flatten(),
        None => match session_cookie(&headers) {
            Some(cookie) => accounts.by_cookie(cookie).await.ok().flatten(),
            None => None,
        },
    };
    let requester = match (who, peer(client, info)) {
        (Some(who), _) => Requester::Account(who.account.id),
        (None, Some(ip)) => Requester::Address(ip),
        (None, None) => Requester::Server,
    };
    let answer = tokio::task::spawn_blocking(move || analysis.ask(&id, requester)).await;
    let Ok(answer) = answer else {
        return api_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the store could not be read",
        );
    };
    respond(answer)
}

fn respond(answer: Answer) -> Response {
    match answer {
        Answer::NoHistory => api_error(StatusCode::NOT_FOUND, "this server keeps no history"),
        Answer::NoSuchGame => api_error(StatusCode::NOT_FOUND, "no such game"),
        Answer::NotOver => api_error(
            StatusCode::CONFLICT,
            "this game is not over yet; it is reviewed once it ends",
        ),
        Answer::Disabled => api_error(
            StatusCode::SERVICE_UNAVAILABLE,
            "this server does not review games (--analysis-workers 0)",
        ),
        Answer::Full => {
            let mut r = api_error(
                StatusCode::SERVICE_UNAVAILABLE,
                "too many games are waiting for review; ask again later",
            );
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECS));
            r
        }
        Answer::Queued { position } => (
            StatusCode::ACCEPTED,
            Json(wire::AnalysisProgress::Queued { position }),
        )
            .into_response(),
        Answer::Running { done, total } => (
            StatusCode::ACCEPTED,
            Json(wire::AnalysisProgress::Running { done, total }),
        )
            .into_response(),
        Answer::Ready(json) => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/json")],
            json,
        )
            .into_response(),
        Answer::Failed(reason) => {
            tracing::warn!(%reason, "a game review was asked for that could not be made");
            api_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "this game could not be reviewed: its record does not replay",
            )
        }
        Answer::Unreadable => api_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the store could not be read",
        ),
    }
}
