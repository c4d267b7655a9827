// POST /v2/posts/validate on both databases: the dry run lists every problem a create with
// the body would meet, each as the create words it (the first one exactly as the create
// refuses it), and writes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { companyRows } from '../../helpers/rows-left.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { assertApiError, planWith, writePlansFile } from '../../helpers/api-error.ts';
import { makeAccounts, readyUpload, type CallFn } from '../../helpers/posts.ts';

const PLANS = writePlansFile({
  two_per_day: planWith({ postsPerDay: 2 }),
  two_credits: planWith({ postCredits: 2 }),
});

const slide = (image: string, texts = 1) => ({
  image,
  textElements: Array.from({ length: texts }, (_, i) => ({
    content: `text ${i}`,
    style: { positionY: 10 + i * 20 },
  })),
});

interface Problem {
  code: string;
  message: string;
  hint: string;
  field?: string;
}

/** The answer of a validate call, checked for its shape; its problems as [code, field]. */
async function validate(call: CallFn, body: unknown, headers: Record<string, string> = {}) {
  const res = await call('POST', '/v2/posts/validate', body, headers);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const problems = res.body.problems as Problem[];
  assert.equal(res.body.valid, problems.length === 0);
  for (const p of problems) {
    assert.ok(p.message.length > 0 && p.hint.trim().length > 0, JSON.stringify(p));
  }
  return { problems, found: problems.map((p) => [p.code, p.field]) };
}

/** Counts of what a create writes for the company, and its usage numbers. */
async function written(t: TestApp, call: CallFn, companyId: string) {
  const count = (
    table: 'posts' | 'queue_items' | 'idempotency_keys' | 'webhook_events' | 'activity_log',
  ) => companyRows(t.ctx.db, table, companyId);
  const usage = (await call('GET', '/v2/usage')).body;
  return {
    posts: await count('posts'),
    items: await count('queue_items'),
    keys: await count('idempotency_keys'),
    events: await count('webhook_events'),
    activity: await count('activity_log'),
    postsCreatedToday: usage.postsCreatedToday,
    credits: usage.postCredits.used,
  };
}

