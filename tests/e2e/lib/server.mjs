// Starts the real dominion-server binary on 127.0.0.1 with a fresh data directory and
// instant bots, and stops it again. Built by `npm test`'s pretest (cargo build).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TARGET = process.env.CARGO_TARGET_DIR ? path.resolve(ROOT, process.env.CARGO_TARGET_DIR) : path.join(ROOT, 'target');
export const BINARY = path.join(TARGET, 'debug', process.platform === 'win32' ? 'dominion-server.exe' : 'dominion-server');

/** A port that was free a moment ago. */
async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

/**
 * @param {string[]} [extraArgs]
 * @param {number} [fixedPort]  listen on this port (to come back where a stopped server was)
 * @returns {Promise<{url: string, port: number, stop: () => Promise<void>, output: () => string}>}
 */
export async function startServer(extraArgs = [], fixedPort = undefined) {
  if (!fs.existsSync(BINARY)) {
    throw new Error(`${BINARY} is missing: run \`cargo build -p dominion-server\` (npm test does it first)`);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dominion-e2e-'));
  let lastError;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = fixedPort ?? (await freePort());
    const child = spawn(
      BINARY,
      ['--addr', `127.0.0.1:${port}`, '--data-dir', dataDir, '--bot-delay', '0', '--log', 'warn',
        // Every page is 127.0.0.1: the per-address room limit is tested in the Rust suite.
        '--rooms-per-address', '100000', ...extraArgs],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    let exited = false;
    child.on('exit', () => (exited = true));
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 20000;
    while (Date.now() < deadline && !exited) {
      try {
        const res = await fetch(`${url}/healthz`);
        if (res.ok) {
          return {
            url,
            port,
            output: () => out,
            stop: () =>
              new Promise((resolve) => {
                if (exited) return resolve(undefined);
                child.once('exit', () => {
                  fs.rmSync(dataDir, { recursive: true, force: true });
                  resolve(undefined);
                });
                child.kill('SIGTERM');
                setTimeout(() => child.kill('SIGKILL'), 5000).unref();
              }),
          };
        }
      } catch {
        /* not up yet */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGKILL');
    lastError = new Error(`server did not come up on port ${port}:\n${out}`);
  }
  throw lastError;
}
