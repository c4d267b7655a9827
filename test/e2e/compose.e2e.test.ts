// The post composer in a real browser, under the pages' Content-Security-Policy: an editor
// uploads an image and composes a carousel with a workspace image, watching each slide's
// preview drawn by the service, then submits and lands on the post; an editor uploads a
// video over a slow connection, the progress bar moving, and posts it. Both posts are then
// read through the API. The composer passes axe-core's checks at desktop and phone width.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { client, seedCompany, type TestApp } from '../helpers/app.ts';
import { violations } from '../helpers/axe.ts';
import { browserMissing, useBrowserApp } from '../helpers/browser.ts';
import { makeAccounts } from '../helpers/posts.ts';
import { FIXTURES } from '../helpers/uploads.ts';
import { createUser } from '../../src/modules/users/index.ts';
import { addImage, createFolder } from '../../src/modules/workspace/index.ts';

const missing = browserMissing();
/** No single browser step waits longer than this. */
const STEP = 15_000;
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The canvas of slide `n` (from 0): its size and the alpha of its centre pixel. */
const canvasOf = (n: number) =>
  `(() => {
    const c = document.querySelectorAll('[data-slide] canvas')[${n}];
    const px = c.getContext('2d').getImageData(c.width / 2, c.height / 2, 1, 1).data;
    return [c.width, c.height, px[3]];
  })()`;

