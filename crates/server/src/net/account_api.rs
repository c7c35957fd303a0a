//! The account endpoints over HTTP (docs/protocol.md, "Accounts"): register, sign in and
//! out, the signed-in player's account, sessions, API tokens and blocks, and public
//! profiles. The work is `accounts`'; this file reads requests and writes answers.
//!
//! Every answer that is not a success is a JSON `{"code", "message"}` with the status
//! [`status_of`] gives its code. A request is signed in by `Authorization: Bearer dmn_…`
//! (an API token) or by the `dominion_session` cookie. State-changing requests
//! (POST/PUT/DELETE) signed in by a cookie, or by nothing (register, sign in), must carry
//! an `Origin` that is this server's or one of `--allowed-origins`: a page on another
//! site cannot act for the browser's session. A token-signed request carries no cookie
//! and needs no Origin.
//!
//! The session cookie is `HttpOnly; SameSite=Lax; Path=/`, lives `--session-days`, and is
//! `Secure` when `--behind-tls` says the browser reaches the server over HTTPS.

// The helpers below return the refusal as the very response to send (`Err(Response)`),
// as axum handlers do; its size does not matter on this path.
#![allow(clippy::result_large_err)]

use crate::accounts::{Accounts, COOKIE, NewSession, Refused, SignedIn};
use crate::net::client_addr::ClientAddr;
use crate::net::origin::origin_allowed;
use crate::rooms::hub::Hub;
use crate::rooms::room::RoomMsg;
use axum::Extension;
use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post, put};
use dominion_protocol as wire;
use serde::Deserialize;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

pub fn router(accounts: Arc<Accounts>, hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/api/accounts", post(register))
        .route("/api/session", post(sign_in).delete(sign_out))
        .route("/api/me", get(me).delete(delete_me))
        .route("/api/me/password", put(change_password))
        .route("/api/me/bot", post(become_bot))
        .route("/api/me/data", get(data))
        .route("/api/me/sessions", get(sessions))
        .route("/api/me/sessions/{id}", delete(revoke_session))
        .route("/api/me/tokens", get(tokens).post(create_token))
        .route("/api/me/tokens/{id}", delete(revoke_token))
        .route("/api/me/blocks", get(blocks))
        .route("/api/me/blocks/{name}", put(block).delete(unblock))
        .route("/api/players/{name}", get(player))
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/reports", post(report))
        .layer(Extension(hub))
        .with_state(accounts)
}

