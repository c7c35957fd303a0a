//! Which services the tests start are installed on this machine, for the test crates'
//! build scripts: a plain `cargo test` on a machine with only Rust runs every test that
//! needs nothing else, and lists each test that needs a service as ignored, by name,
//! with the command that installs it.
//!
//! A build script calls [`detect`] with the services its crate's tests use. For each one
//! installed it sets a cfg ([`Service::cfg`]: `have_postgres`, `have_redis`, …); a test
//! that needs one carries
//!
//! ```text
//! #[cfg_attr(not(have_postgres), ignore = "needs PostgreSQL — run scripts/setup-test-deps.sh")]
//! ```
//!
//! and libtest prints `test … ignored, needs PostgreSQL — run scripts/setup-test-deps.sh`.
//! A service counts as installed where the tests would find it: the same places as
//! `dominion-testkit` (PostgreSQL, Redis) and the server's tests (nginx, openssl, Caddy,
//! Prometheus, Python) look in at run time.
//!
//! Environment:
//! - `DOMINION_REQUIRE_SERVICES=1` (CI sets it): a missing service fails the build, with
//!   what is missing and where it was looked for, so CI cannot pass with tests skipped.
//! - `DOMINION_PRETEND_MISSING=postgres,redis,…` ([`Service::key`]s) or `all`: counts
//!   those as missing even when installed. Only for trying the skip path (and the failure
//!   under `DOMINION_REQUIRE_SERVICES`) on a machine that has everything.
//! - `DOMINION_PYTHON`: the Python when .venv has none, as the tests read it.
//!
//! Detection runs again when its answer can change: cargo watches each program found
//! (removed, upgraded) and, for a service not found, the existing directories it was
//! looked for in (installing it adds a file there), and scripts/setup-test-deps.sh, which
//! touches itself when it installed something (how a new .venv is noticed). A changed
//! PATH alone does not re-run it: an editor's PATH and a shell's often differ, and
//! watching it would rebuild the test crates at every switch.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The one command that installs every service (README, "Tests").
pub const SETUP: &str = "scripts/setup-test-deps.sh";

/// What the Python tests import (scripts/requirements-test.txt): the example bot's
/// client library, and scripts/check_deploy.py's validator and YAML parser.
const PYTHON_MODULES: &[&str] = &["websockets", "jsonschema", "yaml"];

/// A program some tests start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Service {
    /// `initdb` and `postgres` (dominion-testkit's `TempPostgres`).
    Postgres,
    /// `redis-server` (dominion-testkit's `TempRedis`).
    Redis,
    /// `nginx` (the shipped nginx snippets, run for real).
    Nginx,
    /// `openssl` (the throwaway certificate of `nginx -t`).
    Openssl,
    /// `caddy` (the shipped Caddyfile).
    Caddy,
    /// `prometheus` and `promtool` (the shipped scrape config).
    Prometheus,
    /// .venv's Python, 3.11 or newer, with scripts/requirements-test.txt.
    Python,
}

impl Service {
    pub const ALL: [Service; 7] = [
        Service::Postgres,
        Service::Redis,
        Service::Nginx,
        Service::Openssl,
        Service::Caddy,
        Service::Prometheus,
        Service::Python,
    ];

    /// Its name in `DOMINION_PRETEND_MISSING` and in its cfg.
    pub fn key(self) -> &'static str {
        match self {
            Service::Postgres => "postgres",
            Service::Redis => "redis",
            Service::Nginx => "nginx",
            Service::Openssl => "openssl",
            Service::Caddy => "caddy",
            Service::Prometheus => "prometheus",
            Service::Python => "python",
        }
    }

    /// The cfg set when it is installed: `have_KEY`.
    pub fn cfg(self) -> String {
        format!("have_{}", self.key())
    }

    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Service::Postgres => "PostgreSQL",
            Service::Redis => "Redis",
            Service::Nginx => "nginx",
            Service::Openssl => "openssl",
            Service::Caddy => "Caddy",
            Service::Prometheus => "Prometheus",
            Service::Python => "Python (.venv)",
        }
    }
}

