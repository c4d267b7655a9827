// A webhook receiver on 127.0.0.1 for tests: records every request (headers and raw body)
// and answers with the status the test chooses for it.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { after, before, beforeEach } from 'node:test';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /**
   * Decides each answer's status (and optional body); 204 by default. `hold` keeps the
   * request open without an answer until the sender gives up or the receiver closes.
   */
  answer: (req: Received, index: number) => number | { status: number; body: string } | 'hold';
  /** Resolves once `n` requests in all have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const waiters: { n: number; resolve: () => void }[] = [];
  const receiver: Receiver = {
    url: '',
    received: [],
    answer: () => 204,
    waitFor(n, timeoutMs = 10_000) {
      if (receiver.received.length >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`received ${receiver.received.length} of ${n} in time`)),
          timeoutMs,
        );
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got = {
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        path: req.url ?? '',
      };
      const index = receiver.received.length;
      receiver.received.push(got);
      const a = receiver.answer(got, index);
      if (a !== 'hold') {
        const { status, body } = typeof a === 'number' ? { status: a, body: '' } : a;
        res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
      }
      for (const w of waiters.splice(0)) {
        if (receiver.received.length >= w.n) w.resolve();
        else waiters.push(w);
      }
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

/**
 * Verifies a received delivery with the `standardwebhooks` package as a receiver would at
 * the moment the attempt was signed (tests sign at a fake clock's time); throws if it fails.
 */
export function verifyAsSigned(secret: string, got: Received): unknown {
  const headers = {
    'webhook-id': String(got.headers['webhook-id']),
    'webhook-timestamp': String(got.headers['webhook-timestamp']),
    'webhook-signature': String(got.headers['webhook-signature']),
  };
  const realNow = Date.now;
  Date.now = () => Number(headers['webhook-timestamp']) * 1000;
  try {
    return new Webhook(secret).verify(got.body, headers);
  } finally {
    Date.now = realNow;
  }
}

/**
 * Inside a `describe`: a receiver started before its tests and closed after them, which
 * forgets what it received and answers 204 again before each test (when `reset` runs too,
 * e.g. to set the test app's clock). Returns the accessor the tests call.
 */
export function useReceiver(reset: () => void = () => {}): () => Receiver {
  let rx: Receiver | undefined;
  before(async () => {
    rx = await startReceiver();
  });
  after(async () => {
    await rx?.close();
  });
  beforeEach(() => {
    reset();
    if (!rx) return;
    rx.received.length = 0;
    rx.answer = () => 204;
  });
  return () => {
    if (!rx) throw new Error('the receiver starts before the tests');
    return rx;
  };
}
