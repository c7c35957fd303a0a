#!/usr/bin/env python3
"""Static checks of the self-hosting files, since no Docker engine runs in CI.

- docker-compose.yml validates against the Compose Specification's JSON Schema
  (scripts/schemas/compose-spec.json, a copy of the Compose Specification's
  schema under its Apache-2.0 licence, or --schema PATH).
- The Dockerfile builds the package that owns the `dominion-server` binary, copies the
  binary from the path cargo writes it to, runs as a non-root user, keeps data in a
  volume, exposes the port the compose file publishes and the server listens on, and
  its healthcheck is a command the binary has.
- The Dockerfile strips the binary (no debug info, no symbols) and needs no Node.js
  stage; .dockerignore keeps target/ out of the build context.
- The compose file publishes on 127.0.0.1 only, rebuilds on `up` (pull_policy: build),
  rotates logs (json-file max-size/max-file), gives the server longer to stop than
  its shutdown grace plus the 1 s backstop, and has a `monitoring` profile running
  Prometheus with deploy/prometheus.yml, whose target is the server's service and port.
- deploy/cluster/docker-compose.yml validates too, and runs three nodes of the root
  Dockerfile with distinct node ids, each advertising its own service name and port,
  on the compose file's PostgreSQL (`DOMINION_DATABASE` postgres://…@postgres) and
  Redis (`DOMINION_CLUSTER` redis://redis…), healthchecked and waited for; nginx
  mounts deploy/cluster/nginx.conf, whose upstream lists exactly those nodes; every
  node gets longer to stop than its shutdown grace; published on 127.0.0.1 only.
- Behind a proxy: the compose file's server trusts X-Forwarded-For from exactly its
  network's fixed gateway (how a proxy on the host reaches it); each cluster node from
  exactly the balancer's fixed address and that network's gateway.
- With --binary PATH, the built server's --help must list the settings the Dockerfile
  and compose files set, and the `healthcheck` and `backup` subcommands.

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


def duration_seconds(text: str) -> float | None:
    """Compose's (Go) durations and the server's: 10s, 1m30s, 500ms, 1h, or a number."""
    text = str(text).strip()
    if re.fullmatch(r"\d+(\.\d+)?", text):
        return float(text)
    units = {"h": 3600, "m": 60, "s": 1, "ms": 0.001, "us": 1e-6}
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|us|h|m|s)", text)
    if not parts or "".join(n + u for n, u in parts) != text:
        return None
    return sum(float(n) * units[u] for n, u in parts)


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
    # The README and the data-dir message say `chown -R 10001:10001`: the image's user
    # must have that uid and gid.
    setup = " ".join(runs)
    check(re.search(r"groupadd\b[^&]*--gid 10001\b", setup) is not None
          and re.search(r"useradd\b[^&]*--uid 10001\b[^&]*--gid 10001\b", setup) is not None,
          "Dockerfile: the server's user has uid and gid 10001")
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

    # The image carries no debug info or symbols (41 MB of line tables otherwise).
    check(re.search(r"profile\.release\.strip=(true|\"symbols\"|'symbols')", build_cmd) is not None
          or re.search(r"\bstrip\b", " ".join(runs)) is not None,
          "Dockerfile: the binary is stripped")
    check("profile.release.debug=false" in build_cmd,
          "Dockerfile: the build emits no debug info (it would be stripped anyway)")
    check(not any(re.match(r"(--\S+\s+)*node[:@\s]", f) for f in froms),
          "Dockerfile: no Node.js stage (the client has no build step)")
    check(re.search(r"DOMINION_WAIT_FOR_DATA_DIR=(true|1)\b", env) is not None,
          "Dockerfile: the image waits for an unwritable data dir instead of exiting")
    ignore = (ROOT / ".dockerignore")
    ignored = ignore.read_text().split() if ignore.exists() else []
    check("target" in ignored or "/target" in ignored,
          ".dockerignore: target/ stays out of the build context")

    # --- compose file against the Dockerfile
    services = compose.get("services", {}) or {}
    svc = services.get("dominion") or next(
        (s for s in services.values() if s.get("build") is not None), {})
    check(svc.get("build") in (".", {"context": "."}), "compose: builds the root Dockerfile")
    check(svc.get("pull_policy") == "build",
          "compose: pull_policy: build, so `git pull && docker compose up -d` runs the new code")
    ports = [str(p) for p in svc.get("ports", [])]
    check(any(p.split(":")[-1].split("/")[0] == port for p in ports),
          f"compose: publishes container port {port}")
    check(bool(ports) and all(p.startswith("127.0.0.1:") for p in ports),
          "compose: publishes on 127.0.0.1 only (a TLS proxy goes in front)")
    logging = svc.get("logging") or {}
    opts = logging.get("options") or {}
    check(logging.get("driver") == "json-file" and "max-size" in opts and "max-file" in opts,
          "compose: json-file logs rotated (max-size, max-file)")
    check(str(svc.get("restart", "")) in ("unless-stopped", "always"),
          "compose: the server is restarted after a crash or reboot")
    cenv_all = svc.get("environment", {}) or {}
    grace_text = cenv_all.get("DOMINION_SHUTDOWN_GRACE")
    if grace_text is None:
        m = re.search(r'DOMINION_SHUTDOWN_GRACE", default_value = "([^"]+)"',
                      (ROOT / "crates/server/src/config.rs").read_text())
        grace_text = m[1] if m else None
    grace = duration_seconds(grace_text) if grace_text is not None else None
    stop = duration_seconds(svc.get("stop_grace_period", "10s"))
    # main.rs exits by itself at most 1 s after the grace (its backstop).
    check(grace is not None and stop is not None and stop > grace + 1,
          f"compose: stop_grace_period ({svc.get('stop_grace_period')}) exceeds the "
          f"shutdown grace ({grace_text}) + 1 s backstop")

    # --- the monitoring profile: Prometheus with deploy/prometheus.yml
    prom = next((s for s in services.values() if "monitoring" in (s.get("profiles") or [])), None)
    check(prom is not None, "compose: a `monitoring` profile service")
    prom = prom or {}
    check(str(prom.get("image", "")).startswith("prom/prometheus:"),
          "compose: the monitoring service runs Prometheus")
    prom_mounts = [str(v) for v in prom.get("volumes", [])]
    config_mount = next((v for v in prom_mounts if v.split(":")[0] == "./deploy/prometheus.yml"), "")
    check(bool(config_mount) and (ROOT / "deploy/prometheus.yml").exists(),
          "compose: deploy/prometheus.yml is mounted into Prometheus")
    target_path = config_mount.split(":")[1] if config_mount.count(":") >= 1 else ""
    command = " ".join(map(str, prom.get("command") or []))
    check(bool(target_path) and f"--config.file={target_path}" in command,
          "compose: Prometheus reads the mounted config")
    check(all(str(p).startswith("127.0.0.1:") for p in prom.get("ports", [])),
          "compose: Prometheus is published on 127.0.0.1 only")
    if (ROOT / "deploy/prometheus.yml").exists():
        pconf = yaml.safe_load((ROOT / "deploy/prometheus.yml").read_text())
        targets = [t for job in pconf.get("scrape_configs", [])
                   for sc in job.get("static_configs", []) for t in sc.get("targets", [])]
        name = next((k for k, v in services.items() if v is svc), "dominion")
        check(f"{name}:{port}" in targets,
              f"deploy/prometheus.yml scrapes the compose service {name}:{port}")
        paths = {job.get("metrics_path", "/metrics") for job in pconf.get("scrape_configs", [])}
        check(paths == {"/metrics"}, "deploy/prometheus.yml scrapes /metrics")
    mounts = [str(v) for v in svc.get("volumes", [])]
    named = compose.get("volumes", {}) or {}
    check(any(v.split(":")[0] in named and data and v.split(":")[1] == data[1] for v in mounts),
          "compose: a named volume is mounted at the data directory")
    cenv = svc.get("environment", {})
    check(str(cenv.get("DOMINION_ADDR", "")).endswith(f":{port}"), "compose: DOMINION_ADDR uses the port")

    # --- behind a proxy: the trusted proxy is the network's fixed gateway
    def gateway(doc: dict) -> str | None:
        ipam = (((doc.get("networks") or {}).get("default") or {}).get("ipam") or {})
        configs = ipam.get("config") or [{}]
        return configs[0].get("gateway")

    def trusted(env_: dict) -> set[str]:
        text = str(env_.get("DOMINION_TRUSTED_PROXIES", ""))
        return {t.strip() for t in text.split(",") if t.strip()}

    check(gateway(compose) is not None and trusted(cenv) == {gateway(compose)},
          f"compose: the server trusts X-Forwarded-For from its network's gateway only "
          f"({sorted(trusted(cenv))} vs {gateway(compose)})")

    # --- the cluster's compose file: three nodes, PostgreSQL, Redis, nginx
    cpath = ROOT / "deploy/cluster/docker-compose.yml"
    cluster = yaml.safe_load(cpath.read_text())
    errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(cluster), key=str)
    for e in errors:
        failures.append(f"deploy/cluster/docker-compose.yml: {'/'.join(map(str, e.path))}: {e.message}")
    check(not errors, "cluster compose file valid")
    cservices = cluster.get("services", {}) or {}
    cnodes = {k: v for k, v in cservices.items() if (v.get("environment") or {}).get("DOMINION_CLUSTER")}
    check(len(cnodes) == 3, f"cluster: three nodes (found {sorted(cnodes)})")
    ids, adverts = set(), set()
    for name, node in cnodes.items():
        env_ = node.get("environment") or {}
        build = node.get("build") or {}
        check((build.get("context") if isinstance(build, dict) else build) == "../..",
              f"cluster: {name} builds the root Dockerfile")
        check(str(env_.get("DOMINION_DATABASE", "")).startswith("postgres://")
              and "@postgres:" in str(env_.get("DOMINION_DATABASE")),
              f"cluster: {name} stores in the compose file's PostgreSQL")
        check(str(env_.get("DOMINION_CLUSTER", "")).startswith("redis://redis"),
              f"cluster: {name} joins through the compose file's Redis")
        ids.add(env_.get("DOMINION_NODE_ID"))
        adverts.add(env_.get("DOMINION_ADVERTISE"))
        check(env_.get("DOMINION_ADVERTISE") == f"{name}:{port}",
              f"cluster: {name} advertises its own service name and port")
        check(str(env_.get("DOMINION_ADDR", "")).endswith(f":{port}"), f"cluster: {name} listens on {port}")
        deps = node.get("depends_on") or {}
        check(all(deps.get(s, {}).get("condition") == "service_healthy" for s in ("postgres", "redis")),
              f"cluster: {name} waits for healthy PostgreSQL and Redis")
        grace = duration_seconds(str(env_.get("DOMINION_SHUTDOWN_GRACE", "5s")))
        stop = duration_seconds(str(node.get("stop_grace_period", "10s")))
        check(grace is not None and stop is not None and stop > grace + 1,
              f"cluster: {name} gets longer to stop ({node.get('stop_grace_period')}) than its drain and grace")
        check(not node.get("ports"), f"cluster: {name} is reached through the balancer only")
    check(len(ids) == 3 and None not in ids, "cluster: distinct node ids")
    for svc_name in ("postgres", "redis"):
        check(bool((cservices.get(svc_name) or {}).get("healthcheck")), f"cluster: {svc_name} has a healthcheck")
    lb = next((v for v in cservices.values() if "nginx" in str(v.get("image", ""))), None)
    check(lb is not None, "cluster: an nginx load balancer")
    if lb is not None:
        check(any(str(v).startswith("./nginx.conf:") for v in lb.get("volumes", [])),
              "cluster: nginx mounts deploy/cluster/nginx.conf")
        check(all(str(p).startswith("127.0.0.1:") for p in lb.get("ports", [])),
              "cluster: the balancer is published on 127.0.0.1 only")
        nconf = (ROOT / "deploy/cluster/nginx.conf").read_text()
        upstream = set(re.findall(r"^\s*server\s+([\w.-]+:\d+)", nconf, re.M))
        check(upstream == {f"{n}:{port}" for n in cnodes},
              f"cluster: nginx balances exactly the nodes ({sorted(upstream)})")
        lb_addr = (((lb.get("networks") or {}).get("default") or {}).get("ipv4_address"))
        want = {lb_addr, gateway(cluster)}
        for name, node in cnodes.items():
            got = trusted(node.get("environment") or {})
            check(None not in want and got == want,
                  f"cluster: {name} trusts X-Forwarded-For from the balancer and the gateway "
                  f"only ({sorted(got)} vs {sorted(map(str, want))})")

    # --- the built binary knows the settings and the healthcheck
    if args.binary:
        out = subprocess.run([args.binary, "--help"], capture_output=True, text=True, timeout=30)
        text = out.stdout + out.stderr
        check(out.returncode == 0, "binary: --help exits 0")
        for setting in ("DOMINION_ADDR", "DOMINION_DATA_DIR"):
            check(setting in text, f"binary: --help documents {setting}")
        check("healthcheck" in text, "binary: --help lists the healthcheck subcommand")
        check("backup" in text, "binary: --help lists the backup subcommand")
        compose_text = (ROOT / "docker-compose.yml").read_text() + cpath.read_text()
        named = set(re.findall(r"(DOMINION_[A-Z_]+)", compose_text))
        named |= set(re.findall(r"(DOMINION_[A-Z_]+)=", env))
        for name in sorted(named):
            check(name in text, f"binary: --help documents {name} (set in the Dockerfile or compose file)")

    for f in failures:
        print(f"FAIL {f}")
    print(f"deploy: {passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