/// The HTTP status of a refusal's code.
pub fn status_of(code: &str) -> StatusCode {
    match code {
        "bad_request" | "bad_name" | "weak_password" => StatusCode::BAD_REQUEST,
        "wrong_credentials" | "not_signed_in" => StatusCode::UNAUTHORIZED,
        "bad_origin" | "banned" | "bot_account" | "wrong_password" => StatusCode::FORBIDDEN,
        "unknown_player" | "not_found" => StatusCode::NOT_FOUND,
        "name_taken" | "has_played" => StatusCode::CONFLICT,
        "too_many_sign_ins" | "too_many_registrations" => StatusCode::TOO_MANY_REQUESTS,
        "busy" => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

fn refused(r: Refused) -> Response {
    let mut response = (
        status_of(r.code),
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

fn error(code: &'static str, message: &str) -> Response {
    refused(Refused::new(code, message))
}

/// The client's address for the per-address limits: as `net::accept` found it (a trusted
/// proxy's `X-Forwarded-For`, `net::client_addr`), else the peer's.
fn peer(
    client: Option<Extension<ClientAddr>>,
    info: Option<Extension<ConnectInfo<SocketAddr>>>,
) -> Option<IpAddr> {
    client
        .map(|Extension(ClientAddr(ip))| ip)
        .or(info.map(|Extension(ConnectInfo(a))| a.ip()))
}

/// The value of the session cookie, if the request has one.
pub fn session_cookie(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.trim())
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// The Origin rule for a state-changing request not signed by a token: an Origin is
/// required, and it must be allowed.
fn check_origin(accounts: &Accounts, headers: &HeaderMap) -> Result<(), Response> {
    if bearer(headers).is_some() {
        return Ok(());
    }
    if headers.get(header::ORIGIN).is_none() {
        return Err(error(
            "bad_origin",
            "a request that changes something must carry an Origin header (browsers send it)",
        ));
    }
    origin_allowed(headers, &accounts.config.allowed_origins)
        .map_err(|why| error("bad_origin", why.trim_end()))
}

/// Who the request is signed in as, or the refusal.
async fn signed_in(accounts: &Accounts, headers: &HeaderMap) -> Result<SignedIn, Response> {
    let found = match bearer(headers) {
        Some(token) => accounts.by_token(token).await,
        None => match session_cookie(headers) {
            Some(cookie) => accounts.by_cookie(cookie).await,
            None => Ok(None),
        },
    };
    match found {
        Ok(Some(who)) => Ok(who),
        Ok(None) => Err(error("not_signed_in", "sign in first")),
        Err(r) => Err(refused(r)),
    }
}

fn body<T: serde::de::DeserializeOwned>(bytes: &Bytes) -> Result<T, Response> {
    serde_json::from_slice(bytes).map_err(|e| {
        error(
            "bad_request",
            &format!("the body is not the JSON this endpoint takes: {e}"),
        )
    })
}

fn cookie_header(accounts: &Accounts, value: &str, max_age: i64) -> HeaderValue {
    let secure = if accounts.config.behind_tls {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{COOKIE}={value}; HttpOnly; SameSite=Lax; Path=/; Max-Age={max_age}{secure}"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("dominion_session=; Max-Age=0"))
}

fn with_session(accounts: &Accounts, status: StatusCode, session: NewSession) -> Response {
    let max_age = i64::from(accounts.config.session_days) * 86_400;
    let mut response = (
        status,
        Json(wire::Me {
            name: session.signed_in.account.name.clone(),
            bot: session.signed_in.account.bot,
            created: session.signed_in.account.created_at,
        }),
    )
        .into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        cookie_header(accounts, &session.cookie, max_age),
    );
    response
}

fn cleared(accounts: &Accounts) -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie_header(accounts, "", 0));
    response
}

/// `POST /api/accounts`.
async fn register(
    State(accounts): State<Arc<Accounts>>,
    client: Option<Extension<ClientAddr>>,
    info: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Response {
    if let Err(r) = check_origin(&accounts, &headers) {
        return r;
    }
    let c: wire::Credentials = match body(&bytes) {
        Ok(c) => c,
        Err(r) => return r,
    };
    match accounts
        .register(&c.name, c.password, peer(client, info))
        .await
    {
        Ok(session) => with_session(&accounts, StatusCode::CREATED, session),
        Err(r) => refused(r),
    }
}

/// `POST /api/session`.
async fn sign_in(
    State(accounts): State<Arc<Accounts>>,
    client: Option<Extension<ClientAddr>>,
    info: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Response {
    if let Err(r) = check_origin(&accounts, &headers) {
        return r;
    }
    let c: wire::Credentials = match body(&bytes) {
        Ok(c) => c,
        Err(r) => return r,
    };
    match accounts
        .sign_in(&c.name, c.password, peer(client, info))
        .await
    {
        Ok(session) => with_session(&accounts, StatusCode::OK, session),
        Err(r) => refused(r),
    }
}

/// `DELETE /api/session`: the cookie is cleared even when it no longer signed anyone in.
async fn sign_out(State(accounts): State<Arc<Accounts>>, headers: HeaderMap) -> Response {
    if let Err(r) = check_origin(&accounts, &headers) {
        return r;
    }
    if let Ok(who) = signed_in(&accounts, &headers).await
        && let Err(r) = accounts.sign_out(&who).await
    {
        return refused(r);
    }
    cleared(&accounts)
}

async fn me(State(accounts): State<Arc<Accounts>>, headers: HeaderMap) -> Response {
    match signed_in(&accounts, &headers).await {
        Ok(who) => Json(accounts.me(&who).await).into_response(),
        Err(r) => r,
    }
}

/// Signed in, and for a state-changing request past the Origin rule.
async fn acting(accounts: &Accounts, headers: &HeaderMap) -> Result<SignedIn, Response> {
    check_origin(accounts, headers)?;
    signed_in(accounts, headers).await
}

#[derive(Deserialize)]
struct PasswordChange {
    old: String,
    new: String,
}

async fn change_password(
    State(accounts): State<Arc<Accounts>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Response {
    let who = match acting(&accounts, &headers).await {
        Ok(who) => who,
        Err(r) => return r,
    };
    let change: PasswordChange = match body(&bytes) {
        Ok(c) => c,
        Err(r) => return r,
    };
    match accounts.change_password(&who, change.old, change.new).await {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(r) => refused(r),
    }
}

/// `POST /api/me/bot`: the session cookie is cleared (a bot account has none).
async fn become_bot(State(accounts): State<Arc<Accounts>>, headers: HeaderMap) -> Response {
    let who = match acting(&accounts, &headers).await {
        Ok(who) => who,
        Err(r) => return r,
    };
    match accounts.become_bot(&who).await {
        Ok(()) => cleared(&accounts),
        Err(r) => refused(r),
    }
}

#[derive(Deserialize)]
struct PasswordOnly {
    password: String,
}

async fn delete_me(
    State(accounts): State<Arc<Accounts>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Response {
    let who = match acting(&accounts, &headers).await {
        Ok(who) => who,
        Err(r) => return r,
    };
    let p: PasswordOnly = match body(&bytes) {
        Ok(p) => p,
        Err(r) => return r,
    };
    match accounts.delete(&who, p.password).await {
        Ok(()) => cleared(&accounts),
        Err(r) => refused(r),
    }
}

async fn data(State(accounts): State<Arc<Accounts>>, headers: HeaderMap) -> Response {
    let who = match signed_in(&accounts, &headers).await {
        Ok(who) => who,
        Err(r) => return r,
    };
    match accounts.data(&who).await {
        Ok(data) => {
            let mut response = Json(data).into_response();
            let name: String = who
                .account
                .name
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            if let Ok(v) =
                HeaderValue::from_str(&format!("attachment; filename=\"dominion-{name}.json\""))
            {
                response
                    .headers_mut()
                    .insert(header::CONTENT_DISPOSITION, v);
            }
            response
        }
        Err(r) => refused(r),
    }
}

async fn sessions(State(accounts): State<Arc<Accounts>>, headers: HeaderMap) -> Response {
    let who = match signed_in(&accounts, &headers).await {
        Ok(who) => who,
        Err(r) => return r,
    };
    match accounts.sessions(&who).await {
        Ok(list) => Json(list).into_response(),
        Err(r) => refused(r),
    }
}

fn id_of(text: &str) -> Result<i64, Response> {
    text.parse().map_err(|_| error("not_found", "no such id"))
}

async fn revoke_session(
    State(accounts): State<Arc<Accounts>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let who = match acting(&accounts, &headers).await {
        Ok(who) => who,
        Err(r) => return r,
    };
    let id = match id_of(&id) {
        Ok(id) => id,
        Err(r) => return r,
    };
    match accounts.revoke_session(&who, id).await {
        Ok(true) => StatusCode::NO_CONTENT.into_response(),
        Ok(false) => error("not_found", "you have no session by that id"),
        Err(r) => refused(r),
    }
}

async fn tokens(State(accounts): State<Arc<Accounts>>, headers: HeaderMap) -> Response {
    let who = match signed_in(&accounts, &headers).await {
        Ok(who) => who,
        Err(r) => return r,
    };
    match accounts.tokens(&who).await {
        Ok(list) => Json(list).into_response(),
        Err(r) => refused(r),
    }
}

#[derive(Deserialize)]
struct TokenLabel {
    label: String,
}

async fn create_token(
    State(accounts): State<Arc<Accounts>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Response {
    let who = match acting(&accounts, &headers).await {
        Ok(who) => who,
        Err(r) => return r,
    };
    let t: TokenLabel = match body(&bytes) {
        Ok(t) => t,
        Err(r) => return r,
    };
    match accounts.create_token(&who, &t.label).await {
        Ok(new) => (StatusCode::CREATED, Json(new)).into_response(),
        Err(r) => refused(r),
    }
}

async fn revoke_token(
    State(accounts): State<Arc<Accounts>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let who = match acting(&accounts, &headers).await {
        Ok(who) => who,
        Err(r) => return r,
    };
    let id = match id_of(&id) {
        Ok(id) => id,
        Err(r) => return r,
    };
    match accounts.revoke_token(&who, id).await {
        Ok(true) => StatusCode::NO_CONTENT.into_response(),
        Ok(false) => error("not_found", "you have no live token by that id"),
        Err(r) => refused(r),
    }
}

async fn blocks(State(accounts): State<Arc<Accounts>>, headers: HeaderMap) -> Response {
    let who = match signed_in(&accounts, &headers).await {
        Ok(who) => who,
        Err(r) => return r,
    };
    match accounts.blocks(&who).await {
        Ok(list) => Json(list).into_response(),
        Err(r) => refused(r),
    }
}

async fn set_block(accounts: &Accounts, headers: &HeaderMap, name: &str, on: bool) -> Response {
    let who = match acting(accounts, headers).await {
        Ok(who) => who,
        Err(r) => return r,
    };
    match accounts.set_block(&who, name, on).await {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(r) => refused(r),
    }
}

async fn block(
    State(accounts): State<Arc<Accounts>>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Response {
    set_block(&accounts, &headers, &name, true).await
}

async fn unblock(
    State(accounts): State<Arc<Accounts>>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Response {
    set_block(&accounts, &headers, &name, false).await
}

#[derive(Deserialize)]
struct Report {
    room: String,
    line: u64,
    #[serde(default)]
    reason: Option<String>,
}

/// `POST /api/reports`: the line is quoted from the room (which keeps its last lines in
/// memory), never taken from the reporter; a room that closed, runs on another node or
/// no longer keeps the line answers 404 `not_found`.
async fn report(
    State(accounts): State<Arc<Accounts>>,
    Extension(hub): Extension<Arc<Hub>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Response {
    let who = match acting(&accounts, &headers).await {
        Ok(who) => who,
        Err(r) => return r,
    };
    let r: Report = match body(&bytes) {
        Ok(r) => r,
        Err(r) => return r,
    };
    let Some(room) = hub.room(&r.room) else {
        return error("not_found", "no such room here (it may have closed)");
    };
    let (done, quoted) = tokio::sync::oneshot::channel();
    let sent = room.tx.send(RoomMsg::ChatLine { line: r.line, done }).await;
    let line = match (sent, quoted.await) {
        (Ok(()), Ok(Some(line))) => line,
        _ => return error("not_found", "the room does not keep that chat line"),
    };
    let speaker = match line.from {
        wire::ChatSender::Seat { name, .. } | wire::ChatSender::Spectator { name } => name,
    };
    match accounts
        .report(&who, r.room, r.line, (speaker, line.text), r.reason)
        .await
    {
        Ok(id) => (StatusCode::CREATED, Json(serde_json::json!({ "id": id }))).into_response(),
        Err(r) => refused(r),
    }
}

async fn player(State(accounts): State<Arc<Accounts>>, Path(name): Path<String>) -> Response {
    if name.len() > 200 {
        return error("unknown_player", "no player is registered under that name");
    }
    match accounts.profile(&name).await {
        Ok(p) => Json(p).into_response(),
        Err(r) => refused(r),
    }
}

/// `GET /api/leaderboard?pool=2p|3-4p|bots&page=N` (docs/protocol.md, "Ratings"):
/// anyone may read it; signed in, it has the reader's own row and friends' rows too.
async fn leaderboard(
    State(accounts): State<Arc<Accounts>>,
    headers: HeaderMap,
    axum::extract::RawQuery(query): axum::extract::RawQuery,
) -> Response {
    let (mut pool, mut page) = (dominion_rating::Pool::TwoPlayer, 1u32);
    for (key, value) in query
        .as_deref()
        .unwrap_or_default()
        .split('&')
        .filter_map(|p| p.split_once('='))
    {
        match key {
            "pool" => match value.replace("%2D", "-").replace("%2d", "-").parse() {
                Ok(p) => pool = p,
                Err(_) => return error("bad_request", "pool is one of 2p, 3-4p and bots"),
            },
            "page" => match value.parse::<u32>() {
                Ok(n) if n >= 1 => page = n,
                _ => return error("bad_request", "page is a number from 1"),
            },
            _ => {}
        }
    }
    // Signed in or not, the board is public: a bad or expired credential only loses
    // the reader's own rows.
    let who = match bearer(&headers) {
        Some(token) => accounts.by_token(token).await.ok().flatten(),
        None => match session_cookie(&headers) {
            Some(cookie) => accounts.by_cookie(cookie).await.ok().flatten(),
            None => None,
        },
    };
    match accounts.leaderboard(pool, page, who.as_ref()).await {
        Ok(board) => Json(board).into_response(),
        Err(r) => refused(r),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_cookie_is_found_among_others() {
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; dominion_session=abc ; b=2"),
        );
        assert_eq!(session_cookie(&h), Some("abc"));
        assert_eq!(session_cookie(&HeaderMap::new()), None);
    }

    #[test]
    fn every_code_has_its_status() {
        assert_eq!(status_of("wrong_credentials"), StatusCode::UNAUTHORIZED);
        assert_eq!(status_of("name_taken"), StatusCode::CONFLICT);
        assert_eq!(
            status_of("too_many_sign_ins"),
            StatusCode::TOO_MANY_REQUESTS
        );
        assert_eq!(status_of("bad_origin"), StatusCode::FORBIDDEN);
    }
}
