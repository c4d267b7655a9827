// `slotline-client import` against a listening service (SQLite): a 200-row CSV file mixing
// good rows and rows with every kind of problem. The dry run reports exactly the bad rows
// and creates nothing; the real run creates exactly the good ones; a run again creates
// nothing and reports them `existing`; a changed media file is refused as other content.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { listeningApp } from '../helpers/browser.ts';
import { client, seedCompany, validAccount, type TestApp } from '../helpers/app.ts';
import { FIXTURES, fixture } from '../helpers/uploads.ts';
import type { CallFn } from '../helpers/posts.ts';
import { clientCli, type ClientRun } from '../helpers/client-cli.ts';

type Result = ClientRun;

/** The command line in this process, against the listening service, output captured. */
const cli = clientCli;

/** The launcher as a user runs it (from source), for what only a process shows. */
function spawned(env: Record<string, string>, args: string[]): Promise<Result> {
  const { NODE_TEST_CONTEXT: _ctx, ...inherited } = process.env;
  const child = spawn(process.execPath, ['bin/slotline-client.js', ...args], {
    env: { ...inherited, SLOTLINE_FROM_SOURCE: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  return new Promise((done) => child.on('close', (code) => done({ code: code ?? -1, out, err })));
}

type Cells = Record<string, string>;
/** A bad row: its cells and the codes its report lists, found locally or by the service. */
interface Bad {
  cells: Cells;
  codes: string[];
  /** Found by the service (the real run says `failed`), not before any call (`invalid`). */
  byService?: boolean;
}

const COLUMNS = ['Media', 'accounts', 'caption', 'hashtags', 'tags', 'priority', 'skipApproval'];
const extra = ['notes', 'platformBPostFormat', 'slides', 'slideTextY', 'slideStyle'];

describe('slotline-client import', { timeout: 120_000 }, () => {
  let t: TestApp;
  let env: Record<string, string>;
  let call: CallFn;
  let companyId: string;
  let dir: string;
  let csvPath: string;
  let source: Server;
  let remote: string;
  const good = new Map<number, Cells>();
  const bad = new Map<number, Bad>();

  const postCount = async () =>
    Number(
      (
        await t.ctx.db
          .selectFrom('posts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_id', '=', companyId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const uploadCount = async () =>
    Number(
      (
        await t.ctx.db
          .selectFrom('uploads')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_id', '=', companyId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  before(async () => {
    const jpeg = await fixture('image.jpg');
    source = createServer((req, res) => {
      if (req.url !== '/remote/photo.jpg') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.length });
      res.end(jpeg);
    });
    await new Promise<void>((done) => source.listen(0, '127.0.0.1', done));
    remote = `http://127.0.0.1:${(source.address() as AddressInfo).port}/remote/photo.jpg`;

    // Remote uploads may fetch from loopback only where the operator allows it.
    const listening = await listeningApp({ env: { REMOTE_FETCH_ALLOW: '127.0.0.1' } });
    t = listening.t;
    const seeded = await seedCompany(t);
    companyId = seeded.companyId;
    env = { SLOTLINE_URL: listening.url, SLOTLINE_KEY: seeded.key };
    call = client(t, seeded.key);
    for (const [platform, username] of [
      ['platformA', 'anna'],
      ['platformB', 'Anna'],
      ['platformA', 'bob'],
    ]) {
      const res = await call('POST', '/v2/accounts', validAccount({ platform, username }));
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    for (const name of ['Launch', 'Spring sale']) {
      assert.equal((await call('POST', '/v2/content-tags', { name })).status, 201);
    }

    dir = await mkdtemp(join(tmpdir(), 'slotline-import-'));
    await mkdir(join(dir, 'media'));
    for (const [from, to] of <[string, string][]>[
      ['h264-aac-faststart.mp4', 'clip.mp4'],
      ['image.png', 'one.png'],
      ['image.jpg', 'two.jpg'],
      ['image-lossy.webp', 'three.webp'],
      // Not an image at all: the service refuses it when it is uploaded.
      ['text.png', 'broken.png'],
    ]) {
      await copyFile(join(FIXTURES, from), join(dir, 'media', to));
    }

    const long = 'x'.repeat(2201);
    const badRows: [number, Bad][] = [
      [5, { cells: { accounts: '@nobody' }, codes: ['account_not_found'] }],
      [17, { cells: { accounts: '@anna' }, codes: ['ambiguous_account'] }],
      [30, { cells: { tags: 'Launch|Unknown tag' }, codes: ['tag_not_found'] }],
      [44, { cells: { Media: 'media/missing.png' }, codes: ['file_not_found'] }],
      [58, { cells: { caption: long }, codes: ['invalid_request'], byService: true }],
      [
        71,
        {
          cells: { Media: 'media/clip.mp4|media/one.png' },
          codes: ['invalid_media_set'],
          byService: true,
        },
      ],
      [85, { cells: { priority: 'high' }, codes: ['invalid_value'] }],
      [99, { cells: { Media: 'media/broken.png' }, codes: ['unsupported_media_type'] }],
      [112, { cells: { accounts: 'acc_doesnotexist' }, codes: ['account_not_found'] }],
      [
        126,
        {
          cells: { Media: 'media/one.png|media/two.jpg', slides: 'a|b|c' },
          codes: ['invalid_value'],
        },
      ],
      [
        140,
        {
          cells: { hashtags: Array.from({ length: 31 }, (_, i) => `#t${i}`).join(' ') },
          codes: ['invalid_request'],
          byService: true,
        },
      ],
      [
        153,
        {
          cells: { skipApproval: 'maybe', accounts: '@nobody' },
          codes: ['account_not_found', 'invalid_value'],
        },
      ],
      [167, { cells: { tags: 'launch', Media: 'media/missing.png' }, codes: ['file_not_found'] }],
      [
        180,
        {
          cells: { Media: 'media/one.png|./media/one.png' },
          codes: ['invalid_media_set'],
          byService: true,
        },
      ],
    ];
    for (const [row, b] of badRows) bad.set(row, b);

    const records: string[][] = [[...COLUMNS, ...extra]];
    for (let row = 2; row <= 201; row++) {
      const variant = row % 5;
      const cells: Cells = {
        // A video, two images, a remote image, or one image (by its absolute path).
        Media: [
          'media/clip.mp4',
          'media/one.png | ./media/two.jpg',
          remote,
          resolve(dir, 'media/three.webp'),
          'media/one.png',
        ][variant]!,
        accounts: ['@bob', 'platformA:@anna|@bob', 'platformB:@ANNA', '@Bob', '@bob'][variant]!,
        caption: `Row ${row}, "quoted", with a comma`,
        hashtags: row % 2 ? '#one two' : '',
        tags: row % 3 ? 'launch' : 'Launch|spring SALE',
        priority: String(row % 4),
        skipApproval: ['yes', 'no', '', '1', 'FALSE'][variant]!,
      };
      // Two carousels, as texts and as JSON slides.
      if (row === 20) {
        Object.assign(cells, {
          Media: 'media/three.webp|media/one.png',
          slides: 'Hook|Buy now',
          slideTextY: '30',
          slideStyle: '{"fontSize":24}',
        });
      }
      if (row === 21) {
        Object.assign(cells, {
          Media: 'media/one.png|media/two.jpg',
          slides: JSON.stringify([
            { image: 2, textElements: [{ content: 'B', style: { positionY: 10 } }] },
            { image: 1, textElements: [] },
          ]),
        });
      }
      const b = bad.get(row);
      Object.assign(cells, b?.cells ?? {});
      if (!b) good.set(row, cells);
      records.push([...COLUMNS, ...extra].map((c) => cells[c] ?? ''));
    }
    csvPath = join(dir, 'posts.csv');
    await writeFile(csvPath, `\uFEFF${stringify(records, { record_delimiter: 'windows' })}`);
    assert.equal(good.size + bad.size, 200);
  });

  after(async () => {
    await t?.close();
    await new Promise((done) => source?.close(done));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  interface Report {
    dryRun: boolean;
    summary: Record<string, number>;
    rows: {
      row: number;
      status: string;
      postId?: string;
      problems: { code: string; message: string }[];
    }[];
  }

  const byRow = (report: Report) => new Map(report.rows.map((r) => [r.row, r]));

  test('a dry run uploads the media, reports exactly the bad rows, and creates nothing', async () => {
    const run = await cli(env, ['import', csvPath, '--dry-run', '--json']);
    assert.equal(run.code, 1, run.err);
    const report = JSON.parse(run.out) as Report;
    assert.equal(report.dryRun, true);
    assert.deepEqual(report.summary, { valid: good.size, invalid: bad.size });
    const rows = byRow(report);
    assert.equal(rows.size, 200);
    for (const [row, b] of bad) {
      const r = rows.get(row)!;
      assert.equal(r.status, 'invalid', `row ${row}`);
      assert.deepEqual(r.problems.map((p) => p.code).sort(), [...b.codes].sort(), `row ${row}`);
    }
    for (const row of good.keys()) assert.equal(rows.get(row)!.status, 'valid', `row ${row}`);
    // The service's message names the upload, and the report adds the file it came from.
    assert.match(
      rows.get(180)!.problems[0]!.message,
      /^\/media lists upload upl_\w+ \(media\/one\.png\) twice$/,
    );
    assert.equal(await postCount(), 0);
    // Five distinct files (three.webp, by two paths, is one) and one URL.
    assert.match(run.err, /^uploading 5 files \(.+\) and 1 URL$/m);
    assert.match(run.err, /^uploaded 100% /m);
    assert.equal(run.err.trim().split('\n').at(-1), `${good.size} valid, ${bad.size} invalid`);
    const cache = JSON.parse(await readFile(`${csvPath}.uploads.json`, 'utf8'));
    assert.deepEqual(Object.keys(cache.files).sort(), [
      'media/clip.mp4',
      'media/one.png',
      'media/three.webp',
      'media/two.jpg',
    ]);
    assert.deepEqual(Object.keys(cache.urls), [remote]);
  });

  test('the real run reuses the uploads and creates exactly the good rows', async () => {
    const uploads = await uploadCount();
    const reportPath = join(dir, 'report.csv');
    const run = await cli(env, ['import', csvPath, '--report', reportPath]);
    assert.equal(run.code, 1, run.err);
    assert.equal(run.out, '');
    // Only the file the service refused is sent again; the others came from the cache.
    assert.equal(await uploadCount(), uploads + 1);
    assert.match(run.err, /^uploading 1 file \(21 B\); 5 reused$/m);
    const failed = [...bad.values()].filter((b) => b.byService).length;
    assert.equal(
      run.err.trim().split('\n').at(-1),
      `${good.size} created, ${bad.size - failed} invalid, ${failed} failed`,
    );
    assert.equal(await postCount(), good.size);

    const lines = (await readFile(reportPath, 'utf8')).trim().split('\n');
    assert.equal(lines[0], 'row,status,postId,code,message,hint');
    const created = lines.filter((l) => /^\d+,created,pst_\w+,,,$/.test(l));
    assert.equal(created.length, good.size);
    assert.ok(
      lines.some((l) => l.startsWith('58,failed,,invalid_request,')),
      'the service’s refusal, with its code',
    );
    assert.ok(
      lines.some((l) =>
        /^17,invalid,,ambiguous_account,.*,Write platformA:@anna or platformB:@anna\.$/.test(l),
      ),
    );

    // The rows' posts are what their cells say.
    const postOf = (row: number) =>
      lines.find((l) => l.startsWith(`${row},created,`))!.split(',')[2]!;
    const carousel = (await call('GET', `/v2/posts/${postOf(20)}`)).body;
    assert.equal(carousel.media.kind, 'image');
    const photo = (await call('GET', `/v2/posts/${postOf(22)}`)).body;
    assert.equal(photo.caption, 'Row 22, "quoted", with a comma');
    assert.deepEqual(photo.hashtags, []);
    assert.deepEqual(
      photo.accounts.map((a: any) => `${a.platform}:${a.username}`),
      ['platformB:Anna'],
    );
    assert.equal(photo.contentGroupIds.length, 1);
    const video = (await call('GET', `/v2/posts/${postOf(25)}`)).body;
    assert.equal(video.media.kind, 'video');
    assert.deepEqual(video.hashtags, ['one', 'two']);
    assert.equal(video.contentGroupIds.length, 1);
    assert.equal(video.status, 'queued', 'skipApproval yes');
  });

  test('a run again creates nothing and reports the rows existing, with their posts', async () => {
    const before = await postCount();
    const first = await cli(env, ['import', csvPath, '--json']);
    const again = byRow(JSON.parse(first.out) as Report);
    assert.equal(first.code, 1);
    assert.equal(await postCount(), before);
    const existing = [...again.values()].filter((r) => r.status === 'existing');
    assert.equal(existing.length, good.size);
    assert.equal(new Set(existing.map((r) => r.postId)).size, good.size);
    assert.match(first.err, /, 4 failed\n$/);

    // A media file changed since: its rows' bodies differ, and say so.
    const later = new Date(Date.now() + 60_000);
    await utimes(join(dir, 'media', 'clip.mp4'), later, later);
    const changed = await cli(env, ['import', csvPath, '--json']);
    const rows = byRow(JSON.parse(changed.out) as Report);
    assert.equal(await postCount(), before);
    const videoRows = [...good.keys()].filter((row) => row % 5 === 0 && row !== 20);
    for (const row of videoRows) {
      const r = rows.get(row)!;
      assert.equal(r.status, 'failed', `row ${row}`);
      assert.deepEqual(
        r.problems.map((p) => p.code),
        ['idempotency_key_mismatch'],
      );
    }
    assert.match(changed.err, /^uploading 2 files \(.+\); 4 reused$/m);
    assert.equal(rows.get(22)!.status, 'existing');
  });

  test('a file that cannot be imported, and a bad command line', async () => {
    const header = join(dir, 'header.csv');
    await writeFile(header, 'media,accounts,Title,when\r\nmedia/one.png,@bob,a,b\r\n');
    const unknown = await cli(env, ['import', header]);
    assert.equal(unknown.code, 1);
    assert.match(
      unknown.err,
      /^error: .*header\.csv: unknown columns Title, when: the columns are media, accounts, /,
    );
    assert.equal(unknown.out, '');

    const none = await cli(env, ['import', join(dir, 'nothing.csv')]);
    assert.equal(none.code, 1);
    assert.match(none.err, /^error: cannot read .*nothing\.csv: ENOENT/);

    const empty = join(dir, 'empty.csv');
    await writeFile(empty, 'media,accounts\r\n\r\n');
    const nothing = await cli(env, ['import', empty]);
    assert.equal(nothing.code, 0, nothing.err);
    assert.equal(nothing.out, 'row,status,postId,code,message,hint\n');
    assert.equal(nothing.err, 'no rows to import\n');

    const usage = await cli(env, ['import']);
    assert.equal(usage.code, 2);
    assert.match(usage.err, /give exactly one CSV file/);
    assert.equal((await cli(env, ['import', csvPath, '--dry'])).code, 2);
  });

  test('--help of import and export, from the launcher', async () => {
    for (const [name, pattern] of [
      ['import', /--dry-run/],
      ['export', /--since <date-time>/],
    ] as const) {
      const help = await spawned({}, [name, '--help']);
      assert.equal(help.code, 0, help.err);
      assert.match(help.out, new RegExp(`^Usage: slotline-client ${name} `));
      assert.match(help.out, pattern);
    }
    const main = await spawned({}, ['--help']);
    assert.match(main.out, /^ {2}import <posts\.csv> /m);
    assert.match(main.out, /^ {2}export <what> /m);
  });
});
