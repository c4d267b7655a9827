// The MCP protocol section of the probe: raw HTTP to POST /mcp of one process with the
// company key, for what the Streamable HTTP transport and JSON-RPC require: Origin
// checked against DNS rebinding, parse errors and invalid params in JSON-RPC's own codes,
// every declared list method answered, cursors checked, protocol chatter not metered,
// and error texts said once.
import { request } from 'node:http';
import type { ProbeRun, Section } from './section.ts';

interface RpcBody {
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code?: unknown; message?: unknown };
}

interface Rpc {
  status: number;
  /** The parsed JSON answer; undefined when it is not a JSON object (see `text`). */
  body: RpcBody | undefined;
  text: string;
}

/** One POST /mcp with any body text and headers (node:http: Host and Origin as given). */
function post(base: string, key: string, body: string, headers: Record<string, string> = {}) {
  const url = new URL('/mcp', base);
  return new Promise<Rpc>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            // Not JSON: only the text is kept, which the cases count as a defect.
          }
          const body = parsed && typeof parsed === 'object' ? (parsed as RpcBody) : undefined;
          resolve({ status: res.statusCode ?? 0, body, text });
        });
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

const INIT_PARAMS = {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'probe', version: '1.0.0' },
};
const rpc = (id: number, method: string, params?: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

/** The JSON-RPC error code of an answer, or undefined when it carries none. */
const codeOf = (res: Rpc): unknown => res.body?.error?.code;

async function probeOrigin(probe: ProbeRun): Promise<void> {
  const base = probe.bases[0] as string;
  const evil: Record<string, string>[] = [
    { origin: 'http://evil.example.com' },
    { origin: 'http://evil.example.com', host: 'evil.example.com' },
    { origin: 'null' },
    { origin: 'https://127.0.0.1.evil.example.com' },
  ];
  let accepted = 0;
  for (const headers of evil) {
    for (const body of [rpc(1, 'initialize', INIT_PARAMS), rpc(2, 'tools/list')]) {
      const res = await post(base, probe.keySecret, body, headers);
      if (res.status < 300) {
        accepted++;
        probe.defect(`MCP Origin: ${JSON.stringify(headers)} answered ${res.status}`);
      } else if (res.status !== 403 || codeOf(res) !== -32000) {
        probe.defect(`MCP Origin: ${JSON.stringify(headers)} answered ${res.status} not 403`);
      }
    }
  }
  // The service's own origin, and no Origin at all (servers, the stdio bridge), go on.
  const own = new URL(probe.env.PUBLIC_URL as string).origin;
  let refusedOwn = 0;
  for (const headers of [{ origin: own }, {}] as Record<string, string>[]) {
    const res = await post(base, probe.keySecret, rpc(3, 'tools/list'), headers);
    if (res.status !== 200) {
      refusedOwn++;
      probe.defect(`MCP Origin: ${JSON.stringify(headers)} refused with ${res.status}`);
    }
  }
  console.log(
    `MCP Origin: ${evil.length * 2} requests from other origins, ${accepted} answered 2xx; ` +
      `${refusedOwn} of 2 own/no-origin requests refused`,
  );
}

async function probeParse(probe: ProbeRun): Promise<void> {
  const base = probe.bases[0] as string;
  const bodies = ['{', '{"jsonrpc":"2.0","id":1,', 'not json', '[{]', '{"a":1}}', ''];
  let wrong = 0;
  for (const body of bodies) {
    const res = await post(base, probe.keySecret, body);
    if (res.status !== 400 || codeOf(res) !== -32700 || res.body?.id !== null) {
      wrong++;
      probe.defect(`MCP parse: ${JSON.stringify(body)} answered ${res.status} ${res.text}`);
    }
  }
  console.log(`MCP malformed JSON: ${bodies.length} bodies, ${wrong} not a -32700 parse error`);
}

/** A message that is a dump of a validation library rather than a sentence. */
const looksRaw = (message: unknown) =>
  typeof message !== 'string' || /^\s*[[{]|"(code|path|expected)"\s*:/.test(message);

async function probeParams(probe: ProbeRun): Promise<void> {
  const base = probe.bases[0] as string;
  const cases: [string, string, unknown][] = [
    ['tools/call arguments null', 'tools/call', { name: 'listAccounts', arguments: null }],
    ['tools/call without name', 'tools/call', { arguments: {} }],
    ['tools/call arguments a string', 'tools/call', { name: 'listAccounts', arguments: 'x' }],
    ['tools/call arguments an array', 'tools/call', { name: 'listAccounts', arguments: [1] }],
    ['initialize without params', 'initialize', undefined],
    ['resources/read without uri', 'resources/read', {}],
    ['prompts/get without name', 'prompts/get', {}],
  ];
  let wrong = 0;
  let raw = 0;
  for (const [label, method, params] of cases) {
    const res = await post(base, probe.keySecret, rpc(9, method, params));
    if (codeOf(res) !== -32602) {
      wrong++;
      probe.defect(`MCP params: ${label} answered ${res.status} ${res.text}`);
    } else if (looksRaw(res.body?.error?.message)) {
      raw++;
      probe.defect(`MCP params: ${label} said ${JSON.stringify(res.body?.error?.message)}`);
    }
  }
  console.log(
    `MCP invalid params: ${cases.length} requests, ${wrong} not -32602, ${raw} with a raw dump`,
  );
}

async function probeLists(probe: ProbeRun): Promise<void> {
  const base = probe.bases[0] as string;
  let wrong = 0;
  const templates = await post(base, probe.keySecret, rpc(4, 'resources/templates/list'));
  if (templates.status !== 200 || !Array.isArray(templates.body?.result?.resourceTemplates)) {
    wrong++;
    probe.defect(`MCP resources/templates/list answered ${templates.text}`);
  }
  const cursors = ['bogus', '', 'eyJvZmZzZXQiOjk5OTk5fQ'];
  let ignored = 0;
  for (const method of ['tools/list', 'resources/list', 'prompts/list']) {
    for (const cursor of cursors) {
      const res = await post(base, probe.keySecret, rpc(5, method, { cursor }));
      if (codeOf(res) !== -32602) {
        ignored++;
        probe.defect(`MCP ${method} cursor ${JSON.stringify(cursor)} answered ${res.status}`);
      }
    }
  }
  console.log(
    `MCP lists: resources/templates/list ${wrong ? 'not answered' : 'answered'}; ` +
      `${cursors.length * 3} invalid cursors, ${ignored} not refused with -32602`,
  );
}

async function probeMetering(probe: ProbeRun): Promise<void> {
  const base = probe.bases[0] as string;
  const call = probe.calls[0]!;
  const used = async () => (await call('GET', '/v2/usage')).body.apiRequestsToday as number;
  const before = await used();
  await post(base, probe.keySecret, rpc(1, 'initialize', INIT_PARAMS));
  await post(base, probe.keySecret, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
  await post(base, probe.keySecret, rpc(2, 'ping'));
  await post(base, probe.keySecret, rpc(3, 'tools/list'));
  const chatter = (await used()) - before;
  // The only call among them is tools/list: one request.
  if (chatter !== 1) probe.defect(`MCP metering: initialize+initialized+ping+list cost ${chatter}`);
  const start = await used();
  await post(
    base,
    probe.keySecret,
    rpc(6, 'tools/call', { name: 'listAccounts', arguments: { limit: 1 } }),
  );
  const tool = (await used()) - start;
  if (tool !== 1) probe.defect(`MCP metering: one tool call cost ${tool}`);
  console.log(
    `MCP metering: initialize+initialized+ping+tools/list counted ${chatter} ` +
      `(expected 1), one tool call ${tool} (expected 1)`,
  );
}

async function probePrefix(probe: ProbeRun): Promise<void> {
  const base = probe.bases[0] as string;
  const cases = [
    rpc(7, 'tools/call', { name: 'dropDatabase', arguments: {} }),
    rpc(7, 'resources/read', { uri: 'slotline://nothing' }),
    rpc(7, 'prompts/get', { name: 'nothing' }),
    rpc(7, 'prompts/get', { name: 'publish-video', arguments: {} }),
    rpc(7, 'tools/call', { name: 'listAccounts', arguments: null }),
    rpc(7, 'no/such/method'),
  ];
  let repeated = 0;
  for (const body of cases) {
    const res = await post(base, probe.keySecret, body);
    const message = res.body?.error?.message;
    if (typeof message !== 'string') {
      probe.defect(`MCP error text: ${body} answered ${res.text}`);
      continue;
    }
    if (/MCP error -?\d+/.test(message)) {
      repeated++;
      probe.defect(`MCP error text: ${body} said ${JSON.stringify(message)}`);
    }
  }
  console.log(
    `MCP error texts: ${cases.length} errors, ${repeated} carrying an "MCP error" prefix`,
  );
}

export const mcpSections: Section[] = [
  {
    name: 'MCP protocol',
    async run(probe) {
      await probeOrigin(probe);
      await probeParse(probe);
      await probeParams(probe);
      await probeLists(probe);
      await probeMetering(probe);
      await probePrefix(probe);
    },
  },
];
