// The dashboard's CSV exports through HTTP on both databases: the exact file of a seeded
// company (quoting, formula injection, BOM, CRLF, ISO times), the posts list's filters,
// paging past one service page, another company's data never present, and who may export.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, validAccount, type TestApp } from '../../helpers/app.ts';
import { browser, signIn, userIn, type Browser } from '../../helpers/dashboard.ts';
import { readyUpload, type CallFn } from '../../helpers/posts.ts';
import { storeSnapshot } from '../../../src/modules/analytics/index.ts';
import { recordActivity } from '../../../src/modules/activity/index.ts';
import { approve } from '../../../src/modules/items/index.ts';
import { deleteTag, createTag } from '../../../src/modules/tags/index.ts';
import { createKey } from '../../../src/modules/keys/index.ts';
import type { UserRole } from '../../../src/db/types.ts';

const START = '2026-03-02T10:00:00.000Z';
const BOM = '\uFEFF';
let ips = 0;

async function as(t: TestApp, companyId: string, role: UserRole): Promise<Browser> {
  const u = await userIn(t, companyId, role);
  const b = browser(t, `192.0.2.${(++ips % 250) + 1}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  return b;
}

/** The records of a CSV file (RFC 4180), for checks beyond the exact text. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  assert.equal(cell, '', 'the file ends with CRLF');
  return rows;
}

async function account(call: CallFn, platform: string, username: string): Promise<string> {
  const res = await call('POST', '/v2/accounts', validAccount({ platform, username }));
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.accountId;
}

interface Seeded {
  companyId: string;
  call: CallFn;
  alpha: string;
  beta: string;
  /** To alpha and beta, tagged; alpha's item posted with figures. */
  first: string;
  /** To alpha only, waiting for approval. */
  second: string;
  tagGroup: string;
  alphaItem: string;
}

async function seed(t: TestApp, name = 'alpha'): Promise<Seeded> {
  const co = await seedCompany(t);
  const call = client(t, co.key);
  const alpha = await account(call, 'platformA', `${name}.one`);
  const beta = await account(call, 'platformB', `${name}_two`);
  const image = await readyUpload(t, call, 'image.png');
  const tag = await call('POST', '/v2/content-tags', { name: `Launch, "big" ${name}` });
  assert.equal(tag.status, 201, JSON.stringify(tag.body));
  const first = await call('POST', '/v2/posts', {
    media: [image],
    accountIds: [alpha, beta],
    skipApproval: true,
    caption: '=SUM(A1:A2)',
    hashtags: ['+plus', 'two'],
    contentGroupIds: [tag.body.contentGroupId],
  });
  assert.equal(first.status, 201, JSON.stringify(first.body));
  t.clock.advance(1000);
  const second = await call('POST', '/v2/posts', {
    media: [image],
    accountIds: [alpha],
    caption: 'Line one\nline "two", more',
    hashtags: ['-minus'],
  });
  assert.equal(second.status, 201, JSON.stringify(second.body));
  // Alpha's item of the first post went out and has figures.
  const item = await t.ctx.db
    .selectFrom('queue_items')
    .select('id')
    .where('post_id', '=', first.body.postId)
    .where('account_id', '=', alpha)
    .executeTakeFirstOrThrow();
  await t.ctx.db
    .updateTable('queue_items')
    .set({
      status: 'posted',
      posted_at: '2026-03-02T10:30:00.000Z',
      post_url: `https://platform-a.example/v/${name}`,
    })
    .where('id', '=', item.id)
    .execute();
  for (const [n, views, likes] of [
    [1, 100, 5],
    [2, 1000, 10],
  ] as const) {
    await storeSnapshot(
      t.ctx.db,
      {
        id: `snp_export_${item.id}_${n}`,
        company_id: co.companyId,
        post_id: first.body.postId,
        queue_item_id: item.id,
        account_id: alpha,
        platform: 'platformA',
        post_url: `https://platform-a.example/v/${name}`,
        views,
        likes,
        comments: 2,
        shares: 1,
        saves: 0,
        collected_at: `2026-03-02T1${n}:00:00.000Z`,
      },
      START,
    );
  }
  return {
    companyId: co.companyId,
    call,
    alpha,
    beta,
    first: first.body.postId,
    second: second.body.postId,
    tagGroup: tag.body.contentGroupId,
    alphaItem: item.id,
  };
}

