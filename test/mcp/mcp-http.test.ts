// The remote MCP server (POST /mcp) through the official SDK's client over Streamable
// HTTP, on both databases: its tools are the /v2 operations of the OpenAPI document,
// and a tool call is the REST call, with the same answers, errors, scopes, idempotency,
// limits and metering.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany, validAccount, type TestApp } from '../helpers/app.ts';
import { planWith, writePlansFile } from '../helpers/api-error.ts';
import { makeAccounts, readyUpload } from '../helpers/posts.ts';
import { fixture } from '../helpers/uploads.ts';
import { baseUrlOf, errorOf, mcpClient, okResult, statusOf } from '../helpers/mcp.ts';

const PLANS = writePlansFile({ five_requests: planWith({ apiRequestsPerDay: 5 }) });

type Doc = {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, any> };
};

/** What the OpenAPI document says each tool must be: its fields, required ones, scopes. */
function expectedTools(doc: Doc) {
  const out = new Map<string, { fields: string[]; required: string[]; scopes: string[] }>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (!path.startsWith('/v2/')) continue;
    for (const op of Object.values(ops)) {
      const scopes: string[] | undefined = op.security?.[0]?.bearerAuth;
      if (!scopes?.length || ['createUpload', 'completeUpload'].includes(op.operationId)) continue;
      const fields: string[] = [];
      const required: string[] = [];
      for (const p of op.parameters ?? []) {
        const name = p.in === 'header' ? 'idempotencyKey' : p.name;
        fields.push(name);
        if (p.in === 'path' || (p.in === 'query' && p.required)) required.push(name);
      }
      const body = op.requestBody?.content?.['application/json']?.schema;
      if (body) {
        fields.push(...Object.keys(body.properties));
        if (op.requestBody.required !== false) required.push(...(body.required ?? []));
      }
      out.set(op.operationId, { fields: fields.sort(), required: required.sort(), scopes });
    }
  }
  return out;
}

let files: Server;
let filesBase = '';

