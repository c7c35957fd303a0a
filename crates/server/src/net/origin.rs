//! The Origin rule, shared by the WebSocket upgrade (`http`) and the account endpoints'
//! state-changing requests (`account_api`): a browser page may act only from this
//! server's own origin or one of `--allowed-origins`.

use axum::http::{HeaderMap, header};

/// Browsers send `Origin`; other clients usually do not. With no allowlist, only
/// same-origin pages (Origin matching Host) and clients without Origin may connect;
/// `*` allows any origin.
pub fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> Result<(), String> {
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
