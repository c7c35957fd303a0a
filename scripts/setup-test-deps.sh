#!/usr/bin/env bash
# One-time setup for the tests on Debian or Ubuntu (`.ci/run` runs exactly this):
#   - the Debian packages in .ci/debian-packages, and python3, python3-venv, python3-pip,
#     after `apt-get update` (only when something is missing; needs root);
#   - Node.js and npm from the distribution when Node is missing and the distribution's is
#     new enough (Debian 13 yes, Debian 12 no: its nodejs is 18);
#   - a virtual environment .venv at the repository root with scripts/requirements-test.txt
#     (the system Python is never touched; the Rust tests run .venv/bin/python3);
#   - `npm ci` in tests/e2e (playwright-core, ajv, typescript; the browser is Debian's).
# When it installed something it touches itself: the test crates' build scripts watch
# this file (crates/testkit/services), so the next `cargo test` runs the tests that
# need what is now installed instead of reporting them as ignored.
# Checks Python >= 3.11, Node.js >= 20 and npm, and stops with what to install if not.
# Safe to re-run: when everything is in place a second run only checks.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES_FILE=.ci/debian-packages
REQUIREMENTS=scripts/requirements-test.txt
VENV=.venv
MIN_NODE=20
installed_something=false
CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}

say() { printf '== %s\n' "$*"; }
fail() {
  printf 'setup-test-deps: %s\n' "$*" >&2
  exit 1
}
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }
# The version apt would install ("" when the package is unknown).
candidate() {
  local v
  v=$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ { print $2 }')
  [[ $v == "(none)" ]] && v=""
  printf '%s' "$v"
}
# The major number of a version such as v20.19.2, 18.19.0+dfsg-6~deb12u2 or 1:2.3.
major() {
  local v=${1#v}
  v=${v#*:}
  v=${v%%[!0-9]*}
  printf '%s' "${v:-0}"
}
# "v20.19.2", or "" without Node.
node_version() {
  if command -v node >/dev/null 2>&1; then
    node --version 2>/dev/null || true
  fi
}

# --- Debian packages -------------------------------------------------------------------
wanted=(python3 python3-venv python3-pip)
while IFS= read -r line || [[ -n $line ]]; do
  read -ra words <<<"${line%%#*}"
  wanted+=("${words[@]}")
done <"$PACKAGES_FILE"

node_found=$(node_version)
node_note=""
if command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then
  missing=()
  for p in "${wanted[@]}"; do
    installed "$p" || missing+=("$p")
  done
  need_node=false
  [[ -z $node_found ]] && need_node=true
  # npm matters only with a Node that is new enough (or none yet).
  need_npm=false
  if ! command -v npm >/dev/null 2>&1 && { $need_node || (($(major "$node_found") >= MIN_NODE)); }; then
    need_npm=true
  fi

  if ((${#missing[@]})) || $need_node || $need_npm; then
    if [[ $EUID -eq 0 ]]; then
      say "apt-get update"
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -q || fail "apt-get update failed"
    fi
    # Node.js from the distribution only if it is new enough; then npm with it (Debian
    # packages npm separately; NodeSource's and nvm's Node bring their own).
    node_ok=false
    [[ -n $node_found ]] && (($(major "$node_found") >= MIN_NODE)) && node_ok=true
    if $need_node; then
      v=$(candidate nodejs)
      if [[ -n $v ]] && (($(major "$v") >= MIN_NODE)); then
        missing+=(nodejs)
        node_ok=true
      elif [[ -n $v ]]; then
        node_note="; this distribution's nodejs package is $v, too old"
      fi
    fi
    if $need_npm && $node_ok && [[ -n $(candidate npm) ]]; then
      missing+=(npm)
    fi
  fi

  if ((${#missing[@]})); then
    if [[ $EUID -ne 0 ]]; then
      fail "these Debian packages are missing: ${missing[*]}
Installing them needs root: re-run with sudo (sudo scripts/setup-test-deps.sh), or run
  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}
and then this script again."
    fi
    say "apt-get install ${missing[*]}"
    apt-get install -y -q --no-install-recommends "${missing[@]}" ||
      fail "apt-get install ${missing[*]} failed"
    installed_something=true
  else
    say "Debian packages: all installed (${wanted[*]})"
  fi
else
  say "no apt-get here: install yourself Chromium, Python 3.11+ with venv, Node.js $MIN_NODE+ and npm"
fi

# --- Python: a virtual environment at the repository root --------------------------------
command -v python3 >/dev/null 2>&1 ||
  fail "Python 3.11 or newer is needed (python3 not found): install python3 and python3-venv, then re-run"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
  fail "Python 3.11 or newer is needed (found $(python3 --version 2>&1)): install python3.11 or newer (your distribution, or pyenv), then re-run"

if ! "$VENV/bin/python3" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  say "python3 -m venv $VENV"
  python3 -m venv --clear "$VENV" ||
    fail "python3 -m venv failed: install python3-venv (apt-get install python3-venv), then re-run"
  installed_something=true
fi
say "pip install -r $REQUIREMENTS (into $VENV)"
"$VENV/bin/python3" -m pip install --quiet --disable-pip-version-check -r "$REQUIREMENTS" ||
  fail "pip install -r $REQUIREMENTS into $VENV failed"
"$VENV/bin/python3" -c 'import websockets, jsonschema, yaml' ||
  fail "$VENV lacks a module the tests import (websockets, jsonschema, yaml)"
if $installed_something; then
  touch scripts/setup-test-deps.sh # cargo re-detects the services (see the top)
fi

# --- Node.js, npm and the browser tests' packages ----------------------------------------
node_found=$(node_version)
if [[ -z $node_found ]]; then
  fail "Node.js $MIN_NODE or newer is needed (not found$node_note): install it from NodeSource or nvm (or your distribution's backports if they have it), then re-run"
fi
if (($(major "$node_found") < MIN_NODE)); then
  fail "Node.js $MIN_NODE or newer is needed (found ${node_found#v}): install it from NodeSource or nvm (or your distribution's backports if they have it), then re-run"
fi
command -v npm >/dev/null 2>&1 ||
  fail "npm is needed (Node.js ${node_found#v} has none here): install npm (apt-get install npm, or a Node.js that includes it), then re-run"

# `npm ci` starts from scratch each time; skip it when tests/e2e/node_modules was
# installed from this very lockfile with this Node.
stamp=tests/e2e/node_modules/.setup-test-deps
want_stamp="$(sha256sum tests/e2e/package-lock.json | cut -d' ' -f1) node-$(major "$node_found")"
if [[ -f $stamp && $(cat "$stamp") == "$want_stamp" ]]; then
  say "tests/e2e/node_modules: up to date"
else
  say "npm --prefix tests/e2e ci"
  npm --prefix tests/e2e ci --no-audit --no-fund || fail "npm --prefix tests/e2e ci failed"
  printf '%s\n' "$want_stamp" >"$stamp"
fi

# --- Chromium --------------------------------------------------------------------------
[[ -x $CHROMIUM ]] ||
  fail "Chromium is needed at $CHROMIUM: apt-get install chromium (or set CHROMIUM_PATH), then re-run"

say "ready: $("$VENV/bin/python3" --version) in $VENV, Node.js ${node_found#v}, npm $(npm --version), $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
