// A post's media on its page in a real browser, under the pages' own policy: the video
// plays from its signed URL, and the carousel's next button, its arrow keys and its counter
// move through the slides, at desktop and phone width, with nothing refused by the policy.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { client, seedCompany } from '../helpers/app.ts';
import { browserMissing, useBrowserApp, waitInPage } from '../helpers/browser.ts';
import { makeAccounts, readyUpload } from '../helpers/posts.ts';
import { createUser } from '../../src/modules/users/index.ts';

const missing = browserMissing();
const STEP = 15_000;

async function signedIn(
  browser: Browser,
  url: string,
  user: { email: string; password: string },
  viewport: { width: number; height: number },
) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP);
  const refused: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) {
      refused.push(m.text());
    }
  });
  page.on('pageerror', (err) => refused.push(String(err)));
  await page.goto(`${url}/dashboard/sign-in`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/dashboard\/approvals/);
  return { page, refused, close: () => context.close() };
}

const counter = (page: Page) => page.locator('[data-gallery-count]').textContent();

describe('post media in a browser', { skip: missing ?? false, timeout: 180_000 }, () => {
  const app = useBrowserApp();

  test('the video plays; the gallery moves slide by slide', async () => {
    const { t, url, browser } = app();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [a] = (await makeAccounts(call, 1)) as [string];
    const mp4 = await readyUpload(t, call, 'h264-aac-faststart.mp4');
    const png = await readyUpload(t, call, 'image.png');
    const jpg = await readyUpload(t, call, 'image.jpg');
    const video = (await call('POST', '/v2/posts', { media: [mp4], accountIds: [a] })).body
      .postId as string;
    const slide = (image: string, content: string) => ({
      image,
      textElements: [{ content, style: { positionY: 30 } }],
    });
    const carousel = (
      await call('POST', '/v2/posts', {
        media: [png, jpg],
        slides: [slide(png, 'One'), slide(jpg, 'Two'), slide(png, 'Three')],
        accountIds: [a],
        caption: 'Swipe',
      })
    ).body.postId as string;
    await t.media.idle();
    const user = { email: 'viewer@media.example', password: '' };
    user.password = (
      await createUser(t.ctx.db, t.ctx.clock, {
        companyId: co.companyId,
        email: user.email,
        role: 'viewer',
      })
    ).password;

    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      const at = `at ${viewport.width} px`;
      const { page, refused, close } = await signedIn(browser, url, user, viewport);

      await page.goto(`${url}/dashboard/posts/${video}`);
      const player = page.locator('video.post-video');
      await player.waitFor();
      assert.equal(await player.getAttribute('preload'), 'metadata', at);
      await page.evaluate(`(() => {
        const v = document.querySelector('video.post-video');
        v.muted = true;
        window.__played = v.play().then(() => 'ok', (e) => String(e));
      })()`);
      assert.equal(await page.evaluate<string>('window.__played'), 'ok', at);
      await waitInPage(
        page,
        "(() => { const v = document.querySelector('video.post-video'); return v.readyState >= 2 && v.currentTime > 0; })()",
      );
      assert.ok(
        (await page.evaluate<number>('document.documentElement.scrollWidth')) <= viewport.width,
        at,
      );

      await page.goto(`${url}/dashboard/posts/${carousel}`);
      const next = page.getByRole('button', { name: 'Next slide' });
      const prev = page.getByRole('button', { name: 'Previous slide' });
      await next.waitFor();
      assert.equal(await counter(page), '1 / 3', at);
      assert.equal(await prev.getAttribute('aria-disabled'), 'true', at);
      await page.getByRole('img', { name: 'Slide 1 of 3: One' }).waitFor();
      await next.click();
      await waitInPage(
        page,
        "document.querySelector('[data-gallery-count]').textContent === '2 / 3'",
      );
      // The second slide is the one in view: the track scrolled by one slide's width.
      await waitInPage(
        page,
        "(() => { const t = document.querySelector('.gallery-track'); const s = document.querySelectorAll('.gallery-slide')[1]; return Math.abs(t.scrollLeft - s.offsetLeft) < 2; })()",
      );
      assert.equal(await prev.getAttribute('aria-disabled'), 'false', at);
      // By keyboard: the slides take focus, and the arrow keys move them.
      await page.locator('.gallery-track').focus();
      await page.keyboard.press('ArrowRight');
      await waitInPage(
        page,
        "document.querySelector('[data-gallery-count]').textContent === '3 / 3'",
      );
      assert.equal(await next.getAttribute('aria-disabled'), 'true', at);
      await page.keyboard.press('ArrowLeft');
      await waitInPage(
        page,
        "document.querySelector('[data-gallery-count]').textContent === '2 / 3'",
      );
      // Scrolled by hand (a swipe), the counter follows.
      await page.evaluate("document.querySelector('.gallery-track').scrollTo({ left: 0 })");
      await waitInPage(
        page,
        "document.querySelector('[data-gallery-count]').textContent === '1 / 3'",
      );
      assert.ok(
        (await page.evaluate<number>('document.documentElement.scrollWidth')) <= viewport.width,
        at,
      );
      assert.deepEqual(refused, [], at);
      await close();
    }
  });
});