before(async () => {
  const mp4 = await fixture('h264-aac-faststart.mp4');
  files = createServer((req, res) => {
    if (req.url === '/clip.mp4') {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': mp4.length });
      return res.end(mp4);
    }
    res.writeHead(404);
    return res.end();
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesBase = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});

after(() => new Promise<void>((resolve) => files.close(() => resolve())));

describeEachDialect(
  'MCP server over Streamable HTTP',
  (get) => {
    const open: Client[] = [];
    const connect = async (t: TestApp, key: string) => {
      const c = await mcpClient(t, key);
      open.push(c);
      return c;
    };
    after(async () => {
      for (const c of open) await c.close();
    });

    test('lists one tool per /v2 operation, named and shaped as the OpenAPI document', async () => {
      const t = get();
      const co = await seedCompany(t);
      const call = client(t, co.key);
      const doc = (await call('GET', '/v2/openapi.json')).body as Doc;
      const mcp = await connect(t, co.key);
      const { tools } = await mcp.listTools();
      const expected = expectedTools(doc);
      assert.deepEqual(
        tools.map((tool) => tool.name).sort(),
        [...expected.keys(), 'uploadMedia'].sort(),
      );
      for (const tool of tools) {
        if (tool.name === 'uploadMedia') continue;
        const want = expected.get(tool.name)!;
        const schema = tool.inputSchema as any;
        assert.deepEqual(Object.keys(schema.properties ?? {}).sort(), want.fields, tool.name);
        assert.deepEqual([...(schema.required ?? [])].sort(), want.required, tool.name);
        assert.equal(schema.additionalProperties, false, tool.name);
        assert.ok(
          tool.description?.includes(
            `Requires scope ${want.scopes.map((s) => `\`${s}\``).join(' or ')}`,
          ),
          tool.name,
        );
        // Self-contained: an MCP client sees no components to refer to.
        assert.ok(!JSON.stringify(tool).includes('$ref'), `${tool.name} refers to a component`);
      }
      const byName = new Map(tools.map((tool) => [tool.name, tool as any]));
      const create = byName.get('createPost');
      const body = doc.paths['/v2/posts']!.post.requestBody.content['application/json'].schema;
      for (const field of ['media', 'accountIds', 'caption', 'hashtags', 'priority']) {
        assert.deepEqual(create.inputSchema.properties[field], body.properties[field], field);
      }
      assert.deepEqual(
        Object.keys(byName.get('getPost').outputSchema.properties).sort(),
        Object.keys(doc.components.schemas.Post.properties).sort(),
      );
      // Reads are read-only; cancel, delete, disable and rotate are destructive.
      assert.equal(byName.get('getPost').annotations.readOnlyHint, true);
      for (const name of [
        'cancelPost',
        'deleteContentTag',
        'deleteWebhook',
        'disableWebhook',
        'rotateWebhookSecret',
      ]) {
        assert.equal(byName.get(name).annotations.destructiveHint, true, name);
      }
      for (const name of ['createPost', 'updatePost', 'pauseAccount']) {
        assert.equal(byName.get(name).annotations.destructiveHint, false, name);
      }
    });

    test('reads and writes answer what the REST calls answer', async () => {
      const t = get();
      const co = await seedCompany(t);
      const call = client(t, co.key);
      const mcp = await connect(t, co.key);
      const account = okResult(
        await mcp.callTool({
          name: 'createAccount',
          arguments: validAccount({ username: 'mcp_one' }),
        }),
      );
      assert.equal(account.username, 'mcp_one');
      const listed = okResult(
        await mcp.callTool({ name: 'listAccounts', arguments: { limit: 10 } }),
      );
      assert.deepEqual(listed, (await call('GET', '/v2/accounts?limit=10')).body);
      const video = await readyUpload(t, call, 'h264-aac-faststart.mp4');
      const created = await mcp.callTool({
        name: 'createPost',
        arguments: { media: [video], accountIds: [account.accountId], caption: 'From an agent' },
      });
      assert.equal(statusOf(created), 201);
      const post = okResult(created);
      assert.deepEqual(post, (await call('GET', `/v2/posts/${post.postId}`)).body);
      const updated = okResult(
        await mcp.callTool({
          name: 'updatePost',
          arguments: { postId: post.postId, caption: 'Edited' },
        }),
      );
      assert.equal(updated.caption, 'Edited');
      const got = okResult(
        await mcp.callTool({ name: 'getPost', arguments: { postId: post.postId } }),
      );
      assert.deepEqual(got, (await call('GET', `/v2/posts/${post.postId}`)).body);
      const cancelled = okResult(
        await mcp.callTool({ name: 'cancelPost', arguments: { postId: post.postId } }),
      );
      assert.deepEqual(cancelled.cancellation.cancelled, [account.accountId]);
      const page = okResult(
        await mcp.callTool({ name: 'listPosts', arguments: { status: 'cancelled', limit: 5 } }),
      );
      assert.deepEqual(page, (await call('GET', '/v2/posts?status=cancelled&limit=5')).body);
    });

    test('a create with an idempotencyKey creates one post, however often it is sent', async () => {
      const t = get();
      const co = await seedCompany(t);
      const call = client(t, co.key);
      const [accountId] = await makeAccounts(call, 1);
      const video = await readyUpload(t, call, 'h264-aac-faststart.mp4');
      const mcp = await connect(t, co.key);
      const args = {
        media: [video],
        accountIds: [accountId],
        caption: 'Once',
        idempotencyKey: 'agent-1',
      };
      const first = await mcp.callTool({ name: 'createPost', arguments: args });
      const again = await mcp.callTool({ name: 'createPost', arguments: args });
      assert.equal(statusOf(first), 201);
      assert.equal(statusOf(again), 200);
      assert.equal(okResult(again).postId, okResult(first).postId);
      // The same key over REST replays the same post too: one key space, whatever the door.
      const rest = await call(
        'POST',
        '/v2/posts',
        { media: [video], accountIds: [accountId], caption: 'Once' },
        {
          'idempotency-key': 'agent-1',
        },
      );
      assert.equal(rest.status, 200);
      assert.equal(rest.body.postId, okResult(first).postId);
      assert.equal((await call('GET', '/v2/posts')).body.data.length, 1);
      const mismatch = errorOf(
        await mcp.callTool({ name: 'createPost', arguments: { ...args, caption: 'Other' } }),
      );
      assert.equal(mismatch.code, 'idempotency_key_mismatch');
    });

    test('an API error is a tool error carrying the envelope, with the field named', async () => {
      const t = get();
      const co = await seedCompany(t);
      const mcp = await connect(t, co.key);
      const missing = await mcp.callTool({ name: 'getPost', arguments: { postId: 'pst_nope' } });
      assert.equal(statusOf(missing), 404);
      const notFound = errorOf(missing);
      assert.equal(notFound.code, 'post_not_found');
      assert.match(notFound.requestId, /^req_/);
      const invalid = errorOf(
        await mcp.callTool({
          name: 'createPost',
          arguments: { media: ['upl_x'], accountIds: ['acc_x'], caption: 'x'.repeat(2201) },
        }),
      );
      assert.equal(invalid.code, 'invalid_request');
      assert.match(invalid.message, /^\/caption /);
      const unknownArg = errorOf(
        await mcp.callTool({ name: 'getPost', arguments: { postId: 'pst_1', colour: 'red' } }),
      );
      assert.equal(unknownArg.code, 'invalid_request');
      assert.match(unknownArg.message, /^\/colour /);
      const noId = errorOf(await mcp.callTool({ name: 'getPost', arguments: {} }));
      assert.equal(noId.code, 'invalid_request');
      assert.match(noId.message, /^\/postId is required/);
      // An id is one path segment, never a way to another route.
      const traversal = errorOf(
        await mcp.callTool({ name: 'getPost', arguments: { postId: '../accounts' } }),
      );
      assert.equal(traversal.code, 'post_not_found');
      await assert.rejects(mcp.callTool({ name: 'dropDatabase', arguments: {} }), /Unknown tool/);
    });

    test('another company’s resources are not found through the tools', async () => {
      const t = get();
      const owner = await seedCompany(t);
      const other = await seedCompany(t);
      const ownerCall = client(t, owner.key);
      const [accountId] = await makeAccounts(ownerCall, 1);
      const video = await readyUpload(t, ownerCall, 'h264-aac-faststart.mp4');
      const post = (
        await ownerCall('POST', '/v2/posts', { media: [video], accountIds: [accountId] })
      ).body;
      const mcp = await connect(t, other.key);
      assert.equal(
        errorOf(await mcp.callTool({ name: 'getPost', arguments: { postId: post.postId } })).code,
        'post_not_found',
      );
      assert.equal(
        errorOf(await mcp.callTool({ name: 'getAccount', arguments: { accountId } })).code,
        'account_not_found',
      );
      assert.equal(
        errorOf(await mcp.callTool({ name: 'getUpload', arguments: { uploadId: video } })).code,
        'upload_not_found',
      );
      const created = errorOf(
        await mcp.callTool({
          name: 'createPost',
          arguments: { media: [video], accountIds: [accountId] },
        }),
      );
      assert.equal(created.code, 'upload_not_found');
    });

    test('a narrow key lists only the tools its scopes allow and is refused the others', async () => {
      const t = get();
      const co = await seedCompany(t);
      const mcp = await connect(t, await co.keyWith(['posts:read']));
      const { tools } = await mcp.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), [
        'getPost',
        'getUpload',
        'listAccountQueue',
        'listContentTags',
        'listPostDeliveries',
        'listPosts',
      ]);
      const refused = errorOf(
        await mcp.callTool({ name: 'createContentTag', arguments: { name: 'Launch' } }),
      );
      assert.equal(refused.code, 'insufficient_scope');
      assert.match(refused.message, /posts:write/);
      assert.equal(
        errorOf(
          await mcp.callTool({
            name: 'uploadMedia',
            arguments: { sourceUrl: `${filesBase}/clip.mp4` },
          }),
        ).code,
        'insufficient_scope',
      );
      assert.equal((await client(t, co.key)('GET', '/v2/content-tags')).body.data.length, 0);
    });

    test('each tool call counts once in the day’s API requests, as its REST call does', async () => {
      const t = get();
      const co = await seedCompany(t);
      const call = client(t, co.key);
      const mcp = await connect(t, co.key);
      const used = async () => (await call('GET', '/v2/usage')).body.apiRequestsToday as number;
      const start = await used();
      okResult(await mcp.callTool({ name: 'listAccounts', arguments: {} }));
      assert.equal(await used(), start + 1);
      errorOf(await mcp.callTool({ name: 'getPost', arguments: { postId: 'pst_nope' } }));
      assert.equal(await used(), start + 2);
      await call('GET', '/v2/accounts');
      assert.equal(await used(), start + 3);
      // Listing tools is a request of its own.
      await mcp.listTools();
      assert.equal(await used(), start + 4);
    });

    test('the daily request cap refuses tool calls as it refuses REST calls', async () => {
      const t = get();
      const co = await seedCompany(t, { plan: 'five_requests' });
      const mcp = await connect(t, co.key); // initialize and initialized: 2 requests
      okResult(await mcp.callTool({ name: 'listAccounts', arguments: {} }));
      okResult(await mcp.callTool({ name: 'listAccounts', arguments: {} }));
      okResult(await mcp.callTool({ name: 'listAccounts', arguments: {} }));
      const capped = await mcp.callTool({ name: 'listAccounts', arguments: {} });
      assert.equal(statusOf(capped), 429);
      assert.equal(errorOf(capped).code, 'rate_limited');
    });

    test('uploadMedia fetches a URL and answers the ready upload', async () => {
      const t = get();
      const co = await seedCompany(t);
      const mcp = await connect(t, co.key);
      const upload = okResult(
        await mcp.callTool({
          name: 'uploadMedia',
          arguments: { sourceUrl: `${filesBase}/clip.mp4` },
        }),
      );
      assert.equal(upload.status, 'ready');
      assert.equal(upload.kind, 'video');
      const rest = (await client(t, co.key)('GET', `/v2/uploads/${upload.uploadId}`)).body;
      assert.equal(rest.uploadId, upload.uploadId);
      const failed = errorOf(
        await mcp.callTool({
          name: 'uploadMedia',
          arguments: { sourceUrl: `${filesBase}/gone.mp4` },
        }),
      );
      assert.ok(failed.code.length > 0);
      const noKind = errorOf(
        await mcp.callTool({
          name: 'uploadMedia',
          arguments: { sourceUrl: `${filesBase}/download` },
        }),
      );
      assert.equal(noKind.code, 'invalid_request');
      assert.match(noKind.message, /^\/kind /);
    });

    test('resources give the media and schedule rules, prompts the usual flows', async () => {
      const t = get();
      const co = await seedCompany(t);
      const mcp = await connect(t, co.key);
      const { resources } = await mcp.listResources();
      assert.deepEqual(resources.map((r) => r.uri).sort(), [
        'slotline://rules/media',
        'slotline://rules/schedule',
      ]);
      const media = await mcp.readResource({ uri: 'slotline://rules/media' });
      const text = (media.contents[0] as { text: string }).text;
      assert.match(text, /209,715,200 bytes/);
      assert.match(text, /180 seconds/);
      const { prompts } = await mcp.listPrompts();
      assert.deepEqual(prompts.map((p) => p.name).sort(), ['publish-video', 'weekly-report']);
      const prompt = await mcp.getPrompt({
        name: 'publish-video',
        arguments: { source: 'https://example.com/a.mp4', accounts: '@one' },
      });
      assert.match((prompt.messages[0]!.content as { text: string }).text, /validatePost/);
      assert.match(mcp.getInstructions() ?? '', /validatePost/);
    });

    test('the transport refuses what Streamable HTTP refuses, and keeps no sessions', async () => {
      const t = get();
      const co = await seedCompany(t);
      const base = await baseUrlOf(t);
      const headers = {
        authorization: `Bearer ${co.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      const list = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
      const ok = await fetch(`${base}/mcp`, { method: 'POST', headers, body: list });
      assert.equal(ok.status, 200);
      assert.equal(ok.headers.get('mcp-session-id'), null);
      assert.equal(((await ok.json()) as { id: number }).id, 7);
      const batch = JSON.stringify([
        { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
        { jsonrpc: '2.0', id: 'b', method: 'resources/list' },
      ]);
      const both = (await (
        await fetch(`${base}/mcp`, { method: 'POST', headers, body: batch })
      ).json()) as { id: string }[];
      assert.deepEqual(
        both.map((m) => m.id),
        ['a', 'b'],
      );
      const noAccept = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { ...headers, accept: 'application/json' },
        body: list,
      });
      assert.equal(noAccept.status, 406);
      const badVersion = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { ...headers, 'mcp-protocol-version': '1999-01-01' },
        body: list,
      });
      assert.equal(badVersion.status, 400);
      const notRpc = await fetch(`${base}/mcp`, { method: 'POST', headers, body: '{"hello":1}' });
      assert.equal(notRpc.status, 400);
      const notification = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      });
      assert.equal(notification.status, 202);
      for (const method of ['GET', 'DELETE']) {
        const res = await fetch(`${base}/mcp`, {
          method,
          headers: { authorization: headers.authorization, accept: 'text/event-stream' },
        });
        assert.equal(res.status, 405, method);
        assert.equal(res.headers.get('allow'), 'POST');
      }
    });
  },
  { env: { REMOTE_FETCH_ALLOW: '127.0.0.1', PLANS_FILE: PLANS } },
);
