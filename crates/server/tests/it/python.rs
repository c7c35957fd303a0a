//! The Python the tests run: `.venv/bin/python3` at the workspace root (made by
//! scripts/setup-test-deps.sh with scripts/requirements-test.txt), else
//! `$DOMINION_PYTHON`, else `python3` on PATH.

use std::path::PathBuf;
use std::process::Command;

const SETUP: &str = "run scripts/setup-test-deps.sh (it makes .venv at the repository root \
     with scripts/requirements-test.txt), or set DOMINION_PYTHON to a Python 3.11+ that has \
     those packages";

pub fn python() -> PathBuf {
    let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/python3");
    if venv.exists() {
        return venv;
    }
    match std::env::var_os("DOMINION_PYTHON") {
        Some(p) if !p.is_empty() => p.into(),
        _ => "python3".into(),
    }
}

/// The Python above, once it is known to be 3.11 or newer and to import `modules`;
/// otherwise the test fails saying how to set it up.
pub fn require(modules: &[&str]) -> PathBuf {
    let python = python();
    let check = format!(
        "import sys\nassert sys.version_info >= (3, 11), 'Python 3.11+ is needed, this is ' + sys.version\nimport {}",
        modules.join(", ")
    );
    let out = Command::new(&python)
        .args(["-c", &check])
        .output()
        .unwrap_or_else(|e| panic!("{} does not run ({e}): {SETUP}", python.display()));
    assert!(
        out.status.success(),
        "{} cannot run this test (it needs {}): {SETUP}\n{}",
        python.display(),
        modules.join(", "),
        String::from_utf8_lossy(&out.stderr)
    );
    python
}