/// For a build script: sets `have_KEY` for each of `services` that is installed, declares
/// them all (`rustc-check-cfg`), tells cargo what to watch, and exits with an error if
/// one is missing while `DOMINION_REQUIRE_SERVICES` is set.
pub fn detect(services: &[Service]) {
    let out_dir = std::env::var_os("OUT_DIR").expect("OUT_DIR: call detect() from a build script");
    let pretend = std::env::var("DOMINION_PRETEND_MISSING").unwrap_or_default();
    let plan = plan(services, &Machine::here(), &pretend, Path::new(&out_dir));

    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=DOMINION_PRETEND_MISSING");
    if services.contains(&Service::Python) {
        println!("cargo::rerun-if-env-changed=DOMINION_PYTHON");
    }
    for path in &plan.watch {
        println!("cargo::rerun-if-changed={}", path.display());
    }
    for &s in services {
        println!("cargo::rustc-check-cfg=cfg({})", s.cfg());
    }
    for s in &plan.found {
        println!("cargo::rustc-cfg={}", s.cfg());
    }
    if plan.missing.is_empty() {
        // Requiring changes nothing then: not watching it spares a rebuild when an
        // editor's environment and a shell's differ.
        return;
    }
    println!("cargo::rerun-if-env-changed=DOMINION_REQUIRE_SERVICES");
    if required() {
        let package = std::env::var("CARGO_PKG_NAME").unwrap_or_default();
        eprintln!(
            "DOMINION_REQUIRE_SERVICES is set, and tests of {package} need services that are \
             not installed:"
        );
        for (s, why) in &plan.missing {
            eprintln!("  - {}: {why}", s.name());
        }
        eprintln!(
            "Install them with {SETUP}. Without DOMINION_REQUIRE_SERVICES the tests that need \
             them are reported as ignored instead."
        );
        std::process::exit(1);
    }
}

/// `DOMINION_REQUIRE_SERVICES` set to anything but "" or "0".
fn required() -> bool {
    std::env::var_os("DOMINION_REQUIRE_SERVICES").is_some_and(|v| !v.is_empty() && v != "0")
}

/// What [`detect`] tells cargo.
#[derive(Debug, Default)]
struct Plan {
    found: Vec<Service>,
    /// Each missing service and where it was looked for.
    missing: Vec<(Service, String)>,
    /// Existing files and directories whose change may change the answer.
    watch: BTreeSet<PathBuf>,
}

fn plan(services: &[Service], machine: &Machine, pretend: &str, out_dir: &Path) -> Plan {
    let mut plan = Plan::default();
    for &s in services {
        if pretended(pretend, s) {
            plan.missing
                .push((s, "DOMINION_PRETEND_MISSING says so".into()));
            continue;
        }
        let lookup = machine.lookup(s);
        plan.watch.extend(lookup.watch);
        match lookup.found {
            Ok(()) => plan.found.push(s),
            Err(why) => plan.missing.push((s, why)),
        }
    }
    if !plan.missing.is_empty() {
        // It touches itself when it installed something (a new .venv is noticed so).
        plan.watch.insert(machine.repo.join(SETUP));
    }
    // Never a path missing (cargo would re-run the script, and rebuild, every time), nor
    // one holding the target directory or inside it (every build would change it).
    let target = out_dir.ancestors().nth(4).unwrap_or(out_dir);
    plan.watch
        .retain(|p| p.exists() && !out_dir.starts_with(p) && !p.starts_with(target));
    // A directory once (/bin is /usr/bin on most systems now); a program as found, so a
    // link switched to another program (Debian's alternatives) counts as a change.
    plan.watch = std::mem::take(&mut plan.watch)
        .into_iter()
        .map(|p| match p.is_dir() {
            true => p.canonicalize().unwrap_or(p),
            false => p,
        })
        .collect();
    plan
}

/// Whether `DOMINION_PRETEND_MISSING` (comma- or space-separated keys, or `all`) names `s`.
fn pretended(pretend: &str, s: Service) -> bool {
    pretend
        .split([',', ' '])
        .map(str::trim)
        .any(|w| w == "all" || w == s.key())
}

/// A lookup's answer, and what to watch: the files found, or the directories searched.
struct Lookup {
    found: Result<(), String>,
    watch: Vec<PathBuf>,
}

/// Where programs are looked for.
struct Machine {
    /// The PATH's absolute directories.
    path: Vec<PathBuf>,
    /// The repository (its .venv).
    repo: PathBuf,
    /// `DOMINION_PYTHON`, if set and not empty.
    python_override: Option<PathBuf>,
    /// `/`, under which /usr/bin and the others are (another directory in tests).
    root: PathBuf,
}

