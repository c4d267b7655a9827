// Refused forms through HTTP, on both databases: every error at once, in plain words naming
// each field as the form labels it, next to its field and in a summary at the top linking to
// the fields; what was typed is kept; the /v2 API keeps its own error envelope.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, validAccount, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn } from '../../helpers/dashboard.ts';

let ips = 0;

async function editor(t: TestApp, companyId: string) {
  const u = await userIn(t, companyId, 'editor');
  const b = browser(t, `203.0.113.${(++ips % 250) + 1}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  return b;
}

/** The summary's entries: each link's target and text. */
function summary(body: string): [string, string][] {
  const box = /<div class="error-summary"[\s\S]*?<\/div>/.exec(body);
  assert.ok(box, 'a summary of the errors');
  return [...box[0].matchAll(/<li><a href="#([^"]+)">([^<]+)<\/a><\/li>/g)].map((m) => [
    m[1] as string,
    m[2] as string,
  ]);
}

/** The error shown beside the control with this id. */
function beside(body: string, id: string): string | null {
  const m = new RegExp(`<p class="field-error" id="${id}-error">([^<]+)</p>`).exec(body);
  return m ? (m[1] as string) : null;
}

describeEachDialect('form errors on the dashboard', (get) => {
  test('the new account form shows every error at once, next to each field', async () => {
    const t = get();
    const co = await seedCompany(t);
    const b = await editor(t, co.companyId);
    const csrf = hidden((await b.get('/dashboard/accounts/new')).body, '_csrf');
    const res = await b.post('/dashboard/accounts', {
      _csrf: csrf,
      platform: 'platformA',
      username: '@bad name!',
      displayName: '',
      bio: 'b'.repeat(221),
      profilePictureUrl: 'ftp://example.com/me.png',
      bioUrl: '',
      searchTerms: 'a\nb\nc\nd\ne\nf',
    });
    assert.equal(res.status, 400);
    assert.deepEqual(summary(res.body), [
      [
        'a-username',
        'Username: must contain only letters, digits, &quot;.&quot; and &quot;_&quot; (no &quot;@&quot;)',
      ],
      ['a-display', 'Display name: required'],
      ['a-bio', 'Bio: at most 220 characters (this has 221)'],
      ['a-picture', 'Profile picture URL: must be an http or https URL'],
      ['a-terms', 'Warm-up search terms: at most 5 (you entered 6)'],
    ]);
    assert.equal(beside(res.body, 'a-display'), 'Display name: required');
    assert.equal(beside(res.body, 'a-terms'), 'Warm-up search terms: at most 5 (you entered 6)');
    assert.equal(beside(res.body, 'a-platform'), null);
    for (const id of ['a-username', 'a-display', 'a-bio', 'a-picture', 'a-terms']) {
      assert.match(
        res.body,
        new RegExp(`id="${id}"[^>]*aria-invalid="true"[^>]*aria-describedby="${id}-error`),
      );
    }
    assert.doesNotMatch(res.body, /id="a-platform"[^>]*aria-invalid/);
    // No API wording, and what was typed is kept.
    assert.doesNotMatch(res.body, /\/warmup|\/bio|must have at most/);
    assert.match(res.body, /value="bad name!"/);
    assert.match(res.body, />a\nb\nc\nd\ne\nf<\/textarea>/);
    assert.equal((await client(t, co.key)('GET', '/v2/accounts')).body.data.length, 0);

    // A refusal of the service (the username taken) is shown beside the username.
    const call = client(t, co.key);
    await call('POST', '/v2/accounts', validAccount({ username: 'taken', platform: 'platformA' }));
    const taken = await b.post('/dashboard/accounts', {
      _csrf: csrf,
      platform: 'platformA',
      username: 'taken',
      displayName: 'Taken',
      bio: 'Bio',
      profilePictureUrl: 'https://example.com/me.png',
      searchTerms: 'cooking',
    });
    assert.equal(taken.status, 409);
    assert.deepEqual(summary(taken.body), [
      ['a-username', 'Username: @taken on platformA already exists in this company.'],
    ]);
  });

  test('the tag forms show their errors in plain words', async () => {
    const t = get();
    const co = await seedCompany(t);
    const b = await editor(t, co.companyId);
    const csrf = hidden((await b.get('/dashboard/tags')).body, '_csrf');
    const both = await b.post('/dashboard/tags', { _csrf: csrf, name: '', color: 'pink' });
    assert.equal(both.status, 400);
    assert.deepEqual(summary(both.body), [
      ['tag-name', 'Name: required'],
      ['tag-color', 'Color: choose one from the list'],
    ]);
    assert.match(both.body, /id="tag-color"[^>]*aria-invalid="true"/);
    const long = await b.post('/dashboard/tags', { _csrf: csrf, name: 'x'.repeat(51) });
    assert.deepEqual(summary(long.body), [
      ['tag-name', 'Name: at most 50 characters (this has 51)'],
    ]);

    assert.equal((await b.post('/dashboard/tags', { _csrf: csrf, name: 'Launch' })).status, 303);
    const tagId = /\/dashboard\/tags\/(tag_\w+)"/.exec((await b.get('/dashboard/tags')).body)?.[1];
    assert.ok(tagId);
    const edit = await b.post(`/dashboard/tags/${tagId}`, {
      _csrf: csrf,
      name: ' ',
      color: 'nope',
    });
    assert.equal(edit.status, 400);
    assert.deepEqual(summary(edit.body), [
      ['tag-name', 'Name: required'],
      ['tag-color', 'Color: choose one from the list'],
    ]);
    assert.equal(beside(edit.body, 'tag-name'), 'Name: required');
  });

  test('the API keeps its error envelope: one error named by JSON pointer', async () => {
    const t = get();
    const co = await seedCompany(t);
    const res = await client(t, co.key)(
      'POST',
      '/v2/accounts',
      validAccount({ displayName: '', warmup: { searchTerms: ['a', 'b', 'c', 'd', 'e', 'f'] } }),
    );
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'invalid_request');
    assert.match(res.body.error.message, /^\/displayName must not be empty/);
  });
});
