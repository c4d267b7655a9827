// The users page in a real browser: an admin invites a person, copies the one-time link;
// the person opens it in a browser of their own, chooses a password and is signed in, then
// signs in again with it; the admin's list shows them active. The users page, its
// confirmations, the settings page and refused forms pass axe-core at desktop and phone width.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { seedCompany } from '../helpers/app.ts';
import { violations } from '../helpers/axe.ts';
import { browserMissing, useBrowserApp } from '../helpers/browser.ts';
import { createUser } from '../../src/modules/users/index.ts';

const missing = browserMissing();
/** No single browser step waits longer than this. */
const STEP = 15_000;

describe('users page in a browser', { skip: missing ?? false, timeout: 180_000 }, () => {
  const app = useBrowserApp();

  test('an admin invites a user, who sets a password through the link and signs in', async () => {
    const { t, url, browser } = app();
    const co = await seedCompany(t);
    const adminEmail = 'admin@users-e2e.example';
    const { password } = await createUser(t.ctx.db, t.ctx.clock, {
      companyId: co.companyId,
      email: adminEmail,
      role: 'admin',
    });

    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    admin.setDefaultTimeout(STEP);
    admin.setDefaultNavigationTimeout(STEP);
    await admin.goto(`${url}/dashboard/users`);
    await admin.getByLabel('Email').fill(adminEmail);
    await admin.getByLabel('Password').fill(password);
    await admin.getByRole('button', { name: 'Sign in' }).click();
    await admin.waitForURL(`${url}/dashboard/users`);
    await admin.getByRole('heading', { name: 'Users', exact: true }).waitFor();

    const form = admin.getByRole('form', { name: 'Invite a user' });
    // A refused invitation names the field in plain words, above the form and beside it.
    await form.getByLabel('Email', { exact: true }).fill('not an email');
    await form.getByRole('button', { name: 'Invite' }).click();
    await admin
      .getByRole('link', { name: 'Email: must be an email address, like name@example.com' })
      .waitFor();

    await admin
      .getByRole('form', { name: 'Invite a user' })
      .getByLabel('Email', { exact: true })
      .fill('Pat@Users-E2E.example');
    await admin
      .getByRole('form', { name: 'Invite a user' })
      .getByLabel('Role')
      .selectOption('editor');
    await admin
      .getByRole('form', { name: 'Invite a user' })
      .getByRole('button', { name: 'Invite' })
      .click();
    await admin.getByRole('heading', { name: 'Invitation for pat@users-e2e.example' }).waitFor();
    const link = await admin.getByLabel('Sign-in link').inputValue();
    assert.match(link, new RegExp(`^${url}/dashboard/welcome\\?token=`));
    // The copy button shows with JavaScript, and says what it did.
    await admin.getByRole('button', { name: 'Copy' }).click();
    await admin.getByText(/Copied to the clipboard\.|Selected: press Ctrl\+C/).waitFor();

    // The person, in a browser of their own.
    const personContext = await browser.newContext();
    const person = await personContext.newPage();
    person.setDefaultTimeout(STEP);
    person.setDefaultNavigationTimeout(STEP);
    await person.goto(link);
    await person.getByText('You are invited as').waitFor();
    await person.getByLabel('New password').fill('pat chooses a passphrase');
    await person.getByLabel('The same password again').fill('pat chooses a passphrase');
    await person.getByRole('button', { name: 'Set password and sign in' }).click();
    await person.waitForURL(`${url}/dashboard/approvals`);
    await person.getByRole('heading', { name: 'Approvals' }).waitFor();
    assert.match(await person.content(), /pat@users-e2e\.example/);
    await personContext.close();

    // Again, from a fresh browser, with the password alone.
    const laterContext = await browser.newContext();
    const later = await laterContext.newPage();
    later.setDefaultTimeout(STEP);
    later.setDefaultNavigationTimeout(STEP);
    await later.goto(`${url}/dashboard/approvals`);
    await later.getByLabel('Email').fill('pat@users-e2e.example');
    await later.getByLabel('Password').fill('pat chooses a passphrase');
    await later.getByRole('button', { name: 'Sign in' }).click();
    await later.waitForURL(`${url}/dashboard/approvals`);
    await later.getByRole('heading', { name: 'Approvals' }).waitFor();
    await laterContext.close();

    // The admin's list: the person, an editor, active.
    await admin.getByRole('link', { name: 'Done, back to users' }).click();
    const row = admin.getByRole('row', { name: /pat@users-e2e\.example/ });
    await row.waitFor();
    const text = await row.innerText();
    assert.match(text, /Active/);
    assert.equal(await row.getByLabel('Role of pat@users-e2e.example').inputValue(), 'editor');
    await adminContext.close();
  });
  test('the users and settings pages and refused forms pass axe-core at both widths', async () => {
    const { t, url, browser } = app();
    const co = await seedCompany(t);
    const email = 'axe-admin@users-e2e.example';
    const { password } = await createUser(t.ctx.db, t.ctx.clock, {
      companyId: co.companyId,
      email,
      role: 'admin',
    });
    const other = await createUser(t.ctx.db, t.ctx.clock, {
      companyId: co.companyId,
      email: 'axe-editor@users-e2e.example',
      role: 'editor',
    });
    // The axe script is added by the test, so the pages' own policy is bypassed for it alone.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    page.setDefaultTimeout(STEP);
    page.setDefaultNavigationTimeout(STEP);
    await page.goto(`${url}/dashboard/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${url}/dashboard/approvals`);

    const serious = async (what: string) => {
      const found = (await violations(page)).filter((v) => /\((serious|critical)\)/.test(v));
      assert.deepEqual(found, [], `${what} at ${page.viewportSize()?.width} px`);
    };
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      for (const path of [
        '/dashboard/users',
        '/dashboard/settings',
        `/dashboard/users/${other.user.userId}/disable`,
        `/dashboard/users/${other.user.userId}/reset`,
      ]) {
        await page.goto(`${url}${path}`);
        await serious(path);
      }
      // Refused forms: the summary and the errors beside the fields.
      await page.goto(`${url}/dashboard/users`);
      await page
        .getByRole('form', { name: 'Invite a user' })
        .getByRole('button', { name: 'Invite' })
        .click();
      await page.getByRole('link', { name: 'Email: required' }).waitFor();
      await serious('a refused invitation');
      await page.goto(`${url}/dashboard/accounts/new`);
      await page.getByLabel('Username').fill('@no good');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('link', { name: 'Display name: required' }).waitFor();
      await serious('a refused new account');
      // The errors' summary links to the fields.
      await page.getByRole('link', { name: 'Display name: required' }).click();
      assert.equal(
        await page.evaluate<string>('document.activeElement ? document.activeElement.id : ""'),
        'a-display',
      );
      await page.goto(`${url}/dashboard/tags`);
      await page.getByRole('button', { name: 'Create tag' }).click();
      await page.getByRole('link', { name: 'Name: required' }).waitFor();
      await serious('a refused tag');
    }
    await context.close();
  });
});
