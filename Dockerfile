# syntax=docker/dockerfile:1
# Multi-stage build: compile in the Rust image, run from a slim Debian image as a
# non-root user. The release binary embeds the browser client (plain ES modules, no
# build step), so no Node.js stage is needed and the binary is all the runtime image
# needs. Checked statically by scripts/check_deploy.py (no Docker engine in CI).

FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
COPY . .
# The workspace's release profile keeps line tables for profiling the simulator: most
# of a ~50 MB binary. The image needs none of it, so this build neither emits debug
# info nor keeps symbols (~8 MB). Nothing else changes: same code, same optimisation.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked -p dominion-server \
        --config profile.release.debug=false --config profile.release.strip=true \
    && install -D target/release/dominion-server /out/dominion-server

FROM debian:bookworm-slim AS runtime
# uid and gid 10001 both (`useradd --user-group` would pick a system gid such as 999),
# so `chown -R 10001:10001` in docs/operations.md and the server's messages is the whole fix.
RUN groupadd --system --gid 10001 dominion \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data --no-create-home dominion \
    && mkdir -p /data && chown dominion:dominion /data
COPY --from=build /out/dominion-server /usr/local/bin/dominion-server
USER dominion
# DOMINION_WAIT_FOR_DATA_DIR: a volume the server cannot write (owned by root, mounted
# read-only) makes it wait, report unhealthy with the fix, and start once fixed,
# rather than exit and be restarted in a loop by `restart: unless-stopped`.
ENV DOMINION_ADDR=0.0.0.0:8080 \
    DOMINION_DATA_DIR=/data \
    DOMINION_WAIT_FOR_DATA_DIR=true
VOLUME ["/data"]
EXPOSE 8080
# The binary checks its own /healthz, so the slim image needs no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["dominion-server", "healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["dominion-server"]