const HEADER =
  'Post ID,Created at (UTC),Caption,Hashtags,Tags,Username,Platform,Status,Posted at (UTC),Post URL,Views,Likes,Comments,Shares,Saves\r\n';

function rowsOf(s: Seeded, name = 'alpha') {
  const second = `${s.second},2026-03-02T10:00:01.000Z,"Line one\nline ""two"", more",'-minus,,${name}.one,platformA,pending_approval,,,,,,,\r\n`;
  const firstCommon = `${s.first},2026-03-02T10:00:00.000Z,'=SUM(A1:A2),'+plus two,"Launch, ""big"" ${name}"`;
  const firstAlpha = `${firstCommon},${name}.one,platformA,posted,2026-03-02T10:30:00.000Z,https://platform-a.example/v/${name},1000,10,2,1,0\r\n`;
  const firstBeta = `${firstCommon},${name}_two,platformB,queued,,,,,,,\r\n`;
  return { second, firstAlpha, firstBeta };
}

describeEachDialect('dashboard CSV exports', (get) => {
  test('the posts file of a seeded company, exactly', async () => {
    const t = get();
    t.clock.set(START);
    const s = await seed(t);
    const b = await as(t, s.companyId, 'viewer');
    const res = await b.get('/dashboard/exports/posts.csv');
    assert.equal(res.status, 200, res.body);
    const { second, firstAlpha, firstBeta } = rowsOf(s);
    assert.equal(res.body, `${BOM}${HEADER}${second}${firstAlpha}${firstBeta}`);
    const raw = await t.app.inject({
      method: 'GET',
      url: '/dashboard/exports/posts.csv',
      headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    assert.equal(raw.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(
      raw.headers['content-disposition'],
      'attachment; filename="slotline-posts-2026-03-02.csv"',
    );
    assert.equal(raw.headers['cache-control'], 'no-store');
    assert.match(String(raw.headers['content-security-policy']), /default-src 'none'/);
    // The bytes: UTF-8 with its byte order mark.
    assert.deepEqual([...raw.rawPayload.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    // Every record has the header's 15 cells.
    for (const row of parseCsv(res.body.slice(1))) assert.equal(row.length, 15);
  });

  test('the posts list’s filters apply, under the same names and rules', async () => {
    const t = get();
    t.clock.set(START);
    const s = await seed(t);
    const b = await as(t, s.companyId, 'editor');
    const { second, firstAlpha, firstBeta } = rowsOf(s);
    const file = async (query: string) => {
      const res = await b.get(`/dashboard/exports/posts.csv?${query}`);
      assert.equal(res.status, 200, `${query}: ${res.body}`);
      return res.body;
    };
    assert.equal(await file('status=pending_approval'), `${BOM}${HEADER}${second}`);
    assert.equal(
      await file(`tag=${encodeURIComponent(s.tagGroup)}`),
      `${BOM}${HEADER}${firstAlpha}${firstBeta}`,
    );
    assert.equal(await file('tag=untagged'), `${BOM}${HEADER}${second}`);
    // An account's rows only: the other accounts of its posts are not asked for.
    assert.equal(await file(`account=${s.beta}`), `${BOM}${HEADER}${firstBeta}`);
    assert.equal(await file(`account=${s.alpha}`), `${BOM}${HEADER}${second}${firstAlpha}`);
    assert.equal(await file('status=failed'), `${BOM}${HEADER}`);
    assert.equal(
      await file('status=&account=&tag='),
      `${BOM}${HEADER}${second}${firstAlpha}${firstBeta}`,
    );

    const badStatus = await b.get('/dashboard/exports/posts.csv?status=nope');
    assert.equal(badStatus.status, 400);
    assert.match(badStatus.body, /Status &quot;nope&quot; is not one of the post statuses/);
    const badTag = await b.get('/dashboard/exports/posts.csv?tag=nope');
    assert.equal(badTag.status, 400);
    assert.match(badTag.body, /The tag filter must be a tag/);
    const unknown = await b.get('/dashboard/exports/posts.csv?account=acc_doesnotexist');
    assert.equal(unknown.status, 404);
    assert.match(unknown.body, /That account does not exist/);
  });

  test('another company’s data is never in a file, and its account reads as unknown', async () => {
    const t = get();
    t.clock.set(START);
    const a = await seed(t, 'alpha');
    const bravo = await seed(t, 'bravo');
    const mine = await (await as(t, a.companyId, 'admin')).get('/dashboard/exports/posts.csv');
    assert.equal(mine.status, 200);
    for (const marker of ['bravo', bravo.first, bravo.second, bravo.alpha, bravo.beta]) {
      assert.ok(!mine.body.includes(marker), `posts file shows ${marker}`);
    }
    const browserA = await as(t, a.companyId, 'admin');
    const foreign = await browserA.get(`/dashboard/exports/posts.csv?account=${bravo.alpha}`);
    const unknown = await browserA.get('/dashboard/exports/posts.csv?account=acc_doesnotexist');
    assert.equal(foreign.status, 404);
    assert.equal(unknown.status, 404);
    assert.ok(!foreign.body.includes('bravo'));

    const log = await browserA.get('/dashboard/exports/activity.csv');
    assert.equal(log.status, 200);
    for (const marker of ['bravo', bravo.companyId]) {
      assert.ok(!log.body.includes(marker), `activity file shows ${marker}`);
    }
  });

  test('more than one page of posts streams whole', async () => {
    const t = get();
    t.clock.set(START);
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const acc = await account(call, 'platformA', 'many.posts');
    const image = await readyUpload(t, call, 'image.png');
    const ids: string[] = [];
    for (let i = 0; i < 105; i++) {
      t.clock.advance(1000);
      const res = await call('POST', '/v2/posts', {
        media: [image],
        accountIds: [acc],
        caption: `Post ${i}`,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      ids.push(res.body.postId);
    }
    const b = await as(t, co.companyId, 'viewer');
    const res = await b.get('/dashboard/exports/posts.csv');
    assert.equal(res.status, 200);
    const rows = parseCsv(res.body.slice(1));
    assert.equal(rows.length, 106);
    assert.deepEqual(
      rows.slice(1).map((r) => r[0]),
      [...ids].reverse(),
      'every post once, newest first',
    );
  });

  test('the activity file names actors and subjects, newest first, formula-safe', async () => {
    const t = get();
    t.clock.set(START);
    const s = await seed(t);
    const actor = { id: 'user:usr_export', label: 'ann@example.com' };
    t.clock.advance(60_000);
    const approved = await approve(t.ctx, {
      postId: s.second,
      companyId: s.companyId,
      actor,
    });
    assert.ok(approved);
    t.clock.advance(60_000);
    const tag = await createTag(t.ctx, s.companyId, { name: '=evil()' });
    await deleteTag(t.ctx.db, t.ctx.clock, s.companyId, tag.tagId, actor);
    t.clock.advance(60_000);
    const key = await createKey(t.ctx.db, t.ctx.clock, {
      companyId: s.companyId,
      scopes: ['posts:read'],
      name: '@robot',
      actor,
    });
    t.clock.advance(60_000);
    await recordActivity(
      t.ctx.db,
      s.companyId,
      { id: 'operator', label: 'operator (admin CLI)' },
      { action: 'account.paused', target: s.beta, detail: `${s.beta}, "quoted"` },
      t.clock.now(),
    );

    const b = await as(t, s.companyId, 'viewer');
    const res = await b.get('/dashboard/exports/activity.csv');
    assert.equal(res.status, 200, res.body);
    assert.ok(
      res.body.startsWith(
        `${BOM}Time (UTC),Who,Who (kind),Action,Subject,Subject (kind),Subject ID,Detail\r\n`,
      ),
    );
    // The users signed in to read it may be in the log too; these are the entries made here.
    const rows = parseCsv(res.body.slice(1))
      .slice(1)
      .filter((r) => !r[3]?.startsWith('user.'));
    assert.deepEqual(rows[0], [
      '2026-03-02T10:04:01.000Z',
      'operator (admin CLI)',
      'Slotline operator',
      'account.paused',
      // A cell starting with @ is prefixed, whatever it holds.
      "'@alpha_two (platformB)",
      'account',
      s.beta,
      `'@alpha_two (platformB), "quoted"`,
    ]);
    assert.deepEqual(rows[1], [
      '2026-03-02T10:03:01.000Z',
      'ann@example.com',
      'user',
      'key.created',
      `'@robot (sl_${key.prefix}_…)`,
      'API key',
      key.keyId,
      `'@robot (sl_${key.prefix}_…): posts:read`,
    ]);
    assert.deepEqual(rows[2]?.slice(0, 7), [
      '2026-03-02T10:02:01.000Z',
      'ann@example.com',
      'user',
      'tag.deleted',
      // The tag is gone: named by the entry's own words, formula-safe.
      "'=evil(), removed from 0 post(s)",
      'tag',
      tag.tagId,
    ]);
    const approval = rows[3];
    assert.ok(approval);
    assert.deepEqual(approval.slice(0, 7), [
      '2026-03-02T10:01:01.000Z',
      'ann@example.com',
      'user',
      'post.approved',
      // As every page names a post: the start of its caption.
      '“Line one line "two", more”',
      'post',
      s.second,
    ]);
    assert.match(approval[7] as string, /@alpha\.one \(platformA\)/);
    assert.ok(!approval[7]?.includes('acc_'), 'accounts by name, not id');
    // The raw text: the quoted cell of the operator's row.
    assert.ok(res.body.includes(`"'@alpha_two (platformB), ""quoted"""`));
  });

  test('an activity log longer than a page streams whole, newest first', async () => {
    const t = get();
    t.clock.set(START);
    const co = await seedCompany(t);
    // Written in one statement: the log's rows as recordActivity writes them, a second apart.
    await t.ctx.db
      .insertInto('activity_log')
      .values(
        Array.from({ length: 520 }, (_, i) => ({
          id: `act_export_${String(i).padStart(4, '0')}`,
          company_id: co.companyId,
          actor: 'key:key_robot',
          actor_label: 'Robot key (sl_robot_…)',
          action: 'schedule.changed',
          target: co.companyId,
          detail: `change ${i}`,
          at: new Date(Date.parse(START) + (i + 1) * 1000).toISOString(),
        })),
      )
      .execute();
    const b = await as(t, co.companyId, 'viewer');
    const res = await b.get('/dashboard/exports/activity.csv');
    assert.equal(res.status, 200);
    const rows = parseCsv(res.body.slice(1))
      .slice(1)
      .filter((r) => r[3] === 'schedule.changed');
    assert.equal(rows.length, 520);
    assert.deepEqual(
      rows.map((r) => r[7]),
      Array.from({ length: 520 }, (_, i) => `change ${519 - i}`),
    );
    // The company's own schedule is named by the company.
    assert.deepEqual(rows[0]?.slice(1, 6), [
      'Robot key (sl_robot_…)',
      'API key',
      'schedule.changed',
      'Test Co',
      'company',
    ]);
  });

  test('every role exports; a signed-out visitor is sent to sign in', async () => {
    const t = get();
    t.clock.set(START);
    const s = await seed(t);
    for (const role of ['viewer', 'editor', 'admin'] as const) {
      const b = await as(t, s.companyId, role);
      for (const file of ['posts', 'activity']) {
        const res = await b.get(`/dashboard/exports/${file}.csv`);
        assert.equal(res.status, 200, `${role} ${file}`);
        assert.ok(res.body.startsWith(BOM));
      }
    }
    const anonymous = browser(t, '192.0.2.251');
    const res = await anonymous.get('/dashboard/exports/posts.csv?status=queued');
    assert.equal(res.status, 303);
    assert.equal(
      res.location,
      `/dashboard/sign-in?next=${encodeURIComponent('/dashboard/exports/posts.csv?status=queued')}`,
    );
  });
});