impl Machine {
    fn here() -> Machine {
        let path = std::env::var_os("PATH")
            .map(|p| {
                std::env::split_paths(&p)
                    .filter(|d| d.is_absolute())
                    .collect()
            })
            .unwrap_or_default();
        Machine {
            path,
            // crates/testkit/services → the repository.
            repo: Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."))
                .canonicalize()
                .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")),
            python_override: std::env::var_os("DOMINION_PYTHON")
                .filter(|p| !p.is_empty())
                .map(PathBuf::from),
            root: PathBuf::from("/"),
        }
    }

    /// `/usr/bin` and such, under [`Machine::root`].
    fn system(&self, dir: &str) -> PathBuf {
        self.root.join(dir.trim_start_matches('/'))
    }

    fn lookup(&self, s: Service) -> Lookup {
        match s {
            Service::Postgres => self.postgres(),
            // dominion-testkit's TempRedis: /usr/bin, /usr/local/bin, then the PATH.
            Service::Redis => {
                let dirs = [self.system("/usr/bin"), self.system("/usr/local/bin")];
                let dirs: Vec<PathBuf> = dirs.into_iter().chain(self.path.clone()).collect();
                let looked = "in /usr/bin, /usr/local/bin or on the PATH";
                self.programs(&["redis-server"], &dirs, looked)
            }
            Service::Nginx => self.tools(&["nginx"]),
            Service::Openssl => self.tools(&["openssl"]),
            Service::Caddy => self.tools(&["caddy"]),
            Service::Prometheus => self.tools(&["prometheus", "promtool"]),
            Service::Python => self.python(),
        }
    }

    /// The server tests' `tool()`: the PATH, then /usr/sbin and /usr/bin.
    fn tools(&self, names: &[&str]) -> Lookup {
        let mut dirs = self.path.clone();
        dirs.extend([self.system("/usr/sbin"), self.system("/usr/bin")]);
        self.programs(names, &dirs, "on the PATH or in /usr/sbin, /usr/bin")
    }

    /// Each of `names` as a file in one of `dirs` (`looked` says where in messages).
    fn programs(&self, names: &[&str], dirs: &[PathBuf], looked: &str) -> Lookup {
        let mut found = Vec::new();
        for name in names {
            match dirs.iter().map(|d| d.join(name)).find(|p| p.is_file()) {
                Some(p) => found.push(p),
                None => {
                    return Lookup {
                        found: Err(format!("no {name} {looked}")),
                        watch: dirs.to_vec(),
                    };
                }
            }
        }
        Lookup {
            found: Ok(()),
            watch: found,
        }
    }

