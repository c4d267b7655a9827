// The import page in a real browser at phone width, under the pages' Content-Security-Policy:
// an editor chooses a CSV file, sees the preview (a ready row, a row with its problem), creates
// the ready row's post and follows the result to the post. Media come from a loopback server
// the operator allows (REMOTE_FETCH_ALLOW), as a public address would.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { client, seedCompany, validAccount } from '../helpers/app.ts';
import { browserMissing, useBrowserApp } from '../helpers/browser.ts';
import { fixture } from '../helpers/uploads.ts';
import { createUser } from '../../src/modules/users/index.ts';

const missing = browserMissing();
const STEP = 15_000;
const PHONE = { width: 390, height: 844 };

let media: Server;
let base = '';
before(async () => {
  const png = await fixture('image.png');
  media = createServer((req, res) => {
    if (req.url !== '/media/menu.png') {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
    return res.end(png);
  });
  await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => media.close(() => resolve())));

describe('the import page in a browser', { skip: missing ?? false, timeout: 120_000 }, () => {
  const app = useBrowserApp({ env: { REMOTE_FETCH_ALLOW: '127.0.0.1' } });

  test('on a phone: choose a file, see a problem, create, open the post', async () => {
    const { t, url, browser } = app();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const made = await call('POST', '/v2/accounts', validAccount({ username: 'corner.cafe' }));
    assert.equal(made.status, 201);
    const email = 'importer@e2e.example';
    const { password } = await createUser(t.ctx.db, t.ctx.clock, {
      companyId: co.companyId,
      email,
      role: 'editor',
    });
    // The pages' own Content-Security-Policy stays on: nothing of the page may be refused.
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    page.setDefaultTimeout(STEP);
    page.setDefaultNavigationTimeout(STEP);
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
    });
    page.on('pageerror', (e) => refused.push(e.message));
    await page.goto(`${url}/dashboard/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard\/approvals/);

    // On a phone the import page is the menu's first item.
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Import posts from a file' }).click();
    await page.waitForURL(`${url}/dashboard/import`);
    await page.getByRole('heading', { name: 'Import posts' }).waitFor();

    const csv = [
      'media,accounts,caption,hashtags',
      `${base}/media/menu.png,@corner.cafe,The new breakfast menu,breakfast`,
      `${base}/media/menu.png,@corner.bakery,Fresh bread at seven,`,
    ].join('\n');
    await page.getByLabel('CSV file').setInputFiles({
      name: 'week-12.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await page.getByRole('button', { name: 'Check file' }).click();
    await page.getByRole('heading', { name: /week-12\.csv/ }).waitFor();
    await page.getByText('accounts: no account is @corner.bakery.').waitFor();
    await page.getByText('1 ready row', { exact: true }).waitFor();
    assert.equal(await page.locator('[aria-current="step"]').textContent(), '2 Check');
    const wide = await page.evaluate<number>('document.documentElement.scrollWidth');
    assert.ok(wide <= PHONE.width, `the preview scrolls sideways (${wide} px)`);

    await page.getByRole('button', { name: 'Create 1 post' }).click();
    await page.getByText('1 post created.').waitFor();
    const posts = (await call('GET', '/v2/posts')).body.data as {
      postId: string;
      caption: string;
    }[];
    assert.deepEqual(
      posts.map((p) => p.caption),
      ['The new breakfast menu'],
    );
    await page.getByRole('link', { name: '“The new breakfast menu”' }).click();
    await page.waitForURL(`${url}/dashboard/posts/${posts[0]?.postId}`);
    await page.getByText('The new breakfast menu').first().waitFor();
    assert.deepEqual(refused, []);
    await context.close();
  });
});
