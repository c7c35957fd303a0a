//! The browser client, embedded in the binary.
//!
//! `web-client/` holds plain HTML, CSS and ES modules with no build step. This crate
//! embeds that directory at compile time ([`include_dir`]) and serves it with
//! [`router`], so a copied release binary or the Docker image needs no files beside it.
//!
//! Architecture invariant: the client talks to the server only through the published
//! protocol (`/ws`) and the public `/api/*` endpoints — this crate knows nothing of the
//! engine or the protocol, it only serves bytes.
//!
//! Caching: files are served with `Cache-Control: no-cache` and a strong `ETag` (a hash
//! of the embedded bytes), so a browser revalidates each load and gets `304 Not Modified`
//! while the binary is unchanged — right for unbundled modules whose names carry no hash.

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use include_dir::{Dir, File, include_dir};

/// The embedded `web-client/` directory.
pub static CLIENT: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../web-client");

/// The Content-Security-Policy sent with HTML: scripts, styles and connections only to
/// this origin (the WebSocket included), no framing.
const CSP: &str = "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; \
                   object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/// One embedded file, ready to serve.
#[derive(Clone)]
struct Asset {
    bytes: &'static [u8],
    content_type: &'static str,
    etag: HeaderValue,
    html: bool,
}

/// A router serving the client: `GET /` answers `index.html`, and every embedded file
/// is served at its path (`/src/main.js`, `/data/cards.json`, …). `GET /replay/{id}`
/// answers `index.html` too: the client reads the game id from its path and shows that
/// game's replay (it learns from `/api/games/{id}` whether there is one); so does
/// `GET /players/{name}`, a player's profile page (from `/api/players/{name}`), and
/// `GET /leaderboard` (from `/api/leaderboard`). It has
/// explicit routes only (no fallback), so it merges into another router without
/// shadowing its routes.
pub fn router() -> Router {
    let mut router = Router::new();
    for file in files() {
        let path = file.path().to_string_lossy().replace('\\', "/");
        let asset = asset(file);
        if path == "index.html" {
            let index = asset.clone();
            router = router.route("/", get(move |headers: HeaderMap| serve(index, headers)));
            let index = asset.clone();
            router = router.route(
                "/replay/{id}",
                get(move |headers: HeaderMap| serve(index, headers)),
            );
            let index = asset.clone();
            router = router.route(
                "/players/{name}",
                get(move |headers: HeaderMap| serve(index, headers)),
            );
            let index = asset.clone();
            router = router.route(
                "/leaderboard",
                get(move |headers: HeaderMap| serve(index, headers)),
            );
        }
        router = router.route(
            &format!("/{path}"),
            get(move |headers: HeaderMap| serve(asset, headers)),
        );
    }
    router
}

/// Every embedded file, depth first.
pub fn files() -> Vec<&'static File<'static>> {
    fn walk(dir: &'static Dir<'static>, out: &mut Vec<&'static File<'static>>) {
        out.extend(dir.files());
        for sub in dir.dirs() {
            walk(sub, out);
        }
    }
    let mut out = Vec::new();
    walk(&CLIENT, &mut out);
    out
}

/// The embedded bytes of `path` (relative to `web-client/`), if present.
pub fn get_file(path: &str) -> Option<&'static [u8]> {
    CLIENT.get_file(path).map(File::contents)
}

fn asset(file: &'static File<'static>) -> Asset {
    let bytes = file.contents();
    let ext = file
        .path()
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("");
    let content_type = content_type(ext);
    let etag = HeaderValue::from_str(&format!("\"{:016x}\"", fnv1a(bytes)))
        .expect("hex is a valid header value");
    Asset {
        bytes,
        content_type,
        etag,
        html: ext == "html",
    }
}

async fn serve(asset: Asset, headers: HeaderMap) -> Response {
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .any(|tag| tag.trim() == asset.etag || tag.trim() == "*")
        });
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut r = Response::new(Body::from(asset.bytes));
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(asset.content_type),
        );
        r
    };
    let h = response.headers_mut();
    h.insert(header::ETAG, asset.etag.clone());
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if asset.html {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        );
        h.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        );
    }
    response
}

