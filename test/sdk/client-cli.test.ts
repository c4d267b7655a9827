// The `slotline-client` command against a listening service, run from source through the
// root launcher: upload a file, create a post, and watch it while a worker posts it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { listeningApp } from '../helpers/browser.ts';
import { client, seedCompany, type TestApp } from '../helpers/app.ts';
import { makeActiveAccounts, type CallFn } from '../helpers/posts.ts';
import { FIXTURES } from '../helpers/uploads.ts';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import { assignAccounts, createWorker } from '../../src/modules/workers/index.ts';
import { progressReporter, progressText } from '../../sdk/src/cli/progress.ts';

const DAY = '2026-03-02';
const VIDEO = join(FIXTURES, 'h264-aac-faststart.mp4');

interface Run {
  lines: string[];
  stderr: () => string;
  /** Resolves with the first stdout line (parsed when JSON) that `match` accepts. */
  line(match: (line: string) => boolean): Promise<string>;
  exit: Promise<number | null>;
}

function cli(env: Record<string, string>, args: string[], limitMs = 60_000): Run {
  const { NODE_TEST_CONTEXT: _ctx, ...inherited } = process.env;
  const child = spawn(process.execPath, ['bin/slotline-client.js', ...args], {
    env: { ...inherited, SLOTLINE_FROM_SOURCE: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiting: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  let partial = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      for (const w of waiting.filter((w) => w.match(line))) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  const exit = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    }),
  );
  return {
    lines,
    stderr: () => stderr,
    exit,
    line(match) {
      const seen = lines.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return Promise.race([
        new Promise<string>((resolve) => waiting.push({ match, resolve })),
        exit.then((code) => {
          throw new Error(`exited ${code} first; stderr: ${stderr}; stdout: ${lines.join('\n')}`);
        }),
      ]);
    },
  };
}

async function finished(run: Run) {
  const code = await run.exit;
  return { code, stdout: run.lines.join('\n'), stderr: run.stderr() };
}

