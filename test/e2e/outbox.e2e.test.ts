// The outbox pages in a real browser, with mail and phone pushes in each state (delivered,
// waiting after a 429, failed after a 410 ended the subscription): the dashboard's (an
// admin of the company) and the console's, in every channel view and the empty one,
// checked with axe-core (WCAG 2 A and AA, best practices) at desktop and phone width in
// light and dark mode, and none scrolls sideways on the phone.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createECDH, randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { claimMail, enqueueMail, settleMail } from '../../src/modules/outbox/index.ts';
import { queuePush, saveSubscription } from '../../src/modules/push/index.ts';
import { createWorker } from '../../src/modules/workers/index.ts';
import { seedCompany, type TestApp } from '../helpers/app.ts';
import { violations } from '../helpers/axe.ts';
import { browserMissing, useBrowserApp } from '../helpers/browser.ts';
import { userIn } from '../helpers/dashboard.ts';
import { enrolledOperator } from '../helpers/operator.ts';

const missing = browserMissing();
const STEP = 15_000;
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
const VIEWS = ['', '?channel=push', '?channel=all', '?channel=push&status=failed', '?channel=chat'];

function keys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };
}

/** A worker's three phones with a push each (delivered, waiting, failed) and one mail. */
async function seedOutbox(t: TestApp, companyId: string) {
  const now = t.clock.now();
  const worker = await createWorker(t.ctx.db, t.ctx.clock, {
    name: 'Sam Reyes',
    timezone: 'Europe/Berlin',
  });
  for (const endpoint of [
    'https://fcm.googleapis.com/fcm/send/e2e-one',
    'https://updates.push.services.mozilla.com/wpush/v2/e2e-two',
    'https://web.push.apple.com/e2e-three',
  ]) {
    await saveSubscription(
      t.ctx.db,
      now,
      { audience: 'worker', ownerId: worker.workerId, companyId: null },
      { endpoint, keys: keys(), expirationTime: null },
    );
  }
  await queuePush(
    t.ctx.db,
    {
      audience: 'worker',
      ownerIds: [worker.workerId],
      companyId,
      kind: 'task_released',
      notice: { title: 'New task for @demo.kitchen', body: 'b', url: '/', tag: 't' },
      dedupeKey: 'e2e-outbox',
      ttlSeconds: 600,
    },
    now,
  );
  const claimed = await claimMail(t.ctx.db, 3, { owner: 'e2e', ms: 60_000 }, now, 'push');
  assert.equal(claimed.length, 3);
  const [sent, gone, busy] = claimed as [
    (typeof claimed)[0],
    (typeof claimed)[0],
    (typeof claimed)[0],
  ];
  await settleMail(t.ctx.db, sent, 'e2e', { ok: true }, now);
  const error = 'the push service answered 410: the subscription ended';
  await settleMail(t.ctx.db, gone, 'e2e', { ok: false, permanent: true, error }, now);
  const later = { ok: false, permanent: false, error: 'the push service answered 429' } as const;
  await settleMail(t.ctx.db, busy, 'e2e', later, now);
  await enqueueMail(
    t.ctx.db,
    { companyId, kind: 'invite', to: 'new.person@e2e.example', subject: 'Join', text: 'b' },
    now,
  );
}

async function checkViews(page: Page, base: string, scheme: string) {
  for (const view of VIEWS) {
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      const res = await page.goto(`${base}${view}`);
      const label = `${base}${view} at ${viewport.width} px, ${scheme}`;
      assert.equal(res?.status(), 200, label);
      assert.deepEqual(await violations(page), [], label);
      const wide = await page.evaluate<number>('document.documentElement.scrollWidth');
      assert.ok(wide <= viewport.width, `${label} scrolls sideways (${wide} px)`);
    }
  }
}

describe('the outbox pages in a browser', { skip: missing ?? false, timeout: 300_000 }, () => {
  const app = useBrowserApp();

  test('every channel view accessible, desktop and phone, light and dark', async () => {
    const { t, url, browser } = app();
    const co = await seedCompany(t, { name: 'Outbox Browser Co' });
    const admin = await userIn(t, co.companyId, 'admin');
    await seedOutbox(t, co.companyId);
    const op = await enrolledOperator(t, 'Olga');
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ bypassCSP: true, colorScheme });
      const page = await context.newPage();
      page.setDefaultTimeout(STEP);
      page.setDefaultNavigationTimeout(STEP);
      await page.goto(`${url}/dashboard/sign-in`);
      await page.getByLabel('Email').fill(admin.email);
      await page.getByLabel('Password').fill(admin.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/dashboard\/approvals/);
      await page.goto(`${url}/dashboard/outbox?channel=push`);
      assert.match(await page.content(), /Sam Reyes, device at fcm\.googleapis\.com/);
      await checkViews(page, `${url}/dashboard/outbox`, colorScheme);
      await context.addCookies(
        [...op.browser.cookies].map(([name, value]) => ({ name, value, url })),
      );
      await page.goto(`${url}/operator/outbox?channel=push`);
      assert.match(await page.content(), /Sam Reyes, device at web\.push\.apple\.com/);
      await checkViews(page, `${url}/operator/outbox`, colorScheme);
      await context.close();
    }
  });
});
