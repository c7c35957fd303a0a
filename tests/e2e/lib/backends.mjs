// A real PostgreSQL and a real Redis for the cluster tests, from the Debian packages
// (`postgresql`, `redis-server`; .ci/debian-packages), on 127.0.0.1 and free ports,
// in temporary directories. The same recipe as crates/testkit (the Rust side):
// `initdb` then `postgres` with fsync off (the tests kill our server, never
// PostgreSQL, so its durability is not under test), and a Redis that persists nothing.
import { execFile, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './server.mjs';

/** Longest wait for a started PostgreSQL to accept connections, or Redis to answer PING. */
const READY_MS = 60000;

/** Every backend still running, stopped at the latest when this process exits. */
const running = new Set();
process.on('exit', () => {
  // Only synchronous work runs here: a last resort for a run that did not reach `after`.
  for (const b of running) b.killNow();
});

/**
 * Where PostgreSQL's server programs are: `pg_config --bindir`, else the newest
 * `/usr/lib/postgresql/<version>/bin` (Debian installs them there, off the PATH).
 */
function pgBindir() {
  const hasServer = (/** @type {string} */ dir) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'postgres'));
  const cfg = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (cfg.status === 0 && hasServer(cfg.stdout.trim())) return cfg.stdout.trim();
  let versions = [];
  try {
    versions = fs.readdirSync('/usr/lib/postgresql').filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  } catch {
    /* none installed */
  }
  for (const v of versions) {
    const dir = path.join('/usr/lib/postgresql', v, 'bin');
    if (hasServer(dir)) return dir;
  }
  throw new Error(
    'PostgreSQL is missing: no initdb and postgres in `pg_config --bindir` nor in /usr/lib/postgresql/*/bin ' +
      '(install the Debian package `postgresql`, listed in .ci/debian-packages)',
  );
}

/** A program on the PATH or in /usr/bin. @param {string} name @param {string} pkg */
function findProgram(name, pkg) {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/bin', '/usr/local/bin'];
  for (const d of dirs) {
    const p = path.join(d, name);
    if (fs.existsSync(p)) return p;
  }
  throw new Error(`${name} is missing: not on the PATH nor in /usr/bin (install the Debian package \`${pkg}\`, listed in .ci/debian-packages)`);
}

/**
 * The uid and gid to run PostgreSQL as: the user `postgres` when we are root (PostgreSQL
 * refuses to run as root), else ourselves (undefined).
 * @returns {{uid: number, gid: number} | undefined}
 */
function pgUser() {
  if (process.getuid?.() !== 0) return undefined;
  const id = (/** @type {string} */ flag) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const u = id('-u');
  const g = id('-g');
  if (u.status !== 0 || g.status !== 0) {
    throw new Error('running as root, PostgreSQL must run as another user, and there is no user `postgres` (install the Debian package `postgresql`)');
  }
  return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) };
}

/** The last lines of a log file, for error messages. @param {string} file */
function tail(file, lines = 30) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Runs a program to its end. @param {string} cmd @param {string[]} args
 * @param {import('node:child_process').ExecFileOptions} [opts]
 * @returns {Promise<{ok: boolean, out: string}>}
 */
function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    execFile(cmd, args, { ...opts, encoding: 'utf8', timeout: 30000 }, (err, stdout, stderr) => {
      resolve({ ok: !err, out: `${stdout}${stderr}${err && !stderr ? err.message : ''}` });
    });
  });
}

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Stops a child: `signal`, then SIGKILL if it is still there after 5 s. Resolves once
 * it exited. @param {import('node:child_process').ChildProcess} child @param {NodeJS.Signals} signal
 */
function stopChild(child, signal) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve(undefined);
    });
    child.kill(signal);
  });
}

/**
 * A PostgreSQL of its own: `initdb` into a temporary directory, then `postgres` on
 * 127.0.0.1 and a free port, trusting local connections (no password).
 * @returns {Promise<{port: number, url: (db: string) => string, createDatabase: (name: string) => Promise<string>, stop: () => Promise<void>, log: () => string}>}
 */
