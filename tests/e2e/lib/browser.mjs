// Debian's Chromium driven by playwright-core, with every WebSocket frame checked
// against the committed JSON Schema of the protocol (crates/protocol/schema).
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ROOT } from './server.mjs';

export const ARTIFACTS = path.join(ROOT, 'tests', 'e2e', 'artifacts');
fs.mkdirSync(ARTIFACTS, { recursive: true });

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'crates/protocol/schema/protocol.schema.json'), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
// schemars marks Rust integer widths as formats; check them rather than ignore them.
for (const [name, min, max] of [
  ['uint8', 0, 255],
  ['uint16', 0, 65535],
  ['uint32', 0, 4294967295],
  ['uint64', 0, Number.MAX_SAFE_INTEGER],
  ['int32', -2147483648, 2147483647],
  ['int64', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
]) {
  ajv.addFormat(name, { type: 'number', validate: (n) => Number.isInteger(n) && n >= min && n <= max });
}
// And `f64` (levels and ratings) as `double`: any finite number.
ajv.addFormat('double', { type: 'number', validate: (n) => Number.isFinite(n) });
ajv.addSchema(schema, 'protocol');
export const validateClient = ajv.compile({ $ref: 'protocol#/$defs/ClientMessage' });
export const validateServer = ajv.compile({ $ref: 'protocol#/$defs/ServerMessage' });

/** Launches Chromium headless (playwright gives each launch a fresh temporary profile). */
export async function launch() {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)`);
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Pages fulfilled by the test (E2E_CLIENT_FROM_DISK) have no address space of their
      // own: let them reach the server's WebSocket on 127.0.0.1 all the same.
      ...(process.env.E2E_CLIENT_FROM_DISK ? ['--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests'] : []),
    ],
  });
  if (process.env.E2E_CLIENT_FROM_DISK) {
    // A development aid: every context serves web-client/ from the working tree instead
    // of the copy embedded in the binary, so client changes need no rebuild to try.
    const newContext = browser.newContext.bind(browser);
    browser.newContext = async (/** @type {any} */ options) => {
      const context = await newContext(options);
      await context.route(/^http:\/\/127\.0\.0\.1:\d+\//, (route) => {
        const url = new URL(route.request().url());
        const rel = url.pathname === '/' || url.pathname.startsWith('/replay/') || url.pathname.startsWith('/players/') ? 'index.html' : decodeURIComponent(url.pathname.slice(1));
        const file = path.join(ROOT, 'web-client', rel);
        if (rel.includes('..') || !fs.existsSync(file) || !fs.statSync(file).isFile()) return route.fallback();
        const types = /** @type {Record<string, string>} */ ({ '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml' });
        return route.fulfill({ status: 200, body: fs.readFileSync(file), headers: { 'content-type': types[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' } });
      });
      return context;
    };
  }
  const close = () => browser.close();
  return { browser, close };
}

/**
 * A page in its own context (its own localStorage: one person), recording every frame
 * it sends and receives, schema violations, and console errors.
 * @param {import('playwright-core').Browser} browser
 * @param {{viewport?: {width: number, height: number}, locale?: string, hasTouch?: boolean, isMobile?: boolean, motion?: boolean}} [opts]
 */
export async function openPage(browser, opts = {}) {
  const context = await browser.newContext({
    viewport: opts.viewport ?? { width: 1280, height: 900 },
    locale: opts.locale ?? 'en-US',
    hasTouch: opts.hasTouch,
    isMobile: opts.isMobile,
    // Reduced motion: the table's two CSS animations (a chip played by another player,
    // a pile count that changed) are repainted at every frame for about a second, and in
    // games the bots play at once they never stop; in software rendering that was more
    // than half of a test's CPU (tests/e2e/README.md). They are decoration: the state
    // they mark is in the DOM either way. `motion: true` keeps them for a test that needs them.
    reducedMotion: opts.motion ? 'no-preference' : 'reduce',
  });
  const page = await context.newPage();
  /** @type {{sent: any[], received: any[], invalid: string[], errors: string[]}} */
  const rec = { sent: [], received: [], invalid: [], errors: [] };
  page.on('websocket', (ws) => {
    ws.on('framesent', ({ payload }) => {
      const text = String(payload);
      let msg;
      try {
        msg = JSON.parse(text);
      } catch {
        rec.invalid.push(`sent a frame that is not JSON: ${text}`);
        return;
      }
      rec.sent.push(msg);
      if (!validateClient(msg)) {
        rec.invalid.push(`sent ${text}: ${ajv.errorsText(validateClient.errors)}`);
      }
    });
    ws.on('framereceived', ({ payload }) => {
      const text = String(payload);
      let msg;
      try {
        msg = JSON.parse(text);
      } catch {
        return;
      }
      rec.received.push(msg);
      if (!validateServer(msg)) {
        rec.invalid.push(`received ${text.slice(0, 300)}: ${ajv.errorsText(validateServer.errors)}`);
      }
    });
  });
  page.on('console', (m) => {
    if (m.type() === 'error') rec.errors.push(m.text());
  });
  page.on('pageerror', (e) => rec.errors.push(`pageerror: ${e.message}`));
  return { context, page, rec };
}
