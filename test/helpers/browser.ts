// A real browser for end-to-end tests: Debian's chromium driven by playwright-core, against
// the service listening on a loopback port. Without a browser the tests are skipped with one
// loud line, except where SLOTLINE_REQUIRE_BROWSER=1 (CI) makes that a failure.
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { after, before } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createTestApp, type TestApp, type TestAppOptions } from './app.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why browser tests cannot run here, or null when they can. */
export function browserMissing(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const why = `no browser at ${CHROMIUM} (apt-get install chromium)`;
  if (process.env.SLOTLINE_REQUIRE_BROWSER === '1') {
    throw new Error(`browser tests are required here, but there is ${why}`);
  }
  console.log(`\n!!! SKIPPING the end-to-end browser tests: ${why} !!!\n`);
  return why;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // Headless, and nothing that reaches for the network on its own (the machine has none).
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    timeout: 30_000,
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The service on SQLite, listening on a loopback port that is also its PUBLIC_URL. */
export async function listeningApp(
  options: TestAppOptions = {},
): Promise<{ t: TestApp; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t = await createTestApp('sqlite', { ...options, env: { ...options.env, PUBLIC_URL: url } });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, url };
}

export interface BrowserApp {
  t: TestApp;
  url: string;
  browser: Browser;
}

/**
 * Inside a `describe`: the listening service (built with `options`) and a browser, started
 * before its tests and closed after them. Returns the accessor the tests call.
 */
export function useBrowserApp(options: TestAppOptions = {}): () => BrowserApp {
  let running: BrowserApp | undefined;
  before(async () => {
    const { t, url } = await listeningApp(options);
    running = { t, url, browser: await launchBrowser() };
  });
  after(async () => {
    await running?.browser.close();
    await running?.t.close();
  });
  return () => {
    if (!running) throw new Error('the browser app starts before the tests');
    return running;
  };
}

/**
 * Waits until `expression` is true in the page, evaluating it from the test's side: a page
 * whose Content-Security-Policy forbids eval refuses Playwright's in-page polling of a
 * string predicate, which it falls back to when the first check is false.
 */
export async function waitInPage(page: Page, expression: string, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await page.evaluate<boolean>(`Boolean(${expression})`)) return;
    if (Date.now() > until) throw new Error(`timed out waiting in the page for ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
