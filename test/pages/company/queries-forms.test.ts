// How the dashboard reads queries and forms, on both databases: the session is settled
// before what was sent is checked; an empty field of a GET form is no filter; a query its
// schema refuses answers the error page, in words, never the API's JSON; a form sent with
// its token in a header and no body is an empty form; and a form field sent twice where
// the form has one is refused by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn, type Browser } from '../../helpers/dashboard.ts';
import { listAllTags } from '../../../src/modules/tags/index.ts';

let ips = 0;

async function editor(t: TestApp): Promise<{ b: Browser; companyId: string }> {
  const { companyId } = await seedCompany(t);
  const u = await userIn(t, companyId, 'editor');
  const b = browser(t, `192.0.2.${(++ips % 250) + 1}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  return { b, companyId };
}

const cookieOf = (b: Browser) => [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

describeEachDialect('dashboard queries and forms', (get) => {
  test('a signed-out visitor is sent to sign in before the query is checked', async () => {
    const res = await browser(get(), '198.51.100.201').get('/dashboard/posts?status=nonsense');
    assert.equal(res.status, 303);
    assert.match(res.location ?? '', /^\/dashboard\/sign-in\?next=/);
  });

  test('empty fields of a GET form are no filter; a refused query is an error page', async () => {
    const { b } = await editor(get());
    assert.equal((await b.get('/dashboard/calendar?account=')).status, 200);
    assert.equal((await b.get('/dashboard/approvals?cursor=')).status, 200);
    assert.equal((await b.get('/dashboard/activity?before=')).status, 200);

    const res = await get().app.inject({
      method: 'GET',
      url: `/dashboard/accounts?cursor=${'c'.repeat(2049)}`,
      headers: { cookie: cookieOf(b) },
    });
    assert.equal(res.statusCode, 400);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /query parameter cursor must be at most 2048 characters/);
  });

  test('a form without a body is an empty form; a field sent twice is refused', async () => {
    const { b, companyId } = await editor(get());
    const token = hidden((await b.get('/dashboard/tags')).body, '_csrf');
    const empty = await get().app.inject({
      method: 'POST',
      url: '/dashboard/tags',
      headers: { cookie: cookieOf(b), 'x-csrf-token': token },
    });
    assert.equal(empty.statusCode, 400);
    assert.match(empty.body, /id="tag-name-error"[^>]*>Name: required</);

    const twice = await b.post('/dashboard/tags', { _csrf: token, name: ['One', 'Two'] });
    assert.equal(twice.status, 400);
    assert.match(twice.body, /form field name must be a string/);
    assert.deepEqual(await listAllTags(get().ctx.db, companyId), []);
  });
});
