//! The files in deploy/ run for real: Debian's nginx and Caddy in front of a real
//! dominion-server, each carrying a whole game (WebSocket hello/welcome to game_over)
//! with DOMINION_ALLOWED_ORIGINS set to the proxy's origin, and Prometheus scraping the
//! server with deploy/prometheus.yml. `nginx -t`, `caddy validate` and `promtool check
//! config` check the files as shipped.
//!
//! Everything listens on 127.0.0.1. TLS is left out of the live runs (no certificate
//! authority here, and Caddy's automatic HTTPS would try to reach one): the test copies
//! differ from the shipped files only in listen addresses, ports and TLS lines, and each
//! substitution must find its text exactly once, so the files cannot drift away from
//! what is tested. The packages are listed in .ci/debian-packages; a missing one fails
//! the test with the package to install.
//!
//! Behind nginx and Caddy the server trusts the proxy (`DOMINION_TRUSTED_PROXIES`, as
//! the deploy files say) and counts each client under the address the proxy saw, not
//! under the proxy's and not under an `X-Forwarded-For` the client wrote itself: the
//! test's clients connect from other loopback addresses (127.0.0.2, 127.0.0.3) and the
//! server's one-room-a-minute budget per address shows which address it charged.

use crate::common::Client;
use crate::process::{ServerProcess, try_http_get};
use serde_json::{Value, json};
use std::fs::File;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn deploy_file(name: &str) -> String {
    let path = repo().join("deploy").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The program, from PATH or /usr/sbin (nginx lives there); a clear failure naming the
/// Debian package otherwise.
fn tool(name: &str, package: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/usr/bin")])
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "{name} is not installed: `apt-get install {package}` (Debian's package, \
                 listed in .ci/debian-packages, which the test setup installs)"
            )
        })
}

/// A port nothing listens on now (bound, noted, freed).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `text` with `from` (which must occur exactly once) replaced by `to`.
fn replace_once(text: &str, from: &str, to: &str) -> String {
    let n = text.matches(from).count();
    assert_eq!(
        n, 1,
        "the deploy file should hold {from:?} once (found {n}); update this test with it"
    );
    text.replacen(from, to, 1)
}

/// A child process stopped (SIGTERM, then SIGKILL) when dropped, with its log file.
struct Running {
    child: Child,
    log: PathBuf,
}

impl Running {
    fn start(mut cmd: Command, log: PathBuf) -> Running {
        let out = File::create(&log).unwrap();
        let err = out.try_clone().unwrap();
        let child = cmd
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
        Running { child, log }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Fails with the log if the process has exited.
    fn assert_running(&mut self, what: &str) {
        if let Ok(Some(status)) = self.child.try_wait() {
            panic!("{what} exited ({status}):\n{}", self.log());
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Polls `GET path` on `addr` until it answers `status`; returns the body.
async fn wait_for(addr: SocketAddr, path: &str, status: u16, proc: &mut Running) -> String {
    let started = Instant::now();
    loop {
        proc.assert_running("the proxy");
        match try_http_get(addr, path).await {
            Ok((s, body)) if s == status => return body,
            other if started.elapsed() > Duration::from_secs(30) => panic!(
                "GET {path} on {addr}: {other:?} after 30 s; log:\n{}",
                proc.log()
            ),
            _ => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

/// A WebSocket to `/ws` through `proxy` that says it comes from a page at `origin`.
async fn connect_from(
    proxy: SocketAddr,
    origin: &str,
) -> Result<crate::common::Socket, tokio_tungstenite::tungstenite::Error> {
    let mut request = format!("ws://{proxy}/ws").into_client_request().unwrap();
    request
        .headers_mut()
        .insert("Origin", HeaderValue::from_str(origin).unwrap());
    tokio_tungstenite::connect_async(request)
        .await
        .map(|(ws, _)| ws)
}

/// Through `proxy`: the page, /healthz, a foreign origin refused, and a whole game
/// against a bot on a WebSocket from `origin`.
async fn play_through(proxy: SocketAddr, origin: &str) {
    let (status, page) = try_http_get(proxy, "/").await.expect("GET / via the proxy");
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("<html"), "the browser client: {page}");
    let (status, health) = try_http_get(proxy, "/healthz").await.unwrap();
    assert_eq!(status, 200);
    assert!(health.starts_with("ok dominion-server "), "{health}");

    match connect_from(proxy, "https://elsewhere.example").await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 403, "a foreign origin is refused")
        }
        Err(e) => panic!("a foreign origin: unexpected {e}"),
        Ok(_) => panic!("a foreign origin opened a WebSocket through the proxy"),
    }

    let ws = connect_from(proxy, origin)
        .await
        .unwrap_or_else(|e| panic!("WebSocket via {proxy} from {origin}: {e}"));
    let mut ann = Client::over(ws, "Ann");
    ann.send(json!({"type": "hello", "protocol": 1, "client": "proxy-test"}))
        .await;
    let welcome = ann.recv().await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    let room = ann
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "big_money"}]))
        .await;
    ann.take_seat(&room).await;
    ann.start().await;
    let over: Value = ann.play_to_end(Duration::ZERO).await;
    let scores = over["scores"].as_array().expect("scores");
    assert_eq!(scores.len(), 2, "{over}");
    assert!(
        over["replies"].as_array().is_some_and(|r| r.len() > 20),
        "a whole game: {over}"
    );
}

