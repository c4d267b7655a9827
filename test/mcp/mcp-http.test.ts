// The remote MCP server (POST /mcp) through the official SDK's client over Streamable
// HTTP, on both databases: its tools are the /v2 operations of the OpenAPI document,
// and a tool call is the REST call, with the same answers, errors, scopes, idempotency,
// limits and metering.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany, validAccount, type TestApp } from '../helpers/app.ts';
import { planWith, writePlansFile } from '../helpers/api-error.ts';
import { makeAccounts, readyUpload } from '../helpers/posts.ts';
import { fixture } from '../helpers/uploads.ts';
import { baseUrlOf, errorOf, mcpClient, okResult, statusOf } from '../helpers/mcp.ts';

const PLANS = writePlansFile({ five_requests: planWith({ apiRequestsPerDay: 5 }) });
/** An origin besides PUBLIC_URL's (http://slotline.test) that browsers may call /mcp from. */
const AGENT_ORIGIN = 'https://agent.example.com';

const INIT = {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'raw-tests', version: '1.0.0' },
};

/** One POST /mcp over HTTP with any body text, as a JSON-RPC client sends it. */
async function postMcp(
  t: TestApp,
  key: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${await baseUrlOf(t)}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The answer of the transport refusing a whole POST: a JSON-RPC error without an id. */
const refusal = (code: number, message: string) => ({
  jsonrpc: '2.0',
  error: { code, message },
  id: null,
});

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
      // Its thumbnail made first, so the tool's answer and REST's show the same post.
      await t.media.idle();
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
      // Its thumbnail made first, so the tool's answer and REST's show the same post.
      await t.media.idle();
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
      // A protocol error says its text once (the client adds its "MCP error <code>: ").
      await assert.rejects(mcp.callTool({ name: 'dropDatabase', arguments: {} }), {
        code: -32602,
        message:
          'MCP error -32602: Unknown tool: dropDatabase; tools/list names the tools this key may call',
      });
    });

    test('another company’s resources are not found through the tools', async () => {
      const t = get();
      const owner = await seedCompany(t);
      const other = await seedCompany(t);
      const ownerCall = client(t, owner.key);
      const [accountId] = await makeAccounts(ownerCall, 1);
      const video = await readyUpload(t, ownerCall, 'h264-aac-faststart.mp4');
      // Its thumbnail made first, so the tool's answer and REST's show the same post.
      await t.media.idle();
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
      const used = async () => (await call('GET', '/v2/usage')).body.apiRequestsToday as number;
      const start = await used();
      // Opening the server (initialize, then notifications/initialized) is not a call.
      const mcp = await connect(t, co.key);
      assert.equal(await used(), start);
      okResult(await mcp.callTool({ name: 'listAccounts', arguments: {} }));
      assert.equal(await used(), start + 1);
      errorOf(await mcp.callTool({ name: 'getPost', arguments: { postId: 'pst_nope' } }));
      assert.equal(await used(), start + 2);
      await call('GET', '/v2/accounts');
      assert.equal(await used(), start + 3);
      // Listing tools is a call of its own.
      await mcp.listTools();
      assert.equal(await used(), start + 4);
    });

    test('protocol chatter is not metered; each listing or read in a batch is', async () => {
      const t = get();
      const co = await seedCompany(t);
      const call = client(t, co.key);
      const used = async () => (await call('GET', '/v2/usage')).body.apiRequestsToday as number;
      const send = (body: unknown) => postMcp(t, co.key, JSON.stringify(body));
      const start = await used();
      assert.equal(
        (await send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT })).status,
        200,
      );
      assert.equal(
        (await send({ jsonrpc: '2.0', method: 'notifications/initialized' })).status,
        202,
      );
      assert.equal((await send({ jsonrpc: '2.0', id: 2, method: 'ping' })).status, 200);
      assert.equal(
        (
          await send({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: 2 },
          })
        ).status,
        202,
      );
      assert.equal(await used(), start);
      const batch = await send([
        { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
        {
          jsonrpc: '2.0',
          id: 'b',
          method: 'resources/read',
          params: { uri: 'slotline://rules/media' },
        },
        { jsonrpc: '2.0', id: 'c', method: 'prompts/list' },
        { jsonrpc: '2.0', id: 'd', method: 'ping' },
      ]);
      assert.equal(batch.status, 200);
      assert.equal(await used(), start + 3);
    });

    test('the daily request cap refuses tool calls as it refuses REST calls', async () => {
      const t = get();
      const co = await seedCompany(t, { plan: 'five_requests' });
      const mcp = await connect(t, co.key); // opening the server counts nothing
      for (let i = 0; i < 5; i++) {
        okResult(await mcp.callTool({ name: 'listAccounts', arguments: {} }));
      }
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

    test('a browser page of another origin is refused, whatever key it carries', async () => {
      const t = get();
      const co = await seedCompany(t);
      const call = client(t, co.key);
      const used = async () => (await call('GET', '/v2/usage')).body.apiRequestsToday as number;
      const start = await used();
      const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT });
      for (const origin of [
        'http://evil.example.com',
        'null',
        'http://slotline.test.evil.example.com',
        'https://slotline.test',
        'http://slotline.test:8080',
      ]) {
        for (const body of [init, list]) {
          const res = await postMcp(t, co.key, body, { origin });
          assert.equal(res.status, 403, origin);
          assert.deepEqual(
            res.body,
            refusal(
              -32000,
              `Invalid Origin header: ${origin} may not call this MCP server; a browser may ` +
                "call it only from the service's own origin or one listed in MCP_ALLOWED_ORIGINS",
            ),
          );
        }
      }
      const base = await baseUrlOf(t);
      for (const method of ['GET', 'DELETE']) {
        const res = await fetch(`${base}/mcp`, {
          method,
          headers: { authorization: `Bearer ${co.key}`, origin: 'http://evil.example.com' },
        });
        assert.equal(res.status, 403, method);
      }
      // Refused before anything was counted.
      assert.equal(await used(), start);
      // PUBLIC_URL's origin, one of MCP_ALLOWED_ORIGINS, and no Origin at all go on.
      const allowed: Record<string, string>[] = [
        { origin: 'http://slotline.test' },
        { origin: AGENT_ORIGIN },
        {},
      ];
      for (const headers of allowed) {
        const res = await postMcp(t, co.key, list, headers);
        assert.equal(res.status, 200, JSON.stringify(headers));
        assert.ok(Array.isArray(res.body.result.tools));
      }
      // Without a valid key the answer is the API's 401, as on any route.
      const noKey = await postMcp(t, 'sl_bad', list, { origin: 'http://evil.example.com' });
      assert.equal(noKey.status, 401);
      assert.equal(noKey.body.error.code, 'unauthorized');
      // The official client from a page of another origin cannot open the server.
      const url = new URL(`${base}/mcp`);
      const browser = new Client({ name: 'page', version: '1.0.0' });
      await assert.rejects(
        browser.connect(
          new StreamableHTTPClientTransport(url, {
            requestInit: {
              headers: { authorization: `Bearer ${co.key}`, origin: 'http://evil.example.com' },
            },
          }),
        ),
        /HTTP 403|Invalid Origin header/,
      );
    });

    test('a body that is not JSON is a JSON-RPC parse error, not the API envelope', async () => {
      const t = get();
      const co = await seedCompany(t);
      for (const body of ['{', '{"jsonrpc":"2.0","id":1,', 'not json', '[{]', '{"a":1}}']) {
        const res = await postMcp(t, co.key, body);
        assert.equal(res.status, 400, body);
        assert.deepEqual(
          res.body,
          refusal(-32700, 'Parse error: the body is not one well-formed JSON document'),
          body,
        );
      }
      const empty = await postMcp(t, co.key, '');
      assert.equal(empty.status, 400);
      assert.deepEqual(
        empty.body,
        refusal(-32700, 'Parse error: the body is empty; send a JSON-RPC message'),
      );
      const text = await postMcp(t, co.key, 'hello', { 'content-type': 'text/plain' });
      assert.equal(text.status, 415);
      assert.deepEqual(
        text.body,
        refusal(
          -32000,
          'Unsupported Media Type: send the JSON-RPC messages with Content-Type: application/json',
        ),
      );
      // Authentication is the API's, in its envelope, before any body is read.
      const unauthorized = await postMcp(t, 'sl_bad', '{');
      assert.equal(unauthorized.status, 401);
      assert.equal(unauthorized.body.error.code, 'unauthorized');
    });

    test('invalid params are -32602 with one sentence naming the field', async () => {
      const t = get();
      const co = await seedCompany(t);
      const ask = async (method: string, params?: unknown) => {
        const res = await postMcp(
          t,
          co.key,
          JSON.stringify({
            jsonrpc: '2.0',
            id: 3,
            method,
            ...(params === undefined ? {} : { params }),
          }),
        );
        assert.equal(res.status, 200);
        assert.equal(res.body.id, 3);
        return res.body.error;
      };
      const cases: [string, unknown, string][] = [
        [
          'tools/call',
          { name: 'listAccounts', arguments: null },
          'params.arguments must be an object, not null',
        ],
        [
          'tools/call',
          { name: 'listAccounts', arguments: 'x' },
          'params.arguments must be an object, not a string',
        ],
        [
          'tools/call',
          { name: 'listAccounts', arguments: [1] },
          'params.arguments must be an object, not an array',
        ],
        ['tools/call', { arguments: {} }, 'params.name is required (a string)'],
        ['tools/call', undefined, 'params is required (an object)'],
        ['initialize', undefined, 'params is required (an object)'],
        [
          'initialize',
          { ...INIT, protocolVersion: 7 },
          'params.protocolVersion must be a string, not a number',
        ],
        ['resources/read', {}, 'params.uri is required (a string)'],
        [
          'prompts/get',
          { name: 'publish-video', arguments: { source: 1 } },
          'params.arguments.source must be a string, not a number',
        ],
      ];
      for (const [method, params, text] of cases) {
        assert.deepEqual(
          await ask(method, params),
          { code: -32602, message: `Invalid params of ${method}: ${text}` },
          `${method} ${JSON.stringify(params)}`,
        );
      }
      // Through the official client too, the text said once.
      const mcp = await connect(t, co.key);
      await assert.rejects(
        mcp.callTool({
          name: 'listAccounts',
          arguments: null as unknown as Record<string, unknown>,
        }),
        {
          code: -32602,
          message:
            'MCP error -32602: Invalid params of tools/call: params.arguments must be an object, not null',
        },
      );
    });

    test('every declared list answers, in one page, and refuses a cursor it never gave', async () => {
      const t = get();
      const co = await seedCompany(t);
      const mcp = await connect(t, co.key);
      assert.deepEqual(await mcp.listResourceTemplates(), { resourceTemplates: [] });
      const tools = await mcp.listTools();
      assert.equal(tools.nextCursor, undefined);
      const cursorText = (cursor: string) =>
        `MCP error -32602: Invalid params: cursor ${JSON.stringify(cursor)} was not issued by ` +
        'this server; its lists come in one page without nextCursor, so send the request without a cursor';
      for (const cursor of ['bogus', '']) {
        const expected = { code: -32602, message: cursorText(cursor) };
        await assert.rejects(mcp.listTools({ cursor }), expected);
        await assert.rejects(mcp.listResources({ cursor }), expected);
        await assert.rejects(mcp.listResourceTemplates({ cursor }), expected);
        await assert.rejects(mcp.listPrompts({ cursor }), expected);
      }
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
  {
    env: { REMOTE_FETCH_ALLOW: '127.0.0.1', PLANS_FILE: PLANS, MCP_ALLOWED_ORIGINS: AGENT_ORIGIN },
  },
);

test('MCP_ALLOWED_ORIGINS takes comma-separated origins, as browsers write them', () => {
  const base = { DATA_DIR: '/tmp/slotline-config-test', PUBLIC_URL: 'http://slotline.test' };
  assert.deepEqual(loadConfig(base).mcpAllowedOrigins, []);
  assert.deepEqual(
    loadConfig({
      ...base,
      MCP_ALLOWED_ORIGINS:
        ' https://Agent.Example.com , http://localhost:6274/,,https://a.test:443',
    }).mcpAllowedOrigins,
    ['https://agent.example.com', 'http://localhost:6274', 'https://a.test'],
  );
  for (const bad of ['agent.example.com', 'https://a.test/app', 'ftp://a.test', '*', 'null']) {
    assert.throws(
      () => loadConfig({ ...base, MCP_ALLOWED_ORIGINS: `https://ok.test,${bad}` }),
      (err: Error) =>
        err instanceof ConfigError &&
        err.message ===
          `MCP_ALLOWED_ORIGINS: "${bad}" is not an origin (scheme://host[:port], e.g. https://agent.example.com)`,
      bad,
    );
  }
});
