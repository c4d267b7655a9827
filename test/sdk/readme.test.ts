// The SDK README's examples: each code block equals its file under sdk/examples/ (so the
// page cannot drift from code that typechecks), and each example runs against the service.
import { after, before, describe, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { SlotlineError, type WebhookEvent } from '../../sdk/src/index.ts';
import { listeningApp } from '../helpers/browser.ts';
import { client, seedCompany, type TestApp } from '../helpers/app.ts';
import { makeActiveAccounts } from '../helpers/posts.ts';
import { FIXTURES } from '../helpers/uploads.ts';
import * as uploadAndPost from '../../sdk/examples/upload-and-post.ts';
import * as paginate from '../../sdk/examples/paginate.ts';
import * as errors from '../../sdk/examples/errors.ts';
import * as webhookReceiver from '../../sdk/examples/webhook-receiver.ts';

const EXAMPLES = 'sdk/examples';
const MARKER = /<!-- example: examples\/([\w.-]+) -->\s*```ts\n([\s\S]*?)```/g;

/** Console output of the examples, kept out of the test report and checked instead. */
function capture() {
  const lines: string[] = [];
  const keep = (...args: unknown[]) => void lines.push(args.join(' '));
  const log = mock.method(console, 'log', keep);
  const error = mock.method(console, 'error', keep);
  return {
    lines,
    restore() {
      log.mock.restore();
      error.mock.restore();
    },
  };
}

describe('the SDK README', { timeout: 120_000 }, () => {
  test('every code block of an example equals its file, and every file is shown', async () => {
    const readme = await readFile('sdk/README.md', 'utf8');
    const shown = new Map<string, string>();
    for (const [, name, code] of readme.matchAll(MARKER)) shown.set(name!, code!);
    const files = (await readdir(EXAMPLES)).filter((f) => f.endsWith('.ts')).sort();
    assert.deepEqual([...shown.keys()].sort(), files);
    for (const file of files) {
      const source = await readFile(join(EXAMPLES, file), 'utf8');
      assert.equal(shown.get(file), source, `sdk/README.md differs from ${EXAMPLES}/${file}`);
    }
  });
});

describe('the SDK README examples against the service', { timeout: 120_000 }, () => {
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;
  let accountId: string;

  before(async () => {
    ({ t, url: baseUrl } = await listeningApp());
    apiKey = (await seedCompany(t)).key;
    [accountId] = (await makeActiveAccounts(t, client(t, apiKey), 1)) as [string];
  });
  after(async () => {
    await t?.close();
  });

  test('upload-and-post uploads a file and creates a post; paginate lists it', async () => {
    const out = capture();
    try {
      const file = join(FIXTURES, 'h264-aac-faststart.mp4');
      const post = await uploadAndPost.main({ baseUrl, apiKey, file, accountId });
      assert.equal(post.caption, 'First post from the SDK');
      assert.deepEqual(
        post.accounts.map((a) => a.accountId),
        [accountId],
      );
      assert.match(out.lines.at(-1)!, new RegExp(`^post ${post.postId} is \\w+$`));
      assert.match(out.lines[0]!, /^uploaded \d+ of \d+ bytes$/);

      const second = await uploadAndPost.main({ baseUrl, apiKey, file, accountId });
      const listed = await paginate.main({ baseUrl, apiKey, accountId });
      assert.deepEqual(listed.sort(), [post.postId, second.postId].sort());
      assert.equal(out.lines.at(-1), `2 posts for ${accountId}`);
    } finally {
      out.restore();
    }
  });

  test('errors answers null for a missing post and reports then rethrows others', async () => {
    const out = capture();
    try {
      assert.equal(await errors.main({ baseUrl, apiKey, postId: 'pst_missing' }), null);
      assert.deepEqual(out.lines, []);
      await assert.rejects(
        errors.main({ baseUrl, apiKey: 'sk_wrong', postId: 'pst_missing' }),
        (err: unknown) => err instanceof SlotlineError && err.status === 401,
      );
      assert.match(out.lines[0]!, /^unauthorized \(HTTP 401\): /);
      assert.match(out.lines[1]!, /^hint: .+ \(request .+\)$/);
    } finally {
      out.restore();
    }
  });

  test('webhook-receiver accepts a signed delivery and refuses a tampered one', async () => {
    const secret = `whsec_${Buffer.from('a webhook signing key of 32 byte').toString('base64')}`;
    const events: WebhookEvent[] = [];
    const out = capture();
    let server: Server | undefined;
    try {
      server = await webhookReceiver.main({ port: 0, secret, onEvent: (e) => events.push(e) });
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      const body = JSON.stringify({
        type: 'post.status_changed',
        timestamp: new Date().toISOString(),
        data: { postId: 'pst_1', status: 'posted', previousStatus: 'posting' },
      });
      const send = (payload: string) => {
        const id = `msg_${events.length}`;
        const now = new Date();
        const headers = {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': new Webhook(secret).sign(id, now, body),
        };
        return fetch(url, {
          method: 'POST',
          headers,
          body: payload,
          signal: AbortSignal.timeout(5000),
        });
      };
      const accepted = await send(body);
      assert.equal(accepted.status, 204);
      assert.deepEqual(
        events.map((e) => e.data),
        [{ postId: 'pst_1', status: 'posted', previousStatus: 'posting' }],
      );
      const refused = await send(body.replace('pst_1', 'pst_2'));
      assert.equal(refused.status, 400);
      assert.equal(await refused.text(), 'invalid_signature');
      assert.equal(events.length, 1);
      assert.deepEqual(out.lines, ['refused a delivery: invalid_signature']);
    } finally {
      out.restore();
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    }
  });
});
