#!/usr/bin/env python3
"""Static checks of the self-hosting files, since no Docker engine runs in CI.

- docker-compose.yml validates against the Compose Specification's JSON Schema
  (scripts/schemas/compose-spec.json, a copy of the Compose Specification's
  schema under its Apache-2.0 licence, or --schema PATH).
- The Dockerfile builds the package that owns the `dominion-server` binary, copies the
  binary from the path cargo writes it to, runs as a non-root user, keeps data in a
  volume, exposes the port the compose file publishes and the server listens on, and
  its healthcheck is a command the binary has.
- With --binary PATH, the built server's --help must list the settings the Dockerfile
  and compose file set, and the `healthcheck` subcommand.

Exit 0 with "deploy checks: N passed, 0 failed", else print each failure and exit 1.
"""

import argparse
import json
import pathlib
import re
import subprocess
import sys

import jsonschema
import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
failures: list[str] = []
passed = 0


def check(ok: bool, what: str) -> None:
    global passed
    if ok:
        passed += 1
    else:
        failures.append(what)


def dockerfile_instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, with line continuations joined."""
    joined = re.sub(r"\\\n", " ", text)
    out = []
    for line in joined.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def cargo_toml(path: pathlib.Path) -> dict:
    import tomllib

    return tomllib.loads(path.read_text())


def server_package() -> tuple[str, str]:
    """(package name, binary name) of crates/server."""
    manifest = cargo_toml(ROOT / "crates/server/Cargo.toml")
    package = manifest["package"]["name"]
    bins = [b["name"] for b in manifest.get("bin", [])] or [package]
    return package, "dominion-server" if "dominion-server" in bins else bins[0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--schema", default=str(ROOT / "scripts/schemas/compose-spec.json"))
    ap.add_argument("--binary", help="a built dominion-server to ask for --help")
    args = ap.parse_args()

    # --- compose file against the Compose Specification
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    schema = json.loads(pathlib.Path(args.schema).read_text())
    errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(compose), key=str)
    for e in errors:
        failures.append(f"docker-compose.yml: {'/'.join(map(str, e.path))}: {e.message}")
    check(not errors, "compose file valid")

    # --- Dockerfile steps against the project
    instr = dockerfile_instructions((ROOT / "Dockerfile").read_text())
    package, binary = server_package()
    runs = [a for i, a in instr if i == "RUN"]
    build = [r for r in runs if "cargo build" in r]
    check(len(build) == 1, "Dockerfile: exactly one `cargo build` step")
    build_cmd = build[0] if build else ""
    check("--release" in build_cmd, "Dockerfile: cargo build uses --release")
    check("--locked" in build_cmd, "Dockerfile: cargo build uses --locked (Cargo.lock is committed)")
    check(
        re.search(rf"(-p|--package)\s+{re.escape(package)}\b", build_cmd) is not None,
        f"Dockerfile: cargo build builds package {package!r}",
    )
    check(f"target/release/{binary}" in build_cmd, f"Dockerfile: copies target/release/{binary}")
    froms = [a for i, a in instr if i == "FROM"]
    check(len(froms) >= 2, "Dockerfile: multi-stage build")
    rust_from = next((f for f in froms if f.startswith("rust:")), "")
    m = re.match(r"rust:(\d+)\.(\d+)", rust_from)
    want = cargo_toml(ROOT / "Cargo.toml")["workspace"]["package"]["rust-version"]
    wmaj, wmin = (int(x) for x in want.split(".")[:2])
    check(m is not None and (int(m[1]), int(m[2])) >= (wmaj, wmin),
          f"Dockerfile: builder Rust {rust_from!r} >= rust-version {want}")
    check(any("slim" in f for f in froms[1:]), "Dockerfile: slim runtime image")
    users = [a for i, a in instr if i == "USER"]
    check(bool(users) and users[-1] not in ("root", "0"), "Dockerfile: runs as a non-root user")
    exposes = [a for i, a in instr if i == "EXPOSE"]
    port = exposes[-1].split("/")[0] if exposes else ""
    check(port.isdigit(), "Dockerfile: EXPOSEs a port")
    env = " ".join(a for i, a in instr if i == "ENV")
    addr = re.search(r"DOMINION_ADDR=(\S+)", env)
    check(addr is not None and addr[1].endswith(f":{port}") and addr[1].startswith("0.0.0.0"),
          "Dockerfile: DOMINION_ADDR listens on all interfaces at the EXPOSEd port")
    data = re.search(r"DOMINION_DATA_DIR=(\S+)", env)
    volumes = " ".join(a for i, a in instr if i == "VOLUME")
    check(data is not None and data[1] in volumes, "Dockerfile: DOMINION_DATA_DIR is a VOLUME")
    health = next((a for i, a in instr if i == "HEALTHCHECK"), "")
    check(f'"{binary}", "healthcheck"' in health, "Dockerfile: healthcheck runs the binary's healthcheck")
    entry = next((a for i, a in instr if i == "ENTRYPOINT"), "")
    check(binary in entry, "Dockerfile: ENTRYPOINT runs the server")

    # --- compose file against the Dockerfile
    svc = next(iter(compose.get("services", {}).values()), {})
    check(svc.get("build") in (".", {"context": "."}), "compose: builds the root Dockerfile")
    ports = [str(p) for p in svc.get("ports", [])]
    check(any(p.split(":")[-1].split("/")[0] == port for p in ports),
          f"compose: publishes container port {port}")
    mounts = [str(v) for v in svc.get("volumes", [])]
    named = compose.get("volumes", {}) or {}
    check(any(v.split(":")[0] in named and data and v.split(":")[1] == data[1] for v in mounts),
          "compose: a named volume is mounted at the data directory")
    cenv = svc.get("environment", {})
    check(str(cenv.get("DOMINION_ADDR", "")).endswith(f":{port}"), "compose: DOMINION_ADDR uses the port")

    # --- the built binary knows the settings and the healthcheck
    if args.binary:
        out = subprocess.run([args.binary, "--help"], capture_output=True, text=True, timeout=30)
        text = out.stdout + out.stderr
        check(out.returncode == 0, "binary: --help exits 0")
        for setting in ("DOMINION_ADDR", "DOMINION_DATA_DIR"):
            check(setting in text, f"binary: --help documents {setting}")
        check("healthcheck" in text, "binary: --help lists the healthcheck subcommand")
        for name in re.findall(r"#\s*(DOMINION_[A-Z_]+):", (ROOT / "docker-compose.yml").read_text()):
            check(name in text, f"binary: --help documents {name} (named in docker-compose.yml)")

    for f in failures:
        print(f"FAIL {f}")
    print(f"deploy: {passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
