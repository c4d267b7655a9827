// verifyWebhook against signatures made by the reference `standardwebhooks` package and by
// hand: what verifies, and why each kind of bad delivery is refused.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { WebhookVerificationError, verifyWebhook, type WebhookEvent } from '../../sdk/src/index.ts';

const KEY = randomBytes(24);
const SECRET = `whsec_${KEY.toString('base64')}`;
const NOW = new Date('2026-03-01T12:00:00Z');
const SECONDS = Math.floor(NOW.getTime() / 1000);
const PAYLOAD = JSON.stringify({
  type: 'post.status_changed',
  timestamp: NOW.toISOString(),
  data: { postId: 'pst_1', status: 'posted', previousStatus: 'posting' },
});

function signed(body = PAYLOAD, at = NOW, secret = SECRET, id = 'msg_1') {
  const signature = new Webhook(secret).sign(id, at, body);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

function refusedWith(reason: string) {
  return (err: unknown) => {
    assert.ok(err instanceof WebhookVerificationError, String(err));
    assert.equal(err.reason, reason);
    return true;
  };
}

describe('verifyWebhook', { timeout: 10_000 }, () => {
  test('a delivery signed by the reference library verifies and returns its payload', () => {
    const event: WebhookEvent = verifyWebhook(signed(), PAYLOAD, SECRET, { now: NOW });
    assert.equal(event.type, 'post.status_changed');
    assert.equal(event.timestamp, NOW.toISOString());
    assert.deepEqual(event.data, { postId: 'pst_1', status: 'posted', previousStatus: 'posting' });
  });

  test('the body may be a Buffer or Uint8Array, and headers a Headers or any case', () => {
    const headers = signed();
    const upper = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k.toUpperCase(), [v]]),
    );
    const bytes = new TextEncoder().encode(PAYLOAD);
    assert.equal(
      verifyWebhook(upper, Buffer.from(PAYLOAD), SECRET, { now: NOW }).type,
      'post.status_changed',
    );
    assert.equal(
      verifyWebhook(new Headers(headers), bytes, SECRET, { now: NOW }).type,
      'post.status_changed',
    );
  });

  test('a secret without the whsec_ prefix is accepted', () => {
    const event = verifyWebhook(signed(), PAYLOAD, KEY.toString('base64'), { now: NOW });
    assert.equal(event.type, 'post.status_changed');
  });

  test('during a rotation one matching signature among several is enough', () => {
    const other = `whsec_${randomBytes(24).toString('base64')}`;
    const good = signed();
    const stale = signed(PAYLOAD, NOW, other)['webhook-signature'];
    const headers = {
      ...good,
      'webhook-signature': `v2,${randomBytes(32).toString('base64')} ${stale} ${good['webhook-signature']}`,
    };
    assert.equal(verifyWebhook(headers, PAYLOAD, SECRET, { now: NOW }).type, 'post.status_changed');
    // Only an entry of another version matching is not enough.
    const foreign = {
      ...good,
      'webhook-signature': good['webhook-signature'].replace('v1,', 'v2,'),
    };
    assert.throws(
      () => verifyWebhook(foreign, PAYLOAD, SECRET, { now: NOW }),
      refusedWith('invalid_signature'),
    );
  });

  test('a signature computed by hand verifies, and the SDK agrees with the library', () => {
    const id = 'msg_hand';
    const mac = createHmac('sha256', KEY).update(`${id}.${SECONDS}.${PAYLOAD}`).digest('base64');
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(SECONDS),
      'webhook-signature': `v1,${mac}`,
    };
    assert.equal(verifyWebhook(headers, PAYLOAD, SECRET, { now: NOW }).type, 'post.status_changed');
    assert.equal(signed(PAYLOAD, NOW, SECRET, id)['webhook-signature'], `v1,${mac}`);
  });

  test('a tampered body is refused', () => {
    const tampered = PAYLOAD.replace('pst_1', 'pst_2');
    assert.throws(
      () => verifyWebhook(signed(), tampered, SECRET, { now: NOW }),
      refusedWith('invalid_signature'),
    );
  });

  test('a parsed-and-reserialised body does not verify', () => {
    const pretty = JSON.stringify(JSON.parse(PAYLOAD), null, 2);
    assert.throws(
      () => verifyWebhook(signed(), pretty, SECRET, { now: NOW }),
      refusedWith('invalid_signature'),
    );
  });

  test('a wrong secret is refused, and a malformed one says so', () => {
    const wrong = `whsec_${randomBytes(24).toString('base64')}`;
    assert.throws(
      () => verifyWebhook(signed(), PAYLOAD, wrong, { now: NOW }),
      refusedWith('invalid_signature'),
    );
    assert.throws(
      () => verifyWebhook(signed(), PAYLOAD, 'whsec_not base64!', { now: NOW }),
      refusedWith('invalid_secret'),
    );
    assert.throws(
      () => verifyWebhook(signed(), PAYLOAD, 'whsec_', { now: NOW }),
      refusedWith('invalid_secret'),
    );
  });

  test('timestamps beyond the tolerance either way are refused', () => {
    const old = new Date(NOW.getTime() - 301_000);
    const future = new Date(NOW.getTime() + 301_000);
    assert.throws(
      () => verifyWebhook(signed(PAYLOAD, old), PAYLOAD, SECRET, { now: NOW }),
      refusedWith('timestamp_too_old'),
    );
    assert.throws(
      () => verifyWebhook(signed(PAYLOAD, future), PAYLOAD, SECRET, { now: NOW }),
      refusedWith('timestamp_too_new'),
    );
    // Within five minutes passes; a wider tolerance admits the old one.
    const edge = new Date(NOW.getTime() - 299_000);
    assert.equal(
      verifyWebhook(signed(PAYLOAD, edge), PAYLOAD, SECRET, { now: NOW }).type,
      'post.status_changed',
    );
    const wide = { now: NOW, toleranceSeconds: 600 };
    assert.equal(
      verifyWebhook(signed(PAYLOAD, old), PAYLOAD, SECRET, wide).type,
      'post.status_changed',
    );
  });

  test('each missing header is refused', () => {
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const headers: Record<string, string> = signed();
      delete headers[name];
      assert.throws(
        () => verifyWebhook(headers, PAYLOAD, SECRET, { now: NOW }),
        refusedWith('missing_headers'),
        name,
      );
    }
  });

  test('a signed body that is not a JSON object is refused', () => {
    for (const body of ['not json', '[1,2]']) {
      assert.throws(
        () => verifyWebhook(signed(body), body, SECRET, { now: NOW }),
        refusedWith('invalid_payload'),
        body,
      );
    }
  });

  test('a timestamp that is not unix seconds is refused as a bad header', () => {
    const headers = { ...signed(), 'webhook-timestamp': '2026-03-01T12:00:00Z' };
    assert.throws(
      () => verifyWebhook(headers, PAYLOAD, SECRET, { now: NOW }),
      refusedWith('missing_headers'),
    );
  });
});
