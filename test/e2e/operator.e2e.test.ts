// The operator console in a real browser: an operator follows its sign-in link (password,
// authenticator from the key on the page, recovery codes), creates a company, invites its
// first admin and suspends it; the API refuses the company's key meanwhile. Then it creates
// a worker (token, phone link and QR code), gives it the company's accounts with "Select
// all", and works the setup queue and the fulfilment board, moving an account to another
// worker. Every page on the way is checked with axe-core (WCAG 2 A and AA rules) at
// desktop and phone width, and no page scrolls sideways on the phone.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { client, seedCompany, type TestApp } from '../helpers/app.ts';
import { violations } from '../helpers/axe.ts';
import { browserMissing, useBrowserApp } from '../helpers/browser.ts';
import { makeAccounts, readyUpload } from '../helpers/posts.ts';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import { ADMIN_CLI, createOperator } from '../../src/modules/operators/index.ts';
import { createWorker } from '../../src/modules/workers/index.ts';

const missing = browserMissing();
const STEP = 15_000;
const PASSWORD = 'an operator passphrase for e2e';

const code = (t: TestApp, secret: string) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: t.clock.now().getTime() });

describe('operator console in a browser', { skip: missing ?? false, timeout: 240_000 }, () => {
  const app = useBrowserApp();

  /** Opens `path` at phone width in a context of the same cookies, and checks it there. */
  async function onPhone(browser: Browser, page: Page, path: string, label: string) {
    const phone = await browser.newContext({
      viewport: { width: 360, height: 740 },
      bypassCSP: true,
      storageState: await page.context().storageState(),
    });
    const p = await phone.newPage();
    p.setDefaultTimeout(STEP);
    await p.goto(path);
    const width = await p.evaluate<number>('document.documentElement.scrollWidth');
    assert.ok(width <= 360, `${label} scrolls sideways on a phone (${width} px)`);
    // Every tab of the console is on the screen whole, none cut at its edge ("Ope").
    const cut = await p.evaluate<string[]>(
      "[...document.querySelectorAll('.top nav a')].filter((a) => { const r = a.getBoundingClientRect(); const nav = a.parentElement.getBoundingClientRect(); return r.left < nav.left || r.right > nav.right + 0.5 || r.right > 360; }).map((a) => a.textContent)",
    );
    assert.deepEqual(cut, [], `${label}: tabs cut at the phone's edge`);
    assert.deepEqual(await violations(p), [], `${label} at phone width`);
    await phone.close();
  }

  test('sign-in link to suspension, every page accessible', async () => {
    const { t, url, browser } = app();
    const checked: string[] = [];
    // The axe script is added by the test, so the pages' own policy is bypassed for it alone.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    page.setDefaultTimeout(STEP);
    page.setDefaultNavigationTimeout(STEP);
    const check = async (label: string, phone = true) => {
      assert.deepEqual(await violations(page), [], label);
      if (phone) await onPhone(browser, page, page.url(), label);
      checked.push(label);
    };
    // A page that answers a form (shown once, not at its address again): narrowed in place.
    const checkInPlace = async (label: string) => {
      assert.deepEqual(await violations(page), [], label);
      const size = page.viewportSize();
      await page.setViewportSize({ width: 360, height: 740 });
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      assert.ok(width <= 360, `${label} scrolls sideways on a phone (${width} px)`);
      assert.deepEqual(await violations(page), [], `${label} at phone width`);
      if (size) await page.setViewportSize(size);
      checked.push(label);
    };
    const nav = (name: string) =>
      page
        .getByRole('navigation', { name: 'Operator console' })
        .getByRole('link', { name })
        .click();

    const { link } = await createOperator(
      t.ctx.db,
      t.ctx.clock,
      { email: 'e2e.ops@slotline.example', name: 'Eve Ops' },
      ADMIN_CLI,
      null,
    );
    await page.goto(`${url}/operator/welcome?token=${link.token}`);
    await page.getByRole('heading', { name: 'Welcome to the operator console' }).waitFor();
    await check('welcome');
    await page.getByLabel('New password').fill('short');
    await page.getByLabel('The same password again').fill('short');
    // The browser's own check would stop a short password; the server's answer is checked.
    await page.evaluate("document.querySelector('form').noValidate = true");
    await page.getByRole('button', { name: 'Set password and continue' }).click();
    await page.getByRole('alert').filter({ hasText: 'at least 12 characters' }).waitFor();
    await check('welcome with an error', false);
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('The same password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and continue' }).click();
    await page.waitForURL(`${url}/operator/welcome/authenticator`);
    await page.getByRole('img', { name: /QR code of the Slotline key/ }).waitFor();
    await check('authenticator set-up');
    const key = (await page.getByLabel('Key to type instead of scanning').inputValue()).replace(
      /\s/g,
      '',
    );
    await page.getByLabel('Code from the app').fill(code(t, key));
    await page.getByRole('button', { name: 'Confirm and finish' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    const codes = (await page.getByLabel('Recovery codes').inputValue()).split('\n');
    assert.equal(codes.length, 10);
    await check('recovery codes', false);
    await page.getByRole('link', { name: /continue to the console/ }).click();
    await page.waitForURL(`${url}/operator/companies`);
    await check('companies');

    // A company with accounts, created through the API, next to one created here.
    const existing = await seedCompany(t, { name: 'Existing Studio' });
    await page.getByRole('link', { name: 'New company' }).click();
    await page.waitForURL(`${url}/operator/companies/new`);
    await check('new company');
    await page.getByLabel('Name').fill('Browser Made Co');
    await page.getByLabel('Plan', { exact: true }).selectOption('growth');
    await page.getByLabel('May publish platformB feed posts').check();
    await page.getByLabel('Default timezone (optional)').fill('Nowhere/Town');
    await page.getByRole('button', { name: 'Create company' }).click();
    await page.getByText('is not an IANA timezone').waitFor();
    await check('new company with an error', false);
    await page.getByLabel('Default timezone (optional)').fill('Europe/Lisbon');
    await page.getByRole('button', { name: 'Create company' }).click();
    await page.getByRole('heading', { name: /Browser Made Co/ }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: 'Company “Browser Made Co” created.' })
      .waitFor();
    await check('company');

    const form = page.getByRole('form', { name: 'Invite an admin' });
    await form.getByLabel('Email').fill('first.admin@browser.example');
    await form.getByRole('button', { name: 'Invite' }).click();
    await page
      .getByRole('heading', { name: 'Invitation for first.admin@browser.example' })
      .waitFor();
    const invite = await page.getByRole('textbox', { name: 'Sign-in link' }).inputValue();
    assert.match(invite, /\/dashboard\/welcome\?token=/);
    await check('invitation link', false);

    // Suspending the existing company: its key is refused until it is resumed.
    const call = client(t, existing.key);
    assert.equal((await call('GET', '/v2/accounts')).status, 200);
    await page.goto(`${url}/operator/companies?q=Existing`);
    await page.getByRole('link', { name: 'Existing Studio' }).click();
    await page.getByRole('link', { name: 'Suspend Existing Studio…' }).click();
    await page.getByRole('heading', { name: 'Suspend “Existing Studio”?' }).waitFor();
    await check('suspend');
    await page.getByLabel('Reason (optional, kept in the logs)').fill('Checked in the browser');
    await page.getByRole('button', { name: 'Suspend company' }).click();
    await page.getByRole('status').filter({ hasText: 'is suspended' }).waitFor();
    await check('suspended company');
    const refused = await call('GET', '/v2/accounts');
    assert.equal(refused.status, 401);
    assert.match(refused.body.error.hint, /Contact the Slotline operator/);
    await page.getByRole('button', { name: 'Resume Existing Studio' }).click();
    await page.getByRole('status').filter({ hasText: 'is resumed' }).waitFor();
    assert.equal((await call('GET', '/v2/accounts')).status, 200);

    await page
      .getByRole('navigation', { name: 'Operator console' })
      .getByRole('link', { name: 'Operator log' })
      .click();
    await page.waitForURL(`${url}/operator/log`);
    await page.getByRole('cell', { name: 'Resumed “Existing Studio”.' }).waitFor();
    await check('operator log');

    // Workers: none yet, then one made here, with its token and phone link shown once.
    const accounts = await makeAccounts(call, 3);
    const upload = await readyUpload(t, call, 'image.png');
    await nav('Workers');
    await page.waitForURL(`${url}/operator/workers`);
    await page.getByText('There are no workers yet.').waitFor();
    await check('workers, none yet');
    await page.getByLabel('Name').fill('Phone Pat');
    await page.getByLabel('Timezone').fill('UTC');
    await page.getByRole('button', { name: 'Create worker' }).click();
    await page.getByRole('heading', { name: 'Worker Phone Pat created' }).waitFor();
    await page
      .getByRole('img', { name: 'QR code of the phone sign-in link for Phone Pat' })
      .waitFor();
    const token = await page.getByLabel(/^Token/).inputValue();
    assert.match(
      await page.getByRole('textbox', { name: 'Sign-in link' }).inputValue(),
      /\/dashboard\/worker\/link\?token=/,
    );
    await checkInPlace('new worker: token, phone link and QR code');
    await page.getByRole('link', { name: /Done, to Phone Pat/ }).click();
    await page
      .getByRole('heading', { name: /Phone Pat/ })
      .first()
      .waitFor();
    await check('worker');

    // Giving it the company's accounts: "Select all" ticks every box.
    await page.getByLabel('Company', { exact: true }).selectOption({ label: 'Existing Studio' });
    await page.getByRole('button', { name: 'Show its accounts' }).click();
    const selectAll = page.getByLabel('Select all 3');
    await selectAll.waitFor();
    await check('worker, accounts to give');
    await selectAll.check();
    const boxes = page.locator('#give-form input[name=account]');
    assert.equal(await boxes.count(), 3);
    for (let i = 0; i < 3; i++) assert.equal(await boxes.nth(i).isChecked(), true);
    await page.getByRole('button', { name: 'Give the selected accounts to Phone Pat' }).click();
    await page.getByRole('status').filter({ hasText: '3 accounts given to Phone Pat' }).waitFor();
    await check('worker with accounts');

    // Its automation sets one account up and loses another; a post goes out to the first.
    const work = client(t, token);
    const [live, lost] = accounts as [string, string, string];
    assert.equal(
      (await work('PUT', `/worker/v1/accounts/${live}/status`, { status: 'active' })).status,
      200,
    );
    const lostReport = await work('PUT', `/worker/v1/accounts/${lost}/status`, {
      status: 'disconnected',
      reason: 'Locked out by a new password',
    });
    assert.equal(lostReport.status, 200);
    const posted = await call('POST', '/v2/posts', {
      media: [upload],
      accountIds: [live],
      skipApproval: true,
      caption: 'Released in the browser test',
    });
    assert.equal(posted.status, 201, JSON.stringify(posted.body));
    t.clock.set('2026-03-02T11:00:00.000Z');
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 1);
    // Past the hand-off time: the board says how long the task waits for its worker.
    t.clock.set('2026-03-02T11:16:00.000Z');
    await createWorker(t.ctx.db, t.ctx.clock, { name: 'Second Sam', timezone: 'Asia/Tokyo' });

    await nav('Setup');
    await page.waitForURL(`${url}/operator/setup`);
    await page.getByRole('heading', { name: 'Account setup queue' }).waitFor();
    await check('setup queue');

    await nav('Board');
    await page.waitForURL(`${url}/operator/board`);
    await page.getByRole('heading', { name: /Released, not claimed/ }).waitFor();
    await page.getByText('Not claimed for 16 min').waitFor();
    await check('board');
    await page.getByLabel('Company', { exact: true }).selectOption({ label: 'Existing Studio' });
    await page.getByLabel('Worker', { exact: true }).selectOption({ label: 'Phone Pat' });
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/\/operator\/board\?company=.*&worker=/);
    await check('board, filtered');
    await page
      .locator('#disconnected')
      .getByRole('link', { name: /^Move @/ })
      .click();
    await page.getByRole('heading', { name: /to another worker/ }).waitFor();
    await check('move an account');
    await page.getByLabel('New worker').selectOption({ label: 'Second Sam (Asia/Tokyo)' });
    await page.getByRole('button', { name: /^Move @/ }).click();
    await page.getByRole('status').filter({ hasText: 'to Second Sam, in Asia/Tokyo' }).waitFor();
    await check('board after a move');

    await page.goto(`${url}/operator/companies/cmp_unknown`);
    await check('not found', false);

    // Signing out, then in again with both factors.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${url}/operator/sign-in`);
    await check('sign-in');
    await page.getByLabel('Email').fill('e2e.ops@slotline.example');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/operator\/sign-in\/code/);
    await check('code step');
    t.clock.advance(30_000);
    await page.getByLabel('Code').fill(code(t, key));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${url}/operator/companies`);
    assert.equal(checked.length, 25);
    await context.close();
  });
});
