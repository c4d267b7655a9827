// The one shape of every mail: text and HTML from one description, everything interpolated
// escaped, the subject on one line, why it was sent, and how to stop it: one-click
// unsubscribe (RFC 8058) for what may be stopped, a plain statement for security messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderMail, type MailContent } from '../../../src/modules/outbox/index.ts';

const reminder: MailContent = {
  subject: 'Two posts wait for approval\r\nBcc: someone@example.com',
  heading: 'Two posts wait for <approval>',
  paragraphs: ['“Spring menu” for @demo.kitchen misses its 14:00 window unless approved.'],
  action: { label: 'Open approvals', url: 'https://slotline.test/dashboard/approvals?a=1&b=2' },
  why: 'You approve posts for Acme & Co on Slotline.',
  stop: {
    unsubscribeUrl: 'https://slotline.test/unsubscribe/tok',
    preferencesUrl: 'https://slotline.test/dashboard/notifications',
  },
};

test('a stoppable message carries one-click unsubscribe and says how to stop it', () => {
  const mail = renderMail(reminder);
  assert.equal(mail.subject, 'Two posts wait for approval Bcc: someone@example.com');
  assert.deepEqual(mail.headers, {
    'List-Unsubscribe': '<https://slotline.test/unsubscribe/tok>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  });
  assert.match(mail.text, /^Two posts wait for <approval>\n/);
  assert.match(
    mail.text,
    /Open approvals: https:\/\/slotline\.test\/dashboard\/approvals\?a=1&b=2/,
  );
  assert.match(mail.text, /You approve posts for Acme & Co on Slotline\./);
  assert.match(mail.text, /Stop these messages: https:\/\/slotline\.test\/unsubscribe\/tok/);
  assert.match(
    mail.text,
    /Choose what you receive: https:\/\/slotline\.test\/dashboard\/notifications/,
  );
  // The HTML escapes what it interpolates, attributes included.
  assert.match(mail.html, /Two posts wait for &lt;approval&gt;/);
  assert.match(mail.html, /href="https:\/\/slotline\.test\/dashboard\/approvals\?a=1&amp;b=2"/);
  assert.match(mail.html, /Acme &amp; Co/);
  assert.doesNotMatch(mail.html, /<approval>/);
  assert.match(
    mail.html,
    /href="https:\/\/slotline\.test\/unsubscribe\/tok"[^>]*>Stop these messages/,
  );
});

test('a security message cannot be unsubscribed from and says so', () => {
  const mail = renderMail({
    subject: 'Reset your Slotline password',
    heading: 'Reset your password',
    paragraphs: ['The link works once, for 30 minutes.'],
    action: { label: 'Choose a new password', url: 'https://slotline.test/reset/abc' },
    why: 'Someone asked to reset the password of ada@example.com.',
    stop: { security: true },
  });
  assert.deepEqual(mail.headers, {});
  assert.match(mail.text, /it cannot be turned off/);
  assert.doesNotMatch(mail.text, /Stop these messages/);
  assert.match(mail.html, /it cannot be turned off/);
});

test('a message without an action has no button', () => {
  const { action: _left, ...rest } = reminder;
  const mail = renderMail(rest);
  assert.doesNotMatch(mail.html, /display:inline-block/);
  assert.doesNotMatch(mail.text, /Open approvals/);
});
