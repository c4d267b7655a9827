// MCP clients for the tests: the official SDK's client over Streamable HTTP against a
// test app listening on loopback, as an agent reaches a running service.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestApp } from './app.ts';

const listening = new WeakMap<TestApp, Promise<string>>();

/** The app's base URL, listening on a loopback port (once per app). */
export function baseUrlOf(t: TestApp): Promise<string> {
  let address = listening.get(t);
  if (!address) {
    const bound = t.app.server.address();
    // An app started listening elsewhere (listeningApp) is reached where it listens.
    address =
      bound && typeof bound === 'object'
        ? Promise.resolve(`http://127.0.0.1:${bound.port}`)
        : t.app.listen({ port: 0, host: '127.0.0.1' });
    listening.set(t, address);
  }
  return address;
}

/** A connected MCP client with `key` as its bearer key; close it when done. */
export async function mcpClient(t: TestApp, key: string): Promise<Client> {
  const client = new Client({ name: 'slotline-tests', version: '1.0.0' });
  const url = new URL(`${await baseUrlOf(t)}/mcp`);
  await client.connect(
    new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

export interface ToolCallResult {
  isError?: boolean;
  content?: unknown;
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
}

/** The JSON of a successful tool result (structured content, equal to its text). */
export function okResult(result: ToolCallResult): any {
  assert.ok(!result.isError, `the tool failed: ${JSON.stringify(result.content)}`);
  const content = result.content as { type: string; text: string }[];
  assert.equal(content[0]?.type, 'text');
  assert.deepEqual(JSON.parse(content[0]?.text ?? ''), result.structuredContent);
  return result.structuredContent;
}

/** The API error envelope a failed tool result carries, checked to be complete. */
export function errorOf(result: ToolCallResult): {
  code: string;
  message: string;
  hint: string;
  requestId: string;
} {
  assert.equal(result.isError, true, `expected a tool error, got ${JSON.stringify(result)}`);
  assert.equal(result.structuredContent, undefined);
  const content = result.content as { type: string; text: string }[];
  const { error } = JSON.parse(content[0]?.text ?? '') as { error: any };
  assert.deepEqual(Object.keys(error).sort(), ['code', 'hint', 'message', 'requestId']);
  for (const field of ['code', 'message', 'hint', 'requestId']) {
    assert.ok(typeof error[field] === 'string' && error[field].length > 0, field);
  }
  return error;
}

/** The REST status a tool result came from. */
export function statusOf(result: ToolCallResult): unknown {
  return result._meta?.['slotline.io/httpStatus'];
}
