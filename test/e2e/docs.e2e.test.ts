// The API reference in a real browser: Redoc renders every operation of the served
// OpenAPI document, and the page asks nothing of any origin but the service's.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { browserMissing, useBrowserApp } from '../helpers/browser.ts';

const missing = browserMissing();

interface Operation {
  operationId: string;
  summary?: string;
}

describe('API reference in a browser', { skip: missing ?? false, timeout: 120_000 }, () => {
  const app = useBrowserApp();

  test('/docs, linked from the dashboard, renders every operation, with no request leaving the origin', async () => {
    const { url, browser } = app();
    const doc = (await (await fetch(`${url}/v2/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
    assert.ok(operations.length > 20);

    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (req) => requests.push(req.url()));
    const problems: string[] = [];
    page.on('console', (msg) => {
      // The dashboard's pages have no icon: the browser's own ask for one is not the page's.
      if (msg.location().url === `${url}/favicon.ico`) return;
      if (msg.type() === 'error') problems.push(msg.text());
    });
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });

    // Reached the way a person does: from the dashboard's footer, a full page load.
    await page.goto(`${url}/dashboard/sign-in`);
    const [res] = await Promise.all([
      page.waitForResponse(`${url}/docs`),
      page.getByRole('link', { name: 'API reference' }).click(),
    ]);
    assert.equal(res.status(), 200);
    assert.equal(res.request().headers()['hx-request'], undefined);
    await page.waitForURL(`${url}/docs`);
    // Redoc has rendered once the last operation's section is in the page.
    await page.locator('.api-content').waitFor({ timeout: 60_000 });
    for (const op of operations) {
      // Redoc gives each operation a section whose id is its operationId.
      const section = page.locator(`[id="operation/${op.operationId}"]`);
      await section.waitFor({ state: 'attached', timeout: 10_000 });
      if (op.summary) {
        const heading = await section.locator('h2').first().textContent();
        assert.equal(heading?.trim(), op.summary, op.operationId);
      }
    }
    const foreign = requests.filter(
      (r) => !r.startsWith(`${url}/`) && !r.startsWith('blob:') && !r.startsWith('data:'),
    );
    assert.deepEqual(foreign, []);
    assert.ok(requests.includes(`${url}/docs/assets/redoc.standalone.js`));
    assert.ok(requests.includes(`${url}/v2/openapi.json`));
    assert.deepEqual(problems, []);
    await page.close();
  });
});
