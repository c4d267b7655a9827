// The second factor of operators, as pure rules: RFC 6238 TOTP (30-second steps, 6 digits,
// HMAC-SHA1, the step before and after the current one accepted, as authenticator apps
// and clocks drift) with each step usable once, and single-use recovery codes (80 random
// bits, shown once, stored as digests). No I/O: the service keeps the state.
import { Secret, TOTP } from 'otpauth';
import { sha256 } from '../../lib/crypto.ts';
import { randomToken } from '../../lib/ids.ts';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_ALGORITHM = 'SHA1';
/** Steps accepted on either side of the current one. */
export const TOTP_WINDOW = 1;
/** What authenticator apps show as the account's issuer. */
export const TOTP_ISSUER = 'Slotline';
/** Recovery codes an operator gets at enrolment. */
export const RECOVERY_CODE_COUNT = 10;

/** A new TOTP secret: 160 random bits (RFC 4226's recommendation), in base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label,
    secret: Secret.fromBase32(secretBase32),
    algorithm: TOTP_ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
}

/** The `otpauth://` URI an authenticator app reads from the QR code. */
export function otpauthUri(secretBase32: string, label: string): string {
  return totpOf(secretBase32, label).toString();
}

/** The secret as a person types it into an app: groups of four characters. */
export function groupedSecret(secretBase32: string): string {
  return secretBase32.replace(/(.{4})(?=.)/g, '$1 ');
}

/** The TOTP step (counter) at `nowMs`. */
export function totpStep(nowMs: number): number {
  return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: nowMs });
}

/** The code of `secretBase32` at `nowMs` (what an app shows then). */
export function totpCode(secretBase32: string, nowMs: number): string {
  return totpOf(secretBase32, 'code').generate({ timestamp: nowMs });
}

/** What a person typed as a code: spaces and dashes left out, letters in lower case. */
export function normalCode(typed: string): string {
  return typed.replace(/[\s-]/g, '').toLowerCase();
}

/** Whether a normalised code has the shape of a TOTP code. */
export function isTotpShape(code: string): boolean {
  return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code);
}

export type TotpCheck = { ok: true; step: number } | { ok: false; reason: 'invalid' | 'reused' };

/**
 * Checks a TOTP code at `nowMs`: it must be the code of the current step or of one step
 * either side, and of a later step than the last code accepted (`lastStep`), so a code is
 * never accepted twice, nor one older than a code already used.
 */
export function checkTotp(
  secretBase32: string,
  code: string,
  nowMs: number,
  lastStep: number | null,
): TotpCheck {
  if (!isTotpShape(code)) return { ok: false, reason: 'invalid' };
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secretBase32),
    algorithm: TOTP_ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    timestamp: nowMs,
    window: TOTP_WINDOW,
  });
  if (delta === null) return { ok: false, reason: 'invalid' };
  const step = totpStep(nowMs) + delta;
  if (lastStep !== null && step <= lastStep) return { ok: false, reason: 'reused' };
  return { ok: true, step };
}

/** New recovery codes as shown once: 16 base32 characters, in groups of four. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () =>
    randomToken(10)
      .slice(0, 16)
      .replace(/(.{4})(?=.)/g, '$1-'),
  );
}

/**
 * A typed recovery code in its stored form, or null when it cannot be one. The alphabet is
 * Crockford's base32, so the letters it leaves out read as the digits they look like.
 */
export function normalRecoveryCode(typed: string): string | null {
  const code = normalCode(typed).replace(/o/g, '0').replace(/[il]/g, '1');
  return /^[0-9a-hjkmnp-tv-z]{16}$/.test(code) ? code : null;
}

/** The digest a recovery code is stored as. */
export function recoveryCodeHash(code: string): string {
  const normal = normalRecoveryCode(code);
  return sha256(`operator-recovery\n${normal ?? code}`).toString('hex');
}
