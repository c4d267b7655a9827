// The promise end to end in a real browser, across the three people it involves: an
// operator enrols two-factor sign-in, creates a company and a worker, and gives the worker
// an account the company created through the API; the worker, on a phone, sets the account
// up, posts its released task with the post's URL and a screenshot, and enters the post's
// figures; the company's dashboard shows the proof and the delivery figures, and the API's
// deliveries endpoint says the same.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Secret, TOTP } from 'otpauth';
import { client, validAccount } from '../helpers/app.ts';
import { browserMissing, useBrowserApp, waitInPage } from '../helpers/browser.ts';
import { userIn } from '../helpers/dashboard.ts';
import { readyUpload } from '../helpers/posts.ts';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import { createKey } from '../../src/modules/keys/index.ts';
import { ADMIN_CLI, createOperator } from '../../src/modules/operators/index.ts';

const missing = browserMissing();
const STEP = 15_000;
const SCREENSHOT = fileURLToPath(new URL('../fixtures/media/image.png', import.meta.url));
const PASSWORD = 'the operator of the fulfilment test';

describe(
  'fulfilment across operator, worker and company',
  {
    skip: missing ?? false,
    timeout: 240_000,
  },
  () => {
    const app = useBrowserApp();

    test('operator sets it up, the worker posts with proof, the company sees it', async () => {
      const { t, url, browser } = app();
      const day = '2031-10-06';
      t.clock.set(`${day}T10:00:00.000Z`);

      // The operator: first sign-in, then a company and a worker.
      const ops = await (await browser.newContext()).newPage();
      ops.setDefaultTimeout(STEP);
      const { link } = await createOperator(
        t.ctx.db,
        t.ctx.clock,
        { email: 'fulfil.ops@slotline.example', name: 'Fay Ops' },
        ADMIN_CLI,
        null,
      );
      await ops.goto(`${url}/operator/welcome?token=${link.token}`);
      await ops.getByLabel('New password').fill(PASSWORD);
      await ops.getByLabel('The same password again').fill(PASSWORD);
      await ops.getByRole('button', { name: 'Set password and continue' }).click();
      await ops.waitForURL(`${url}/operator/welcome/authenticator`);
      const key = (await ops.getByLabel('Key to type instead of scanning').inputValue()).replace(
        /\s/g,
        '',
      );
      const code = TOTP.generate({
        secret: Secret.fromBase32(key),
        timestamp: t.clock.now().getTime(),
      });
      await ops.getByLabel('Code from the app').fill(code);
      await ops.getByRole('button', { name: 'Confirm and finish' }).click();
      await ops.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
      await ops.getByRole('link', { name: /continue to the console/ }).click();
      await ops.waitForURL(`${url}/operator/companies`);
      await ops.getByRole('link', { name: 'New company' }).click();
      await ops.getByLabel('Name').fill('Fulfil Foods');
      await ops.getByRole('button', { name: 'Create company' }).click();
      await ops.getByRole('heading', { name: /Fulfil Foods/ }).waitFor();
      const companyId = /\/operator\/companies\/([^/?#]+)/.exec(ops.url())?.[1] as string;
      assert.match(companyId, /^cmp_/);

      // The company's integration creates an account through the API.
      const { secret } = await createKey(t.ctx.db, t.ctx.clock, {
        companyId,
        scopes: ['accounts:read', 'accounts:write', 'posts:read', 'posts:write'],
      });
      const call = client(t, secret);
      const username = 'fulfil.kitchen';
      const made = await call('POST', '/v2/accounts', validAccount({ username }));
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const accountId = made.body.accountId as string;

      const nav = (name: string) =>
        ops
          .getByRole('navigation', { name: 'Operator console' })
          .getByRole('link', { name })
          .click();
      await nav('Workers');
      await ops.getByLabel('Name').fill('Pia Phone');
      await ops.getByLabel('Timezone').fill('UTC');
      await ops.getByRole('button', { name: 'Create worker' }).click();
      await ops.getByRole('heading', { name: 'Worker Pia Phone created' }).waitFor();
      const phoneLink = await ops.getByRole('textbox', { name: 'Sign-in link' }).inputValue();
      await nav('Setup');
      await ops.getByRole('heading', { name: 'Account setup queue' }).waitFor();
      const card = ops.locator('li.setup-card').filter({ hasText: `@${username}` });
      await card.getByLabel('Give to a worker').selectOption({ label: 'Pia Phone (UTC)' });
      await card.getByRole('button', { name: 'Assign' }).click();
      await ops.getByRole('status').filter({ hasText: 'Pia Phone' }).waitFor();

      // The worker, on a phone: the link, the set-up, then the released task.
      const phone = await (
        await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true })
      ).newPage();
      phone.setDefaultTimeout(STEP);
      const seen = (text: string | RegExp) =>
        phone.getByRole('status').filter({ hasText: text }).waitFor();
      await phone.goto(phoneLink);
      await phone.getByRole('button', { name: 'Sign in on this phone' }).click();
      await phone.waitForURL(`${url}/dashboard/worker/tasks`);
      await phone.getByRole('link', { name: new RegExp(`@${username}.*Not set up yet`) }).click();
      await phone.getByRole('button', { name: 'Profile is set up: start the warm-up' }).click();
      await seen(`@${username} is warming up.`);
      await phone.getByRole('button', { name: 'Warm-up done: ready to post' }).click();
      await seen(`@${username} is ready to post.`);
      assert.equal((await call('GET', `/v2/accounts/${accountId}`)).body.status, 'active');

      const upload = await readyUpload(t, call, 'image.png');
      const created = await call('POST', '/v2/posts', {
        media: [upload],
        accountIds: [accountId],
        skipApproval: true,
        caption: 'Fresh bread, proofed overnight',
        hashtags: ['bread'],
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const postId = created.body.postId as string;
      t.clock.set(`${day}T11:00:00.000Z`);
      assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 1);

      t.clock.set(`${day}T11:07:00.000Z`);
      await phone.goto(`${url}/dashboard/worker/tasks`);
      await phone.getByRole('link', { name: new RegExp(`@${username}.*New`) }).click();
      const postUrl = `https://platform-a.example/@${username}/video/7031`;
      await phone.getByLabel('Link to the published post').fill(postUrl);
      await phone.getByLabel('Screenshot of the post (optional)').setInputFiles(SCREENSHOT);
      await phone.getByRole('button', { name: 'Posted' }).click();
      await phone.waitForURL(`${url}/dashboard/worker/tasks`);
      await seen('Reported as posted. Thank you.');
      t.clock.set(`${day}T11:30:00.000Z`);
      await phone.getByRole('link', { name: new RegExp(`@${username}.*Posted`) }).click();
      for (const [label, value] of [
        ['Views', '3,200'],
        ['Likes', '210'],
        ['Comments', '9'],
        ['Shares', '4'],
        ['Saves', '2'],
      ] as const) {
        await phone.getByLabel(label, { exact: true }).fill(value);
      }
      await phone.getByRole('button', { name: 'Save figures' }).click();
      await phone.getByRole('status').waitFor();

      // The company: the post's proof and punctuality, and the Delivery page.
      const admin = await userIn(t, companyId, 'admin');
      const desk = await (await browser.newContext()).newPage();
      desk.setDefaultTimeout(STEP);
      await desk.goto(`${url}/dashboard/sign-in`);
      await desk.getByLabel('Email').fill(admin.email);
      await desk.getByLabel('Password').fill(admin.password);
      await desk.getByRole('button', { name: 'Sign in' }).click();
      await desk.waitForURL(/\/dashboard\/approvals/);
      await desk.goto(`${url}/dashboard/posts/${postId}`);
      const proof = desk.locator('td.proof img').first();
      assert.equal(await proof.getAttribute('alt'), `Screenshot of the post on @${username}`);
      await proof.scrollIntoViewIfNeeded();
      const shownProof = (await proof.getAttribute('src')) ?? '';
      await waitInPage(
        desk,
        "[...document.querySelectorAll('.proof img')].every((i) => i.naturalWidth > 0)",
      );
      await desk.locator('.status-posted', { hasText: 'on time' }).first().waitFor();
      await desk.getByText('7 min after opening').waitFor();
      await desk.goto(`${url}/dashboard/delivery`);
      const onTime = desk.locator('.figures li').filter({ hasText: 'posted on time' });
      assert.equal((await onTime.locator('.figure').textContent())?.trim(), '100 %');
      await desk.getByRole('link', { name: `@${username}` }).waitFor();

      // The API says the same.
      const api = await call('GET', `/v2/posts/${postId}/deliveries`);
      assert.equal(api.status, 200);
      const [entry] = api.body.deliveries;
      assert.equal(entry.accountId, accountId);
      assert.equal(entry.status, 'posted');
      assert.equal(entry.postUrl, postUrl);
      assert.equal(entry.onTime, true);
      assert.equal(entry.minutesAfterSlotStart, 7);
      assert.equal(entry.slot.start, `${day}T11:00:00.000Z`);
      const pathOf = (u: string) => new URL(u).pathname;
      assert.equal(pathOf(entry.proofScreenshotUrl), pathOf(shownProof));
      const analytics = await call('GET', `/v2/posts/${postId}`);
      assert.equal(analytics.body.status, 'posted');
    });
  },
);