/// The server the proxies front, on a free port, allowing the proxy's origin and
/// trusting the proxy's `X-Forwarded-For` as the deploy files tell operators to; one
/// room a minute per client address, so that [`the_proxy_s_view_of_the_client_counts`]
/// can see which address a room was charged to.
async fn server_for(origin: &str, dir: &Path) -> ServerProcess {
    ServerProcess::start_with_env(
        dir,
        &[],
        &[
            ("DOMINION_ALLOWED_ORIGINS", origin),
            ("DOMINION_TRUSTED_PROXIES", "127.0.0.1"),
            ("DOMINION_ROOMS_PER_ADDRESS", "1"),
        ],
    )
    .await
}

/// Whether a `create_room` from 127.0.0.`host` to `addr`, saying `X-Forwarded-For:
/// xff`, is served (else it was refused as its address's second room this minute).
async fn creates_from(host: u8, addr: SocketAddr, xff: Option<&str>) -> bool {
    let mut c = crate::client_address::ws_via(host, addr, xff, "P")
        .await
        .unwrap_or_else(|e| panic!("127.0.0.{host} via {addr}: {e}"));
    let answer = crate::client_address::try_create(&mut c).await;
    if answer["type"] == "room_created" {
        return true;
    }
    assert_eq!(answer["code"], "too_many_rooms", "{answer}");
    false
}

/// Through `proxy` (which reaches the server at `server` from 127.0.0.1, trusted), the
/// server counts a client under the address the proxy saw it connect from: not under a
/// spoofed `X-Forwarded-For`, and not under the proxy's own address (which the whole
/// game of [`play_through`] has spent). One room a minute per address ([`server_for`]).
async fn the_proxy_s_view_of_the_client_counts(proxy: SocketAddr, server: SocketAddr) {
    assert!(
        creates_from(2, proxy, Some("203.0.113.1")).await,
        "127.0.0.2's first room, spoofing 203.0.113.1: refused, so counted under the proxy"
    );
    assert!(
        !creates_from(2, proxy, Some("203.0.113.2")).await,
        "127.0.0.2 again: a fresh spoof bought a fresh budget, so the server believed it"
    );
    assert!(
        creates_from(3, proxy, None).await,
        "127.0.0.3's first room: refused, so counted under the proxy's address"
    );
    // Straight to the server, 127.0.0.3 is the address its room through the proxy was
    // charged to; and the header is not believed from it.
    assert!(!creates_from(3, server, None).await, "charged to 127.0.0.3");
    assert!(!creates_from(3, server, Some("203.0.113.3")).await);
}

/// nginx's main configuration around the snippet: no daemon, every path in `dir`.
fn nginx_main(dir: &Path, snippet: &Path) -> String {
    let d = dir.display();
    format!(
        "daemon off;\nworker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log info;\n\
         events {{ worker_connections 256; }}\n\
         http {{\n  access_log {d}/access.log;\n  client_body_temp_path {d}/body;\n  \
         proxy_temp_path {d}/proxy;\n  fastcgi_temp_path {d}/fastcgi;\n  \
         uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n  include {};\n}}\n",
        snippet.display()
    )
}

