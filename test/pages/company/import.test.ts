// The dashboard's import page through HTTP on both databases: a CSV file of good and bad rows
// checked (each row's exact problems, its media fetched once from a loopback server the
// operator allows, nothing created), then created (exactly the good rows' posts, with the
// activity of the user), created again and imported again (nothing new); another company's
// accounts read as unknown ones; the files an import refuses, each with its message; a preview
// of 500 rows within the pages' weight; CSRF, roles and the sealed ticket between the steps.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { companyRows } from '../../helpers/rows-left.ts';
import { client, seedCompany, validAccount, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn, type Browser } from '../../helpers/dashboard.ts';
import type { CallFn } from '../../helpers/posts.ts';
import { fixture } from '../../helpers/uploads.ts';
import { seedDemo } from '../../../src/cli/seed.ts';
import { listActivity } from '../../../src/modules/activity/index.ts';
import { createTag } from '../../../src/modules/tags/index.ts';
import type { UserRole } from '../../../src/db/types.ts';

let server: Server;
let base = '';
/** Requests the media server answered, by path. */
const served = new Map<string, number>();

before(async () => {
  const files: Record<string, [string, Buffer]> = {
    '/img/a.png': ['image/png', await fixture('image.png')],
    '/img/b.jpg': ['image/jpeg', await fixture('image.jpg')],
    '/clip.mp4': ['video/mp4', await fixture('h264-aac-faststart.mp4')],
  };
  server = createServer((req, res) => {
    const path = req.url ?? '';
    served.set(path, (served.get(path) ?? 0) + 1);
    const file = files[path];
    if (!file) {
      res.writeHead(404);
      return res.end('missing');
    }
    res.writeHead(200, { 'content-type': file[0], 'content-length': file[1].length });
    return res.end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

let ips = 0;

/** The media server's requests from now on, by path (both dialects' suites share it). */
function fetchesSince(): () => Record<string, number> {
  const start = new Map(served);
  return () => {
    const out: Record<string, number> = {};
    for (const [path, n] of served) {
      const more = n - (start.get(path) ?? 0);
      if (more > 0) out[path] = more;
    }
    return out;
  };
}

interface Session {
  b: Browser;
  csrf: string;
  email: string;
}

async function as(t: TestApp, companyId: string, role: UserRole = 'editor'): Promise<Session> {
  const u = await userIn(t, companyId, role);
  const b = browser(t, `192.0.2.${(++ips % 250) + 1}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  const page = await b.get('/dashboard/approvals');
  return { b, csrf: hidden(page.body, '_csrf'), email: u.email };
}

/** The check form as a browser sends it: multipart, with the CSRF field and one file. */
async function check(
  t: TestApp,
  s: Session,
  file: { name: string; content: string | Buffer; type?: string } | null,
  csrf: string | null = s.csrf,
  encoding?: string,
) {
  const boundary = `----slotline${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  if (csrf !== null) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${csrf}\r\n`,
      ),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'text/csv'}\r\n\r\n`,
      ),
      Buffer.from(file.content),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const res = await t.app.inject({
    method: 'POST',
    url: '/dashboard/import/check',
    remoteAddress: '192.0.2.254',
    headers: {
      cookie: [...s.b.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...(encoding ? { 'accept-encoding': encoding } : {}),
    },
    payload: Buffer.concat(parts),
  });
  return { status: res.statusCode, body: res.body, sent: res.rawPayload.length };
}

const decode = (html: string) =>
  html
    .replace(/<\/li>/g, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

interface Row {
  state: string;
  /** Each problem's message (its hint left out). */
  problems: string[];
  hints: string[];
  text: string;
}

/** The preview's (or result's) rows by number: state, problems, and the row as text. */
function rowsOf(html: string): Map<number, Row> {
  const rows = new Map<number, Row>();
  for (const m of html.matchAll(/<tr class="import-row row-(\w+)">([\s\S]*?)<\/tr>/g)) {
    const inner = m[2] as string;
    const n = Number(/<th scope="row">Row (\d+)<\/th>/.exec(inner)?.[1]);
    const list = /<ul class="problems">([\s\S]*?)<\/ul>/.exec(inner)?.[1] ?? '';
    const items = [...list.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((p) => p[1] as string);
    rows.set(n, {
      state: m[1] as string,
      problems: items.map((li) => decode(li.split(' <span class="meta">')[0] as string)),
      hints: items.map((li) => decode(/<span class="meta">([\s\S]*?)<\/span>/.exec(li)?.[1] ?? '')),
      text: decode(inner),
    });
  }
  return rows;
}

function ticketOf(html: string): string {
  return hidden(html, 'ticket');
}

async function account(call: CallFn, platform: string, username: string): Promise<string> {
  const res = await call('POST', '/v2/accounts', validAccount({ platform, username }));
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.accountId;
}

/** Rows that a check must leave as they are. */
async function counts(t: TestApp, companyId: string) {
  const of = (table: 'posts' | 'queue_items' | 'idempotency_keys') =>
    companyRows(t.ctx.db, table, companyId);
  return {
    posts: await of('posts'),
    items: await of('queue_items'),
    keys: await of('idempotency_keys'),
  };
}

describeEachDialect(
  'dashboard import',
  (get) => {
    test('a file of good and bad rows: the preview, the create, a second create and a re-import', async () => {
      const t = get();
      const co = await seedCompany(t);
      const call = client(t, co.key);
      const alpha = await account(call, 'platformA', 'alpha.one');
      const beta = await account(call, 'platformB', 'beta.two');
      // Another company's accounts read exactly as unknown ones, by name or by id.
      const other = await seedCompany(t);
      const foreign = await account(client(t, other.key), 'platformA', 'gamma.other');
      const launch = await createTag(t.ctx, co.companyId, { name: 'Launch', color: 'blue' });
      const s = await as(t, co.companyId);

      const csv = [
        'Media,accounts,caption,tags,hashtags',
        `${base}/img/a.png,@alpha.one,First photo,launch,#spring`,
        `${base}/img/a.png|${base}/img/b.jpg,platformA:@alpha.one|@beta.two,"Two photos, one post",,`,
        `${base}/clip.mp4,@nobody,Video to nobody,Missing tag,`,
        `media/local.png,@alpha.one,A file path,,`,
        `${base}/missing.png,@alpha.one,Gone,,`,
        `${base}/clip.mp4|${base}/img/b.jpg,@alpha.one,Mixed,,`,
        `,@alpha.one,No media,,`,
        `${base}/img/a.png,@gamma.other|${foreign}|acc_unknown,Elsewhere,,`,
        `http://10.0.0.1/a.png,@alpha.one,Private,,`,
        '',
      ].join('\r\n');
      const before = await counts(t, co.companyId);
      const fetches = fetchesSince();
      const preview = await check(t, s, { name: 'spring.csv', content: csv });
      assert.equal(preview.status, 200, preview.body);
      assert.deepEqual(await counts(t, co.companyId), before, 'the check created nothing');
      // Each distinct address fetched once, whatever the number of rows naming it.
      assert.deepEqual(fetches(), {
        '/img/a.png': 1,
        '/img/b.jpg': 1,
        '/clip.mp4': 1,
        '/missing.png': 1,
      });

      const rows = rowsOf(preview.body);
      assert.deepEqual([...rows.keys()], [2, 3, 4, 5, 6, 7, 8, 9, 10]);
      const problems = Object.fromEntries([...rows].map(([n, r]) => [n, r.problems]));
      assert.deepEqual(problems, {
        2: [],
        3: [],
        4: ['accounts: no account is @nobody.', 'tags: no content tag is named Missing tag.'],
        5: [
          'media media/local.png: a file path works only from the command line (slotline-client import); here, give the public http or https address of the file, or a Workspace image as workspace:Folder/image.',
        ],
        6: [`media ${base}/missing.png: the address answered HTTP 404.`],
        7: ['media: must be exactly one video, or 1-10 images; videos cannot be combined.'],
        8: ['media: the cell is empty.'],
        9: [
          'accounts: no account is @gamma.other.',
          `accounts: no account has the id ${foreign}.`,
          'accounts: no account has the id acc_unknown.',
        ],
        10: [
          'media http://10.0.0.1/a.png: the address points to a private, loopback, link-local or reserved address.',
        ],
      });
      assert.equal(rows.get(2)?.state, 'ready');
      assert.equal(rows.get(4)?.state, 'problems');
      assert.deepEqual(rows.get(4)?.hints, [
        'Write the account as @username, as the Accounts page shows it, or add the account there first.',
        'Create the tag on the Tags page first, or correct its name in the file.',
      ]);
      // Names, never ids: accounts by @username with their platform, tags by name.
      assert.match(rows.get(2)?.text ?? '', /@alpha\.one \(platformA\)/);
      assert.match(rows.get(2)?.text ?? '', /Launch/);
      assert.match(rows.get(2)?.text ?? '', /1 image a\.png/);
      assert.match(rows.get(3)?.text ?? '', /2 images a\.png, b\.jpg/);
      assert.match(rows.get(3)?.text ?? '', /@alpha\.one \(platformA\) @beta\.two \(platformB\)/);
      assert.match(rows.get(3)?.text ?? '', /“Two photos, one post”/);
      // (Ids stay in the links to each account's page, never in the text.)
      const text = decode(preview.body);
      for (const id of [alpha, beta, launch.tagId]) assert.ok(!text.includes(id), id);
      assert.ok(preview.body.includes(`href="/dashboard/accounts/${alpha}"`));
      assert.match(preview.body, /2 ready rows/);
      assert.match(preview.body, /7 rows with problems/);
      assert.match(preview.body, />Create 2 posts</);

      const ticket = ticketOf(preview.body);
      const created = await s.b.post('/dashboard/import/create', { _csrf: s.csrf, ticket });
      assert.equal(created.status, 200, created.body);
      assert.match(created.body, /2 posts created\./);
      assert.match(created.body, /7 rows of the file were left out by the check/);
      const result = rowsOf(created.body);
      assert.deepEqual([...result.keys()], [2, 3]);
      assert.equal(result.get(2)?.state, 'created');
      const after = await counts(t, co.companyId);
      assert.deepEqual(after, { posts: 2, items: 3, keys: 2 });
      const listed = (await call('GET', '/v2/posts')).body.data as {
        postId: string;
        caption: string;
        hashtags: string[];
        contentGroupIds: string[];
        media: { kind: string; count: number };
        accounts: { accountId: string; status: string }[];
      }[];
      const byCaption = new Map(listed.map((p) => [p.caption, p]));
      const first = byCaption.get('First photo');
      assert.ok(first);
      assert.deepEqual(first.hashtags, ['spring']);
      assert.deepEqual(first.contentGroupIds, [launch.contentGroupId]);
      assert.deepEqual([first.media.kind, first.media.count], ['image', 1]);
      assert.deepEqual(
        first.accounts.map((a) => [a.accountId, a.status]),
        [[alpha, 'pending_approval']],
      );
      const second = byCaption.get('Two photos, one post');
      assert.ok(second);
      assert.equal(second.media.count, 2);
      assert.deepEqual(second.accounts.map((a) => a.accountId).sort(), [alpha, beta].sort());
      // Each row links to its post.
      for (const p of [first, second]) {
        assert.ok(created.body.includes(`href="/dashboard/posts/${p.postId}"`), p.postId);
      }
      // Recorded as the composer records a post: by the signed-in user.
      const log = await listActivity(t.ctx.db, co.companyId, { limit: 10 });
      const made = log.filter((e) => e.action === 'post.created');
      assert.deepEqual(
        made.map((e) => e.actorLabel),
        [s.email, s.email],
      );

      // Pressed again: nothing new, each row shows the post it made.
      const again = await s.b.post('/dashboard/import/create', { _csrf: s.csrf, ticket });
      assert.equal(again.status, 200, again.body);
      assert.match(
        again.body,
        /2 rows were imported before, so nothing new was created for them\./,
      );
      assert.deepEqual(
        [...rowsOf(again.body).values()].map((r) => r.state),
        ['imported', 'imported'],
      );
      assert.deepEqual(await counts(t, co.companyId), after);

      // The same file again: its imported rows say so, link to their posts, and nothing new
      // can be created from it.
      const refetches = fetchesSince();
      const reimport = await check(t, s, { name: 'spring.csv', content: csv });
      assert.equal(reimport.status, 200);
      const seen = rowsOf(reimport.body);
      assert.equal(seen.get(2)?.state, 'imported');
      assert.equal(seen.get(3)?.state, 'imported');
      assert.match(seen.get(2)?.text ?? '', /Already imported See the post/);
      assert.ok(reimport.body.includes(`href="/dashboard/posts/${first.postId}"`));
      assert.doesNotMatch(reimport.body, /name="ticket"/);
      assert.match(reimport.body, /No row can be imported yet/);
      // Each address is fetched again for the rows not imported yet, and only for them.
      assert.deepEqual(refetches(), {
        '/img/a.png': 1,
        '/img/b.jpg': 1,
        '/clip.mp4': 1,
        '/missing.png': 1,
      });
      assert.deepEqual(await counts(t, co.companyId), after);
    });

    test('every row ready, then created; a carousel from slide texts', async () => {
      const t = get();
      const co = await seedCompany(t);
      const call = client(t, co.key);
      await account(call, 'platformA', 'solo.one');
      const s = await as(t, co.companyId, 'admin');
      const csv = [
        'media,accounts,caption,slides,skipApproval',
        `${base}/img/a.png|${base}/img/b.jpg,@solo.one,Tips,First tip|Second tip,yes`,
        `${base}/clip.mp4,@SOLO.ONE,A video,,`,
      ].join('\n');
      const preview = await check(t, s, { name: 'all-good.csv', content: csv });
      assert.equal(preview.status, 200, preview.body);
      assert.match(preview.body, /Every row is ready\. Nothing has been created yet\./);
      assert.match(rowsOf(preview.body).get(2)?.text ?? '', /2 slides/);
      assert.match(rowsOf(preview.body).get(3)?.text ?? '', /1 video/);
      const done = await s.b.post('/dashboard/import/create', {
        _csrf: s.csrf,
        ticket: ticketOf(preview.body),
      });
      assert.equal(done.status, 200);
      assert.match(done.body, /2 posts created\./);
      const posts = (await call('GET', '/v2/posts')).body.data as {
        caption: string;
        media: { kind: string; count: number };
        accounts: { status: string }[];
      }[];
      const carousel = posts.find((p) => p.caption === 'Tips');
      assert.ok(carousel);
      // skipApproval: yes queues it (processing while its slides are drawn).
      assert.notEqual(carousel.accounts[0]?.status, 'pending_approval');
      assert.deepEqual([carousel.media.kind, carousel.media.count], ['image', 2]);
      const kinds = await t.ctx.db
        .selectFrom('posts')
        .select(['caption', 'media_kind'])
        .where('company_id', '=', co.companyId)
        .orderBy('caption')
        .execute();
      assert.deepEqual(
        kinds.map((k) => [k.caption, k.media_kind]),
        [
          ['A video', 'video'],
          ['Tips', 'carousel'],
        ],
      );
      assert.equal(posts.find((p) => p.caption === 'A video')?.media.kind, 'video');
    });

    test('the example file imports as it is into the demo company, from its Workspace', async () => {
      const t = get();
      const demo = await seedDemo(t.ctx);
      const s = await as(t, demo.companyId, 'editor');
      const example = await s.b.get('/dashboard/import/example.csv');
      assert.equal(example.status, 200);
      // Its accounts carry their platform (demo.kitchen is on both), its media are the
      // demo's own Workspace images, fetched from nowhere.
      assert.match(example.body, /platformA:@demo\.kitchen\|platformB:@demo\.kitchen/);
      assert.doesNotMatch(example.body, /example\.com|https?:/);
      assert.match(example.body, /workspace:Backgrounds\/backgrounds-1/);
      const preview = await check(t, s, {
        name: 'slotline-import-example.csv',
        content: example.body,
      });
      assert.equal(preview.status, 200, preview.body);
      const rows = rowsOf(preview.body);
      assert.deepEqual(
        [...rows.values()].map((r) => [r.state, r.problems]),
        [
          ['ready', []],
          ['ready', []],
          ['ready', []],
        ],
      );
      assert.match(rows.get(4)?.text ?? '', /3 slides/);
      assert.match(rows.get(3)?.text ?? '', /2 images/);
      const before = (await counts(t, demo.companyId)).posts;
      const done = await s.b.post('/dashboard/import/create', {
        _csrf: s.csrf,
        ticket: ticketOf(preview.body),
      });
      assert.equal(done.status, 200);
      assert.match(done.body, /3 posts created\./);
      assert.equal((await counts(t, demo.companyId)).posts, before + 3);

      // A Workspace name that is not there is the row's problem, in the file's words.
      const wrong = await check(t, s, {
        name: 'wrong.csv',
        content:
          'media,accounts\nworkspace:Nowhere/x,platformA:@demo.travel\nworkspace:Backgrounds/none,platformA:@demo.travel\n',
      });
      const bad = rowsOf(wrong.body);
      assert.deepEqual(bad.get(2)?.problems, [
        'media workspace:Nowhere/x: names no folder of the Workspace.',
      ]);
      assert.deepEqual(bad.get(3)?.problems, [
        'media workspace:Backgrounds/none: names no image of the folder “Backgrounds”; check its name on the Workspace page.',
      ]);
      // Without the platform, a name on both platforms asks for it, in the page's words.
      const both = await check(t, s, {
        name: 'both.csv',
        content: 'media,accounts\nworkspace:Backgrounds/backgrounds-1,@demo.kitchen\n',
      });
      assert.deepEqual(rowsOf(both.body).get(2)?.hints, [
        'Write platformA:@demo.kitchen or platformB:@demo.kitchen.',
      ]);
    });

    test('a fetch that fails is told of the address, never by the API’s field names', async () => {
      const t = get();
      const co = await seedCompany(t);
      await account(client(t, co.key), 'platformA', 'far.away');
      const s = await as(t, co.companyId);
      const preview = await check(t, s, {
        name: 'unreachable.csv',
        content: 'media,accounts\nhttps://no-such-host.invalid/a.png,@far.away\n',
      });
      assert.equal(preview.status, 200, preview.body);
      const row = rowsOf(preview.body).get(2);
      assert.equal(row?.state, 'problems');
      assert.deepEqual(row?.problems, [
        'media https://no-such-host.invalid/a.png: the host of the address could not be resolved.',
      ]);
      assert.doesNotMatch(preview.body, /sourceUrl|accountIds|contentGroupIds/);
    });

    test('files an import refuses, each in one sentence naming it; never a 500', async () => {
      const t = get();
      const co = await seedCompany(t);
      const s = await as(t, co.companyId);
      const refused = async (
        file: Parameters<typeof check>[2],
        status: number,
        message: string,
      ) => {
        const res = await check(t, s, file);
        assert.equal(res.status, status, `${message}: ${res.body.slice(0, 300)}`);
        assert.ok(decode(res.body).includes(message), `${message} in ${decode(res.body)}`);
        assert.match(res.body, /aria-invalid="true"/);
        assert.match(res.body, /This file cannot be imported/);
      };
      const uploads = async () =>
        (
          await t.ctx.db
            .selectFrom('uploads')
            .select('id')
            .where('company_id', '=', co.companyId)
            .execute()
        ).length;

      await refused(null, 400, 'Choose a CSV file to check.');
      await refused(
        { name: 'big.csv', content: `media,accounts\n${'x,y\n'.repeat(300_000)}` },
        413,
        '“big.csv” is larger than 1 MB, the most an import takes. Split it into smaller files.',
      );
      await refused(
        { name: 'many.csv', content: `media,accounts\n${`${base}/a.png,@a\n`.repeat(501)}` },
        400,
        '“many.csv” has 501 rows; an import takes at most 500. Split it into smaller files.',
      );
      await refused(
        { name: 'photo.csv', content: await fixture('image.png'), type: 'image/png' },
        400,
        '“photo.csv” is not a CSV file. In your spreadsheet, save it as CSV (comma-separated values) and choose that file.',
      );
      await refused(
        { name: 'latin1.csv', content: Buffer.from('media,accounts\ncaf\xe9,@a\n', 'latin1') },
        400,
        '“latin1.csv” is not a CSV file in UTF-8.',
      );
      await refused(
        { name: 'columns.csv', content: 'media,accounts,Title,when\nx,y,z,w\n' },
        400,
        '“columns.csv” cannot be imported: unknown columns Title, when: the columns are media, accounts, caption, hashtags, tags, priority, skipApproval, notes, platformBPostFormat, slides, slideTextY, slideStyle.',
      );
      await refused(
        { name: 'quotes.csv', content: 'media,accounts\n"unclosed,@a\n' },
        400,
        '“quotes.csv” cannot be imported: not a readable CSV file:',
      );
      await refused(
        { name: 'no-accounts.csv', content: 'media,caption\nx,y\n' },
        400,
        '“no-accounts.csv” cannot be imported: the header has no accounts column.',
      );
      await refused({ name: 'empty.csv', content: '' }, 400, '“empty.csv” is empty.');
      await refused(
        { name: 'header.csv', content: 'media,accounts\r\n,\r\n' },
        400,
        '“header.csv” has no rows below its header. Add one row per post.',
      );
      const many = Array.from({ length: 51 }, (_, i) => `${base}/m${i}.png,@a`).join('\n');
      await refused(
        { name: 'media.csv', content: `media,accounts\n${many}\n` },
        400,
        '“media.csv” names 51 different media; an import fetches at most 50. Split it into smaller files.',
      );
      assert.equal(await uploads(), 0, 'no media fetched for a refused file');
      assert.equal(
        served.get('/m0.png'),
        undefined,
        'nothing fetched for a file of too many media',
      );

      // Every row bad: the preview says so, with no button to create.
      const bad = await check(t, s, {
        name: 'bad.csv',
        content:
          'media,accounts\nlocal.png,@nobody\nhttps://exa mple.com/a.png|https://example.com/a.gif,@nobody\n',
      });
      assert.equal(bad.status, 200);
      assert.match(bad.body, /No row can be imported yet/);
      assert.doesNotMatch(bad.body, /Create \d+ post/);
      assert.deepEqual(rowsOf(bad.body).get(2)?.problems, [
        'accounts: no account is @nobody.',
        'media local.png: a file path works only from the command line (slotline-client import); here, give the public http or https address of the file, or a Workspace image as workspace:Folder/image.',
      ]);
      assert.deepEqual(rowsOf(bad.body).get(3)?.problems, [
        'accounts: no account is @nobody.',
        'media https://exa mple.com/a.png: is not a valid web address.',
        'media https://example.com/a.gif: the address does not end in .mp4, .mov, .png, .jpg, .jpeg, .webp or .heic.',
      ]);
    });

    test('a preview of 500 rows stays under the pages’ 150 KB as sent', async () => {
      const t = get();
      const co = await seedCompany(t);
      await account(client(t, co.key), 'platformA', 'weigh.ed');
      const s = await as(t, co.companyId);
      // Captions of a usual length, each its own (repeated text would compress to nothing).
      let seed = 7;
      const word = () => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed.toString(36).slice(0, 3 + (seed % 6));
      };
      const caption = () => Array.from({ length: 24 }, word).join(' ');
      const rows = Array.from(
        { length: 500 },
        (_, i) =>
          `${base}/img/a.png,@weigh.ed${i % 5 === 0 ? '|@nobody' : ''},${caption()},${word()} ${word()}`,
      );
      const csv = `media,accounts,caption,hashtags\n${rows.join('\n')}\n`;
      const preview = await check(t, s, { name: 'weight.csv', content: csv }, s.csrf, 'br');
      assert.equal(preview.status, 200);
      const plain = await check(t, s, { name: 'weight.csv', content: csv });
      assert.equal(rowsOf(plain.body).size, 500);
      assert.match(plain.body, />Create 400 posts</);
      // The ticket of 400 ready rows is in it too.
      assert.ok(preview.sent < 150 * 1024, `${preview.sent} bytes sent`);
      // That ticket is larger than the dashboard's other forms may be; its form takes it.
      const ticket = ticketOf(plain.body);
      assert.ok(ticket.length > 64 * 1024, `a ticket of ${ticket.length} characters`);
      const done = await s.b.post('/dashboard/import/create', { _csrf: s.csrf, ticket });
      assert.equal(done.status, 200);
      assert.match(done.body, /400 posts created\./);
      assert.equal((await counts(t, co.companyId)).posts, 400);
    });

    test('who may import, CSRF, and the ticket between the steps', async () => {
      const t = get();
      const co = await seedCompany(t);
      await account(client(t, co.key), 'platformA', 'tick.et');
      const file = { name: 'one.csv', content: `media,accounts\n${base}/img/a.png,@tick.et\n` };

      // The empty page: the form, the columns and the example file.
      const editor = await as(t, co.companyId);
      const empty = await editor.b.get('/dashboard/import');
      assert.equal(empty.status, 200);
      assert.match(empty.body, /enctype="multipart\/form-data"/);
      assert.match(empty.body, /Download an example CSV/);
      assert.match(
        empty.body,
        /Media are public http or https addresses or Workspace images here\./,
      );
      assert.match(empty.body, /aria-current="step"><span class="step-n" aria-hidden="true">1/);
      const example = await editor.b.get('/dashboard/import/example.csv');
      assert.equal(example.status, 200);
      assert.match(example.body, /^media,accounts,caption,hashtags,tags,skipApproval,slides\r\n/);
      assert.match(example.body, /,platformA:@tick\.et,/);

      // A viewer may not: not the page, not the check, not the create.
      const viewer = await as(t, co.companyId, 'viewer');
      assert.equal((await viewer.b.get('/dashboard/import')).status, 403);
      assert.doesNotMatch(
        (await viewer.b.get('/dashboard/approvals')).body,
        /\/dashboard\/import"/,
      );
      const refusedCheck = await check(t, viewer, file);
      assert.equal(refusedCheck.status, 403);
      assert.match(refusedCheck.body, /This needs the editor role; you are signed in as viewer\./);

      // Without the CSRF token (or with another session's): refused, nothing fetched.
      const uploads = async () =>
        (
          await t.ctx.db
            .selectFrom('uploads')
            .select('id')
            .where('company_id', '=', co.companyId)
            .execute()
        ).length;
      assert.equal((await check(t, editor, file, null)).status, 403);
      assert.equal((await check(t, editor, file, viewer.csrf)).status, 403);
      assert.equal(await uploads(), 0);
      // Signed out: to the sign-in page.
      const anonymous = { b: browser(t), csrf: editor.csrf, email: '' };
      const out = await check(t, anonymous, file);
      assert.equal(out.status, 303);

      const preview = await check(t, editor, file);
      assert.equal(preview.status, 200, preview.body);
      const ticket = ticketOf(preview.body);
      const post = (s: Session, form: Record<string, string>) =>
        s.b.post('/dashboard/import/create', form);
      assert.equal((await post(editor, { ticket })).status, 403);
      assert.equal((await post(viewer, { _csrf: viewer.csrf, ticket })).status, 403);
      // Another editor of the company cannot use this editor's ticket; a changed one reads as
      // nothing.
      const colleague = await as(t, co.companyId);
      const theirs = await post(colleague, { _csrf: colleague.csrf, ticket });
      assert.equal(theirs.status, 400);
      assert.match(
        theirs.body,
        /This import could not be read\. Choose the file again to check it\./,
      );
      const changed = `${ticket.slice(0, -4)}${ticket.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
      assert.equal((await post(editor, { _csrf: editor.csrf, ticket: changed })).status, 400);
      assert.equal((await post(editor, { _csrf: editor.csrf })).status, 400);
      assert.equal((await counts(t, co.companyId)).posts, 0);
      // An hour later the check is stale.
      t.clock.advance(61 * 60 * 1000);
      const stale = await post(editor, { _csrf: editor.csrf, ticket });
      assert.equal(stale.status, 400);
      assert.match(stale.body, /This check is more than an hour old\./);
      assert.equal((await counts(t, co.companyId)).posts, 0);
    });
  },
  { env: { REMOTE_FETCH_ALLOW: '127.0.0.1' } },
);