describe('the post composer in a browser', { skip: missing ?? false, timeout: 240_000 }, () => {
  const app = useBrowserApp();

  async function seed(t: TestApp) {
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [account] = (await makeAccounts(call, 1)) as [string];
    const username = (await call('GET', `/v2/accounts/${account}`)).body.username as string;
    const actor = { id: 'operator', label: 'test' };
    const folder = await createFolder(t.ctx.db, t.ctx.clock, co.companyId, 'Food', actor);
    await addImage(
      t.ctx,
      co.companyId,
      folder.folderId,
      {
        bytes: await readFile(`${FIXTURES}/image.png`),
        contentType: 'image/png',
        label: 'Beach',
      },
      actor,
    );
    return { co, call, account, username };
  }

  /** A new browser context signed in as a new editor of the company, on the composer. */
  async function composer(
    t: TestApp,
    companyId: string,
    options: { viewport?: typeof DESKTOP; bypassCSP?: boolean } = {},
  ): Promise<{ page: Page; refused: string[] }> {
    const { url, browser } = app();
    const email = `editor-${Math.random().toString(36).slice(2, 8)}@e2e.example`;
    const { password } = await createUser(t.ctx.db, t.ctx.clock, {
      companyId,
      email,
      role: 'editor',
    });
    const context = await browser.newContext({
      viewport: options.viewport ?? DESKTOP,
      bypassCSP: options.bypassCSP ?? false,
    });
    const page = await context.newPage();
    page.setDefaultTimeout(STEP);
    page.setDefaultNavigationTimeout(STEP);
    // What the policy refused, or the page's script threw: both must stay empty.
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
    });
    page.on('pageerror', (e) => refused.push(e.message));
    await page.goto(`${url}/dashboard/compose`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${url}/dashboard/compose`);
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    return { page, refused };
  }

  test('a carousel: an upload and a workspace image, each slide previewed, then posted', async () => {
    const { t, url } = app();
    const { co, call, username } = await seed(t);
    const { page, refused } = await composer(t, co.companyId);

    await page.getByRole('radio', { name: /Carousel/ }).check();
    // Only the carousel's parts show.
    assert.equal(
      await page.getByRole('heading', { name: 'Video', exact: true }).isVisible(),
      false,
    );
    await page.getByLabel('Upload images from this device').setInputFiles(`${FIXTURES}/image.jpg`);
    await page.getByText('Checked and ready.').waitFor();

    const slides = page.locator('[data-slide]');
    const first = slides.nth(0);
    // The first slide without an image takes the upload and is drawn at once.
    assert.equal(
      await first.getByLabel(/^Background image/).inputValue(),
      await page.locator('input[name=uploaded]').inputValue(),
    );
    await first.getByLabel(/^Words/).fill('Three tips for crisp mornings');
    await first.getByLabel(/^Font size/).fill('28');
    await first.getByLabel(/^Text mode/).selectOption('background');
    await first.getByLabel(/^Background colour/).selectOption('yellow');
    await first.getByLabel(/^Text colour/).selectOption('black');
    await first.locator('[data-preview][data-state=ready]').waitFor();
    assert.deepEqual(await page.evaluate<number[]>(canvasOf(0)), [540, 960, 255]);
    await page.getByRole('img', { name: 'Preview of slide 1' }).waitFor();

    const second = slides.nth(1);
    await second.getByLabel(/^Background image/).selectOption({ label: 'Beach' });
    await second.getByLabel(/^Words/).fill('Follow for more');
    await second.getByLabel(/^Position down/).fill('80');
    await second.locator('[data-preview][data-state=ready]').waitFor();
    assert.deepEqual(await page.evaluate<number[]>(canvasOf(1)), [540, 960, 255]);

    // The editor: a third slide, a second text box, moves and removals renumber everything.
    await page.getByRole('button', { name: 'Add a slide' }).click();
    assert.equal(await slides.count(), 3);
    await page.getByRole('heading', { name: 'Slide 3' }).waitFor();
    await page.getByRole('button', { name: 'Add a text box to slide 1' }).click();
    await first.getByRole('group', { name: 'Text 2' }).waitFor();
    await page.getByRole('button', { name: 'Move slide 2 up' }).click();
    assert.equal(
      await slides
        .nth(0)
        .getByLabel(/^Words/)
        .first()
        .inputValue(),
      'Follow for more',
    );
    await page.getByRole('button', { name: 'Move slide 1 down' }).click();
    await page.getByRole('button', { name: 'Remove text 2 of slide 1' }).click();
    await page.getByRole('button', { name: 'Remove slide 3' }).click();
    assert.equal(await slides.count(), 2);
    assert.equal(await page.locator('[name="s1.t0.content"]').inputValue(), 'Follow for more');

    // A style out of bounds is refused in words under the preview.
    await second.getByLabel(/^Font size/).fill('99');
    await second.locator('[data-preview][data-state=error]').waitFor();
    assert.match(
      await second.locator('[data-preview-status]').innerText(),
      /font size: at most 72/,
    );
    await second.getByLabel(/^Font size/).fill('20');
    await second.locator('[data-preview][data-state=ready]').waitFor();

    await page.getByLabel('Caption', { exact: true }).fill('Crisp mornings, three ways');
    await page.getByText('26 of 2,200 characters').waitFor();
    await page.getByLabel('Hashtags', { exact: true }).fill('#crisp mornings, coffee');
    await page.getByText('3 of 30 hashtags').waitFor();
    await page.getByRole('checkbox', { name: new RegExp(`@${username}`) }).check();
    await page.getByRole('button', { name: 'Create post' }).click();
    await page.waitForURL(new RegExp(`^${url}/dashboard/posts/pst_`));
    await page.getByText('Post created for 1 account: its slides are being drawn.').waitFor();
    assert.deepEqual(refused, []);

    const postId = decodeURIComponent(page.url().split('/').pop() as string);
    await t.media.idle();
    const post = await call('GET', `/v2/posts/${postId}`);
    assert.equal(post.status, 200);
    assert.equal(post.body.media.count, 2);
    assert.equal(post.body.status, 'pending_approval');
    assert.deepEqual(post.body.hashtags, ['crisp', 'mornings', 'coffee']);
    await page.context().close();
  });

  test('a video: uploaded with a moving progress bar over a slow link, then posted', async () => {
    const { t, url } = app();
    const { co, call, username } = await seed(t);
    const { page, refused } = await composer(t, co.companyId);
    // Reached from another page through the navigation (a boosted swap, not a page load),
    // the composer's script still runs.
    await page.goto(`${url}/dashboard/approvals`);
    await page.getByRole('link', { name: 'New post' }).click();
    await page.waitForURL(`${url}/dashboard/compose`);
    await page.locator('#video-file:enabled').waitFor();
    // About 8 KB a second up: the fixture takes a few seconds, so the bar has steps to show.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 8 * 1024,
    });
    await page.evaluate(`(() => {
      window.seen = [];
      new MutationObserver((changes) => {
        for (const c of changes) if (c.target.tagName === 'PROGRESS') window.seen.push(Number(c.target.value));
      }).observe(document.body, { attributes: true, subtree: true, attributeFilter: ['value'] });
    })()`);
    await page
      .getByLabel('Choose a video file')
      .setInputFiles(`${FIXTURES}/h264-aac-faststart.mp4`);
    await page.getByRole('progressbar', { name: 'Uploading h264-aac-faststart.mp4' }).waitFor();
    await page.getByText('Checked and ready.').waitFor({ timeout: 30_000 });
    const seen = await page.evaluate<number[]>('window.seen');
    assert.ok(
      seen.some((v) => v > 0 && v < 100),
      `the bar moved: ${seen.join(', ')}`,
    );
    assert.equal(seen[seen.length - 1], 100);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await page.locator('[data-video-result]').getByText('h264-aac-faststart.mp4').waitFor();

    await page.getByLabel('Caption', { exact: true }).fill('One minute of morning');
    await page.getByRole('checkbox', { name: new RegExp(`@${username}`) }).check();
    await page.getByLabel('Skip approval: queue it straight away').check();
    await page.getByRole('button', { name: 'Create post' }).click();
    await page.waitForURL(new RegExp(`^${url}/dashboard/posts/pst_`));
    await page.getByText('Post created and queued for 1 account.').waitFor();
    assert.deepEqual(refused, []);
    const postId = decodeURIComponent(page.url().split('/').pop() as string);
    const post = await call('GET', `/v2/posts/${postId}`);
    assert.equal(post.body.media.kind, 'video');
    assert.equal(post.body.status, 'queued');
    await page.context().close();
  });

  test('the composer passes axe-core at desktop and phone width', async () => {
    const { t } = app();
    const { co } = await seed(t);
    for (const viewport of [DESKTOP, PHONE]) {
      const { page } = await composer(t, co.companyId, { viewport, bypassCSP: true });
      for (const kind of [/Video/, /Carousel/]) {
        await page.getByRole('radio', { name: kind }).check();
        const second = page.locator('[data-slide]').nth(1);
        if (String(kind).includes('Carousel')) {
          await second.getByLabel(/^Background image/).selectOption({ label: 'Beach' });
          await second.locator('[data-preview][data-state=ready]').waitFor();
        }
        assert.deepEqual(await violations(page), [], `${String(kind)} at ${viewport.width} px`);
      }
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      assert.ok(width <= viewport.width, `the composer scrolls sideways (${width} px)`);
      // A refused form: every error listed and beside its field, still accessible.
      await page.getByRole('button', { name: 'Create post' }).click();
      await page.getByText(/things? to fix before this can be saved/).waitFor();
      assert.deepEqual(await violations(page), [], `errors at ${viewport.width} px`);
      await page.context().close();
    }
  });
});