export async function startPostgres() {
  const bin = pgBindir();
  const psql = findProgram('psql', 'postgresql-client');
  const user = pgUser();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dominion-e2e-pg-'));
  const data = path.join(root, 'data');
  const logFile = path.join(root, 'postgres.log');
  if (user) fs.chownSync(root, user.uid, user.gid);
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let child;
  const entry = {
    killNow() {
      child?.kill('SIGKILL');
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
  running.add(entry);
  const fail = (/** @type {string} */ msg) => {
    const err = new Error(`${msg}\n${tail(logFile)}`);
    running.delete(entry);
    fs.rmSync(root, { recursive: true, force: true });
    return err;
  };
  // The log is opened by us and written by the child through the inherited descriptor,
  // so its owner does not matter.
  const log = fs.openSync(logFile, 'a');
  const asUser = { ...user, cwd: root, stdio: /** @type {any} */ (['ignore', log, log]) };
  const init = spawnSync(
    path.join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=trust', '--no-locale', '-E', 'UTF8', '--no-sync'],
    asUser,
  );
  if (init.status !== 0) throw fail(`initdb -D ${data} failed (${init.error?.message ?? `status ${init.status}`})`);

  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const started = spawn(
      path.join(bin, 'postgres'),
      ['-D', data, '-p', String(port), '-k', root, '-c', 'listen_addresses=127.0.0.1',
        '-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'shared_buffers=16MB'],
      asUser,
    );
    child = started;
    let exited = false;
    started.on('exit', () => (exited = true));
    const deadline = Date.now() + READY_MS;
    const admin = ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-qAt'];
    while (!exited && Date.now() < deadline) {
      if ((await run(psql, [...admin, '-c', 'select 1'], { env: { ...process.env, PGCONNECT_TIMEOUT: '2' } })).ok) {
        fs.closeSync(log);
        const self = {
          port,
          url: (/** @type {string} */ db) => `postgres://postgres@127.0.0.1:${port}/${db}`,
          /** Creates an empty database and returns its URL. @param {string} name */
          async createDatabase(name) {
            const r = await run(psql, [...admin, '-c', `CREATE DATABASE ${name}`]);
            if (!r.ok) throw new Error(`CREATE DATABASE ${name} failed: ${r.out}`);
            return self.url(name);
          },
          log: () => tail(logFile, 200),
          /** Smart shutdown (our servers are gone by then), SIGKILL after 5 s; deletes the directory. */
          async stop() {
            await stopChild(started, 'SIGTERM');
            running.delete(entry);
            fs.rmSync(root, { recursive: true, force: true });
          },
        };
        return self;
      }
      await sleep(100);
    }
    await stopChild(started, 'SIGKILL');
  }
  fs.closeSync(log);
  throw fail('postgres did not accept connections on 127.0.0.1 (three ports tried)');
}

/**
 * Sends one command to Redis and returns its reply as text (simple string, integer or
 * bulk string; null for a missing value). Enough for PING and GET.
 * @param {number} port @param {string[]} args
 * @returns {Promise<string | null>}
 */
export function redisCommand(port, args) {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    let buf = '';
    sock.setTimeout(5000, () => sock.destroy(new Error('redis did not answer within 5 s')));
    sock.on('error', reject);
    sock.on('connect', () => {
      sock.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
    });
    sock.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\r\n');
      if (nl < 0) return;
      const head = buf.slice(0, nl);
      let reply;
      if (head[0] === '+' || head[0] === ':') reply = head.slice(1);
      else if (head[0] === '-') {
        sock.destroy();
        reject(new Error(`redis: ${head.slice(1)}`));
        return;
      } else if (head === '$-1') reply = null;
      else if (head[0] === '$') {
        const len = Number(head.slice(1));
        const body = Buffer.from(buf.slice(nl + 2));
        if (body.length < len + 2) return;
        reply = body.subarray(0, len).toString();
      } else {
        sock.destroy();
        reject(new Error(`redis: unexpected reply ${head}`));
        return;
      }
      sock.end();
      resolve(reply);
    });
  });
}

/**
 * A Redis of its own on 127.0.0.1 and a free port, persisting nothing.
 * @returns {Promise<{port: number, url: string, command: (args: string[]) => Promise<string | null>, stop: () => Promise<void>, output: () => string}>}
 */
export async function startRedis() {
  const bin = findProgram('redis-server', 'redis-server');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dominion-e2e-redis-'));
  let out = '';
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let child;
  const entry = {
    killNow() {
      child?.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  running.add(entry);
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const started = spawn(
      bin,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', dir],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    started.stdout.on('data', (d) => (out += d));
    started.stderr.on('data', (d) => (out += d));
    let exited = false;
    started.on('exit', () => (exited = true));
    const deadline = Date.now() + READY_MS;
    while (!exited && Date.now() < deadline) {
      const pong = await redisCommand(port, ['PING']).catch(() => null);
      if (pong === 'PONG') {
        return {
          port,
          url: `redis://127.0.0.1:${port}`,
          command: (args) => redisCommand(port, args),
          output: () => out,
          /** SIGTERM, SIGKILL after 5 s; deletes the directory. */
          async stop() {
            await stopChild(started, 'SIGTERM');
            running.delete(entry);
            fs.rmSync(dir, { recursive: true, force: true });
          },
        };
      }
      await sleep(50);
    }
    await stopChild(started, 'SIGKILL');
  }
  running.delete(entry);
  fs.rmSync(dir, { recursive: true, force: true });
  throw new Error(`redis-server did not answer PING on 127.0.0.1 (three ports tried):\n${out}`);
}
