// Post URL templates: what they accept, what they refuse, and the templates refused at start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compilePostUrlPattern, matchPostUrl } from '../../src/lib/post-url-pattern.ts';
import { loadConfig, DEFAULT_POST_URL_PATTERNS } from '../../src/config.ts';
import { simulatedPostUrl } from '../../src/simulator/simulator.ts';

const A = compilePostUrlPattern(DEFAULT_POST_URL_PATTERNS.platformA);
const B = compilePostUrlPattern(DEFAULT_POST_URL_PATTERNS.platformB);

test('a post URL matches with or without a trailing slash, query or fragment, in any case', () => {
  assert.deepEqual(matchPostUrl(A, 'https://platform-a.example/@chef/video/7123'), {
    username: 'chef',
  });
  assert.deepEqual(matchPostUrl(A, 'https://PLATFORM-A.example/@Chef/video/7123/?s=09#c'), {
    username: 'Chef',
  });
  assert.deepEqual(matchPostUrl(A, 'https://platform-a.example/@che%66/video/1'), {
    username: 'chef',
  });
  assert.deepEqual(matchPostUrl(B, 'https://platform-b.example/p/AbC_-1/'), { username: null });
  assert.deepEqual(matchPostUrl(B, 'https://platform-b.example/p/AbC'), { username: null });
});

test('anything else does not match', () => {
  for (const url of [
    'https://platform-a.example/@chef/video/',
    'https://platform-a.example/@chef/video/1/extra',
    'https://evil.example/@chef/video/1',
    'https://platform-a.example.evil.test/@chef/video/1',
    'http://platform-a.example/@chef/video/1',
    'https://platform-a.example/@%E0%A4%A/video/1',
    'https://platform-b.example/p/a/b',
  ]) {
    assert.equal(matchPostUrl(url.includes('platform-b') ? B : A, url), null, url);
  }
});

test('a template is checked when the service starts', () => {
  for (const [value, message] of [
    ['ftp://x.example/{id}', /must start with http/],
    ['https://x.example/{user}/{id}', /unknown placeholder \{user\}/],
    ['https://x.example/@{username}', /must contain \{id\}/],
    ['not a url {id}', /not a URL template/],
  ] as const) {
    assert.throws(
      () => loadConfig({ POST_URL_PATTERN_PLATFORMA: value }),
      (err: Error) =>
        err.message.startsWith('POST_URL_PATTERN_PLATFORMA: ') && message.test(err.message),
      value,
    );
  }
  const off = loadConfig({ POST_URL_PATTERN_PLATFORMB: 'off' });
  assert.equal(off.postUrlPatterns.platformB, null);
  assert.equal(off.postUrlPatterns.platformA?.template, DEFAULT_POST_URL_PATTERNS.platformA);
  const custom = loadConfig({ POST_URL_PATTERN_PLATFORMB: 'https://b.example/{username}/p/{id}' });
  assert.deepEqual(matchPostUrl(custom.postUrlPatterns.platformB!, 'https://b.example/x/p/1'), {
    username: 'x',
  });
});

test("the simulated workers' URLs are posts of their account under the default patterns", () => {
  for (const username of ['chef', 'demo.kitchen', 'a_b-c']) {
    const a = matchPostUrl(A, simulatedPostUrl(`qit_${username}`, 'platformA', username));
    assert.deepEqual(a, { username });
    assert.deepEqual(matchPostUrl(B, simulatedPostUrl(`qit_${username}`, 'platformB', username)), {
      username: null,
    });
  }
});

test('with another pattern configured, the simulated URLs follow it', () => {
  const template = 'https://a.example/u/{username}/posts/{id}';
  const url = simulatedPostUrl('qit_9', 'platformA', 'chef', template);
  assert.deepEqual(matchPostUrl(compilePostUrlPattern(template), url), { username: 'chef' });
});