/// nginx on `snippet` inside its main configuration ([`nginx_main`]), both written to
/// `dir`, every path of nginx's in `dir`.
fn nginx_command(nginx: &Path, dir: &Path, snippet: &str) -> Command {
    std::fs::write(dir.join("dominion.conf"), snippet).unwrap();
    std::fs::write(
        dir.join("nginx.conf"),
        nginx_main(dir, &dir.join("dominion.conf")),
    )
    .unwrap();
    let mut cmd = Command::new(nginx);
    cmd.arg("-c")
        .arg(dir.join("nginx.conf"))
        .arg("-p")
        .arg(dir)
        .arg("-e")
        .arg(dir.join("error.log"));
    cmd
}

/// deploy/nginx.conf as shipped passes `nginx -t` (with a throwaway self-signed
/// certificate in place of the Let's Encrypt paths).
#[test]
#[cfg_attr(
    not(all(have_nginx, have_openssl)),
    ignore = "needs nginx and openssl — run scripts/setup-test-deps.sh"
)]
fn the_nginx_snippet_passes_nginx_t() {
    let nginx = tool("nginx", "nginx");
    let openssl = tool("openssl", "openssl");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let made = Command::new(openssl)
        .args([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        ])
        .args(["-subj", "/CN=dominion.example.org", "-keyout"])
        .arg(d.join("key.pem"))
        .arg("-out")
        .arg(d.join("cert.pem"))
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let snippet = deploy_file("nginx.conf");
    let snippet = replace_once(
        &snippet,
        "/etc/letsencrypt/live/dominion.example.org/fullchain.pem",
        &d.join("cert.pem").display().to_string(),
    );
    let snippet = replace_once(
        &snippet,
        "/etc/letsencrypt/live/dominion.example.org/privkey.pem",
        &d.join("key.pem").display().to_string(),
    );
    let out = nginx_command(&nginx, d, &snippet)
        .arg("-t")
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "nginx -t:\n{said}");
    assert!(said.contains("test is successful"), "{said}");
    eprintln!("{}", said.trim());
}