describe('slotline-client', { timeout: 300_000 }, () => {
  let t: TestApp;
  let env: Record<string, string>;
  let call: CallFn;
  let work: CallFn;
  let accounts: string[];

  before(async () => {
    const listening = await listeningApp();
    t = listening.t;
    t.clock.set(`${DAY}T10:00:00.000Z`);
    const { key } = await seedCompany(t);
    env = { SLOTLINE_URL: listening.url, SLOTLINE_KEY: key };
    call = client(t, key);
    accounts = await makeActiveAccounts(t, call, 2);
    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'cli', timezone: 'UTC' });
    await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, accounts);
    work = client(t, worker.token);
  });
  after(async () => {
    await t?.close();
  });

  test('upload, post and watch while a worker posts to one account and fails the other', async () => {
    const uploaded = await finished(cli(env, ['upload', VIDEO, '--json']));
    assert.equal(uploaded.code, 0, uploaded.stderr);
    const upload = JSON.parse(uploaded.stdout);
    assert.equal(upload.status, 'ready');
    assert.match(uploaded.stderr, /^uploaded 100% .+ \/ .+\/s$/m);

    const [accA, accB] = accounts as [string, string];
    const args = ['post', '--media', upload.uploadId, '--account', `${accA},${accB}`];
    const posted = await finished(cli(env, [...args, '--skip-approval', '--json']));
    assert.equal(posted.code, 0, posted.stderr);
    const post = JSON.parse(posted.stdout);
    assert.equal(post.status, 'queued');

    const watch = cli(env, [
      'watch',
      post.postId,
      '--interval',
      '0.05',
      '--timeout',
      '120',
      '--json',
    ]);
    const status = (type: string, value: string, accountId?: string) => (line: string) => {
      const change = JSON.parse(line);
      return (
        change.type === type &&
        change.status === value &&
        (accountId === undefined || change.accountId === accountId)
      );
    };
    await watch.line(status('account', 'queued', accB));
    t.clock.set(`${DAY}T11:00:00.000Z`);
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 2);
    await watch.line(status('post', 'posting'));
    t.clock.set(`${DAY}T11:10:00.000Z`);
    const claimed = await work('POST', '/worker/v1/tasks/claim', {});
    assert.equal(claimed.status, 200, JSON.stringify(claimed.body));
    const taskOf = (accountId: string) =>
      claimed.body.data.find((task: any) => task.accountId === accountId).taskId;
    const username = claimed.body.data.find((task: any) => task.accountId === accA).username;
    const url = `https://platform-a.example/@${username}/video/1`;
    const done = await work('POST', `/worker/v1/tasks/${taskOf(accA)}/result`, {
      outcome: 'posted',
      postUrl: url,
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    await watch.line(status('account', 'posted', accA));
    const failed = await work('POST', `/worker/v1/tasks/${taskOf(accB)}/result`, {
      outcome: 'failed',
      reason: 'Login expired',
    });
    assert.equal(failed.status, 200, JSON.stringify(failed.body));

    const result = await finished(watch);
    assert.equal(result.code, 0, result.stderr);
    const changes = watch.lines.map((line) => JSON.parse(line));
    for (const change of changes) {
      assert.equal(change.postId, post.postId);
      assert.ok(!Number.isNaN(Date.parse(change.time)), change.time);
    }
    assert.deepEqual(changes[0], { ...changes[0], type: 'post', status: 'queued' });
    // One line per change: no entity repeats a status it already had.
    const history = (key: string) =>
      changes
        .filter((c) => (c.type === 'post' ? 'post' : c.accountId) === key)
        .map((c) => c.status);
    for (const key of ['post', accA, accB]) {
      const seen = history(key);
      assert.ok(
        seen.every((s, i) => i === 0 || s !== seen[i - 1]),
        `${key}: ${seen}`,
      );
    }
    assert.equal(history(accA).at(-1), 'posted');
    assert.equal(history(accB).at(-1), 'failed');
    assert.equal(history('post').at(-1), 'partially_posted');
    const last = changes.filter((c) => c.type === 'account');
    assert.equal(last.find((c) => c.status === 'posted').postUrl, url);
    assert.equal(last.find((c) => c.status === 'failed').error, 'Login expired');
  });

  test('watch prints plain lines and exits 124 when the post does not settle in time', async () => {
    const upload = (await finished(cli(env, ['upload', VIDEO]))).stdout.trim();
    assert.match(upload, /^\S+$/);
    const posted = await finished(cli(env, ['post', '--media', upload, '--account', accounts[0]!]));
    assert.equal(posted.code, 0, posted.stderr);
    const [postId, postStatus] = posted.stdout.split(' ');
    assert.equal(postStatus, 'pending_approval');
    const watch = await finished(
      cli(env, ['watch', postId!, '--interval', '0.05', '--timeout', '0.3']),
    );
    assert.equal(watch.code, 124);
    const lines = watch.stdout.split('\n');
    assert.match(lines[0]!, new RegExp(`^\\S+Z post ${postId} pending_approval$`));
    assert.match(
      lines[1]!,
      new RegExp(`^\\S+Z account ${accounts[0]} \\(@\\S+\\) pending_approval$`),
    );
    assert.equal(lines.length, 2);
    assert.match(watch.stderr, /timed out after 0.3 s/);

    // Cancelling makes every item final: watch then exits 0 on its first look.
    assert.equal((await call('DELETE', `/v2/posts/${postId}`)).status, 200);
    const settled = await finished(cli(env, ['watch', postId!, '--json']));
    assert.equal(settled.code, 0, settled.stderr);
    assert.ok(settled.stdout.split('\n').some((l) => JSON.parse(l).status === 'cancelled'));
  });

  test('API errors print code, message and hint without a stack; bad usage exits 2', async () => {
    const missing = await finished(cli(env, ['watch', 'pst_missing']));
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^error: post_not_found: /);
    assert.match(missing.stderr, /^hint: /m);
    assert.doesNotMatch(missing.stderr, /\n\s+at /);

    const unauthorized = await finished(
      cli({ ...env, SLOTLINE_KEY: 'sk_wrong' }, ['upload', VIDEO]),
    );
    assert.equal(unauthorized.code, 1);
    assert.match(unauthorized.stderr, /error: unauthorized: /);

    const nofile = await finished(cli(env, ['upload', 'no/such/file.mp4']));
    assert.equal(nofile.code, 1);
    assert.match(nofile.stderr, /^error: .*no such file/i);
    assert.doesNotMatch(nofile.stderr, /\n\s+at /);

    const untyped = await finished(cli(env, ['upload', 'package.json']));
    assert.equal(untyped.code, 2);
    assert.match(untyped.stderr, /^slotline-client: the extension of package\.json does not tell/);
    assert.match(untyped.stderr, /pass --content-type/);
    const unkinded = await finished(cli(env, ['upload', 'https://example.com/media']));
    assert.equal(unkinded.code, 2);
    assert.match(unkinded.stderr, /^slotline-client: .*pass --kind video or --kind image/);

    const usage = await finished(cli(env, ['post', '--media', 'upl_1']));
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--account/);
    const nokey = await finished(
      cli({ SLOTLINE_URL: env.SLOTLINE_URL!, SLOTLINE_KEY: '' }, ['watch', 'pst_1']),
    );
    assert.equal(nokey.code, 2);
    assert.match(nokey.stderr, /SLOTLINE_KEY/);
  });

  test('--help of the command and of each subcommand', async () => {
    for (const args of [['--help'], ['upload', '--help'], ['post', '-h'], ['watch', '--help']]) {
      const help = await finished(cli({}, args));
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, /^Usage: slotline-client/);
    }
  });

  test('progress: a bar redrawn on a terminal, a line per tenth otherwise', () => {
    assert.equal(progressText(512, 2048, 1000), '25% 512 B / 2.0 KB 512 B/s');
    assert.equal(progressText(3 * 1048576, 3 * 1048576, 2000), '100% 3.0 MB / 3.0 MB 1.5 MB/s');
    let clock = 0;
    const tty: string[] = [];
    const bar = progressReporter(
      (s) => tty.push(s),
      true,
      () => clock,
    );
    for (const sent of [100, 200, 500, 1000]) {
      clock += 60;
      bar.onProgress(sent, 1000);
    }
    bar.done();
    // Redraws at most every 100 ms, always the last one, then ends the line.
    assert.equal(tty.length, 4);
    assert.match(tty[0]!, /^\r\[#{2}-{22}\] 10% /);
    assert.match(tty[2]!, /^\r\[#{24}\] 100% 1000 B \/ 1000 B /);
    assert.equal(tty[3], '\n');
    const plain: string[] = [];
    const lines = progressReporter(
      (s) => plain.push(s),
      false,
      () => clock,
    );
    for (const sent of [50, 100, 150, 990, 1000]) lines.onProgress(sent, 1000);
    lines.done();
    assert.deepEqual(
      plain.map((l) => l.split(' ')[1]),
      ['5%', '10%', '99%', '100%'],
    );
  });
});
