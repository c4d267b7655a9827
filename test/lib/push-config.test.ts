// VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT as the service reads them: both keys
// or neither, each of its exact size in base64url; the subject a mailto: or https: contact,
// by default the From address of mail; a bad value stops the service naming the variable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import webpush from 'web-push';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { parsePushConfig } from '../../src/lib/push-config.ts';

const FROM = 'Slotline <no-reply@slotline.example.com>';

test('without keys one pair is made later; the subject is the From address', () => {
  const push = parsePushConfig({}, FROM);
  assert.equal(push.keys, null);
  assert.equal(push.subject, 'mailto:no-reply@slotline.example.com');
  assert.equal(parsePushConfig({}, 'ops@acme.test').subject, 'mailto:ops@acme.test');
});

test('configured keys and subject are taken as given', () => {
  const keys = webpush.generateVAPIDKeys();
  const push = parsePushConfig(
    {
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'https://slotline.example.com/contact',
    },
    FROM,
  );
  assert.deepEqual(push.keys, keys);
  assert.equal(push.subject, 'https://slotline.example.com/contact');
});

test('one key without the other, a key of the wrong size or a bad subject stops the service', () => {
  const keys = webpush.generateVAPIDKeys();
  const cases: [Record<string, string>, RegExp][] = [
    [{ VAPID_PUBLIC_KEY: keys.publicKey }, /VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together/],
    [
      { VAPID_PUBLIC_KEY: 'abc', VAPID_PRIVATE_KEY: keys.privateKey },
      /VAPID_PUBLIC_KEY must be 65 bytes/,
    ],
    [
      { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.publicKey },
      /VAPID_PRIVATE_KEY must be 32 bytes/,
    ],
    [
      { VAPID_SUBJECT: 'http://slotline.example.com' },
      /VAPID_SUBJECT must be a mailto: address or an https: URL/,
    ],
  ];
  for (const [env, message] of cases) {
    assert.throws(
      () => loadConfig({ DATA_DIR: '/tmp/slotline-push-config', ...env }),
      (err: unknown) => err instanceof ConfigError && message.test(err.message),
      JSON.stringify(env),
    );
  }
});
