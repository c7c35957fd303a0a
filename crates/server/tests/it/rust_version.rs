//! The workspace's `rust-version` (Cargo.toml, and so the README's minimum Rust) is the
//! real minimum: no package in Cargo.lock that a build on this platform uses declares a
//! newer one, and every crate of the workspace declares it.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

/// A `rust-version` ("1.89", "1.89.0") as numbers, so that 1.100 > 1.89.
fn parse(version: &str) -> (u64, u64, u64) {
    let parts: Vec<u64> = version
        .split('.')
        .map(|p| {
            p.parse()
                .unwrap_or_else(|_| panic!("rust-version {version:?} is not numbers and dots"))
        })
        .collect();
    match parts[..] {
        [major, minor] => (major, minor, 0),
        [major, minor, patch] => (major, minor, patch),
        _ => panic!("rust-version {version:?} is not major.minor[.patch]"),
    }
}

/// `rust-version` under `[workspace.package]` in the root Cargo.toml.
fn workspace_rust_version(manifest: &str) -> String {
    let mut table = "";
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            table = line;
        } else if table == "[workspace.package]"
            && let Some((key, value)) = line.split_once('=')
            && key.trim() == "rust-version"
        {
            return value.trim().trim_matches('"').to_string();
        }
    }
    panic!("no rust-version under [workspace.package] in the root Cargo.toml");
}

fn cargo(root: &PathBuf, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO"))
        .args(args)
        .current_dir(root)
        .output()
        .unwrap_or_else(|e| panic!("run cargo {args:?}: {e}"));
    assert!(
        out.status.success(),
        "cargo {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("cargo prints UTF-8")
}

#[test]
fn rust_version_is_the_highest_any_locked_dependency_needs() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let declared =
        workspace_rust_version(&std::fs::read_to_string(root.join("Cargo.toml")).unwrap());
    let floor = parse(&declared);

    // This platform's packages only: every one of them is downloaded by the time the tests
    // are built, so this needs no network (the Windows-only ones would).
    let host = cargo(&root, &["-vV"])
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("cargo -vV names the host")
        .to_string();
    let metadata: Value = serde_json::from_str(&cargo(
        &root,
        &[
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--offline",
            "--filter-platform",
            &host,
        ],
    ))
    .expect("cargo metadata prints JSON");

    let members: Vec<&str> = metadata["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let mut too_new = Vec::new();
    let mut undeclared = Vec::new();
    let mut highest = ("", "", (0, 0, 0));
    for package in metadata["packages"].as_array().unwrap() {
        let name = package["name"].as_str().unwrap();
        let version = package["version"].as_str().unwrap();
        let needs = package["rust_version"].as_str();
        if members.contains(&package["id"].as_str().unwrap()) {
            if needs.map(parse) != Some(floor) {
                undeclared.push(format!("{name} ({needs:?})"));
            }
            continue;
        }
        let Some(needs) = needs else { continue };
        let parsed = parse(needs);
        if parsed > highest.2 {
            highest = (name, version, parsed);
        }
        if parsed > floor {
            too_new.push(format!("{name} {version} needs Rust {needs}"));
        }
    }
    assert!(
        too_new.is_empty(),
        "Cargo.toml says rust-version = \"{declared}\", but locked dependencies need a newer \
         Rust: {}. Raise [workspace.package] rust-version and the README's minimum.",
        too_new.join(", ")
    );
    assert!(
        undeclared.is_empty(),
        "every workspace crate should say `rust-version.workspace = true` (\"{declared}\"); \
         these do not: {}",
        undeclared.join(", ")
    );
    println!(
        "rust-version {declared}; the highest any dependency declares: {} {} needs {}.{}.{}",
        highest.0, highest.1, highest.2.0, highest.2.1, highest.2.2
    );
}
