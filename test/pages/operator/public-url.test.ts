// Which PUBLIC_URLs a phone cannot reach: loopback and unspecified addresses in their
// written forms, and nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isLoopbackUrl } from '../../../src/pages/operator/public-url.ts';

test('loopback and unspecified hosts are this machine only', () => {
  for (const url of [
    'http://localhost:3000',
    'http://LOCALHOST',
    'http://localhost.:3000',
    'http://app.localhost',
    'http://127.0.0.1:3000',
    'http://127.1',
    'http://127.255.0.9',
    'https://0.0.0.0:8443',
    'http://[::1]:3000',
    'http://[0:0:0:0:0:0:0:1]',
    'http://[::]',
    'http://[::ffff:127.0.0.1]',
    'http://[::ffff:0.0.0.0]',
  ]) {
    assert.equal(isLoopbackUrl(url), true, url);
  }
});

test('addresses a phone may reach, and text that is no URL, are not loopback', () => {
  for (const url of [
    'https://slotline.example',
    'http://192.168.1.20:3000',
    'http://10.0.0.2',
    'http://128.0.0.1',
    'http://0.0.0.1',
    'http://localhostx.com',
    'http://localhost.example.com',
    'http://[2001:db8::1]',
    'http://[::ffff:10.0.0.1]',
    'not a url',
    '',
  ]) {
    assert.equal(isLoopbackUrl(url), false, url);
  }
});