/// deploy/nginx.conf with loopback ports instead of 80/443 and without its certificate
/// lines: the redirect to HTTPS, then the page, /healthz and a whole game over the
/// WebSocket through the proxy; and the server counts each client under the address
/// nginx saw, whatever `X-Forwarded-For` the client sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(have_nginx),
    ignore = "needs nginx — run scripts/setup-test-deps.sh"
)]
async fn a_whole_game_is_played_through_the_nginx_snippet() {
    let nginx = tool("nginx", "nginx");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // nginx's workers run as an unprivileged user when started as root.
    std::fs::set_permissions(d, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let (port, redirect_port) = (free_port(), free_port());
    let proxy: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let origin = format!("http://{proxy}");
    let data = tempfile::tempdir().unwrap();
    let server = server_for(&origin, data.path()).await;

    let mut snippet = deploy_file("nginx.conf");
    for (from, to) in [
        ("server 127.0.0.1:8080;", format!("server {};", server.addr)),
        (
            "    listen 80;\n",
            format!("    listen 127.0.0.1:{redirect_port};\n"),
        ),
        ("    listen [::]:80;\n", String::new()),
        ("    listen 443 ssl;\n", format!("    listen {proxy};\n")),
        ("    listen [::]:443 ssl;\n", String::new()),
    ] {
        snippet = replace_once(&snippet, from, &to);
    }
    let snippet: String = snippet
        .lines()
        .filter(|l| !l.trim_start().starts_with("ssl_certificate"))
        .map(|l| format!("{l}\n"))
        .collect();
    let cmd = nginx_command(&nginx, d, &snippet);
    let mut nginx = Running::start(cmd, d.join("nginx.out"));
    wait_for(proxy, "/healthz", 200, &mut nginx).await;

    let redirect: SocketAddr = format!("127.0.0.1:{redirect_port}").parse().unwrap();
    let (status, _) = try_http_get(redirect, "/").await.unwrap();
    assert_eq!(status, 301, "plain HTTP is sent to HTTPS");

    play_through(proxy, &origin).await;
    the_proxy_s_view_of_the_client_counts(proxy, server.addr).await;
    nginx.assert_running("nginx");
    // nginx logs an upgraded request when its connection ends (the client is gone now).
    let started = Instant::now();
    loop {
        let access = std::fs::read_to_string(d.join("access.log")).unwrap_or_default();
        if access.contains("GET /ws HTTP/1.1\" 101") {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "nginx logged no WebSocket upgrade:\n{access}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// deploy/Caddyfile as shipped passes `caddy validate`; a copy with an `http://`
/// loopback site address (which turns automatic HTTPS off for it) carries a whole game,
/// and the server counts each client under the address Caddy saw.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(have_caddy),
    ignore = "needs Caddy — run scripts/setup-test-deps.sh"
)]
async fn the_caddyfile_validates_and_a_whole_game_is_played_through_caddy() {
    let caddy = tool("caddy", "caddy");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Caddy keeps certificates and autosaved config under HOME / XDG dirs: ours.
    let home = |cmd: &mut Command| {
        cmd.env("HOME", d)
            .env("XDG_DATA_HOME", d.join("data"))
            .env("XDG_CONFIG_HOME", d.join("config"));
    };
    let mut validate = Command::new(&caddy);
    validate
        .args(["validate", "--adapter", "caddyfile", "--config"])
        .arg(repo().join("deploy/Caddyfile"));
    home(&mut validate);
    let out = validate.output().unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "caddy validate:\n{said}");
    assert!(said.contains("Valid configuration"), "{said}");

    let port = free_port();
    let proxy: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let origin = format!("http://{proxy}");
    let data = tempfile::tempdir().unwrap();
    let server = server_for(&origin, data.path()).await;
    let mut file = deploy_file("Caddyfile");
    file = replace_once(
        &file,
        "dominion.example.org {\n",
        &format!("http://{proxy} {{\n\tbind 127.0.0.1\n"),
    );
    file = replace_once(
        &file,
        "reverse_proxy 127.0.0.1:8080",
        &format!("reverse_proxy {}", server.addr),
    );
    // No admin endpoint (it would take port 2019, shared by every Caddy here).
    let file = format!("{{\n\tadmin off\n}}\n\n{file}");
    std::fs::write(d.join("Caddyfile"), file).unwrap();
    let mut cmd = Command::new(&caddy);
    cmd.args(["run", "--adapter", "caddyfile", "--config"])
        .arg(d.join("Caddyfile"));
    home(&mut cmd);
    let mut caddy = Running::start(cmd, d.join("caddy.log"));
    wait_for(proxy, "/healthz", 200, &mut caddy).await;
    play_through(proxy, &origin).await;
    the_proxy_s_view_of_the_client_counts(proxy, server.addr).await;
    caddy.assert_running("caddy");
}

/// deploy/prometheus.yml passes `promtool check config`, and Prometheus run with it
/// (its target pointed at a real server, a 1 s interval) scrapes the server's /metrics:
/// `up` is 1 and the server's own metrics are stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(have_prometheus),
    ignore = "needs Prometheus — run scripts/setup-test-deps.sh"
)]
async fn prometheus_scrapes_the_server_with_the_shipped_config() {
    let promtool = tool("promtool", "prometheus");
    let prometheus = tool("prometheus", "prometheus");
    let shipped = repo().join("deploy/prometheus.yml");
    let out = Command::new(promtool)
        .args(["check", "config"])
        .arg(&shipped)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "promtool check config:\n{said}");
    eprintln!("{}", said.trim());

    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let data = tempfile::tempdir().unwrap();
    let server = ServerProcess::start(data.path()).await;
    let mut config = deploy_file("prometheus.yml");
    config = replace_once(
        &config,
        "\"dominion:8080\"",
        &format!("\"{}\"", server.addr),
    );
    config = replace_once(&config, "scrape_interval: 15s", "scrape_interval: 1s");
    std::fs::write(d.join("prometheus.yml"), config).unwrap();
    let web: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    let mut cmd = Command::new(prometheus);
    cmd.arg(format!(
        "--config.file={}",
        d.join("prometheus.yml").display()
    ))
    .arg(format!("--storage.tsdb.path={}", d.join("tsdb").display()))
    .arg(format!("--web.listen-address={web}"));
    let mut prom = Running::start(cmd, d.join("prometheus.log"));
    let query = |q: &str| format!("/api/v1/query?query={q}");
    let started = Instant::now();
    loop {
        prom.assert_running("prometheus");
        let up = try_http_get(web, &query("up%7Bjob%3D%22dominion%22%7D")).await;
        let value = up
            .ok()
            .and_then(|(_, body)| serde_json::from_str::<Value>(&body).ok())
            .and_then(|v| {
                v["data"]["result"][0]["value"][1]
                    .as_str()
                    .map(String::from)
            });
        if value.as_deref() == Some("1") {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the server was not scraped (up = {value:?}) within 60 s:\n{}",
            prom.log()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let (_, body) = try_http_get(web, &query("dominion_connections_open"))
        .await
        .unwrap();
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        v["data"]["result"].as_array().map(Vec::len),
        Some(1),
        "the server's own metrics are stored: {body}"
    );
}

