// Every page of the company dashboard, on a day of the demo company, checked with axe-core
// (WCAG 2.0/2.1 A and AA and best practices) at desktop and phone width, in light and dark
// mode: no violation at all, and no page that scrolls sideways on a phone.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { violations } from '../helpers/axe.ts';
import { browserMissing, useBrowserApp } from '../helpers/browser.ts';
import { client } from '../helpers/app.ts';
import { demoDay } from '../helpers/demo-day.ts';
import { readyUpload } from '../helpers/posts.ts';
import { fixture } from '../helpers/uploads.ts';

const missing = browserMissing();
const STEP = 15_000;
const DESKTOP = { width: 1280, height: 800 };
const VIEWPORTS = [DESKTOP, { width: 390, height: 844 }];

async function signedIn(
  browser: Browser,
  url: string,
  user: { email: string; password: string },
  colorScheme: 'light' | 'dark',
): Promise<Page> {
  // The axe script is added by the test, so the pages' own policy is bypassed for it alone.
  const context = await browser.newContext({ bypassCSP: true, colorScheme });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP);
  page.setDefaultNavigationTimeout(STEP);
  await page.goto(`${url}/dashboard/sign-in`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/dashboard\/approvals/);
  return page;
}

// The import page's preview and result fetch their media: one image on a loopback server the
// operator allows, as a public address would serve it.
let media: Server;
let mediaBase = '';
before(async () => {
  const png = await fixture('image.png');
  media = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
    res.end(png);
  });
  await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
  mediaBase = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => media.close(() => resolve())));

/** Checks the page as it stands at each width (a form's answer is not loaded again). */
async function checkHere(page: Page, label: string) {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    const at = `${label} at ${viewport.width} px`;
    assert.deepEqual(await violations(page), [], at);
    const wide = await page.evaluate<number>('document.documentElement.scrollWidth');
    assert.ok(wide <= viewport.width, `${at} scrolls sideways (${wide} px)`);
  }
}

describe('every dashboard page is accessible', { skip: missing ?? false, timeout: 600_000 }, () => {
  const app = useBrowserApp({ env: { REMOTE_FETCH_ALLOW: '127.0.0.1' } });

  test('at desktop and phone width, light and dark', { timeout: 600_000 }, async () => {
    const { t, url, browser } = app();
    const day = await demoDay(t.ctx);
    const { demo } = day;
    const account = demo.accountIds[0] as string;
    const post = day.waitingPostId ?? (demo.posts[0]?.postId as string);
    const users = await t.ctx.db.selectFrom('users').select('id').execute();
    // A post page with a video's player and one with a carousel's gallery.
    const call = client(t, demo.apiKey);
    const mp4 = await readyUpload(t, call, 'h264-aac-faststart.mp4');
    const png = await readyUpload(t, call, 'image.png');
    const jpg = await readyUpload(t, call, 'image.jpg');
    const slide = (image: string, content: string) => ({
      image,
      textElements: [{ content, style: { positionY: 30 } }],
    });
    const media = [
      { media: [mp4], accountIds: [account], caption: 'A video to review' },
      {
        media: [png, jpg],
        slides: [slide(png, 'First'), slide(jpg, 'Second'), slide(png, 'Third')],
        accountIds: [account],
        caption: 'A carousel to review',
      },
    ];
    const mediaPosts: string[] = [];
    for (const body of media) {
      const made = await call('POST', '/v2/posts', body);
      assert.equal(made.status, 201, JSON.stringify(made.body));
      mediaPosts.push(made.body.postId as string);
    }
    await t.media.idle();
    const pages = [
      '/dashboard/approvals',
      '/dashboard/calendar',
      '/dashboard/calendar?view=month',
      '/dashboard/calendar?view=day',
      `/dashboard/calendar?account=${account}`,
      '/dashboard/posts',
      `/dashboard/posts/${post}`,
      ...(day.deliveredPostId ? [`/dashboard/posts/${day.deliveredPostId}`] : []),
      ...mediaPosts.map((id) => `/dashboard/posts/${id}`),
      `/dashboard/posts/${post}/cancel`,
      '/dashboard/compose',
      '/dashboard/compose?kind=carousel',
      '/dashboard/import',
      '/dashboard/accounts',
      `/dashboard/accounts/${account}`,
      '/dashboard/accounts/new',
      `/dashboard/accounts/${account}/schedule`,
      '/dashboard/delivery',
      '/dashboard/schedule',
      '/dashboard/tags',
      '/dashboard/workspace',
      '/dashboard/usage',
      '/dashboard/keys',
      '/dashboard/webhooks',
      `/dashboard/webhooks/${day.webhookId}`,
      `/dashboard/webhooks/${day.webhookId}/edit`,
      '/dashboard/activity',
      '/dashboard/users',
      ...(users[0] ? [`/dashboard/users/${users[0].id}/reset`] : []),
      '/dashboard/settings',
      '/dashboard/no/such/page',
    ];
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await signedIn(browser, url, demo.user, colorScheme);
      for (const path of pages) {
        for (const viewport of VIEWPORTS) {
          await page.setViewportSize(viewport);
          const res = await page.goto(`${url}${path}`);
          const label = `${path} at ${viewport.width} px, ${colorScheme}`;
          assert.ok(res && res.status() < 500, `${label}: ${res?.status()}`);
          assert.deepEqual(await violations(page), [], label);
          const wide = await page.evaluate<number>('document.documentElement.scrollWidth');
          assert.ok(wide <= viewport.width, `${label} scrolls sideways (${wide} px)`);
        }
      }
      // The import page's answers to its forms: a refused file, a preview of a ready row and
      // rows with problems, and the result (a file of its own per scheme, so each creates).
      await page.setViewportSize(DESKTOP);
      await page.goto(`${url}/dashboard/import`);
      await page.getByLabel('CSV file').setInputFiles({
        name: 'notes.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('title,when\nA,B\n'),
      });
      await page.getByRole('button', { name: 'Check file' }).click();
      await page.getByText('This file cannot be imported.').waitFor();
      await checkHere(page, `the import page with a refused file, ${colorScheme}`);
      const csv = [
        'media,accounts,caption,tags',
        `${mediaBase}/menu.png,@demo.travel,A day in Porto,Evergreen`,
        `${mediaBase}/menu.png,@demo.kitchen|@nobody,Studio tour,Unknown tag`,
        `photos/local.png,@demo_studio,From a file path,`,
      ].join('\n');
      await page.getByLabel('CSV file').setInputFiles({
        name: `a11y-${colorScheme}.csv`,
        mimeType: 'text/csv',
        buffer: Buffer.from(csv),
      });
      await page.getByRole('button', { name: 'Check file' }).click();
      await page.getByRole('button', { name: 'Create 1 post' }).waitFor();
      await checkHere(page, `the import preview, ${colorScheme}`);
      await page.setViewportSize(DESKTOP);
      await page.getByRole('button', { name: 'Create 1 post' }).click();
      await page.getByText('1 post created.').waitFor();
      await checkHere(page, `the import result, ${colorScheme}`);
      await page.context().close();
    }
  });
});
