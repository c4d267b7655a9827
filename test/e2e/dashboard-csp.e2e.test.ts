// The dashboard under its Content-Security-Policy in a real browser: every main page, a
// boosted navigation, a boosted form, the upload script and the workers' pages run without
// a single violation, with the stylesheet and scripts applied and no style element added.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { client, seedCompany } from '../helpers/app.ts';
import { browserMissing, useBrowserApp, waitInPage } from '../helpers/browser.ts';
import { makeAccounts, readyUpload } from '../helpers/posts.ts';
import { createUser } from '../../src/modules/users/index.ts';
import { assignAccounts, createWorker } from '../../src/modules/workers/index.ts';

const missing = browserMissing();
const STEP = 15_000;
const IMAGE = fileURLToPath(new URL('../fixtures/media/image.png', import.meta.url));

/**
 * Every CSP violation the context's pages report, from the page's own
 * `securitypolicyviolation` events and from the console (where Chromium also logs them).
 */
async function watchViolations(context: BrowserContext): Promise<string[]> {
  const seen: string[] = [];
  await context.exposeBinding('__reportViolation', (_source, text: string) => seen.push(text));
  await context.addInitScript(
    `document.addEventListener('securitypolicyviolation', (e) => window.__reportViolation(
      e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' in ' + e.documentURI));`,
  );
  context.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) seen.push(`console: ${msg.text()}`);
  });
  context.on('weberror', (err) => seen.push(`page error: ${err.error().message}`));
  return seen;
}

/** What the page looks like to CSP: its stylesheet applied, htmx loaded, no style element. */
async function checkPage(page: Page, what: string): Promise<void> {
  await page.waitForLoadState('load');
  // Strings, evaluated in the page: this project's types have no DOM.
  const margin = await page.evaluate<string>('getComputedStyle(document.body).marginTop');
  assert.equal(margin, '0px', `${what}: the stylesheet applies`);
  const styles = await page.evaluate<number>('document.querySelectorAll("style").length');
  assert.equal(styles, 0, `${what}: no style element`);
}

describe(
  'dashboard under its CSP in a browser',
  { skip: missing ?? false, timeout: 180_000 },
  () => {
    const app = useBrowserApp();

    test('the main pages, a boosted form, an upload and the workers’ pages: no violation', async () => {
      const { t, url, browser } = app();
      const co = await seedCompany(t);
      const call = client(t, co.key);
      const [a, b] = (await makeAccounts(call, 2)) as [string, string];
      const image = await readyUpload(t, call, 'image.png');
      const video = await readyUpload(t, call, 'h264-noaudio.mp4');
      const imagePost = (await call('POST', '/v2/posts', { media: [image], accountIds: [a] })).body;
      t.clock.advance(1000);
      await call('POST', '/v2/posts', { media: [video], accountIds: [a, b] });
      const email = 'admin@csp.example';
      const { password } = await createUser(t.ctx.db, t.ctx.clock, {
        companyId: co.companyId,
        email,
        role: 'admin',
      });

      const context = await browser.newContext();
      const violations = await watchViolations(context);
      const page = await context.newPage();
      page.setDefaultTimeout(STEP);
      page.setDefaultNavigationTimeout(STEP);

      await page.goto(`${url}/dashboard/sign-in`);
      await checkPage(page, 'sign-in');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${url}/dashboard/approvals`);
      await checkPage(page, 'approvals');
      assert.equal(await page.evaluate<string>('typeof htmx'), 'object');
      // The image post's picture loads from its signed media URL.
      await page.locator(`[data-post="${imagePost.postId}"] img`).first().scrollIntoViewIfNeeded();
      await waitInPage(
        page,
        `document.querySelector('[data-post="${imagePost.postId}"] img')?.naturalWidth > 0`,
      );

      // A boosted navigation (htmx swaps the page in) and a boosted form with its notice.
      await page
        .getByRole('navigation', { name: 'Dashboard' })
        .getByRole('link', { name: 'Tags' })
        .click();
      await page.waitForURL(`${url}/dashboard/tags`);
      const form = page.getByRole('form', { name: 'New tag' });
      await form.getByLabel('Name', { exact: true }).fill('Launch');
      await form.getByRole('button', { name: 'Create tag' }).click();
      await page.getByRole('status').filter({ hasText: 'Tag “Launch” created.' }).waitFor();
      await checkPage(page, 'tags after a boosted form');

      // The upload script's PUT, then the page it leads to with the image and the notice.
      await page.goto(`${url}/dashboard/workspace`);
      await page.getByLabel('Name', { exact: true }).fill('Food');
      await page.getByRole('button', { name: 'Create folder' }).click();
      await page.getByRole('status').filter({ hasText: 'Folder “Food” created.' }).waitFor();
      await page.getByLabel(/^PNG, JPEG/).setInputFiles(IMAGE);
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.getByRole('status').filter({ hasText: 'Image “image” added.' }).waitFor();
      await waitInPage(page, `document.querySelector('.images img')?.naturalWidth > 0`);
      await checkPage(page, 'workspace');

      for (const path of [
        '/dashboard/calendar',
        '/dashboard/posts',
        `/dashboard/posts/${imagePost.postId}`,
        '/dashboard/accounts',
        '/dashboard/accounts/new',
        '/dashboard/schedule',
        `/dashboard/accounts/${a}/schedule`,
        '/dashboard/keys',
        '/dashboard/webhooks',
        '/dashboard/usage',
        '/dashboard/activity',
        '/dashboard/no-such-page',
      ]) {
        await page.goto(`${url}${path}`);
        await checkPage(page, path);
      }
      // The schedule editor's live check runs under the policy too.
      await page.goto(`${url}/dashboard/schedule`);
      await page.locator('input[name="window"]').first().fill('07:00');
      await page.locator('#schedule-live').filter({ hasText: 'between 08:00 and 17:00' }).waitFor();

      // The workers' pages, in a context of their own.
      const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Ana', timezone: 'UTC' });
      await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [a]);
      const phone = await context.newPage();
      phone.setDefaultTimeout(STEP);
      await phone.goto(`${url}/dashboard/worker/sign-in`);
      await checkPage(phone, 'workers’ sign-in');
      await phone.getByLabel('Worker token').fill(worker.token);
      await phone.getByRole('button', { name: 'Sign in' }).click();
      await phone.waitForURL(`${url}/dashboard/worker/tasks`);
      await checkPage(phone, 'workers’ tasks');

      assert.equal(violations.length, 0, violations.join('\n'));

      // The watch itself works: an inline style attribute is refused and reported.
      await page.evaluate(
        `document.body.insertAdjacentHTML('beforeend', '<p style="color: red">inline</p>')`,
      );
      const event = () => violations.some((v) => v.startsWith('style-src-attr blocked inline'));
      for (let i = 0; i < 100 && !event(); i++) await page.waitForTimeout(20);
      assert.ok(event(), violations.join('\n'));
      assert.ok(violations.some((v) => v.startsWith('console: ')));
      await context.close();
    });
  },
);
