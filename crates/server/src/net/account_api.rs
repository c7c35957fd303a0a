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
use axum::Extension;
use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Path, Request, State};
use axum::http::request::Parts;
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
        // Card preferences and follows (`net::social_api`).
        "too_many_bans" | "too_many_dislikes" | "unknown_card" => StatusCode::BAD_REQUEST,
        "too_many_follows" => StatusCode::CONFLICT,
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
pub(crate) fn peer(
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

pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
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

/// The account a request is signed in as (by token or cookie); else `not_signed_in`.
pub struct Signed(pub SignedIn);

impl FromRequestParts<Arc<Accounts>> for Signed {
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut Parts,
        accounts: &Arc<Accounts>,
    ) -> Result<Self, Response> {
        signed_in(accounts, &parts.headers).await.map(Signed)
    }
}

/// Signed in, and past the Origin rule first: what a state-changing request needs.
pub struct Acting(pub SignedIn);

impl FromRequestParts<Arc<Accounts>> for Acting {
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut Parts,
        accounts: &Arc<Accounts>,
    ) -> Result<Self, Response> {
        check_origin(accounts, &parts.headers)?;
        signed_in(accounts, &parts.headers).await.map(Acting)
    }
}

/// The Origin rule alone, for the state-changing requests nobody is signed in for yet
/// (register, sign in) or that succeed either way (sign out).
pub struct SameOrigin;

impl FromRequestParts<Arc<Accounts>> for SameOrigin {
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut Parts,
        accounts: &Arc<Accounts>,
    ) -> Result<Self, Response> {
        check_origin(accounts, &parts.headers).map(|()| SameOrigin)
    }
}

/// A JSON body; else `bad_request` with what was wrong. Last among a handler's
/// arguments, so the Origin and sign-in are checked before the body is read.
pub struct Body<T>(pub T);

impl<T: serde::de::DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = Response;

    async fn from_request(req: Request, state: &S) -> Result<Self, Response> {
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(IntoResponse::into_response)?;
        body(&bytes).map(Body)
    }
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        refused(self)
    }
}

/// An id in a path: one that is not a number names nothing.
fn id_of(text: &str) -> Result<i64, Refused> {
    text.parse()
        .map_err(|_| Refused::new("not_found", "no such id"))
}

/// 204 when `done`, else 404 `not_found` with `missing`.
fn done_or(done: bool, missing: &str) -> Result<Response, Refused> {
    if done {
        Ok(StatusCode::NO_CONTENT.into_response())
    } else {
        Err(Refused::new("not_found", missing))
    }
}

/// `POST /api/accounts`.
async fn register(
    State(accounts): State<Arc<Accounts>>,
    _: SameOrigin,
    client: Option<Extension<ClientAddr>>,
    info: Option<Extension<ConnectInfo<SocketAddr>>>,
    Body(c): Body<wire::Credentials>,
) -> Result<Response, Refused> {
    let session = accounts
        .register(&c.name, c.password, peer(client, info))
        .await?;
    Ok(with_session(&accounts, StatusCode::CREATED, session))
}

/// `POST /api/session`.
async fn sign_in(
    State(accounts): State<Arc<Accounts>>,
    _: SameOrigin,
    client: Option<Extension<ClientAddr>>,
    info: Option<Extension<ConnectInfo<SocketAddr>>>,
    Body(c): Body<wire::Credentials>,
) -> Result<Response, Refused> {
    let session = accounts
        .sign_in(&c.name, c.password, peer(client, info))
        .await?;
    Ok(with_session(&accounts, StatusCode::OK, session))
}

/// `DELETE /api/session`: the cookie is cleared even when it no longer signed anyone in.
async fn sign_out(
    State(accounts): State<Arc<Accounts>>,
    _: SameOrigin,
    headers: HeaderMap,
) -> Result<Response, Refused> {
    if let Ok(who) = signed_in(&accounts, &headers).await {
        accounts.sign_out(&who).await?;
    }
    Ok(cleared(&accounts))
}

async fn me(State(accounts): State<Arc<Accounts>>, Signed(who): Signed) -> Response {
    Json(accounts.me(&who).await).into_response()
}

#[derive(Deserialize)]
struct PasswordChange {
    old: String,
    new: String,
}