/// deploy/cluster/nginx.conf as shipped passes `nginx -t` once its node names resolve
/// (in compose they are service names; here they point at loopback), and balances three
/// real nodes on PostgreSQL and Redis: a player's every new WebSocket may land on
/// another node, the game is played through whichever it is, and when the node running
/// the room is killed, nginx skips it and the player resumes through a live one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(all(have_nginx, have_postgres, have_redis)),
    ignore = "needs nginx, PostgreSQL and Redis — run scripts/setup-test-deps.sh"
)]
async fn the_cluster_s_nginx_balances_three_nodes_and_survives_losing_one() {
    let nginx = tool("nginx", "nginx");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::set_permissions(d, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let mut env = crate::cluster::Backends::start();
    let mut nodes = Vec::new();
    for name in ["node1", "node2", "node3"] {
        nodes.push(env.node(name).await);
    }
    let port = free_port();
    let proxy: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let mut conf = deploy_file("cluster/nginx.conf");
    for (i, n) in nodes.iter().enumerate() {
        let name = format!("server node{}:8080 ", i + 1);
        conf = replace_once(&conf, &name, &format!("server {} ", n.addr));
    }
    conf = replace_once(&conf, "    listen 80;\n", &format!("    listen {proxy};\n"));
    conf = replace_once(&conf, "    listen [::]:80;\n", "");
    let cmd = nginx_command(&nginx, d, &conf);
    let checked = Command::new(&nginx)
        .arg("-t")
        .args(cmd.get_args())
        .output()
        .unwrap();
    assert!(
        checked.status.success(),
        "nginx -t:\n{}",
        String::from_utf8_lossy(&checked.stderr)
    );
    let mut lb = Running::start(cmd, d.join("nginx.out"));
    wait_for(proxy, "/healthz", 200, &mut lb).await;

    // The page's own origin: nginx passes Host with its port, so same-origin holds
    // without DOMINION_ALLOWED_ORIGINS.
    let origin = format!("http://{proxy}");
    let connect = |name: &'static str| {
        let origin = origin.clone();
        async move {
            let ws = connect_from(proxy, &origin)
                .await
                .unwrap_or_else(|e| panic!("WebSocket via the balancer: {e}"));
            let mut c = Client::over(ws, name);
            c.send(json!({"type": "hello", "protocol": 1})).await;
            assert_eq!(c.recv().await["type"], "welcome");
            c
        }
    };
    let mut host = connect("Host").await;
    let room = host
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "big_money"}]))
        .await;
    drop(host);
    // Round-robin: the seat is taken through the next node, not the room's.
    let mut ann = connect("Ann").await;
    ann.take_seat(&room).await;
    ann.start().await;
    ann.play_decisions(5).await;
    let owner = env.ledger(&room).await.claims[0].node.clone();
    let i = ["node1", "node2", "node3"]
        .iter()
        .position(|n| *n == owner)
        .unwrap();
    nodes[i].kill();
    // Ann's connection ends (its node died, or its link to the room's node did); she
    // reconnects through the balancer, which skips the dead node, and resumes.
    loop {
        match ann.recv_or_closed().await {
            Ok(v) if v["type"] == "decision" => {
                let d = v["decision"].as_u64().unwrap();
                ann.reply(d, crate::common::simple_reply(&v)).await;
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    let mut again = connect("Ann").await;
    again.number_from(ann.last_id());
    let seated = again
        .ask(json!({"type": "resume", "room": room, "token": ann.token.clone().unwrap()}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
    let over = again.play_to_end(Duration::ZERO).await;
    assert_eq!(over["type"], "game_over");
    lb.assert_running("nginx");
}
