// The dashboard in a real browser: a person signs in, approves a pending post with the
// mouse and another with the keyboard, and the API reports both queued.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { client, seedCompany } from '../helpers/app.ts';
import { browserMissing, useBrowserApp } from '../helpers/browser.ts';
import { makeAccounts, readyUpload } from '../helpers/posts.ts';
import { createUser } from '../../src/modules/users/index.ts';

const missing = browserMissing();

describe('dashboard in a browser', { skip: missing ?? false, timeout: 120_000 }, () => {
  const app = useBrowserApp();

  test('sign in, approve by click and by keyboard; the API reports the posts queued', async () => {
    const { t, url, browser } = app();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [a, b] = (await makeAccounts(call, 2)) as [string, string];
    const video = await readyUpload(t, call, 'h264-noaudio.mp4');
    const first = (await call('POST', '/v2/posts', { media: [video], accountIds: [a, b] })).body;
    t.clock.advance(1000);
    const second = (await call('POST', '/v2/posts', { media: [video], accountIds: [a] })).body;
    const { password } = await createUser(t.ctx.db, t.ctx.clock, {
      companyId: co.companyId,
      email: 'editor@e2e.example',
      role: 'editor',
    });

    const page = await browser.newPage();
    await page.goto(`${url}/dashboard/approvals`);
    assert.match(page.url(), /\/dashboard\/sign-in/);
    await page.getByLabel('Email').fill('editor@e2e.example');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard\/approvals$/);

    // Newest first: the second post is the first card.
    const cards = page.locator('.card');
    assert.equal(await cards.count(), 2);
    assert.equal(await cards.nth(0).getAttribute('data-post'), second.postId);
    await cards.nth(1).getByRole('button', { name: 'Approve post' }).click();
    await page.getByRole('status').filter({ hasText: '2 approved' }).waitFor();
    assert.equal((await call('GET', `/v2/posts/${first.postId}`)).body.status, 'queued');

    // j focuses the first remaining post, a approves it (once the page's script runs).
    await page.waitForLoadState('load');
    await page.keyboard.press('j');
    await page.locator('.card.current').waitFor();
    await page.keyboard.press('a');
    await page.getByRole('status').filter({ hasText: '1 approved' }).waitFor();
    await page.getByText('Nothing is waiting for approval.').waitFor();
    assert.equal((await call('GET', `/v2/posts/${second.postId}`)).body.status, 'queued');
    await page.close();
  });
});
