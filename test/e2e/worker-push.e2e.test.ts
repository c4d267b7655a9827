// Notifications in the workers' app, in a real browser at phone width: the page asks for
// permission only from its button, subscribes with the server's VAPID key and registers
// the subscription; a released task is then pushed through the outbox to a stand-in push
// service that checks VAPID and decrypts; the decrypted payload, delivered to the app's
// service worker through DevTools (ServiceWorker.deliverPushMessage), shows a notification
// naming the account and the window, the open task list refreshes itself and says what is
// new, and a tap on the notification opens the task. Without push the list refreshes too.
// Headless Chromium has no push service of its own, so the page's subscribe() is answered
// with a subscription of the stand-in service.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { client, seedCompany, type TestApp } from '../helpers/app.ts';
import { violations } from '../helpers/axe.ts';
import { browserMissing, useBrowserApp } from '../helpers/browser.ts';
import { makeActiveAccounts, readyUpload } from '../helpers/posts.ts';
import { startPushService, type Device } from '../helpers/push-service.ts';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import { deliverDueMail } from '../../src/dispatch/outbox-loop.ts';
import { pushSender } from '../../src/modules/push/index.ts';
import {
  assignAccounts,
  createWorker,
  createWorkerSignInLink,
} from '../../src/modules/workers/index.ts';

const missing = browserMissing();
const STEP = 15_000;
const PHONE = { width: 390, height: 844 };
const service = await startPushService();
after(() => service.close());

/** The page's Push API answers with `device`, a subscription of the stand-in service. */
function fakePushManager(device: Device): string {
  const json = JSON.stringify({
    endpoint: device.endpoint,
    keys: device.keys,
    expirationTime: null,
  });
  return `(() => {
    const json = ${json};
    const subscribed = () => localStorage.getItem('subscribed') === 'yes';
    const sub = {
      endpoint: json.endpoint,
      toJSON: () => json,
      unsubscribe: async () => { localStorage.removeItem('subscribed'); return true; },
    };
    PushManager.prototype.subscribe = async function (options) {
      localStorage.setItem('subscribedWith', options && options.applicationServerKey
        ? btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey)))
        : '');
      localStorage.setItem('subscribed', 'yes');
      return sub;
    };
    PushManager.prototype.getSubscription = async function () { return subscribed() ? sub : null; };
  })();`;
}

async function postFor(t: TestApp, key: string, accountId: string, caption: string) {
  const call = client(t, key);
  const upload = await readyUpload(t, call, 'image.png');
  const post = await call('POST', '/v2/posts', {
    media: [upload],
    accountIds: [accountId],
    skipApproval: true,
    caption,
  });
  assert.equal(post.status, 201, JSON.stringify(post.body));
}

