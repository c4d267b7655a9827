// A stand-in Web Push service on loopback, written from the RFCs rather than the sending
// library: it checks each request's VAPID JWT (RFC 8292: ES256 under the key in `k`, `aud`
// the endpoint's origin, `exp` within a day, `sub` a contact) and decrypts its aes128gcm
// body (RFC 8188 and 8291) with the device keys the test made, then answers what it is told.
import assert from 'node:assert/strict';
import {
  createECDH,
  createDecipheriv,
  createHmac,
  createPublicKey,
  randomBytes,
  verify,
  type ECDH,
} from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deliverDueMail } from '../../src/dispatch/outbox-loop.ts';
import { pushSender } from '../../src/modules/push/index.ts';
import type { TestApp } from './app.ts';

/** A device the test made: the subscription JSON its browser would give, and its secret key. */
export interface Device {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  ecdh: ECDH;
}

export interface ReceivedPush {
  deviceId: string;
  ttl: string | undefined;
  urgency: string | undefined;
  claims: { aud: string; exp: number; sub: string };
  /** The decrypted payload. */
  payload: string;
}

export interface PushService {
  origin: string;
  /** A new device with a subscription at this service. */
  device(): Device;
  received: ReceivedPush[];
  /** Problems found in requests (a bad JWT, a body that does not decrypt). */
  problems: string[];
  /** The status to answer for a device (201 unless told). */
  answer: Map<string, number>;
  close(): Promise<void>;
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

function decrypt(body: Buffer, device: Device): string {
  const salt = body.subarray(0, 16);
  const idlen = body.readUInt8(20);
  const senderKey = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  const uaPublic = Buffer.from(device.keys.p256dh, 'base64url');
  const auth = Buffer.from(device.keys.auth, 'base64url');
  const secret = device.ecdh.computeSecret(senderKey);
  const prkKey = hmac(auth, secret);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, senderKey]);
  const ikm = hmac(prkKey, Buffer.concat([keyInfo, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const plain = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // The last record: content, then the delimiter 0x02 and any zero padding.
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end -= 1;
  assert.equal(plain[end], 2, 'the last record ends with the 0x02 delimiter');
  return plain.subarray(0, end).toString('utf8');
}

function checkVapid(req: IncomingMessage, origin: string): ReceivedPush['claims'] {
  const header = req.headers.authorization ?? '';
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header);
  assert.ok(m, `Authorization is "vapid t=..., k=...": ${header}`);
  const [head, body, signature] = (m[1] as string).split('.');
  assert.ok(head && body && signature, 'a JWS in three parts');
  assert.deepEqual(JSON.parse(Buffer.from(head, 'base64url').toString()), {
    typ: 'JWT',
    alg: 'ES256',
  });
  const k = Buffer.from(m[2] as string, 'base64url');
  assert.equal(k.length, 65, 'k is an uncompressed P-256 key');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: k.subarray(1, 33).toString('base64url'),
      y: k.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${head}.${body}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  assert.ok(ok, 'the JWT is signed by k');
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as ReceivedPush['claims'];
  assert.equal(claims.aud, origin, 'aud is the push service origin');
  const now = Date.now() / 1000;
  assert.ok(claims.exp > now && claims.exp <= now + 24 * 3600, 'exp within the next day');
  assert.match(claims.sub, /^(mailto:\S+@\S+|https:\/\/\S+)$/, 'sub is a contact');
  return claims;
}

export async function startPushService(): Promise<PushService> {
  const devices = new Map<string, Device>();
  const service: PushService = {
    origin: '',
    received: [],
    problems: [],
    answer: new Map(),
    device() {
      const id = randomBytes(8).toString('hex');
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const device: Device = {
        endpoint: `${service.origin}/push/${id}`,
        keys: {
          p256dh: ecdh.getPublicKey().toString('base64url'),
          auth: randomBytes(16).toString('base64url'),
        },
        ecdh,
      };
      devices.set(id, device);
      return device;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = /^\/push\/([0-9a-f]+)$/.exec(req.url ?? '')?.[1] ?? '';
      const device = devices.get(id);
      const status = service.answer.get(id) ?? 201;
      try {
        assert.equal(req.method, 'POST');
        assert.ok(device, `a device at ${req.url}`);
        assert.equal(req.headers['content-encoding'], 'aes128gcm');
        const claims = checkVapid(req, service.origin);
        const payload = decrypt(Buffer.concat(chunks), device);
        if (status >= 200 && status < 300) {
          service.received.push({
            deviceId: id,
            ttl: req.headers.ttl as string | undefined,
            urgency: req.headers.urgency as string | undefined,
            claims,
            payload,
          });
        }
      } catch (err) {
        service.problems.push((err as Error).message);
        res.writeHead(400).end();
        return;
      }
      res.writeHead(status, status === 429 ? { 'retry-after': '60' } : {}).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  service.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return service;
}

/** The id of a device of this service, from its endpoint. */
export function deviceId(device: Device): string {
  return device.endpoint.slice(device.endpoint.lastIndexOf('/') + 1);
}

/**
 * One pass of the push outbox through the real sender (its guard admitting what the test
 * app's REMOTE_FETCH_ALLOW admits): the pushes the service received in it, none refused.
 */
export async function deliverPushes(t: TestApp, service: PushService): Promise<ReceivedPush[]> {
  const before = service.received.length;
  await deliverDueMail(
    t.ctx,
    pushSender(t.ctx.db, { vapid: t.ctx.vapid, allow: t.config.remoteFetchAllow }),
    'push',
  );
  assert.deepEqual(service.problems, []);
  return service.received.slice(before);
}