describeEachDialect(
  'post validation (dry run)',
  (get) => {
    const ids = {
      companyId: '',
      acc1: '',
      acc2: '',
      video: '',
      img1: '',
      img2: '',
      pending: '',
      tag: '',
      archived: '',
      otherUpload: '',
      otherAccount: '',
    };
    let call: CallFn;

    test('setup: a company with accounts, uploads and tags, and another company', async () => {
      const t = get();
      const co = await seedCompany(t);
      call = client(t, co.key);
      ids.companyId = co.companyId;
      [ids.acc1, ids.acc2] = (await makeAccounts(call, 2)) as [string, string];
      ids.video = await readyUpload(t, call, 'h264-aac-faststart.mp4');
      ids.img1 = await readyUpload(t, call, 'image.png');
      ids.img2 = await readyUpload(t, call, 'image.jpg');
      const pending = await call('POST', '/v2/uploads', {
        kind: 'image',
        filename: 'later.png',
        contentType: 'image/png',
        sizeBytes: 10,
      });
      assert.equal(pending.status, 201);
      ids.pending = pending.body.uploadId;
      ids.tag = (await call('POST', '/v2/content-tags', { name: 'Live' })).body.contentGroupId;
      const old = (await call('POST', '/v2/content-tags', { name: 'Old' })).body;
      await call('PATCH', `/v2/content-tags/${old.tagId}`, { archived: true });
      ids.archived = old.contentGroupId;
      const other = client(t, (await seedCompany(t, { name: 'Other Co' })).key);
      ids.otherUpload = await readyUpload(t, other, 'image.png');
      [ids.otherAccount] = (await makeAccounts(other, 1)) as [string];
      await t.media.idle();
    });

    // One body per kind of problem, with the problems expected: [code, field].
    const cases: { name: string; body: () => object; expect: [string, string][] }[] = [
      {
        name: 'a value out of range',
        body: () => ({
          media: [ids.img1, ids.img2],
          accountIds: [ids.acc1],
          slides: [
            {
              image: ids.img1,
              textElements: [
                ...slide(ids.img1, 2).textElements,
                { content: 'big', style: { positionY: 80, fontSize: 80 } },
              ],
            },
            slide(ids.img2),
          ],
        }),
        expect: [['invalid_request', '/slides/0/textElements/2/style/fontSize']],
      },
      {
        name: 'an unknown key',
        body: () => ({ media: [ids.video], accountIds: [ids.acc1], colour: 'red' }),
        expect: [['invalid_request', '/colour']],
      },
      {
        name: 'a value of the wrong type, once',
        body: () => ({ media: [ids.video], accountIds: [ids.acc1], sound: { mode: 1 } }),
        expect: [['invalid_request', '/sound/mode']],
      },
      {
        name: 'a missing field',
        body: () => ({ media: [ids.video] }),
        expect: [['invalid_request', '/accountIds']],
      },
      {
        name: 'a repeated account',
        body: () => ({ media: [ids.video], accountIds: [ids.acc1, ids.acc1] }),
        expect: [['invalid_request', '/accountIds/1']],
      },
      {
        name: 'a repeated upload',
        body: () => ({ media: [ids.img1, ids.img1], accountIds: [ids.acc1] }),
        expect: [['invalid_media_set', '/media/1']],
      },
      {
        name: 'an unknown upload',
        body: () => ({ media: ['upl_doesnotexist'], accountIds: [ids.acc1] }),
        expect: [['upload_not_found', '/media/0']],
      },
      {
        name: 'an upload not ready',
        body: () => ({ media: [ids.img1, ids.pending], accountIds: [ids.acc1] }),
        expect: [['upload_not_ready', '/media/1']],
      },
      {
        name: 'a video with an image',
        body: () => ({ media: [ids.video, ids.img1], accountIds: [ids.acc1] }),
        expect: [['invalid_media_set', '/media']],
      },
      {
        name: 'a video in a carousel',
        body: () => ({
          media: [ids.img1, ids.video],
          accountIds: [ids.acc1],
          slides: [slide(ids.img1), slide(ids.video)],
        }),
        expect: [['invalid_media_set', '/media/1']],
      },
      {
        name: 'a slide whose image is not in media',
        body: () => ({
          media: [ids.img1, ids.img2],
          accountIds: [ids.acc1],
          slides: [slide(ids.img1), slide(ids.video)],
        }),
        expect: [['invalid_media_set', '/slides/1/image']],
      },
      {
        name: 'an unknown account',
        body: () => ({ media: [ids.video], accountIds: [ids.acc1, 'acc_doesnotexist'] }),
        expect: [['account_not_found', '/accountIds/1']],
      },
      {
        name: 'an unknown tag',
        body: () => ({
          media: [ids.video],
          accountIds: [ids.acc1],
          contentGroupIds: [ids.tag, 'tag:tag_doesnotexist'],
        }),
        expect: [['tag_not_found', '/contentGroupIds/1']],
      },
      {
        name: 'an archived tag',
        body: () => ({
          media: [ids.video],
          accountIds: [ids.acc1],
          contentGroupIds: [ids.archived],
        }),
        expect: [['invalid_request', '/contentGroupIds/0']],
      },
      {
        name: 'a template group',
        body: () => ({
          media: [ids.video],
          accountIds: [ids.acc1],
          contentGroupIds: ['template:tpl_1'],
        }),
        expect: [['invalid_request', '/contentGroupIds/0']],
      },
      {
        name: 'a feed post without the capability',
        body: () => ({ media: [ids.video], accountIds: [ids.acc1], platformBPostFormat: 'post' }),
        expect: [['platformB_feed_posts_disabled', '/platformBPostFormat']],
      },
    ];

    for (const c of cases) {
      test(`reports ${c.name}, as the create refuses it`, async () => {
        const { problems, found } = await validate(call, c.body());
        assert.deepEqual(found, c.expect);
        const created = await call('POST', '/v2/posts', c.body());
        assert.ok(created.status >= 400, JSON.stringify(created.body));
        const { code, message, hint } = created.body.error;
        const first = problems[0] as Problem;
        assert.deepEqual(
          { code, message, hint },
          {
            code: first.code,
            message: first.message,
            hint: first.hint,
          },
        );
      });
    }

    test('the words of a schema problem are the create’s', async () => {
      const { problems } = await validate(call, cases[0]!.body());
      assert.deepEqual(problems, [
        {
          code: 'invalid_request',
          message: '/slides/0/textElements/2/style/fontSize must be <= 72 (got 80)',
          hint: 'Fix /slides/0/textElements/2/style/fontSize: it must be <= 72.',
          field: '/slides/0/textElements/2/style/fontSize',
        },
      ]);
    });

    test('a body with many problems reports every one of them', async () => {
      // The ids that are well-formed are checked beside those that are not.
      const body = {
        media: ['upl_doesnotexist', ids.img1, ids.img1, 5],
        accountIds: [ids.acc1, 'acc_doesnotexist', ids.acc1],
        contentGroupIds: ['tag:tag_doesnotexist', ids.archived, 'bad'],
        platformBPostFormat: 'post',
        caption: 'x'.repeat(2201),
        colour: 'red',
      };
      const { problems, found } = await validate(call, body);
      const expected: [string, string][] = [
        ['invalid_request', '/colour'],
        ['invalid_request', '/media/3'],
        ['invalid_request', '/caption'],
        ['invalid_request', '/contentGroupIds/2'],
        ['upload_not_found', '/media/0'],
        ['invalid_media_set', '/media/2'],
        ['invalid_request', '/accountIds/2'],
        ['account_not_found', '/accountIds/1'],
        ['tag_not_found', '/contentGroupIds/0'],
        ['invalid_request', '/contentGroupIds/1'],
        ['platformB_feed_posts_disabled', '/platformBPostFormat'],
      ];
      const key = ([code, field]: (string | undefined)[]) => `${code} ${field}`;
      assert.deepEqual(found.map(key).sort(), expected.map(key).sort());
      // Schema problems come first, then the rest in the order a create meets them.
      assert.deepEqual(found.slice(4), expected.slice(4));
      const created = await call('POST', '/v2/posts', body);
      assertApiError(created, 400, 'invalid_request');
      assert.equal(created.body.error.message, problems[0]?.message);
    });

    test('empty media and account lists are problems, not a failed query', async () => {
      const { found } = await validate(call, { media: [], accountIds: [] });
      const fields = found.map(([code, field]) => `${code} ${field}`);
      assert.ok(fields.includes('invalid_request /media'), fields.join(', '));
      assert.ok(fields.includes('invalid_request /accountIds'), fields.join(', '));
    });

    test('a valid body answers valid, with no problems', async () => {
      for (const body of [
        { media: [ids.video], accountIds: [ids.acc1, ids.acc2], contentGroupIds: [ids.tag] },
        {
          media: [ids.img1, ids.img2],
          accountIds: [ids.acc1],
          slides: [slide(ids.img1), slide(ids.img2), slide(ids.img1)],
        },
      ]) {
        const res = await call('POST', '/v2/posts/validate', body);
        assert.equal(res.status, 200);
        assert.deepEqual(res.body, { valid: true, problems: [] });
      }
    });

    test('nothing is written: no post, item, key, event, activity or quota use', async () => {
      const t = get();
      const before = await written(t, call, ids.companyId);
      const valid = { media: [ids.video], accountIds: [ids.acc1, ids.acc2], caption: 'dry' };
      for (const [i, body] of [valid, ...cases.map((c) => c.body())].entries()) {
        await validate(call, body, { 'idempotency-key': `dry-${i}` });
      }
      assert.deepEqual(await written(t, call, ids.companyId), before);
      // The valid body creates the post it said it would, and the key is free.
      const created = await call('POST', '/v2/posts', valid, { 'idempotency-key': 'dry-0' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const after = await written(t, call, ids.companyId);
      assert.equal(after.posts, before.posts + 1);
      assert.equal(after.items, before.items + 2);
      assert.equal(after.keys, before.keys + 1);
      assert.equal(after.postsCreatedToday, before.postsCreatedToday + 2);
      assert.equal(after.credits, before.credits + 2);
    });

    test('another company’s upload and account are not found, like unknown ids', async () => {
      const { problems, found } = await validate(call, {
        media: [ids.otherUpload],
        accountIds: [ids.otherAccount],
      });
      assert.deepEqual(found, [
        ['upload_not_found', '/media/0'],
        ['account_not_found', '/accountIds/0'],
      ]);
      const unknown = await validate(call, {
        media: ['upl_doesnotexist'],
        accountIds: ['acc_doesnotexist'],
      });
      assert.deepEqual(
        problems.map((p) => p.hint),
        unknown.problems.map((p) => p.hint),
      );
    });

    test('needs posts:write: a posts:read key is refused', async () => {
      const t = get();
      const co = await seedCompany(t, { name: 'Scoped Co' });
      const body = { media: ['upl_x'], accountIds: ['acc_x'] };
      const reader = client(t, await co.keyWith(['posts:read']));
      assertApiError(await reader('POST', '/v2/posts/validate', body), 403, 'insufficient_scope', {
        includes: 'posts:write',
      });
      const writer = client(t, await co.keyWith(['posts:write']));
      assert.equal((await writer('POST', '/v2/posts/validate', body)).status, 200);
    });

    test('a body that is not a JSON object is a 400', async () => {
      assertApiError(await call('POST', '/v2/posts/validate', [{}]), 400, 'invalid_request', {
        startsWith: '/ must be an object (got an array of 1 item)',
      });
      assertApiError(await call('POST', '/v2/posts/validate', '"text"'), 400, 'invalid_request', {
        startsWith: '/ must be an object',
      });
      assertApiError(await call('POST', '/v2/posts/validate', '42'), 400, 'invalid_request');
      // Any object is answered, however wrong.
      const { found } = await validate(call, {});
      assert.deepEqual(found, [
        ['invalid_request', '/media'],
        ['invalid_request', '/accountIds'],
      ]);
    });

    test('quota: the daily posts cap and the post credits, read and not counted', async () => {
      const t = get();
      for (const plan of ['two_per_day', 'two_credits']) {
        const co = await seedCompany(t, { plan, name: plan });
        const as = client(t, co.key);
        const accounts = await makeAccounts(as, 3);
        const image = await readyUpload(t, as, 'image.png');
        const body = (n: number) => ({ media: [image], accountIds: accounts.slice(0, n) });
        const before = await written(t, as, co.companyId);
        const code = plan === 'two_per_day' ? 'rate_limited' : 'quota_exceeded';
        const over = await validate(as, body(3));
        assert.deepEqual(over.found, [[code, undefined]]);
        const refused = await as('POST', '/v2/posts', body(3));
        assertApiError(refused, 429, code);
        assert.deepEqual(
          { message: refused.body.error.message, hint: refused.body.error.hint },
          { message: over.problems[0]?.message, hint: over.problems[0]?.hint },
        );
        assert.deepEqual((await validate(as, body(2))).found, []);
        assert.deepEqual(await written(t, as, co.companyId), before);
        // What is used counts: one item created leaves room for one more.
        assert.equal((await as('POST', '/v2/posts', body(1))).status, 201);
        assert.deepEqual((await validate(as, body(2))).found, [[code, undefined]]);
        assert.deepEqual((await validate(as, body(1))).found, []);
        // Repeats are one account, one item.
        assert.deepEqual(
          (await validate(as, { media: [image], accountIds: [accounts[0], accounts[0]] })).found,
          [['invalid_request', '/accountIds/1']],
        );
      }
    });
  },
  { env: { PLANS_FILE: PLANS } },
);
