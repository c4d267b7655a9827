// `slotline-client export` against a listening service (SQLite): the posts file equals, byte
// for byte, the dashboard's posts CSV of the same company (over more than one page of
// posts), under the same filters; the analytics file carries each account's figures.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { listeningApp } from '../helpers/browser.ts';
import { client, seedCompany, validAccount, type TestApp } from '../helpers/app.ts';
import { httpBrowser, signIn, userIn } from '../helpers/dashboard.ts';
import { readyUpload, type CallFn } from '../helpers/posts.ts';
import { storeSnapshot } from '../../src/modules/analytics/index.ts';
import { clientCli } from '../helpers/client-cli.ts';

const START = '2026-03-02T10:00:00.000Z';

/** The command line in this process, against the listening service, output captured. */
const cli = clientCli;

describe('slotline-client export', { timeout: 120_000 }, () => {
  let t: TestApp;
  let url: string;
  let env: Record<string, string>;
  let call: CallFn;
  let cookie: string;
  let dir: string;
  let alpha: string;
  let beta: string;
  let tagGroup: string;
  let keyWith: Awaited<ReturnType<typeof seedCompany>>['keyWith'];
  const posts: Record<'first' | 'second' | 'third', string> = { first: '', second: '', third: '' };

  /** The dashboard's posts CSV, as bytes (a decoded text would drop the byte order mark). */
  async function dashboardCsv(query = ''): Promise<Buffer> {
    const res = await fetch(`${url}/dashboard/exports/posts.csv${query}`, {
      headers: { cookie },
    });
    assert.equal(res.status, 200);
    return Buffer.from(await res.arrayBuffer());
  }

  async function create(body: Record<string, unknown>): Promise<string> {
    const res = await call('POST', '/v2/posts', body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.postId;
  }

  /** The item of a post on an account goes out, with snapshots of [views, likes] at hours. */
  async function posted(postId: string, accountId: string, snapshots: [number, number, number][]) {
    const item = await t.ctx.db
      .selectFrom('queue_items')
      .select(['id', 'company_id'])
      .where('post_id', '=', postId)
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    const postUrl = `https://platform.example/v/${postId}/${accountId}`;
    await t.ctx.db
      .updateTable('queue_items')
      .set({ status: 'posted', posted_at: '2026-03-02T10:30:00.000Z', post_url: postUrl })
      .where('id', '=', item.id)
      .execute();
    const platform = accountId === alpha ? 'platformA' : 'platformB';
    for (const [hour, views, likes] of snapshots) {
      await storeSnapshot(
        t.ctx.db,
        {
          id: `snp_${item.id}_${hour}`,
          company_id: item.company_id,
          post_id: postId,
          queue_item_id: item.id,
          account_id: accountId,
          platform,
          post_url: postUrl,
          views,
          likes,
          comments: 2,
          shares: 1,
          saves: 0,
          collected_at: `2026-03-02T${hour}:00:00.000Z`,
        },
        START,
      );
    }
  }

  before(async () => {
    ({ t, url } = await listeningApp({ start: START }));
    const co = await seedCompany(t);
    keyWith = co.keyWith;
    env = { SLOTLINE_URL: url, SLOTLINE_KEY: co.key };
    call = client(t, co.key);
    const account = async (platform: string, username: string) => {
      const res = await call('POST', '/v2/accounts', validAccount({ platform, username }));
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.accountId as string;
    };
    alpha = await account('platformA', 'alpha.one');
    beta = await account('platformB', 'alpha_two');
    const tag = await call('POST', '/v2/content-tags', { name: 'Launch, "big"' });
    tagGroup = tag.body.contentGroupId;
    const image = await readyUpload(t, call, 'image.png');

    posts.first = await create({
      media: [image],
      accountIds: [alpha, beta],
      skipApproval: true,
      caption: '=SUM(A1:A2)',
      hashtags: ['+plus', 'two'],
      contentGroupIds: [tagGroup],
    });
    t.clock.advance(1000);
    posts.second = await create({
      media: [image],
      accountIds: [alpha],
      caption:
        'Line one\nline "two", more, and a caption long enough to be cut in the analytics file',
      hashtags: ['-minus'],
    });
    t.clock.advance(1000);
    posts.third = await create({ media: [image], accountIds: [beta], caption: 'Third' });
    // More than one page of the API (100) and of the dashboard's reads.
    for (let i = 0; i < 102; i++) {
      t.clock.advance(1000);
      await create({ media: [image], accountIds: [alpha], caption: `Filler ${i}` });
    }
    await posted(posts.first, alpha, [
      [11, 100, 5],
      [12, 1000, 10],
    ]);
    await posted(posts.first, beta, [[13, 50, 4]]);
    await posted(posts.third, beta, [[14, 8, 1]]);

    const user = await userIn(t, co.companyId, 'viewer');
    const browser = httpBrowser(url);
    assert.equal((await signIn(browser, user.email, user.password)).status, 303);
    cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    dir = await mkdtemp(join(tmpdir(), 'slotline-export-'));
  });

  after(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('the posts file is the dashboard’s, byte for byte, to stdout or a file', async () => {
    const run = await cli(env, ['export', 'posts']);
    assert.equal(run.code, 0, run.err);
    assert.equal(run.err, '');
    const expected = await dashboardCsv();
    assert.deepEqual(Buffer.from(run.out, 'utf8'), expected);
    // 102 fillers, the second and third posts, and the first on two accounts, and a header.
    assert.equal(parse(expected, { bom: true }).length, 107);

    const out = join(dir, 'posts.csv');
    const written = await cli(env, ['export', 'posts', '--out', out]);
    assert.equal(written.code, 0, written.err);
    assert.equal(written.out, '');
    assert.deepEqual(await readFile(out), expected);
    assert.deepEqual(await readdir(dir), ['posts.csv'], 'no partial file is left');
  });

  test('the filters: an account by name, a tag by name, and a time', async () => {
    const byAccount = await cli(env, ['export', 'posts', '--account', '@ALPHA_TWO']);
    assert.equal(byAccount.code, 0, byAccount.err);
    assert.deepEqual(Buffer.from(byAccount.out), await dashboardCsv(`?account=${beta}`));
    assert.equal(parse(byAccount.out, { bom: true }).length, 3);
    const byId = await cli(env, ['export', 'posts', '--account', beta]);
    assert.equal(byId.out, byAccount.out);

    const byTag = await cli(env, ['export', 'posts', '--tag', 'launch, "BIG"']);
    assert.equal(byTag.code, 0, byTag.err);
    assert.deepEqual(
      Buffer.from(byTag.out),
      await dashboardCsv(`?tag=${encodeURIComponent(tagGroup)}`),
    );

    // The dashboard has no time filter: its rows of posts created since then.
    const since = '2026-03-02T10:00:01Z';
    const bySince = await cli(env, ['export', 'posts', '--since', since]);
    assert.equal(bySince.code, 0, bySince.err);
    const all = parse(await dashboardCsv(), { bom: true });
    const expected = all.filter((r, i) => i === 0 || r[1]! >= '2026-03-02T10:00:01.000Z');
    assert.deepEqual(parse(bySince.out, { bom: true }), expected);
    assert.equal(expected.length, all.length - 2);
  });

  test('the analytics file: each account’s figures, empty where there are none yet', async () => {
    const run = await cli(env, ['export', 'analytics', '--since', '2026-03-02T10:00:00Z']);
    assert.equal(run.code, 0, run.err);
    assert.ok(run.out.startsWith('\uFEFFPost ID,Created at (UTC),Caption (start),Tags,'));
    const rows = parse<Record<string, string>>(run.out, { bom: true, columns: true });
    assert.equal(rows.length, 106);
    const of = (postId: string, accountId: string) =>
      rows.find((r) => r['Post ID'] === postId && r['Account ID'] === accountId);
    assert.deepEqual(of(posts.first, alpha), {
      'Post ID': posts.first,
      'Created at (UTC)': '2026-03-02T10:00:00.000Z',
      'Caption (start)': "'=SUM(A1:A2)",
      Tags: 'Launch, "big"',
      'Account ID': alpha,
      Username: 'alpha.one',
      Platform: 'platformA',
      Views: '1000',
      Likes: '10',
      Comments: '2',
      Shares: '1',
      Saves: '0',
      'Engagement rate (%)': '1.3',
      'Last updated (UTC)': '2026-03-02T12:00:00.000Z',
      'Post URL': `https://platform.example/v/${posts.first}/${alpha}`,
    });
    assert.deepEqual(
      [of(posts.first, beta), of(posts.third, beta)].map((r) => [
        r?.Views,
        r?.Likes,
        r?.['Engagement rate (%)'],
        r?.['Last updated (UTC)'],
      ]),
      [
        ['50', '4', '14', '2026-03-02T13:00:00.000Z'],
        ['8', '1', '50', '2026-03-02T14:00:00.000Z'],
      ],
    );
    const second = of(posts.second, alpha)!;
    assert.equal(
      second['Caption (start)'],
      'Line one line "two", more, and a caption long enough to be c…',
    );
    assert.deepEqual(
      [second.Views, second['Engagement rate (%)'], second['Last updated (UTC)'], second.Tags],
      ['', '', '', ''],
    );
  });

  test('a key without analytics:read: the posts file without figures, no analytics file', async () => {
    const narrow = { ...env, SLOTLINE_KEY: await keyWith(['posts:read', 'accounts:read']) };
    const run = await cli(narrow, ['export', 'posts', '--account', alpha]);
    assert.equal(run.code, 0, run.err);
    assert.equal(run.err, 'warning: this key may not read analytics: the figures are left empty\n');
    const rows = parse<Record<string, string>>(run.out, { bom: true, columns: true });
    assert.equal(rows.find((r) => r['Post ID'] === posts.first)!.Views, '');
    const refused = await cli(narrow, ['export', 'analytics']);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /^error: insufficient_scope: /);
  });

  test('an unknown tag or account is an error; a bad command line exits 2', async () => {
    const tag = await cli(env, ['export', 'posts', '--tag', 'Nope']);
    assert.deepEqual(
      [tag.code, tag.out, tag.err],
      [1, '', 'error: no content tag is named Nope\n'],
    );
    const account = await cli(env, ['export', 'analytics', '--account', '@nobody']);
    assert.deepEqual([account.code, account.out], [1, '']);
    assert.equal(
      account.err,
      'error: no account is @nobody (Check the username against GET /v2/accounts (or the dashboard); letter case does not matter.)\n',
    );
    const id = await cli(env, ['export', 'posts', '--account', 'acc_nope']);
    assert.equal(
      id.err,
      'error: no account has the id acc_nope (Give an account id from GET /v2/accounts, or @username.)\n',
    );
    for (const args of [
      ['export'],
      ['export', 'things'],
      ['export', 'posts', '--since', 'yesterday'],
      ['export', 'posts', '--json'],
    ]) {
      const bad = await cli(env, args);
      assert.equal(bad.code, 2, args.join(' '));
      assert.match(bad.err, /Run 'slotline-client export --help' for usage/);
    }
  });
});
