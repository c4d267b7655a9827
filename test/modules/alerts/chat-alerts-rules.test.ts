// The rules of chat alerts, pure: Slack's escaping (only &, < and >), links as <url|label>,
// templates that escape what they are given once, the kinds of each side and their
// defaults, the checks of a hook's label, URL and kinds (with their codes), the masked form
// of a URL, and long texts cut outside links and entities.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  COMPANY_ALERT_KINDS,
  MAX_ALERT_TEXT,
  OPERATOR_ALERT_KINDS,
  chatEscape,
  chatLink,
  chatText,
  checkHookUrl,
  clipChatText,
  defaultKinds,
  kindLabel,
  kindWords,
  kindsOf,
  maskHookUrl,
} from '../../../src/modules/alerts/index.ts';
import {
  checkKinds,
  checkLabel,
  chatMarkupOf,
} from '../../../src/modules/alerts/chat-alerts.rules.ts';
import { parseAllowList } from '../../../src/media/remote-fetch.ts';

const NONE = parseAllowList('');

test('escaping follows Slack: &, < and > only, & first', () => {
  assert.equal(chatEscape('a & b <c> "d" \'e\' *f*'), 'a &amp; b &lt;c&gt; "d" \'e\' *f*');
  assert.equal(chatEscape('&lt;'), '&amp;lt;', 'an entity typed by a person stays text');
  assert.equal(chatEscape('<!channel> <@U123>'), '&lt;!channel&gt; &lt;@U123&gt;', 'no mentions');
});

test('links are <url|label>, with both parts escaped; other schemes stay text', () => {
  assert.equal(
    String(chatMarkupOf(chatLink('https://slotline.test/dashboard/posts?a=1&b=2', 'Post <1>'))),
    '<https://slotline.test/dashboard/posts?a=1&amp;b=2|Post &lt;1&gt;>',
  );
  assert.equal(
    chatMarkupOf(chatLink('https://x.test/a|b', 'x')),
    '<https://x.test/a%7Cb|x>',
    'a pipe in the URL cannot end it early',
  );
  assert.equal(chatMarkupOf(chatLink('javascript:alert(1)', 'Click')), 'Click');
  assert.equal(chatMarkupOf(chatLink('not a url', 'Just text')), 'Just text');
});

test('a template escapes its values once and keeps links made by chatLink', () => {
  const title = 'Spring <sale> & more';
  const text = chatText`*Approval due* for ${title}: ${chatLink('https://s.test/p/1', 'open it')} (${3} left)`;
  assert.equal(
    chatMarkupOf(text),
    '*Approval due* for Spring &lt;sale&gt; &amp; more: <https://s.test/p/1|open it> (3 left)',
  );
  assert.equal(chatMarkupOf(chatText`${text}`), chatMarkupOf(text), 'markup nests unchanged');
  assert.equal(
    chatMarkupOf('plain <b> & c'),
    'plain &lt;b&gt; &amp; c',
    'a plain string is escaped',
  );
  // A string that looks like markup is still a plain string.
  assert.equal(chatMarkupOf('<https://evil.test|x>'), '&lt;https://evil.test|x&gt;');
});

test('kinds: each side its own, defaults all but the daily summary, with labels', () => {
  assert.deepEqual(kindsOf('cmp_1'), COMPANY_ALERT_KINDS);
  assert.deepEqual(kindsOf(null), OPERATOR_ALERT_KINDS);
  assert.deepEqual(defaultKinds('cmp_1'), [
    'approval_due',
    'approval_missed',
    'task_failed',
    'task_unconfirmed',
    'account_disconnected',
  ]);
  assert.deepEqual(defaultKinds(null), [
    'handoff_unclaimed',
    'task_failed',
    'account_disconnected',
  ]);
  assert.equal(kindLabel('approval_missed'), 'Approval will miss its window');
  assert.equal(kindLabel('handoff_unclaimed'), 'Task not claimed');
  assert.equal(kindWords(['task_failed', 'daily_summary']), 'Post failed, Daily summary');

  const ordered = checkKinds('cmp_1', ['daily_summary', 'approval_due', 'approval_due']);
  assert.deepEqual(ordered, { ok: true, kinds: ['approval_due', 'daily_summary'] });
  const none = checkKinds('cmp_1', []);
  assert.equal(!none.ok && none.problem.code, 'kinds_required');
  const foreign = checkKinds('cmp_1', ['handoff_unclaimed']);
  assert.equal(!foreign.ok && foreign.problem.code, 'kind_unknown', 'an operator kind');
  const summary = checkKinds(null, ['daily_summary']);
  assert.equal(!summary.ok && summary.problem.code, 'kind_unknown');
});

