// Why a sign-in was refused, the same way for every audience; each app words the reason
// for its people and picks the status it answers with.

/**
 * `invalid`: wrong email and password, token or code (the message never tells whether the
 * account exists); `limited`: too many failures, `retryAfter` seconds to wait; `suspended`:
 * the right password of a user whose company is suspended; `reused`: a TOTP code already
 * used; `no_totp`: the right password of an operator who never finished enrolling.
 */
export type SignInRefusal = 'invalid' | 'limited' | 'suspended' | 'reused' | 'no_totp';

const SIGN_IN_REFUSALS: Record<SignInRefusal, string> = {
  invalid: 'wrong email or password',
  limited: 'too many failed sign-ins',
  suspended: "the user's company is suspended",
  reused: 'the code was already used',
  no_totp: 'two-factor sign-in was never set up',
};

/** A sign-in step refused; `retryAfter` is the seconds until a limited one may be tried. */
export class SignInRefused extends Error {
  constructor(
    readonly reason: SignInRefusal,
    readonly retryAfter = 0,
    message = SIGN_IN_REFUSALS[reason],
  ) {
    super(message);
  }
}

/**
 * Why a one-time sign-in link could not set a password, in words for the person: it does
 * not work any more (`invalid`), the password chosen (`password`), or the company's
 * suspension (`suspended`).
 */
export class LinkRefused extends Error {
  constructor(
    readonly reason: 'invalid' | 'password' | 'suspended',
    message: string,
  ) {
    super(message);
  }
}
