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

/** A port that was free a moment ago. @returns {Promise<number>} */
export async function freePort() {
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
 * @typedef {object} ServerOptions
 * @property {number} [port]  listen on this port (to come back where a stopped server was)
 * @property {string} [log]  the server's `--log` filter (default `warn`)
 */

/**
 * @typedef {object} Server
 * @property {string} url
 * @property {number} port
 * @property {() => Promise<void>} stop  SIGTERM (SIGKILL after 5 s), then deletes its data directory
 * @property {(signal: NodeJS.Signals) => Promise<{code: number | null, signal: NodeJS.Signals | null}>} kill
 *   sends `signal` (SIGKILL: `kill -9`; SIGTERM: a node's drain) and resolves when it exited
 * @property {() => boolean} exited
 * @property {() => string} output  everything it printed so far
 */

/**
 * @param {string[]} [extraArgs]
 * @param {ServerOptions} [options]
 * @returns {Promise<Server>}
 */
export async function startServer(extraArgs = [], options = {}) {
  if (!fs.existsSync(BINARY)) {
    throw new Error(`${BINARY} is missing: run \`cargo build -p dominion-server\` (npm test does it first)`);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dominion-e2e-'));
  let lastError;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = options.port ?? (await freePort());
    const child = spawn(
      BINARY,
      ['--addr', `127.0.0.1:${port}`, '--data-dir', dataDir, '--bot-delay', '0', '--log', options.log ?? 'warn',
        // Every page is 127.0.0.1: the per-address limits are tested in the Rust suite.
        '--rooms-per-address', '100000', '--connections-per-address', '100000', ...extraArgs],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    /** @type {{code: number | null, signal: NodeJS.Signals | null} | null} */
    let exit = null;
    /** @type {Promise<{code: number | null, signal: NodeJS.Signals | null}>} */
    const exitedP = new Promise((resolve) =>
      child.on('exit', (code, signal) => {
        exit = { code, signal };
        resolve(exit);
      }),
    );
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 20000;
    while (Date.now() < deadline && !exit) {
      try {
        const res = await fetch(`${url}/healthz`);
        if (res.ok) {
          return {
            url,
            port,
            output: () => out,
            exited: () => exit !== null,
            kill: (signal) => {
              if (!exit) child.kill(signal);
              return exitedP;
            },
            stop: async () => {
              if (!exit) {
                const force = setTimeout(() => child.kill('SIGKILL'), 5000);
                child.kill('SIGTERM');
                await exitedP;
                clearTimeout(force);
              }
              fs.rmSync(dataDir, { recursive: true, force: true });
            },
          };
        }
      } catch {
        /* not up yet */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGKILL');
    await exitedP;
    lastError = new Error(`server did not come up on port ${port}:\n${out}`);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  throw lastError;
}
