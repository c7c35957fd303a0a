// A browser page signed up as a new account, in the lobby with the automatch panel —
// what the automatch tests start from — and the two small waits they use.
import assert from 'node:assert/strict';
import { openPage } from './browser.mjs';

/** The last frame of `type` in `frames`. @param {any[]} frames @param {string} type */
export function last(frames, type) {
  for (let i = frames.length - 1; i >= 0; i--) if (frames[i].type === type) return frames[i];
  return undefined;
}

/** Waits until `fn` holds (checked every 50 ms, at most 20 s). @param {() => boolean} fn @param {string} what */
export async function until(fn, what) {
  const end = Date.now() + 20000;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A new page at `url` that signs up as `name` through the sign-in dialog and waits for
 * the signed-in welcome and the automatch panel (which a guest is not offered).
 * `prepare` runs before the page loads (e.g. to route its WebSocket).
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @param {string} name
 * @param {{locale?: string, viewport?: {width: number, height: number}, isMobile?: boolean, hasTouch?: boolean, prepare?: (page: import('playwright-core').Page) => Promise<void>}} [opts]
 */
export async function signedUp(browser, url, name, opts = {}) {
  const { prepare, ...pageOpts } = opts;
  const p = await openPage(browser, pageOpts);
  const { page } = p;
  await prepare?.(page);
  await page.goto(url);
  await page.waitForSelector('[data-testid=conn-status][data-status=online]');
  assert.equal(await page.getByTestId('automatch').count(), 0, 'a guest is not offered automatch');
  const welcomes = p.rec.received.filter((m) => m.type === 'welcome').length;
  await page.getByTestId('sign-in-open').click();
  await page.waitForSelector('[data-testid=auth-dialog]');
  await page.getByTestId('auth-to-signup').click();
  await page.waitForSelector('[data-testid=auth-dialog][data-mode=signup]');
  await page.getByTestId('auth-name').fill(name);
  await page.getByTestId('auth-password').fill(`${name} has a long password`);
  await page.getByTestId('auth-submit').click();
  await page.waitForSelector('[data-testid=account-name]');
  await until(() => p.rec.received.filter((m) => m.type === 'welcome').length > welcomes, 'a new welcome');
  await page.waitForSelector('[data-testid=conn-status][data-status=online]');
  await page.waitForSelector('[data-testid=automatch]');
  return p;
}