/** A DevTools session watching service workers, and the app's registration once active. */
async function registrationOf(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerVersionUpdated', (e) => {
      const active = e.versions.find((v) => v.status === 'activated');
      if (active) resolve(active.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return { cdp, registrationId: found };
}

describe(
  'workers app notifications in a browser',
  { skip: missing ?? false, timeout: 180_000 },
  () => {
    const app = useBrowserApp({ env: { REMOTE_FETCH_ALLOW: '127.0.0.1' } });

    test('turn on from the button, a released task pushed, shown, refreshed and opened', async () => {
      const { t, url, browser } = app();
      t.clock.set('2031-09-02T10:00:00.000Z');
      const co = await seedCompany(t);
      const call = client(t, co.key);
      const [accountId] = (await makeActiveAccounts(t, call, 1)) as [string];
      const username = (await call('GET', `/v2/accounts/${accountId}`)).body.username as string;
      const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Ana', timezone: 'UTC' });
      await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [accountId]);
      const link = await createWorkerSignInLink(t.ctx.db, t.ctx.clock, worker.workerId, url);
      const device = service.device();

      const context = await browser.newContext({
        viewport: PHONE,
        isMobile: true,
        hasTouch: true,
        bypassCSP: true,
      });
      await context.addInitScript(fakePushManager(device));
      const page = await context.newPage();
      page.setDefaultTimeout(STEP);
      const devtools = await registrationOf(context, page);
      await page.goto(link.url);
      await page.getByRole('button', { name: 'Sign in on this phone' }).click();
      await page.waitForURL(`${url}/dashboard/worker/tasks`);

      // Nothing is asked on load: the page names the state and offers the button.
      await page.getByRole('link', { name: 'Notifications', exact: true }).click();
      await page.getByRole('heading', { name: 'Notifications' }).waitFor();
      await page.getByRole('button', { name: 'Turn on notifications' }).waitFor();
      assert.equal(await page.evaluate('Notification.permission'), 'default');
      await page.getByText('No device gets notifications yet.').waitFor();
      assert.deepEqual(await violations(page), [], 'notifications, off');

      await context.grantPermissions(['notifications'], { origin: url });
      await page.getByRole('button', { name: 'Turn on notifications' }).click();
      await page.getByText('Notifications are on for this phone.').waitFor();
      // It subscribed with the server's VAPID public key.
      const usedKey = await page.evaluate<string>("localStorage.getItem('subscribedWith')");
      assert.equal(Buffer.from(usedKey, 'base64').toString('base64url'), t.ctx.vapid.publicKey);
      await page
        .getByRole('button', { name: 'Remove Chrome or Android' })
        .or(page.getByRole('button', { name: /Remove A device/ }))
        .waitFor();
      assert.deepEqual(await violations(page), [], 'notifications, on');
      const kept = await t.ctx.db
        .selectFrom('push_subscriptions')
        .select(['endpoint', 'p256dh', 'owner_id'])
        .execute();
      assert.deepEqual(kept, [
        { endpoint: device.endpoint, p256dh: device.keys.p256dh, owner_id: worker.workerId },
      ]);

      // The task list is open when a task is released and pushed.
      await page.getByRole('link', { name: 'Tasks' }).click();
      await page.getByText('Nothing to post right now.').waitFor();
      await postFor(t, co.key, accountId, 'Pushed to the phone');
      t.clock.set('2031-09-02T11:00:00.000Z');
      assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 1);
      await deliverDueMail(
        t.ctx,
        pushSender(t.ctx.db, { vapid: t.ctx.vapid, allow: t.config.remoteFetchAllow }),
        'push',
      );
      assert.deepEqual(service.problems, []);
      const [pushed] = service.received;
      assert.ok(pushed, 'the push service received the push');
      const notice = JSON.parse(pushed.payload) as { body: string; url: string };
      assert.equal(notice.body, `New task for @${username}, window 11:00, report by 13:00`);

      await devtools.cdp.send('ServiceWorker.deliverPushMessage', {
        origin: url,
        registrationId: await devtools.registrationId,
        data: pushed.payload,
      });
      // The notification is shown by the service worker...
      const shown = () =>
        page.evaluate<string[]>(
          'navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((n) => n.map((x) => x.title + " | " + x.body))',
        );
      const until = Date.now() + STEP;
      while ((await shown()).length === 0 && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.deepEqual(await shown(), [`New task for @${username} | ${notice.body}`]);
      // ...and the open list refreshes itself, saying what is new.
      await page
        .getByRole('status')
        .filter({ hasText: `New task for @${username}.` })
        .waitFor();
      await page.getByRole('link', { name: new RegExp(`@${username}.*New`) }).waitFor();
      assert.deepEqual(await violations(page), [], 'tasks, refreshed');

      // A tap on the notification opens the task in this window.
      const [sw] = context.serviceWorkers();
      assert.ok(sw, 'the app has a service worker');
      await sw.evaluate(`self.registration.getNotifications().then(([n]) => {
      try { self.dispatchEvent(new NotificationEvent('notificationclick', { notification: n })); }
      catch (err) { return String(err); }
    })`);
      await page.waitForURL(`${url}${notice.url}`);
      await page
        .getByRole('heading', { name: new RegExp(username) })
        .first()
        .waitFor();
      await context.close();
    });

    test('without push, the task list refreshes itself', async () => {
      const { t, url, browser } = app();
      t.clock.set('2031-09-03T10:00:00.000Z');
      const co = await seedCompany(t, { name: 'Bay Bakery' });
      const call = client(t, co.key);
      const [accountId] = (await makeActiveAccounts(t, call, 1)) as [string];
      const username = (await call('GET', `/v2/accounts/${accountId}`)).body.username as string;
      const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Bo', timezone: 'UTC' });
      await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [accountId]);
      const link = await createWorkerSignInLink(t.ctx.db, t.ctx.clock, worker.workerId, url);
      const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
      // A browser without the Push API.
      await context.addInitScript('delete window.PushManager;');
      const page = await context.newPage();
      page.setDefaultTimeout(STEP);
      await page.goto(link.url);
      await page.getByRole('button', { name: 'Sign in on this phone' }).click();
      await page.waitForURL(`${url}/dashboard/worker/tasks`);
      await page.getByText('Nothing to post right now.').waitFor();

      await postFor(t, co.key, accountId, 'Found by the poll');
      t.clock.set('2031-09-03T11:00:00.000Z');
      assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 1);
      // Coming back into view checks at once (the poll runs every 30 s otherwise).
      await page.evaluate(`document.dispatchEvent(new Event('visibilitychange'))`);
      await page
        .getByRole('status')
        .filter({ hasText: `New task for @${username}.` })
        .waitFor();
      await page.getByRole('link', { name: new RegExp(`@${username}.*New`) }).waitFor();

      await page.goto(`${url}/dashboard/worker/notifications`);
      await page.getByText('This browser cannot show notifications from Slotline.').waitFor();
      assert.equal(
        await page.getByRole('button', { name: 'Turn on notifications' }).isVisible(),
        false,
      );
      await context.close();
    });
  },
);
