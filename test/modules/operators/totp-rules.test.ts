// The operators' second factor as pure rules (modules/operators/totp.rules.ts): RFC 6238
// codes with the RFC's own test vector, one step of drift either side, no step twice nor
// an older one, and recovery codes as they are shown, typed and stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Secret } from 'otpauth';
import {
  RECOVERY_CODE_COUNT,
  checkTotp,
  groupedSecret,
  newRecoveryCodes,
  newTotpSecret,
  normalRecoveryCode,
  otpauthUri,
  recoveryCodeHash,
  totpCode,
  totpStep,
} from '../../../src/modules/operators/totp.rules.ts';

// RFC 6238 appendix B: the SHA-1 secret "12345678901234567890", 8-digit codes; the 6-digit
// code is the last six digits of each.
const RFC_SECRET = Secret.fromLatin1('12345678901234567890').base32;
const RFC_VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
];

test('codes are RFC 6238 SHA-1 codes, 6 digits, 30-second steps', () => {
  for (const [seconds, code] of RFC_VECTORS) {
    assert.equal(totpCode(RFC_SECRET, seconds * 1000), code.slice(-6), `T=${seconds}`);
  }
  assert.equal(totpStep(59_000), 1);
  assert.equal(totpStep(60_000), 2);
});

test('a code is accepted one step either side, never twice, never older than one used', () => {
  const secret = newTotpSecret();
  const now = 1_700_000_015_000;
  const step = totpStep(now);
  assert.deepEqual(checkTotp(secret, totpCode(secret, now), now, null), { ok: true, step });
  assert.deepEqual(checkTotp(secret, totpCode(secret, now - 30_000), now, null), {
    ok: true,
    step: step - 1,
  });
  assert.deepEqual(checkTotp(secret, totpCode(secret, now + 30_000), now, null), {
    ok: true,
    step: step + 1,
  });
  assert.deepEqual(checkTotp(secret, totpCode(secret, now + 60_000), now, null), {
    ok: false,
    reason: 'invalid',
  });
  assert.deepEqual(checkTotp(secret, totpCode(secret, now), now, step), {
    ok: false,
    reason: 'reused',
  });
  assert.deepEqual(checkTotp(secret, totpCode(secret, now - 30_000), now, step), {
    ok: false,
    reason: 'reused',
  });
  assert.deepEqual(checkTotp(secret, totpCode(secret, now + 30_000), now, step), {
    ok: true,
    step: step + 1,
  });
  for (const bad of ['', '12345', '1234567', 'abcdef', '12 345']) {
    assert.deepEqual(checkTotp(secret, bad, now, null), { ok: false, reason: 'invalid' }, bad);
  }
  // Another secret's code is no code of this one.
  const other = Secret.fromLatin1('abcdefghijabcdefghij').base32;
  assert.notEqual(totpCode(other, now), totpCode(RFC_SECRET, now));
  assert.deepEqual(checkTotp(RFC_SECRET, totpCode(other, now), now, null), {
    ok: false,
    reason: 'invalid',
  });
});

test('secrets: 160 bits, the URI apps read, the key typed in groups', () => {
  const secret = newTotpSecret();
  assert.match(secret, /^[A-Z2-7]{32}$/);
  assert.notEqual(newTotpSecret(), secret);
  const uri = new URL(otpauthUri(secret, 'ops@slotline.example'));
  assert.equal(uri.protocol, 'otpauth:');
  assert.equal(uri.host, 'totp');
  assert.equal(decodeURIComponent(uri.pathname), '/Slotline:ops@slotline.example');
  assert.equal(uri.searchParams.get('secret'), secret);
  assert.equal(uri.searchParams.get('issuer'), 'Slotline');
  assert.equal(uri.searchParams.get('digits'), '6');
  assert.equal(uri.searchParams.get('period'), '30');
  assert.equal(uri.searchParams.get('algorithm'), 'SHA1');
  assert.equal(groupedSecret('ABCDEFGHIJ'), 'ABCD EFGH IJ');
});

test('recovery codes: ten, distinct, read back however they are typed, stored as digests', () => {
  const codes = newRecoveryCodes();
  assert.equal(codes.length, RECOVERY_CODE_COUNT);
  assert.equal(new Set(codes).size, codes.length);
  fc.assert(
    fc.property(fc.constantFrom(...codes), fc.boolean(), (code, spaced) => {
      const typed = spaced ? code.replace(/-/g, ' ').toUpperCase() : code;
      assert.equal(normalRecoveryCode(typed), code.replace(/-/g, ''));
      assert.equal(recoveryCodeHash(typed), recoveryCodeHash(code));
    }),
  );
  assert.equal(normalRecoveryCode('0O1I-L234-5678-9abc'), '0011123456789abc');
  assert.equal(normalRecoveryCode('abcd-efgh-jkmn'), null);
  assert.equal(normalRecoveryCode('abcd-efgh-jkmn-pqru'), null, 'u is not in the alphabet');
  assert.match(recoveryCodeHash(codes[0] as string), /^[0-9a-f]{64}$/);
  assert.ok(!recoveryCodeHash(codes[0] as string).includes((codes[0] as string).slice(0, 4)));
});