    /// dominion-testkit's `TempPostgres`: `initdb` and `postgres` in `pg_config --bindir`,
    /// else in /usr/lib/postgresql/*/bin (Debian's layout).
    fn postgres(&self) -> Lookup {
        let server = |dir: &Path| [dir.join("initdb"), dir.join("postgres")];
        let has_server = |dir: &Path| server(dir).iter().all(|p| p.is_file());
        let pg_config = self
            .path
            .iter()
            .map(|d| d.join("pg_config"))
            .find(|p| p.is_file());
        if let Some(pg_config) = &pg_config
            && let Ok(out) = Command::new(pg_config).arg("--bindir").output()
            && out.status.success()
        {
            let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
            if has_server(&dir) {
                return Lookup {
                    found: Ok(()),
                    watch: server(&dir).into(),
                };
            }
        }
        let debian = self.system("/usr/lib/postgresql");
        let found = std::fs::read_dir(&debian)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path().join("bin"))
            .find(|dir| has_server(dir));
        match found {
            Some(dir) => Lookup {
                found: Ok(()),
                watch: server(&dir).into(),
            },
            None => {
                // Installing PostgreSQL makes /usr/lib/postgresql (Debian; its
                // postgresql-common also adds programs to /usr/bin) or puts pg_config
                // on the PATH (elsewhere).
                let mut watch = self.path.clone();
                watch.push(debian);
                Lookup {
                    found: Err("no initdb and postgres in `pg_config --bindir` nor in \
                                /usr/lib/postgresql/*/bin"
                        .into()),
                    watch,
                }
            }
        }
    }

    /// The server tests' Python: .venv/bin/python3 at the repository's root, else
    /// `DOMINION_PYTHON`, else `python3` on the PATH; 3.11 or newer, with the modules.
    fn python(&self) -> Lookup {
        let venv = self.repo.join(".venv");
        let in_venv = venv.join("bin/python3");
        let python = if in_venv.exists() {
            Some(in_venv)
        } else if let Some(p) = &self.python_override {
            Some(p.clone())
        } else {
            self.path
                .iter()
                .map(|d| d.join("python3"))
                .find(|p| p.is_file())
        };
        let check = format!(
            "import sys\nassert sys.version_info >= (3, 11), sys.version\nimport {}",
            PYTHON_MODULES.join(", ")
        );
        let works = python.as_ref().is_some_and(|p| {
            Command::new(p)
                .args(["-B", "-c", &check])
                .output()
                .is_ok_and(|out| out.status.success())
        });
        let mut watch = Vec::new();
        if venv.is_dir() {
            // `venv --clear` rewrites pyvenv.cfg; pip installs into lib/.
            watch.push(venv.join("pyvenv.cfg"));
            if !works {
                watch.push(venv.join("lib"));
            }
        } else if let Some(p) = &python {
            watch.push(p.clone());
        }
        if works {
            return Lookup {
                found: Ok(()),
                watch,
            };
        }
        if !venv.is_dir() {
            // Where a python3 would appear (the setup that makes .venv is watched too).
            watch.extend(self.path.iter().cloned());
        }
        let why = match python {
            Some(p) => format!(
                "{} is not Python 3.11+ with {} (scripts/requirements-test.txt)",
                p.display(),
                PYTHON_MODULES.join(", ")
            ),
            None => "no .venv at the repository's root, no DOMINION_PYTHON, no python3 on the PATH"
                .into(),
        };
        Lookup {
            found: Err(why),
            watch,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "dominion-testkit-services-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn pretending_names_keys_or_all() {
        assert!(pretended("postgres,redis", Service::Redis));
        assert!(pretended("nginx postgres", Service::Postgres));
        assert!(!pretended("postgres", Service::Python));
        assert!(!pretended("", Service::Python));
        assert!(Service::ALL.iter().all(|&s| pretended("all", s)));
    }

    #[test]
    fn a_program_found_is_watched_and_a_missing_one_watches_where_it_would_appear() {
        let bin = scratch("bin");
        let machine = Machine {
            path: vec![bin.clone()],
            repo: scratch("repo"),
            python_override: None,
            root: scratch("root1"),
        };
        let out_dir = Path::new("/nowhere/target/debug/build/x-0/out");
        let missing = plan(&[Service::Caddy], &machine, "", out_dir);
        assert!(missing.found.is_empty());
        assert_eq!(missing.missing[0].0, Service::Caddy);
        assert!(missing.watch.contains(&bin), "{:?}", missing.watch);
        assert!(
            missing.watch.iter().all(|p| p.exists()),
            "{:?}",
            missing.watch
        );

        std::fs::write(bin.join("caddy"), "").unwrap();
        let found = plan(&[Service::Caddy], &machine, "", out_dir);
        assert_eq!(found.found, [Service::Caddy]);
        assert!(found.watch.contains(&bin.join("caddy")));
        assert!(!found.watch.contains(&bin));

        let pretend = plan(&[Service::Caddy], &machine, "caddy", out_dir);
        assert!(pretend.found.is_empty() && pretend.watch.is_empty());
        let _ = std::fs::remove_dir_all(bin);
    }

    #[test]
    fn the_target_directory_is_never_watched() {
        let target = scratch("target");
        let out_dir = target.join("debug/build/x-0/out");
        std::fs::create_dir_all(&out_dir).unwrap();
        let machine = Machine {
            path: vec![target.clone(), target.join("debug")],
            repo: scratch("repo2"),
            python_override: None,
            root: scratch("root2"),
        };
        let p = plan(&[Service::Nginx], &machine, "", &out_dir);
        assert!(
            p.watch.iter().all(|w| !w.starts_with(&target)),
            "{:?}",
            p.watch
        );
        let _ = std::fs::remove_dir_all(target);
    }
}
