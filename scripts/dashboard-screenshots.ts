// Screenshots of every dashboard page, the workers' app and the operator console at desktop
// and phone width, written to docs/dashboard/ (`npm run screenshots`). The service runs on a fresh embedded database with the demo seed,
// listening on a loopback port; Debian's chromium takes the pictures. Names after `--`
// (`npm run screenshots -- import`) take only the pictures whose names start with one of them.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { freePort, launchBrowser } from '../test/helpers/browser.ts';
import { demoDay } from '../test/helpers/demo-day.ts';
import { FIXTURES } from '../test/helpers/uploads.ts';
import { buildApp } from '../src/app.ts';
import { openContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import {
  assignAccounts,
  createWorker,
  createWorkerSignInLink,
} from '../src/modules/workers/index.ts';
import { ADMIN_CLI, createOperator } from '../src/modules/operators/index.ts';
import { Secret, TOTP } from 'otpauth';

const OUT = 'docs/dashboard';
/** The pages also pictured in dark mode. */
const DARK = new Set(['approvals', 'calendar', 'post-delivered', 'compose']);
const VIEWPORTS = {
  desktop: { width: 1280, height: 860 },
  phone: { width: 390, height: 844 },
} as const;

const ONLY = process.argv.slice(2);

async function shoot(page: Page, name: string) {
  if (ONLY.length > 0 && !ONLY.some((prefix) => name.startsWith(prefix))) return;
  for (const [kind, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(OUT, `${name}-${kind}.jpeg`), type: 'jpeg', quality: 70 });
  }
  console.log(`  ${name}`);
}

// The import page fetches the media its file names: served here on loopback, which the
// service may fetch from because REMOTE_FETCH_ALLOW says so.
const MEDIA: Record<string, [string, string]> = {
  '/media/pasta.jpg': ['image/jpeg', 'image.jpg'],
  '/media/lisbon-1.png': ['image/png', 'image.png'],
  '/media/lisbon-2.jpg': ['image/jpeg', 'image.jpg'],
  '/media/teaser.mp4': ['video/mp4', 'h264-aac-faststart.mp4'],
};
const media = createServer((req, res) => {
  const file = MEDIA[req.url ?? ''];
  if (!file) {
    res.writeHead(404);
    res.end();
    return;
  }
  readFile(join(FIXTURES, file[1])).then(
    (bytes) => {
      res.writeHead(200, { 'content-type': file[0], 'content-length': bytes.length });
      res.end(bytes);
    },
    () => {
      res.writeHead(500);
      res.end();
    },
  );
});
await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
const mediaUrl = `http://127.0.0.1:${(media.address() as AddressInfo).port}/media`;