async fn change_password(
    State(accounts): State<Arc<Accounts>>,
    Acting(who): Acting,
    Body(change): Body<PasswordChange>,
) -> Result<Response, Refused> {
    accounts
        .change_password(&who, change.old, change.new)
        .await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `POST /api/me/bot`: the session cookie is cleared (a bot account has none).
async fn become_bot(
    State(accounts): State<Arc<Accounts>>,
    Acting(who): Acting,
) -> Result<Response, Refused> {
    accounts.become_bot(&who).await?;
    Ok(cleared(&accounts))
}

#[derive(Deserialize)]
struct PasswordOnly {
    password: String,
}

async fn delete_me(
    State(accounts): State<Arc<Accounts>>,
    Acting(who): Acting,
    Body(p): Body<PasswordOnly>,
) -> Result<Response, Refused> {
    accounts.delete(&who, p.password).await?;
    Ok(cleared(&accounts))
}

async fn data(
    State(accounts): State<Arc<Accounts>>,
    Signed(who): Signed,
) -> Result<Response, Refused> {
    let mut response = Json(accounts.data(&who).await?).into_response();
    let name: String = who
        .account
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"dominion-{name}.json\""))
    {
        response
            .headers_mut()
            .insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(response)
}

async fn sessions(
    State(accounts): State<Arc<Accounts>>,
    Signed(who): Signed,
) -> Result<Response, Refused> {
    Ok(Json(accounts.sessions(&who).await?).into_response())
}

async fn revoke_session(
    State(accounts): State<Arc<Accounts>>,
    Acting(who): Acting,
    Path(id): Path<String>,
) -> Result<Response, Refused> {
    let done = accounts.revoke_session(&who, id_of(&id)?).await?;
    done_or(done, "you have no session by that id")
}

async fn tokens(
    State(accounts): State<Arc<Accounts>>,
    Signed(who): Signed,
) -> Result<Response, Refused> {
    Ok(Json(accounts.tokens(&who).await?).into_response())
}

#[derive(Deserialize)]
struct TokenLabel {
    label: String,
}

async fn create_token(
    State(accounts): State<Arc<Accounts>>,
    Acting(who): Acting,
    Body(t): Body<TokenLabel>,
) -> Result<Response, Refused> {
    let new = accounts.create_token(&who, &t.label).await?;
    Ok((StatusCode::CREATED, Json(new)).into_response())
}

async fn revoke_token(
    State(accounts): State<Arc<Accounts>>,
    Acting(who): Acting,
    Path(id): Path<String>,
) -> Result<Response, Refused> {
    let done = accounts.revoke_token(&who, id_of(&id)?).await?;
    done_or(done, "you have no live token by that id")
}

async fn blocks(
    State(accounts): State<Arc<Accounts>>,
    Signed(who): Signed,
) -> Result<Response, Refused> {
    Ok(Json(accounts.blocks(&who).await?).into_response())
}

async fn block(
    State(accounts): State<Arc<Accounts>>,
    Acting(who): Acting,
    Path(name): Path<String>,
) -> Result<Response, Refused> {
    accounts.set_block(&who, &name, true).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn unblock(
    State(accounts): State<Arc<Accounts>>,
    Acting(who): Acting,
    Path(name): Path<String>,
) -> Result<Response, Refused> {
    accounts.set_block(&who, &name, false).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
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
/// no longer keeps the line answers 404 `not_found` (on the game's connection,
/// `report_chat` reaches the room wherever it runs).
async fn report(
    State(accounts): State<Arc<Accounts>>,
    Extension(hub): Extension<Arc<Hub>>,
    Acting(who): Acting,
    Body(r): Body<Report>,
) -> Result<Response, Refused> {
    let Some(room) = hub.room(&r.room) else {
        return Err(Refused::new(
            "not_found",
            "no such room here (it may have closed)",
        ));
    };
    let Some(quoted) = room.quote_chat_line(r.line).await else {
        return Err(Refused::new(
            "not_found",
            "the room does not keep that chat line",
        ));
    };
    let id = accounts
        .report(&who, r.room, r.line, quoted, r.reason)
        .await?;
    Ok((StatusCode::CREATED, Json(serde_json::json!({ "id": id }))).into_response())
}

async fn player(
    State(accounts): State<Arc<Accounts>>,
    Path(name): Path<String>,
) -> Result<Response, Refused> {
    if name.len() > 200 {
        return Err(Refused::new(
            "unknown_player",
            "no player is registered under that name",
        ));
    }
    Ok(Json(accounts.profile(&name).await?).into_response())
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
