// The dashboard's content tags, API keys and usage pages through HTTP, on both databases:
// roles, CSRF, changes seen through the API, keys that work with exactly their scopes,
// secrets shown once, and other companies' ids answering like unknown ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import {
  browser,
  hidden,
  signIn,
  userIn,
  type Browser,
  pageShape,
} from '../../helpers/dashboard.ts';
import { makeAccounts, readyUpload } from '../../helpers/posts.ts';
import type { UserRole } from '../../../src/db/types.ts';

let ips = 0;

/** A signed-in browser of a new user of the company, and the CSRF token of its session. */
async function signedIn(t: TestApp, companyId: string, role: UserRole) {
  const u = await userIn(t, companyId, role);
  const b = browser(t, `198.51.100.${(++ips % 250) + 1}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  const csrf = hidden((await b.get('/dashboard/usage')).body, '_csrf');
  return { b, csrf, email: u.email };
}

/** An error page without what differs per request. */
function errorPage(body: string): string {
  return pageShape(body);
}

async function apiTags(call: ReturnType<typeof client>) {
  const res = await call('GET', '/v2/content-tags');
  assert.equal(res.status, 200);
  return res.body.data as { tagId: string; name: string; color: string; archived: boolean }[];
}

async function createTagIn(b: Browser, csrf: string, name: string, color = 'slate') {
  return b.post('/dashboard/tags', { _csrf: csrf, name, color });
}

describeEachDialect('dashboard tags, keys and usage', (get) => {
  test('each page renders for the roles it is for', async () => {
    const t = get();
    const co = await seedCompany(t);
    const viewer = await signedIn(t, co.companyId, 'viewer');
    const editor = await signedIn(t, co.companyId, 'editor');
    const admin = await signedIn(t, co.companyId, 'admin');

    const tags = await viewer.b.get('/dashboard/tags');
    assert.equal(tags.status, 200);
    assert.match(tags.body, /<h1>Content tags<\/h1>/);
    assert.match(tags.body, /Untagged posts/);
    assert.doesNotMatch(tags.body, /Create tag/);
    assert.doesNotMatch(tags.body, /API keys<\/a>/);
    const usage = await viewer.b.get('/dashboard/usage');
    assert.equal(usage.status, 200);
    assert.match(usage.body, /<meter id="meter-0"/);

    for (const who of [viewer, editor]) {
      assert.equal((await who.b.get('/dashboard/keys')).status, 403);
      const create = await who.b.post('/dashboard/keys', {
        _csrf: who.csrf,
        name: 'sneaky',
        scope: 'posts:read',
      });
      assert.equal(create.status, 403);
    }
    assert.equal((await createTagIn(viewer.b, viewer.csrf, 'By a viewer')).status, 403);
    assert.equal((await editor.b.get('/dashboard/tags')).body.includes('Create tag'), true);

    const keys = await admin.b.get('/dashboard/keys');
    assert.equal(keys.status, 200);
    assert.match(keys.body, /<h1>API keys<\/h1>/);
    assert.match(keys.body, /API keys<\/a>/);
    // The seeded key is listed by its visible prefix only.
    assert.match(keys.body, /sl_[0-9a-z]{12}_…/);
    assert.doesNotMatch(keys.body, new RegExp(co.key));
  });

  test('a state change without the CSRF token is refused', async () => {
    const t = get();
    const co = await seedCompany(t);
    const editor = await signedIn(t, co.companyId, 'editor');
    const res = await createTagIn(editor.b, 'forged', 'Forged');
    assert.equal(res.status, 403);
    assert.match(res.body, /This form has expired/);
    assert.deepEqual(await apiTags(client(t, co.key)), []);
  });

  test('usage shows the plan, counters as meters and the UTC reset', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    for (let i = 0; i < 3; i++) assert.equal((await call('GET', '/v2/content-tags')).status, 200);
    const viewer = await signedIn(t, co.companyId, 'viewer');
    const page = await viewer.b.get('/dashboard/usage');
    assert.match(page.body, new RegExp(`Plan <strong>${t.config.defaultPlan}</strong>`));
    assert.match(page.body, /<label for="meter-0">API requests today<\/label>/);
    assert.match(page.body, /3 of 100,000/);
    assert.match(page.body, /datetime="2026-03-03T00:00:00.000Z"/);
    const api = await call('GET', '/v2/usage');
    assert.equal(api.body.apiRequestsToday, 3);
  });

  test('tags: create, rename, recolor, archive, delete, seen through the API', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const editor = await signedIn(t, co.companyId, 'editor');

    const created = await createTagIn(editor.b, editor.csrf, 'Launch', 'blue');
    assert.equal(created.status, 303);
    assert.equal(created.location, '/dashboard/tags');
    const [tag] = await apiTags(call);
    assert.ok(tag);
    assert.equal(tag.name, 'Launch');
    assert.equal(tag.color, 'blue');

    // SPEC 4.3: names are unique case-insensitively; the form says so, nothing breaks.
    const taken = await createTagIn(editor.b, editor.csrf, 'LAUNCH');
    assert.equal(taken.status, 409);
    assert.match(taken.body, /id="tag-name-error"[^>]*>A tag named “LAUNCH” already exists/);
    assert.match(taken.body, /value="LAUNCH"/);
    assert.equal((await createTagIn(editor.b, editor.csrf, '   ')).status, 400);
    assert.equal((await apiTags(call)).length, 1);

    const other = await createTagIn(editor.b, editor.csrf, 'Evergreen');
    assert.equal(other.status, 303);
    const clash = await editor.b.post(`/dashboard/tags/${tag.tagId}`, {
      _csrf: editor.csrf,
      name: 'evergreen',
      color: 'blue',
    });
    assert.equal(clash.status, 409);
    assert.match(clash.body, /already exists/);

    const edit = await editor.b.get(`/dashboard/tags/${tag.tagId}`);
    assert.equal(edit.status, 200);
    const renamed = await editor.b.post(`/dashboard/tags/${tag.tagId}`, {
      _csrf: hidden(edit.body, '_csrf'),
      name: 'Launch week',
      color: 'rose',
    });
    assert.equal(renamed.status, 303);
    let seen = (await apiTags(call)).find((x) => x.tagId === tag.tagId);
    assert.equal(seen?.name, 'Launch week');
    assert.equal(seen?.color, 'rose');

    const archive = (archived: string) =>
      editor.b.post(`/dashboard/tags/${tag.tagId}/archive`, { _csrf: editor.csrf, archived });
    assert.equal((await archive('true')).status, 303);
    seen = (await apiTags(call)).find((x) => x.tagId === tag.tagId);
    assert.equal(seen?.archived, true);
    const list = await editor.b.get('/dashboard/tags');
    assert.match(list.body, /Archived/);
    assert.match(list.body, /swatch-rose/);
    assert.match(list.body, new RegExp(`tag:${tag.tagId}`));
    assert.equal((await archive('false')).status, 303);
    seen = (await apiTags(call)).find((x) => x.tagId === tag.tagId);
    assert.equal(seen?.archived, false);

    // Analytics per tag: one tagged post with two accounts, one untagged post.
    const [a, b2] = (await makeAccounts(call, 2)) as [string, string];
    const video = await readyUpload(t, call, 'h264-noaudio.mp4');
    const tagged = await call('POST', '/v2/posts', {
      media: [video],
      accountIds: [a, b2],
      contentGroupIds: [`tag:${tag.tagId}`],
    });
    assert.equal(tagged.status, 201, JSON.stringify(tagged.body));
    const untagged = await call('POST', '/v2/posts', { media: [video], accountIds: [a] });
    assert.equal(untagged.status, 201, JSON.stringify(untagged.body));
    const items = await t.ctx.db
      .selectFrom('queue_items')
      .select(['id', 'post_id', 'account_id'])
      .where('company_id', '=', co.companyId)
      .execute();
    let n = 0;
    const snapshot = (
      postId: string,
      accountId: string,
      at: string,
      views: number,
      likes: number,
    ) => {
      const item = items.find((i) => i.post_id === postId && i.account_id === accountId);
      assert.ok(item);
      return {
        id: `pan_test_${t.dialect}_${++n}_${postId}`,
        company_id: co.companyId,
        post_id: postId,
        queue_item_id: item.id,
        account_id: accountId,
        platform: 'platformA',
        post_url: null,
        views,
        likes,
        comments: 0,
        shares: 0,
        saves: 0,
        collected_at: at,
      };
    };
    const p1 = tagged.body.postId as string;
    const p2 = untagged.body.postId as string;
    await t.ctx.db
      .insertInto('post_analytics')
      .values([
        snapshot(p1, a, '2026-03-02T10:00:00.000Z', 500, 5),
        // The newer snapshot of the same account replaces the older one.
        snapshot(p1, a, '2026-03-02T11:00:00.000Z', 1000, 50),
        snapshot(p1, b2, '2026-03-02T11:00:00.000Z', 234, 6),
        snapshot(p2, a, '2026-03-02T11:00:00.000Z', 777, 8),
      ])
      .execute();
    const withStats = await editor.b.get('/dashboard/tags');
    const row = (label: string) => {
      const m = new RegExp(`<th scope="row">[^<]*(?:<[^>]*>[^<]*)*?${label}[\\s\\S]*?</tr>`).exec(
        withStats.body,
      );
      assert.ok(m, `no row ${label}`);
      return m[0].replace(/<[^>]+>/g, '');
    };
    assert.match(row('Launch week'), /Posts: 1\s*Views: 1,234\s*Likes: 56/);
    assert.match(row('Evergreen'), /Posts: 0\s*Views: 0\s*Likes: 0/);
    assert.match(row('Untagged posts'), /Posts: 1\s*Views: 777\s*Likes: 8/);

    const confirm = await editor.b.get(`/dashboard/tags/${tag.tagId}/delete`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.body, /removes it from <strong>1 post<\/strong>/);
    const deleted = await editor.b.post(`/dashboard/tags/${tag.tagId}/delete`, {
      _csrf: hidden(confirm.body, '_csrf'),
    });
    assert.equal(deleted.status, 303);
    assert.equal(deleted.location, '/dashboard/tags');
    assert.match((await editor.b.get('/dashboard/tags')).body, /removed from 1 post/);
    assert.deepEqual(
      (await apiTags(call)).map((x) => x.name),
      ['Evergreen'],
    );
    const post = await call('GET', `/v2/posts/${p1}`);
    assert.deepEqual(post.body.contentGroupIds, []);

    const log = await editor.b.get('/dashboard/activity');
    for (const action of ['tag.created', 'tag.renamed', 'tag.archived', 'tag.deleted']) {
      assert.match(log.body, new RegExp(action.replace('.', '\\.')));
    }
    assert.match(log.body, new RegExp(editor.email));
  });

  test('a key created in the dashboard has exactly its scopes and dies on revoke', async () => {
    const t = get();
    const co = await seedCompany(t);
    const admin = await signedIn(t, co.companyId, 'admin');

    const none = await admin.b.post('/dashboard/keys', { _csrf: admin.csrf, name: 'No scopes' });
    assert.equal(none.status, 400);
    assert.match(none.body, /Choose at least one scope/);
    assert.match(none.body, /value="No scopes"/);

    const created = await admin.b.post('/dashboard/keys', {
      _csrf: admin.csrf,
      name: 'Usage dashboard',
      scope: ['usage:read'],
    });
    assert.equal(created.status, 200);
    const secret = /value="(sl_[0-9a-z]{12}_[0-9a-z]{32})"/.exec(created.body)?.[1];
    assert.ok(secret, 'the secret is on the result page');
    assert.match(created.body, /not shown again/);

    const call = client(t, secret);
    assert.equal((await call('GET', '/v2/usage')).status, 200);
    const refused = await call('GET', '/v2/content-tags');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'insufficient_scope');

    const list = await admin.b.get('/dashboard/keys');
    assert.ok(!list.body.includes(secret), 'the secret is shown once only');
    assert.match(list.body, new RegExp(`sl_${secret.slice(3, 15)}_…`));
    assert.match(list.body, /Usage dashboard/);
    const keyId = /\/dashboard\/keys\/(key_[^/]+)\/revoke/.exec(list.body)?.[1];
    assert.ok(keyId);

    const confirm = await admin.b.get(`/dashboard/keys/${keyId}/revoke`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.body, /Revoke key “Usage dashboard”\?/);
    const revoked = await admin.b.post(`/dashboard/keys/${keyId}/revoke`, {
      _csrf: hidden(confirm.body, '_csrf'),
    });
    assert.equal(revoked.status, 303);
    const after = await call('GET', '/v2/usage');
    assert.equal(after.status, 401);
    assert.equal(after.body.error.code, 'unauthorized');
    assert.match((await admin.b.get('/dashboard/keys')).body, /Revoked/);
    // Revoking again changes nothing and records nothing.
    assert.equal(
      (await admin.b.post(`/dashboard/keys/${keyId}/revoke`, { _csrf: admin.csrf })).status,
      303,
    );

    const log = await admin.b.get('/dashboard/activity');
    assert.match(log.body, /key\.created/);
    assert.equal(log.body.match(/key\.revoked/g)?.length, 1);
  });

  test('another company’s tag and key answer like unknown ones', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const owner = await signedIn(t, co.companyId, 'admin');
    assert.equal((await createTagIn(owner.b, owner.csrf, 'Private')).status, 303);
    const [tag] = await apiTags(call);
    assert.ok(tag);
    const keys = await owner.b.get('/dashboard/keys');
    const keyId = /\/dashboard\/keys\/(key_[^/]+)\/revoke/.exec(keys.body)?.[1];
    assert.ok(keyId);

    const other = await seedCompany(t);
    const stranger = await signedIn(t, other.companyId, 'admin');
    const page = await stranger.b.get('/dashboard/tags');
    assert.doesNotMatch(page.body, /Private/);
    assert.ok(!(await stranger.b.get('/dashboard/keys')).body.includes(keyId));

    const tries = async (id: string) => [
      await stranger.b.get(`/dashboard/tags/${id}`),
      await stranger.b.get(`/dashboard/tags/${id}/delete`),
      await stranger.b.post(`/dashboard/tags/${id}`, { _csrf: stranger.csrf, name: 'Mine' }),
      await stranger.b.post(`/dashboard/tags/${id}/archive`, {
        _csrf: stranger.csrf,
        archived: 'true',
      }),
      await stranger.b.post(`/dashboard/tags/${id}/delete`, { _csrf: stranger.csrf }),
    ];
    const keyTries = async (id: string) => [
      await stranger.b.get(`/dashboard/keys/${id}/revoke`),
      await stranger.b.post(`/dashboard/keys/${id}/revoke`, { _csrf: stranger.csrf }),
    ];
    const theirs = [...(await tries(tag.tagId)), ...(await keyTries(keyId))];
    const unknown = [...(await tries('tag_unknown')), ...(await keyTries('key_unknown'))];
    theirs.forEach((res, i) => {
      const same = unknown[i];
      assert.ok(same);
      assert.equal(res.status, 404, `attempt ${i}`);
      assert.equal(same.status, 404, `attempt ${i} on an unknown id`);
      assert.equal(errorPage(res.body), errorPage(same.body), `attempt ${i} answers alike`);
    });

    const still = (await apiTags(call)).find((x) => x.tagId === tag.tagId);
    assert.equal(still?.name, 'Private');
    assert.equal(still?.archived, false);
    assert.equal((await call('GET', '/v2/usage')).status, 200);
  });
});
