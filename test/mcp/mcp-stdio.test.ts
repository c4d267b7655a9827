// `slotline-client mcp`, the local MCP server over stdio, started as an agent starts it
// (the official SDK's stdio client spawns the command) against a listening service: the
// same tools as the service's own server, calls that answer as REST does, and
// uploadMedia taking a file on this machine.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { client, seedCompany, type TestApp } from '../helpers/app.ts';
import { listeningApp } from '../helpers/browser.ts';
import { makeAccounts } from '../helpers/posts.ts';
import { FIXTURES } from '../helpers/uploads.ts';
import { errorOf, mcpClient, okResult } from '../helpers/mcp.ts';

/** The command as a desktop agent would start it, run from source; `stderr` collects its own. */
async function stdioClient(
  url: string,
  key: string,
  extra: string[] = [],
  stderr: string[] = [],
): Promise<Client> {
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
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  const c = new Client({ name: 'stdio-tests', version: '1.0.0' });
  await c.connect(transport);
  return c;
}

describe('slotline-client mcp over stdio', () => {
  let t: TestApp;
  let base = '';
  let dir = '';
  const open: Client[] = [];
  const connect = async (key: string, extra: string[] = [], stderr: string[] = [], url = base) => {
    const c = await stdioClient(url, key, extra, stderr);
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
    await t.media.idle();
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

  test('protocol errors are said once, as the service says them', async () => {
    const co = await seedCompany(t);
    const local = await connect(co.key);
    await assert.rejects(local.callTool({ name: 'dropDatabase', arguments: {} }), {
      code: -32602,
      message:
        'MCP error -32602: Unknown tool: dropDatabase; tools/list names the tools this key may call',
    });
    // Checked here as the service checks them: -32602 and a sentence, not -32603.
    await assert.rejects(
      local.callTool({
        name: 'listAccounts',
        arguments: null as unknown as Record<string, unknown>,
      }),
      {
        code: -32602,
        message:
          'MCP error -32602: Invalid params of tools/call: params.arguments must be an object, not null',
      },
    );
    await assert.rejects(local.readResource({ uri: 'slotline://nothing' }), {
      code: -32602,
      message:
        'MCP error -32602: Unknown resource: slotline://nothing; resources/list names the resources',
    });
    // The lists are the service's: templates answered, a cursor refused there.
    assert.deepEqual(await local.listResourceTemplates(), { resourceTemplates: [] });
    await assert.rejects(local.listTools({ cursor: 'bogus' }), (err: Error & { code?: number }) => {
      assert.equal(err.code, -32602);
      assert.match(err.message, /^MCP error -32602: Invalid params: cursor "bogus" was not issued/);
      assert.equal(err.message.split('MCP error').length, 2);
      return true;
    });
  });

  test('a bad key opens the server all the same, and every call tells the API’s answer', async () => {
    const stderr: string[] = [];
    const local = await connect('sl_bad', [], stderr);
    const refused = errorOf(await local.callTool({ name: 'listAccounts', arguments: {} }));
    assert.equal(refused.code, 'unauthorized');
    assert.equal(refused.message, 'API key is invalid or revoked');
    assert.match(refused.requestId, /^req_/);
    await assert.rejects(local.listTools(), {
      code: -32000,
      message:
        'MCP error -32000: API key is invalid or revoked (unauthorized). ' +
        'Send a valid, unrevoked key as "Authorization: Bearer <API_KEY>".',
    });
    assert.match(local.getInstructions() ?? '', /API key is invalid or revoked/);
    // One line on stderr says it too, for whoever reads the agent's logs.
    const lines = stderr
      .join('')
      .split('\n')
      .filter((line) => /unauthorized/.test(line));
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /^slotline-client mcp: unauthorized: API key is invalid or revoked\./);
  });

  test('the command ends with 0 when the agent closes its stdin', async () => {
    const co = await seedCompany(t);
    const { NODE_TEST_CONTEXT: _ctx, ...inherited } = process.env;
    for (const key of [co.key, 'sl_bad']) {
      const child = spawn(process.execPath, [resolve('bin/slotline-client.js'), 'mcp'], {
        env: { ...inherited, SLOTLINE_FROM_SOURCE: '1', SLOTLINE_URL: base, SLOTLINE_KEY: key },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      // Closed once it has answered initialize, as an agent quits a server it used.
      const init = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'a', version: '1' },
        },
      };
      child.stdout.once('data', () => child.stdin.end());
      child.stdin.write(`${JSON.stringify(init)}\n`);
      const code = await new Promise<number | null>((done) => child.once('exit', done));
      assert.equal(code, 0, key);
    }
  });

  test('a service that does not answer is told, and reached once it answers', async () => {
    const co = await seedCompany(t);
    // A port that is listening nowhere yet: take one, then free it.
    const spare = createServer();
    await new Promise<void>((done) => spare.listen(0, '127.0.0.1', done));
    const port = (spare.address() as AddressInfo).port;
    await new Promise<void>((done) => spare.close(() => done()));
    const stderr: string[] = [];
    const local = await connect(co.key, [], stderr, `http://127.0.0.1:${port}`);
    const down = errorOf(await local.callTool({ name: 'listAccounts', arguments: {} }));
    assert.equal(down.code, 'service_unavailable');
    assert.match(
      down.message,
      new RegExp(
        `^Cannot reach the Slotline MCP server at http://127\\.0\\.0\\.1:${port}/mcp: .*ECONNREFUSED`,
      ),
    );
    assert.match(down.hint, /SLOTLINE_URL/);
    await assert.rejects(local.listTools(), /service_unavailable/);
    assert.equal(
      stderr
        .join('')
        .split('\n')
        .filter((line) => /service_unavailable/.test(line)).length,
      1,
    );
    // The service comes up where it was looked for: the next call reaches it.
    const proxy = createServer((req, res) => {
      const target = new URL(req.url ?? '/', base);
      const forward = request(
        target,
        { method: req.method, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(forward);
    });
    await new Promise<void>((done) => proxy.listen(port, '127.0.0.1', done));
    try {
      assert.deepEqual(
        okResult(await local.callTool({ name: 'listAccounts', arguments: {} })),
        (await client(t, co.key)('GET', '/v2/accounts')).body,
      );
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((done) => proxy.close(() => done()));
    }
  });
});
