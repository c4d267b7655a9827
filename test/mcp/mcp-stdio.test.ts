// `slotline-client mcp`, the local MCP server over stdio, started as an agent starts it
// (the official SDK's stdio client spawns the command) against a listening service: the
// same tools as the service's own server, calls that answer as REST does, and
// uploadMedia taking a file on this machine.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { client, seedCompany, type TestApp } from '../helpers/app.ts';
import { listeningApp } from '../helpers/browser.ts';
import { makeAccounts } from '../helpers/posts.ts';
import { FIXTURES } from '../helpers/uploads.ts';
import { errorOf, mcpClient, okResult } from '../helpers/mcp.ts';

/** The command as a desktop agent would start it, run from source. */
async function stdioClient(url: string, key: string, extra: string[] = []): Promise<Client> {
  const { NODE_TEST_CONTEXT: _ctx, ...inherited } = process.env;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [resolve('bin/slotline-client.js'), 'mcp', ...extra],
    env: {
      ...(inherited as Record<string, string>),
      SLOTLINE_FROM_SOURCE: '1',
      SLOTLINE_URL: url,
      SLOTLINE_KEY: key,
    },
    stderr: 'pipe',
  });
  const c = new Client({ name: 'stdio-tests', version: '1.0.0' });
  await c.connect(transport);
  return c;
}

describe('slotline-client mcp over stdio', () => {
  let t: TestApp;
  let base = '';
  let dir = '';
  const open: Client[] = [];
  const connect = async (key: string, extra: string[] = []) => {
    const c = await stdioClient(base, key, extra);
    open.push(c);
    return c;
  };

  before(async () => {
    // PUBLIC_URL is where it listens: local files go to the signed upload URLs it hands out.
    ({ t, url: base } = await listeningApp());
    dir = await mkdtemp(join(tmpdir(), 'slotline-mcp-'));
  });
  after(async () => {
    for (const c of open) await c.close();
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('lists the service’s tools, uploadMedia taking a file path too', async () => {
    const co = await seedCompany(t);
    const local = await connect(co.key);
    const remote = await mcpClient(t, co.key);
    open.push(remote);
    const mine = (await local.listTools()).tools;
    const theirs = (await remote.listTools()).tools;
    assert.deepEqual(
      mine.map((x) => x.name),
      theirs.map((x) => x.name),
    );
    for (const tool of mine) {
      const other = theirs.find((x) => x.name === tool.name)!;
      if (tool.name !== 'uploadMedia') {
        assert.deepEqual(tool, other, tool.name);
        continue;
      }
      const schema = tool.inputSchema as any;
      assert.ok(schema.properties.filePath);
      assert.deepEqual(schema.required ?? [], []);
    }
    assert.equal(local.getInstructions(), remote.getInstructions());
    const narrow = await connect(await co.keyWith(['analytics:read']));
    assert.deepEqual((await narrow.listTools()).tools.map((x) => x.name).sort(), [
      'getAccountAnalytics',
      'getPostAnalytics',
    ]);
  });

  test('calls answer as REST does; files upload from this machine', async () => {
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [accountId] = await makeAccounts(call, 1);
    const local = await connect(co.key, ['--media-dir', FIXTURES]);
    const upload = okResult(
      await local.callTool({
        name: 'uploadMedia',
        arguments: { filePath: join(FIXTURES, 'h264-aac-faststart.mp4') },
      }),
    );
    assert.equal(upload.status, 'ready');
    assert.equal(upload.kind, 'video');
    await t.ctx.thumbnails.idle();
    const post = okResult(
      await local.callTool({
        name: 'createPost',
        arguments: { media: [upload.uploadId], accountIds: [accountId], idempotencyKey: 'desk-1' },
      }),
    );
    assert.deepEqual(
      okResult(await local.callTool({ name: 'getPost', arguments: { postId: post.postId } })),
      (await call('GET', `/v2/posts/${post.postId}`)).body,
    );
    const missing = errorOf(
      await local.callTool({ name: 'getPost', arguments: { postId: 'pst_no' } }),
    );
    assert.equal(missing.code, 'post_not_found');
    // Files outside the folders given, or not media at all, are refused before any upload.
    const secret = join(dir, 'notes.txt');
    await writeFile(secret, 'private');
    assert.equal(
      errorOf(await local.callTool({ name: 'uploadMedia', arguments: { filePath: secret } })).code,
      'unsupported_media_type',
    );
    const elsewhere = join(dir, 'clip.mp4');
    await writeFile(elsewhere, 'not really a video');
    const outside = errorOf(
      await local.callTool({ name: 'uploadMedia', arguments: { filePath: elsewhere } }),
    );
    assert.equal(outside.code, 'invalid_request');
    assert.match(outside.message, /outside the folders/);
    const media = await local.readResource({ uri: 'slotline://rules/media' });
    assert.match((media.contents[0] as { text: string }).text, /H\.264 or HEVC/);
  });

  test('a bad key stops the command with the API’s answer', async () => {
    await assert.rejects(stdioClient(base, 'sl_bad'));
  });
});