const dir = await mkdtemp(join(tmpdir(), 'slotline-shots-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const opened = await openContext(
  loadConfig({
    DATA_DIR: dir,
    PUBLIC_URL: url,
    LOG_LEVEL: 'warn',
    REMOTE_FETCH_ALLOW: '127.0.0.1',
  }),
);
const { ctx } = opened;
const app = await buildApp(ctx);
const browser = await launchBrowser();
try {
  // A day of the demo: accounts set up, posts approved, a webhook, ten hours of releases.
  const day = await demoDay(ctx);
  const { demo } = day;
  const firstPost = demo.posts[0];
  const worker = await createWorker(ctx.db, ctx.clock, { name: 'Phone worker', timezone: 'UTC' });
  await assignAccounts(ctx.db, ctx.clock, worker.workerId, demo.accountIds.slice(0, 1));
  await app.listen({ port, host: '127.0.0.1' });
  await mkdir(OUT, { recursive: true });

  const page = await browser.newPage({ viewport: VIEWPORTS.desktop });
  await page.goto(`${url}/dashboard/sign-in`);
  await shoot(page, 'sign-in');
  await page.getByLabel('Email').fill(demo.user.email);
  await page.getByLabel('Password').fill(demo.user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/dashboard\/approvals/);

  const account = demo.accountIds[0] as string;
  const pages: [string, string][] = [
    ['approvals', '/dashboard/approvals'],
    ['calendar', '/dashboard/calendar'],
    ['calendar-month', '/dashboard/calendar?view=month'],
    ['posts', '/dashboard/posts'],
    ...(firstPost ? [['post', `/dashboard/posts/${firstPost.postId}`] as [string, string]] : []),
    ...(day.deliveredPostId
      ? [['post-delivered', `/dashboard/posts/${day.deliveredPostId}`] as [string, string]]
      : []),
    ['compose', '/dashboard/compose?kind=carousel'],
    ['accounts', '/dashboard/accounts'],
    ['account', `/dashboard/accounts/${account}`],
    ['account-new', '/dashboard/accounts/new'],
    ['schedule', '/dashboard/schedule'],
    ['tags', '/dashboard/tags'],
    ['keys', '/dashboard/keys'],
    ['users', '/dashboard/users'],
    ['settings', '/dashboard/settings'],
    ['notifications', '/dashboard/notifications'],
    ['webhooks', '/dashboard/webhooks'],
    ['alerts', '/dashboard/alerts'],
    ['webhook', `/dashboard/webhooks/${day.webhookId}`],
    ['workspace', '/dashboard/workspace'],
    ['usage', '/dashboard/usage'],
    ['delivery', '/dashboard/delivery'],
    ['activity', '/dashboard/activity'],
    ['not-found', '/dashboard/no/such/page'],
  ];
  for (const [name, path] of pages) {
    const res = await page.goto(`${url}${path}`);
    if (!res || (res.status() !== 200 && name !== 'not-found')) {
      console.log(`  ${name}: ${res?.status() ?? 'no answer'}, skipped`);
      continue;
    }
    await shoot(page, name);
  }
  // Choosing the window: the composer's preview for two accounts on a chosen day, and the
  // move page of a planned post.
  await page.goto(`${url}/dashboard/compose?kind=video`);
  const ticks = page.locator('input[name=account]');
  for (let i = 0; i < Math.min(2, await ticks.count()); i++) await ticks.nth(i).check();
  await page.getByRole('radio', { name: 'On a day' }).check();
  await page.locator('#when-rows .when-row').nth(1).waitFor();
  await page.locator('#when').scrollIntoViewIfNeeded();
  await shoot(page, 'compose-window');
  const planned = await ctx.db
    .selectFrom('queue_items')
    .select('id')
    .where('company_id', '=', demo.companyId)
    .where('status', 'in', ['queued', 'pending_approval'])
    .orderBy('status', 'desc')
    .orderBy('id')
    .executeTakeFirst();
  if (planned) {
    await page.goto(`${url}/dashboard/items/${planned.id}/window`);
    await shoot(page, 'item-window');
  }

  // Dark mode, as a system set to dark shows the dashboard.
  await page.emulateMedia({ colorScheme: 'dark' });
  for (const [name, path] of pages.filter(([n]) => DARK.has(n))) {
    await page.goto(`${url}${path}`);
    await shoot(page, `${name}-dark`);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // The import page: empty, a file checked (ready rows and rows with problems), then created.
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.goto(`${url}/dashboard/import`);
  await shoot(page, 'import');
  const csv = [
    'media,accounts,caption,hashtags,tags',
    `${mediaUrl}/pasta.jpg,platformA:@demo.kitchen|platformB:@demo.kitchen,Pasta in 10 minutes: the weeknight version,pasta quick,Hooks that work`,
    `${mediaUrl}/lisbon-1.png|${mediaUrl}/lisbon-2.jpg,@demo.travel,"48 hours in Lisbon, tram 28 included",travel lisbon,Evergreen`,
    `${mediaUrl}/teaser.mp4,@demo_studio|@demo.bakery,Launch teaser for the spring collection,,Spring launch`,
    '~/Desktop/studio.jpg,@demo.kitchen,Studio tour,,',
  ].join('\n');
  await page.getByLabel('CSV file').setInputFiles({
    name: 'spring-posts.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await page.getByRole('button', { name: 'Check file' }).click();
  await page.getByRole('heading', { name: /spring-posts\.csv/ }).waitFor();
  await shoot(page, 'import-preview');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'import-preview-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByRole('button', { name: 'Create 2 posts' }).click();
  await page.getByText('2 posts created.').waitFor();
  await shoot(page, 'import-created');

  // The workers' app on a phone, signed in by a one-time link from the console.
  const phoneLink = await createWorkerSignInLink(ctx.db, ctx.clock, worker.workerId, url);
  const workerPage = await browser.newPage({ viewport: VIEWPORTS.phone });
  await workerPage.goto(`${url}/dashboard/worker/sign-in`);
  await shoot(workerPage, 'worker-sign-in');
  await workerPage.goto(phoneLink.url);
  await shoot(workerPage, 'worker-link');
  await workerPage.getByRole('button', { name: 'Sign in on this phone' }).click();
  await workerPage.waitForURL(/\/dashboard\/worker\/tasks/);
  await shoot(workerPage, 'worker-tasks');
  const task = workerPage.locator('a[href*="/dashboard/worker/tasks/"]').first();
  if (await task.count()) {
    await task.click();
    await workerPage.waitForLoadState('load');
    await shoot(workerPage, 'worker-task');
  }
  await workerPage.goto(`${url}/dashboard/worker/accounts`);
  await shoot(workerPage, 'worker-accounts');
  await workerPage.goto(`${url}/dashboard/worker/notifications`);
  await workerPage.getByRole('button', { name: 'Turn on notifications' }).waitFor();
  await shoot(workerPage, 'worker-notifications');

  // The operator console: an operator's first sign-in (password, authenticator), then its
  // pages over the demo.
  const { link } = await createOperator(
    ctx.db,
    ctx.clock,
    { email: 'ops@slotline.local', name: 'Olive Ops' },
    ADMIN_CLI,
    null,
  );
  const ops = await browser.newPage({ viewport: VIEWPORTS.desktop });
  await ops.goto(`${url}/operator/welcome?token=${link.token}`);
  await shoot(ops, 'operator-welcome');
  await ops.getByLabel('New password').fill('a long operator passphrase');
  await ops.getByLabel('The same password again').fill('a long operator passphrase');
  await ops.getByRole('button', { name: 'Set password and continue' }).click();
  await ops.waitForURL(/\/operator\/welcome\/authenticator/);
  await shoot(ops, 'operator-authenticator');
  const key = (await ops.getByLabel('Key to type instead of scanning').inputValue()).replace(
    /\s/g,
    '',
  );
  const code = TOTP.generate({ secret: Secret.fromBase32(key), timestamp: Date.now() });
  await ops.getByLabel('Code from the app').fill(code);
  await ops.getByRole('button', { name: 'Confirm and finish' }).click();
  await ops.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
  await ops.getByRole('link', { name: /continue to the console/ }).click();
  await ops.waitForURL(/\/operator\/companies/);
  const consolePages: [string, string][] = [
    ['operator-companies', '/operator/companies'],
    ['operator-company', `/operator/companies/${demo.companyId}`],
    ['operator-workers', '/operator/workers'],
    ['operator-worker', `/operator/workers/${worker.workerId}`],
    ['operator-setup', '/operator/setup'],
    ['operator-board', '/operator/board'],
    ['operator-log', '/operator/log'],
    ['operator-alerts', '/operator/alerts'],
    ['operator-notifications', '/operator/notifications'],
  ];
  for (const [name, path] of consolePages) {
    const res = await ops.goto(`${url}${path}`);
    if (!res || res.status() !== 200) {
      console.log(`  ${name}: ${res?.status() ?? 'no answer'}, skipped`);
      continue;
    }
    await shoot(ops, name);
  }
} finally {
  await browser.close();
  await app.close();
  await opened.close();
  media.close();
  await rm(dir, { recursive: true, force: true });
}
