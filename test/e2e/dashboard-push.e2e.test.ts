// Push on the dashboard in a real browser: a company admin's Your notifications asks for
// nothing on load, and its button subscribes this browser through the dashboard's own
// service worker (scope /dashboard/) and registers it as the user's; a push delivered to
// that worker through DevTools (ServiceWorker.deliverPushMessage) shows its notification,
// and a tap opens the page it names, /dashboard/approvals. Headless Chromium has no push
// service, so the page's subscribe() is answered with a stand-in subscription. axe-core
// checks the page at desktop and phone width, off and on.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { seedCompany } from '../helpers/app.ts';
import { violations } from '../helpers/axe.ts';
import { browserMissing, useBrowserApp } from '../helpers/browser.ts';
import { browser as httpBrowser, signIn, userIn } from '../helpers/dashboard.ts';

const missing = browserMissing();
const STEP = 15_000;
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/dashboard-e2e';
const KEYS = {
  p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url'),
  auth: Buffer.alloc(16, 9).toString('base64url'),
};

const FAKE_PUSH = `(() => {
  const json = ${JSON.stringify({ endpoint: ENDPOINT, keys: KEYS, expirationTime: null })};
  const subscribed = () => localStorage.getItem('subscribed') === 'yes';
  const sub = {
    endpoint: json.endpoint,
    toJSON: () => json,
    unsubscribe: async () => { localStorage.removeItem('subscribed'); return true; },
  };
  PushManager.prototype.subscribe = async function () {
    localStorage.setItem('subscribed', 'yes');
    return sub;
  };
  PushManager.prototype.getSubscription = async function () { return subscribed() ? sub : null; };
})();`;

async function checkHere(page: Page, label: string) {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    assert.deepEqual(await violations(page), [], `${label} at ${viewport.width} px`);
  }
}

describe('dashboard push in a browser', { skip: missing ?? false, timeout: 120_000 }, () => {
  const app = useBrowserApp();

  test('turned on from the button, a push shown, its tap opens the approvals', async () => {
    const { t, url, browser } = app();
    const co = await seedCompany(t);
    const admin = await userIn(t, co.companyId, 'admin');
    const http = httpBrowser(t);
    assert.equal((await signIn(http, admin.email, admin.password)).status, 303);

    const context = await browser.newContext({ bypassCSP: true });
    await context.addCookies(
      [...http.cookies].map(([name, value]) => ({ name, value: decodeURIComponent(value), url })),
    );
    await context.addInitScript(FAKE_PUSH);
    const page = await context.newPage();
    page.setDefaultTimeout(STEP);
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerVersionUpdated', (e) => {
        const active = e.versions.find(
          (v) => v.status === 'activated' && v.scriptURL.endsWith('/dashboard/sw.js'),
        );
        if (active) resolve(active.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');

    await page.goto(`${url}/dashboard/notifications`);
    await page.getByRole('button', { name: 'Turn on push on this device' }).waitFor();
    assert.equal(await page.evaluate('Notification.permission'), 'default');
    await page.getByText('No device gets your pushes yet.').waitFor();
    await checkHere(page, 'push off');

    // Playwright grants it through DevTools' Browser.grantPermissions, for this context.
    await context.grantPermissions(['notifications'], { origin: url });
    await page.getByRole('button', { name: 'Turn on push on this device' }).click();
    await page.getByText('Push is on for this device.').waitFor();
    await page.getByText('1 device gets your pushes.').waitFor();
    await page.getByRole('button', { name: 'Turn off on this device' }).waitFor();
    await checkHere(page, 'push on');
    const kept = await t.ctx.db
      .selectFrom('push_subscriptions')
      .select(['audience', 'owner_id', 'company_id', 'endpoint'])
      .execute();
    assert.deepEqual(kept, [
      {
        audience: 'user',
        owner_id: admin.user.userId,
        company_id: co.companyId,
        endpoint: ENDPOINT,
      },
    ]);

    const payload = JSON.stringify({
      title: 'Approval due',
      body: 'A post waits for your approval.',
      url: '/dashboard/approvals',
      tag: 'approval-due',
    });
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: url,
      registrationId: await registrationId,
      data: payload,
    });
    const shown = () =>
      page.evaluate<string[]>(
        "navigator.serviceWorker.getRegistration('/dashboard/').then((r) => r.getNotifications()).then((n) => n.map((x) => x.title + ' | ' + x.body))",
      );
    const until = Date.now() + STEP;
    while ((await shown()).length === 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(await shown(), ['Approval due | A post waits for your approval.']);

    const sw = context.serviceWorkers().find((w) => w.url().endsWith('/dashboard/sw.js'));
    assert.ok(sw, 'the dashboard has its service worker');
    await sw.evaluate(`self.registration.getNotifications().then(([n]) => {
      try { self.dispatchEvent(new NotificationEvent('notificationclick', { notification: n })); }
      catch (err) { return String(err); }
    })`);
    await page.waitForURL(`${url}/dashboard/approvals`);
    await context.close();
  });
});
