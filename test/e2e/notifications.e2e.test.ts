// The notifications pages of the three apps in a real browser: the dashboard's, the
// console's and the workers' app's, each checked with axe-core (WCAG 2 A and AA rules and
// best practices) at desktop and phone width as first shown, with a refused form's errors,
// and after a save's notice; no page scrolls sideways on a phone. Sessions are opened over
// HTTP and handed to the browser as cookies.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { seedCompany } from '../helpers/app.ts';
import { violations } from '../helpers/axe.ts';
import { browserMissing, useBrowserApp } from '../helpers/browser.ts';
import { browser as httpBrowser, signIn, userIn, workerSignIn } from '../helpers/dashboard.ts';
import { enrolledOperator } from '../helpers/operator.ts';
import { createWorker } from '../../src/modules/workers/index.ts';

const missing = browserMissing();
const STEP = 15_000;
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

async function checkHere(page: Page, label: string) {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    const at = `${label} at ${viewport.width} px`;
    assert.deepEqual(await violations(page), [], at);
    const wide = await page.evaluate<number>('document.documentElement.scrollWidth');
    assert.ok(wide <= viewport.width, `${at} scrolls sideways (${wide} px)`);
  }
}

describe('notifications pages in a browser', { skip: missing ?? false, timeout: 240_000 }, () => {
  const app = useBrowserApp();

  async function pageWith(cookies: Map<string, string>) {
    const { url, browser } = app();
    // The axe script is added by the test, so the pages' own policy is bypassed for it alone.
    const context = await browser.newContext({ bypassCSP: true });
    await context.addCookies(
      [...cookies].map(([name, value]) => ({ name, value: decodeURIComponent(value), url })),
    );
    const page = await context.newPage();
    page.setDefaultTimeout(STEP);
    page.setDefaultNavigationTimeout(STEP);
    return page;
  }

  /** First shown, refused with a bad time, then saved: each state checked. */
  async function walk(page: Page, path: string, label: string, saveName: string) {
    const { url } = app();
    await page.goto(`${url}${path}`);
    await checkHere(page, label);
    await page.getByLabel('Keep quiet hours').check();
    await page.locator('#quiet-start').fill('23:00');
    await page.locator('#quiet-end').fill('23:00');
    await page.getByRole('button', { name: saveName, exact: true }).click();
    await page
      .getByText(/Quiet until: the same as the start/)
      .first()
      .waitFor();
    await checkHere(page, `${label}, refused`);
    await page.locator('#quiet-end').fill('07:00');
    await page.getByRole('button', { name: saveName, exact: true }).click();
    await page.getByText(/Notification settings saved\. Quiet hours: 23:00 to 07:00/).waitFor();
    await checkHere(page, `${label}, saved`);
    await page.context().close();
  }

  test('dashboard, console and workers’ app: accessible in every state', async () => {
    const { t } = app();
    const co = await seedCompany(t, { name: 'Harbour Deli' });
    const user = await userIn(t, co.companyId, 'admin');
    const b = httpBrowser(t, '198.51.100.90');
    assert.equal((await signIn(b, user.email, user.password)).status, 303);
    await walk(await pageWith(b.cookies), '/dashboard/notifications', 'dashboard', 'Save');

    const op = await enrolledOperator(t, 'Rita');
    await walk(await pageWith(op.browser.cookies), '/operator/notifications', 'console', 'Save');

    const worker = await createWorker(t.ctx.db, t.ctx.clock, {
      name: 'Pia',
      timezone: 'Europe/Berlin',
    });
    const wb = httpBrowser(t, '198.51.100.91');
    assert.equal((await workerSignIn(wb, worker.token)).status, 303);
    await walk(
      await pageWith(wb.cookies),
      '/dashboard/worker/notifications',
      'workers’ app',
      'Save',
    );
  });
});