test('labels: 1 to 80 characters', () => {
  assert.equal(checkLabel('')?.code, 'label_required');
  assert.equal(checkLabel('x'.repeat(80)), null);
  const long = checkLabel('x'.repeat(81));
  assert.equal(long?.code, 'label_too_long');
  assert.match(long?.message ?? '', /at most 80 characters \(this has 81\)/);
  assert.equal(checkLabel('é'.repeat(80)), null, 'characters, not bytes');
});

test('URLs: absolute http(s), https unless allowed, no private or local hosts', () => {
  const code = (url: string, allow = NONE) => {
    const r = checkHookUrl(url, allow);
    return r.ok ? r.url : r.problem.code;
  };
  assert.equal(
    code('https://hooks.slack.com/services/T0/B0/abc'),
    'https://hooks.slack.com/services/T0/B0/abc',
  );
  assert.equal(code(''), 'url_required');
  assert.equal(code(`https://hooks.slack.com/${'a'.repeat(2048)}`), 'url_too_long');
  assert.equal(code('hooks.slack.com/services/x'), 'url_invalid');
  assert.equal(code('ftp://hooks.slack.com/x'), 'url_invalid');
  assert.equal(code('https://user:pw@hooks.slack.com/x'), 'url_invalid');
  assert.equal(code('http://hooks.slack.com/services/x'), 'url_not_https');
  assert.equal(code('https://10.0.0.8/hooks/x'), 'url_private_address');
  assert.equal(code('https://[::1]/hooks/x'), 'url_private_address');
  assert.equal(code('https://chat.localhost/hooks/x'), 'url_local_host');
  assert.equal(code('https://mattermost.internal/hooks/x'), 'url_local_host');
  // What the operator admits: plain http to an allowed address or host.
  const loop = parseAllowList('127.0.0.1,mattermost.internal');
  assert.equal(code('http://127.0.0.1:8065/hooks/x', loop), 'http://127.0.0.1:8065/hooks/x');
  assert.equal(
    code('http://mattermost.internal/hooks/x', loop),
    'http://mattermost.internal/hooks/x',
  );
  assert.equal(code('http://10.0.0.8/hooks/x', loop), 'url_private_address');
  const bad = checkHookUrl('http://hooks.slack.com/x', NONE);
  assert.ok(!bad.ok);
  assert.equal(bad.problem.field, 'url');
  assert.match(bad.problem.message, /^Webhook URL: must use https\.$/);
  assert.ok(bad.problem.hint.length > 0);
});

test('the masked URL: host and last 4 characters, never the secret path', () => {
  const url = 'https://hooks.slack.com/services/T000/B000/XXXXXXXXsecret9Qa';
  assert.equal(maskHookUrl(url), 'hooks.slack.com …t9Qa');
  assert.ok(!maskHookUrl(url).includes('T000'));
  assert.equal(maskHookUrl('http://127.0.0.1:8065/hooks/abcd1234'), '127.0.0.1:8065 …1234');
});

test('long texts are cut outside links and entities', () => {
  assert.equal(clipChatText('short'), 'short');
  const link = '<https://s.test/p|post>';
  const text = `${'a'.repeat(MAX_ALERT_TEXT - 10)}${link}${'b'.repeat(50)}`;
  const cut = clipChatText(text);
  assert.ok(cut.length <= MAX_ALERT_TEXT);
  assert.ok(cut.endsWith('…'));
  assert.ok(!cut.includes('<'), 'the unfinished link is left out whole');
  const amp = `${'a'.repeat(MAX_ALERT_TEXT - 3)}&amp;bbb`;
  assert.equal(clipChatText(amp), `${'a'.repeat(MAX_ALERT_TEXT - 3)}…`);
});
