// SMTP_URL and MAIL_FROM as the service reads them: unset sends no mail, a bad value stops
// the service at start with the variable named, and the From defaults to the public host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, ConfigError } from '../../src/config.ts';
import { parseMailConfig } from '../../src/lib/mail-config.ts';

const PUBLIC = 'https://slotline.example.com';

test('without SMTP_URL no mail is sent and the From names the public host', () => {
  const mail = parseMailConfig({}, PUBLIC);
  assert.equal(mail.smtpUrl, null);
  assert.equal(mail.from, 'Slotline <no-reply@slotline.example.com>');
  assert.equal(mail.messageIdHost, 'slotline.example.com');
});

test('smtp:// and smtps:// URLs are taken with their credentials', () => {
  for (const url of ['smtp://user:pass@mail.example.com:587', 'smtps://mail.example.com']) {
    assert.equal(parseMailConfig({ SMTP_URL: url }, PUBLIC).smtpUrl, url);
  }
  assert.equal(
    parseMailConfig({ MAIL_FROM: 'Acme Posts <posts@acme.test>' }, PUBLIC).from,
    'Acme Posts <posts@acme.test>',
  );
  assert.equal(parseMailConfig({ MAIL_FROM: 'posts@acme.test' }, PUBLIC).from, 'posts@acme.test');
});

test('a bad SMTP_URL or MAIL_FROM stops the service at start, naming the variable', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ SMTP_URL: 'mail.example.com' }, /SMTP_URL must be a URL/],
    [{ SMTP_URL: 'http://mail.example.com' }, /SMTP_URL must start with smtp:\/\/ or smtps:\/\//],
    [{ MAIL_FROM: 'not an address' }, /MAIL_FROM must be an address/],
    [{ MAIL_FROM: 'Name <a@b.test>\r\nBcc: x@y.test' }, /MAIL_FROM must be an address/],
  ];
  for (const [env, message] of cases) {
    assert.throws(
      () => loadConfig({ DATA_DIR: '/tmp/slotline-mail-config', ...env }),
      (err) => {
        assert.ok(err instanceof ConfigError);
        assert.match(err.message, message);
        return true;
      },
    );
  }
});

test('OUTBOX_POLL_MS is bounded like the other loops', () => {
  assert.equal(loadConfig({ DATA_DIR: '/tmp/slotline-mail-config' }).outboxPollMs, 1_000);
  assert.equal(
    loadConfig({ DATA_DIR: '/tmp/slotline-mail-config', OUTBOX_POLL_MS: '0' }).outboxPollMs,
    0,
  );
  assert.throws(
    () => loadConfig({ DATA_DIR: '/tmp/slotline-mail-config', OUTBOX_POLL_MS: '-1' }),
    /OUTBOX_POLL_MS must be an integer between 0 and 60000/,
  );
});