fn content_type(ext: &str) -> &'static str {
    match ext {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "webmanifest" => "application/manifest+json",
        "woff2" => "font/woff2",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// FNV-1a, 64 bits: a stable content hash for ETags (not for security).
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::Request;
    use std::collections::BTreeSet;
    use tower::ServiceExt;

    /// Relative module and asset references in one file: `import … from "./x.js"`,
    /// `import("./x.js")`, `src="…"`, `href="…"`.
    fn references(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for quote in ['"', '\''] {
            for piece in text.split(quote).skip(1).step_by(2) {
                let local =
                    piece.starts_with("./") || piece.starts_with("../") || piece.starts_with('/');
                let asset = [".js", ".css", ".json", ".svg", ".png", ".ico"]
                    .iter()
                    .any(|e| piece.ends_with(e));
                if local && asset && !piece.starts_with("//") && !piece.contains(' ') {
                    out.push(piece.to_string());
                }
            }
        }
        out
    }

    fn resolve(from: &str, reference: &str) -> String {
        let mut parts: Vec<&str> = if reference.starts_with('/') {
            Vec::new()
        } else {
            let mut p: Vec<&str> = from.split('/').collect();
            p.pop();
            p
        };
        for seg in reference.trim_start_matches('/').split('/') {
            match seg {
                "." | "" => {}
                ".." => {
                    parts.pop();
                }
                s => parts.push(s),
            }
        }
        parts.join("/")
    }

    #[test]
    fn index_and_every_referenced_module_are_embedded() {
        assert!(get_file("index.html").is_some(), "index.html is embedded");
        let mut seen = BTreeSet::new();
        let mut todo = vec!["index.html".to_string()];
        while let Some(path) = todo.pop() {
            if !seen.insert(path.clone()) {
                continue;
            }
            let bytes =
                get_file(&path).unwrap_or_else(|| panic!("{path} is referenced but not embedded"));
            if path.ends_with(".html") || path.ends_with(".js") || path.ends_with(".css") {
                let text = std::str::from_utf8(bytes).expect("text files are UTF-8");
                for r in references(text) {
                    todo.push(resolve(&path, &r));
                }
            }
        }
        assert!(
            seen.contains("src/main.js"),
            "index.html loads src/main.js: {seen:?}"
        );
        assert!(
            seen.contains("data/cards.json"),
            "the client loads the card data: {seen:?}"
        );
        assert!(
            seen.len() > 10,
            "the client's modules are followed: {seen:?}"
        );
    }

    #[test]
    fn every_embedded_file_has_a_known_content_type() {
        for f in files() {
            let ext = f.path().extension().and_then(|e| e.to_str()).unwrap_or("");
            assert_ne!(
                content_type(ext),
                "application/octet-stream",
                "{} has no content type",
                f.path().display()
            );
        }
    }

    async fn get(path: &str, etag: Option<&HeaderValue>) -> Response {
        let mut req = Request::get(path);
        if let Some(tag) = etag {
            req = req.header(header::IF_NONE_MATCH, tag);
        }
        router()
            .oneshot(req.body(Body::empty()).unwrap())
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn serves_index_modules_and_revalidates() {
        let root = get("/", None).await;
        assert_eq!(root.status(), StatusCode::OK);
        assert_eq!(
            root.headers()[header::CONTENT_TYPE],
            "text/html; charset=utf-8"
        );
        assert_eq!(root.headers()[header::CACHE_CONTROL], "no-cache");
        assert!(root.headers().contains_key(header::CONTENT_SECURITY_POLICY));
        let etag = root.headers()[header::ETAG].clone();
        assert_eq!(
            get("/", Some(&etag)).await.status(),
            StatusCode::NOT_MODIFIED
        );

        let js = get("/src/main.js", None).await;
        assert_eq!(js.status(), StatusCode::OK);
        assert_eq!(
            js.headers()[header::CONTENT_TYPE],
            "text/javascript; charset=utf-8"
        );
        // A replay page is the client too; its asset references are absolute, so they
        // resolve from /replay/ as from /.
        let replay = get("/replay/abc123", None).await;
        assert_eq!(replay.status(), StatusCode::OK);
        assert_eq!(
            replay.headers()[header::CONTENT_TYPE],
            "text/html; charset=utf-8"
        );
        // So is a profile page.
        let profile = get("/players/Anna", None).await;
        assert_eq!(profile.status(), StatusCode::OK);
        assert_eq!(
            profile.headers()[header::CONTENT_TYPE],
            "text/html; charset=utf-8"
        );
        // And the leaderboard.
        let board = get("/leaderboard", None).await;
        assert_eq!(board.status(), StatusCode::OK);
        assert_eq!(
            board.headers()[header::CONTENT_TYPE],
            "text/html; charset=utf-8"
        );
        let index = std::str::from_utf8(get_file("index.html").unwrap()).unwrap();
        assert!(
            !index.contains("href=\"./") && !index.contains("src=\"./"),
            "index.html refers to its assets by absolute paths: {index}"
        );

        let json = get("/data/cards.json", None).await;
        assert_eq!(json.headers()[header::CONTENT_TYPE], "application/json");

        assert_eq!(
            get("/no/such/file.js", None).await.status(),
            StatusCode::NOT_FOUND
        );
    }
}
