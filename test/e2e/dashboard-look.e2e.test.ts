// The dashboard's look in a real browser: the header at phone width is at most 100 px tall,
// its menu opens and closes by keyboard (and stays usable without JavaScript); at desktop
// width the header is one row; dark mode follows the system; the favicon answers; `GET /`
// lands on the dashboard; and the pages of this look pass axe-core's WCAG A and AA checks
// in light and dark mode at desktop and phone width.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { client, seedCompany } from '../helpers/app.ts';
import { violations } from '../helpers/axe.ts';
import { browserMissing, useBrowserApp } from '../helpers/browser.ts';
import { makeAccounts } from '../helpers/posts.ts';
import { createUser } from '../../src/modules/users/index.ts';
import { createWebhook } from '../../src/modules/webhooks/index.ts';

const missing = browserMissing();
const STEP = 15_000;
const PHONE = { width: 390, height: 844 };
// Strings, evaluated in the page: this project's types have no DOM.
const FOCUS_ON_TOGGLE = "document.activeElement === document.querySelector('.menu-toggle')";
const DESKTOP = { width: 1280, height: 800 };

/** A signed-in page in a context of its own (viewport, colour scheme, scripts). */
async function signedInPage(
  browser: Browser,
  url: string,
  who: { email: string; password: string },
  options: BrowserContextOptions,
): Promise<Page> {
  // The axe script is added by the test, so the pages' own policy is bypassed for it alone.
  const context = await browser.newContext({ bypassCSP: true, ...options });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP);
  page.setDefaultNavigationTimeout(STEP);
  await page.goto(`${url}/dashboard/sign-in`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${url}/dashboard/approvals`);
  return page;
}

const box = (page: Page, selector: string) =>
  page.evaluate<{ top: number; height: number; bottom: number; width: number }>(
    `(() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect();
      return { top: r.top, height: r.height, bottom: r.bottom, width: r.width }; })()`,
  );

describe('dashboard look in a browser', { skip: missing ?? false, timeout: 300_000 }, () => {
  const app = useBrowserApp();

  test('header, menu, dark mode, favicon, GET / and accessible pages', async () => {
    const { t, url, browser } = app();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    await makeAccounts(call, 2);
    assert.equal(
      (await call('POST', '/v2/content-tags', { name: 'Launch', color: 'blue' })).status,
      201,
    );
    const hook = await createWebhook(t.ctx, co.companyId, {
      url: 'https://hooks.example.com/look',
      events: ['post.item.posted'],
      description: 'Look',
    });
    const email = 'admin@look.example';
    const { password } = await createUser(t.ctx.db, t.ctx.clock, {
      companyId: co.companyId,
      email,
      role: 'admin',
    });
    const who = { email, password };

    // A phone: the header is compact and its menu works by keyboard.
    const phone = await signedInPage(browser, url, who, { viewport: PHONE });
    const header = await box(phone, '.masthead');
    assert.ok(header.height <= 100, `header ${header.height} px tall at 390 px`);
    const toggle = phone.getByRole('button', { name: 'Menu' });
    const nav = phone.getByRole('navigation', { name: 'Dashboard' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await nav.isVisible(), false);
    assert.equal(await phone.getByRole('link', { name: 'New post' }).isVisible(), true);
    // From the skip link, Tab reaches the brand, New post and the menu button.
    await phone.keyboard.press('Tab');
    let reached = false;
    for (let i = 0; i < 6 && !reached; i++) {
      await phone.keyboard.press('Tab');
      reached = await phone.evaluate<boolean>(FOCUS_ON_TOGGLE);
    }
    assert.ok(reached, 'the menu button is reached by Tab');
    await phone.keyboard.press('Enter');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await nav.getByRole('link', { name: 'Tags' }).waitFor();
    assert.equal(await phone.getByRole('button', { name: 'Sign out' }).isVisible(), true);
    assert.equal(await phone.locator('.masthead .who').isVisible(), true);
    assert.equal(await phone.locator('.masthead .who').textContent(), `${email} · admin`);
    // Tab goes on into the open menu: its first item, the import page (beside New post at
    // desktop width), then the links.
    await phone.keyboard.press('Tab');
    assert.equal(
      await phone.evaluate<string>('document.activeElement.textContent'),
      'Import posts from a file',
    );
    // As rendered, too: its words stay apart ("Importposts" once).
    assert.equal(
      await phone.evaluate<string>('document.activeElement.innerText'),
      'Import posts from a file',
    );
    await phone.keyboard.press('Tab');
    assert.equal(await phone.evaluate<string>('document.activeElement.textContent'), 'Approvals');
    assert.deepEqual(await violations(phone), [], 'phone, menu open');
    await phone.keyboard.press('Escape');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await nav.isVisible(), false);
    assert.ok(await phone.evaluate<boolean>(FOCUS_ON_TOGGLE), 'the focus is back on the button');
    await phone.keyboard.press('Space');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await phone.keyboard.press('Space');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    // A link in the menu leads to its page, which comes with the menu closed.
    await toggle.click();
    await nav.getByRole('link', { name: 'Accounts' }).click();
    await phone.waitForURL(`${url}/dashboard/accounts`);
    await phone.getByRole('heading', { name: 'Accounts' }).waitFor();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    const width = await phone.evaluate<number>('document.documentElement.scrollWidth');
    assert.ok(width <= PHONE.width, `accounts scroll sideways on a phone (${width} px)`);
    // Stacked rows: each value carries its label.
    await phone.getByText('Posted today:').first().waitFor();
    await phone.context().close();

    // Without JavaScript the menu is open: every link and the sign-out are there.
    const still = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const plain = await still.newPage();
    plain.setDefaultTimeout(STEP);
    await plain.goto(`${url}/dashboard/sign-in`);
    await plain.getByLabel('Email').fill(email);
    await plain.getByLabel('Password').fill(password);
    await plain.getByRole('button', { name: 'Sign in' }).click();
    await plain.waitForURL(`${url}/dashboard/approvals`);
    assert.equal(await plain.getByRole('button', { name: 'Menu' }).isVisible(), false);
    const plainNav = plain.getByRole('navigation', { name: 'Dashboard' });
    assert.equal(await plainNav.getByRole('link', { name: 'Activity' }).count(), 1);
    assert.equal(await plainNav.isVisible(), true);
    await plainNav.getByRole('link', { name: 'Tags' }).click();
    await plain.waitForURL(`${url}/dashboard/tags`);
    await still.close();

    // A desktop: one row, every link visible, the account in a drop-down.
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await signedInPage(browser, url, who, { viewport: DESKTOP, colorScheme });
      const head = await box(page, '.masthead');
      assert.ok(head.height <= 64, `one row at desktop width (${head.height} px)`);
      assert.equal(await page.getByRole('button', { name: 'Menu' }).isVisible(), false);
      const tops = await page.evaluate<number[]>(
        `[...document.querySelectorAll('.masthead nav a, .masthead .new-post, .masthead .brand, .account summary')].map((a) => Math.round(a.getBoundingClientRect().top + a.getBoundingClientRect().height / 2))`,
      );
      assert.ok(Math.max(...tops) - Math.min(...tops) <= 4, `one row: ${tops.join(', ')}`);
      const account = page.locator('.account summary');
      await account.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      assert.equal(await page.locator('.masthead .who').isVisible(), true);
      await page.keyboard.press('Escape');
      assert.equal(await page.getByRole('button', { name: 'Sign out' }).isVisible(), false);

      // Dark mode follows the system's setting; light stays light.
      const background = await page.evaluate<string>(
        'getComputedStyle(document.documentElement).backgroundColor',
      );
      const scheme = await page.evaluate<string>(
        'getComputedStyle(document.documentElement).colorScheme',
      );
      if (colorScheme === 'dark') {
        assert.equal(background, 'rgb(13, 17, 23)');
        assert.equal(scheme, 'dark');
      } else {
        assert.equal(background, 'rgb(255, 255, 255)');
      }

      // Every page of this look, at desktop and phone width, passes axe-core.
      for (const path of [
        '/dashboard/accounts',
        '/dashboard/keys',
        '/dashboard/tags',
        '/dashboard/webhooks',
        `/dashboard/webhooks/${hook.webhookId}`,
        '/dashboard/usage',
        '/dashboard/delivery',
        '/dashboard/workspace',
        '/dashboard/schedule',
        '/dashboard/accounts/new',
        '/dashboard/no/such/page/',
      ]) {
        for (const viewport of [DESKTOP, PHONE]) {
          await page.setViewportSize(viewport);
          const res = await page.goto(`${url}${path}`);
          assert.ok(res, path);
          assert.deepEqual(
            await violations(page),
            [],
            `${path} at ${viewport.width} px, ${colorScheme}`,
          );
        }
        await page.setViewportSize(DESKTOP);
      }
      await page.context().close();
    }

    // The 404 page in a browser: designed, with a way back that works.
    const lostContext = await browser.newContext({ viewport: PHONE, bypassCSP: true });
    const lost = await lostContext.newPage();
    lost.setDefaultTimeout(STEP);
    await lost.goto(`${url}/dashboard/sign-in`);
    const res = await lost.goto(`${url}/dashboard/no-such-page`);
    assert.equal(res?.status(), 404);
    await lost.getByRole('heading', { name: 'Page not found' }).waitFor();
    const back = lost.getByRole('button', { name: 'Go back' });
    await back.waitFor();
    await back.click();
    await lost.waitForURL(`${url}/dashboard/sign-in`);
    assert.deepEqual(await violations(lost), [], 'sign-in');

    // GET / in a browser lands on the dashboard (here, its sign-in); the icon answers.
    await lost.goto(`${url}/`);
    await lost.waitForURL(/\/dashboard\/sign-in/);
    const icon = await lost.evaluate<{ href: string; ico: number; svg: number; type: string }>(
      `(async () => {
        const href = document.querySelector('link[rel="icon"]').href;
        const svg = await fetch(href);
        const ico = await fetch('/favicon.ico');
        return { href, svg: svg.status, ico: ico.status, type: ico.headers.get('content-type') };
      })()`,
    );
    assert.equal(icon.href, `${url}/dashboard/assets/favicon.svg`);
    assert.equal(icon.svg, 200);
    assert.equal(icon.ico, 200);
    assert.equal(icon.type, 'image/x-icon');
    await lostContext.close();
  });
});
