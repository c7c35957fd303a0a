//! The self-hosting files against the project, statically (no Docker engine runs in CI):
//! scripts/check_deploy.py validates docker-compose.yml against the Compose
//! Specification's schema and the Dockerfile's build steps against the workspace and this
//! binary's --help, and holds the compose file to its promises (loopback publishing,
//! rebuild on `up`, log rotation, a stop grace above the server's, the monitoring
//! profile). And the image's healthcheck command works against a live server. The
//! files in deploy/ run for real in `proxy.rs`.

use std::path::PathBuf;
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
#[cfg_attr(
    not(have_python),
    ignore = "needs Python (.venv) — run scripts/setup-test-deps.sh"
)]
fn dockerfile_and_compose_match_the_project() {
    // A copy kept in the repository (Apache-2.0, licence beside it): a clone needs
    // nothing outside itself.
    let schema = repo().join("scripts/schemas/compose-spec.json");
    assert!(schema.exists(), "{} is missing", schema.display());
    let python = crate::python::require(&["jsonschema", "yaml"]);
    let out = Command::new(&python)
        .arg(repo().join("scripts/check_deploy.py"))
        .arg("--schema")
        .arg(&schema)
        .arg("--binary")
        .arg(env!("CARGO_BIN_EXE_dominion-server"))
        .output()
        .unwrap_or_else(|e| panic!("run {}: {e}", python.display()));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "deploy checks failed:\n{text}");
    assert!(text.contains(", 0 failed"), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_healthcheck_subcommand_answers_for_a_live_server_only() {
    let addr = crate::common::start(crate::common::config()).await;
    let check = |addr: String| {
        tokio::task::spawn_blocking(move || {
            Command::new(env!("CARGO_BIN_EXE_dominion-server"))
                .args(["--addr", &addr, "healthcheck"])
                .output()
                .expect("binary runs")
        })
    };
    let up = check(addr.to_string()).await.unwrap();
    assert!(
        up.status.success(),
        "{}",
        String::from_utf8_lossy(&up.stderr)
    );
    // A port nothing listens on: bind one, note it, free it.
    let free = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let down = check(free.to_string()).await.unwrap();
    assert!(!down.status.success());
    assert!(String::from_utf8_lossy(&down.stderr).contains("cannot reach"));
}

/// `--version` names the binary and the crate's version, as `/healthz` does.
#[test]
fn version_is_the_crates() {
    let out = Command::new(env!("CARGO_BIN_EXE_dominion-server"))
        .arg("--version")
        .output()
        .expect("binary runs");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("dominion-server {}\n", env!("CARGO_PKG_VERSION"))
    );
}
