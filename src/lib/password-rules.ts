// What a password a person chooses must be (company users and operators alike): long
// enough to resist guessing, short enough to hash, typed the same twice, and not the email.

/** The shortest password a person may choose. */
export const MIN_PASSWORD = 12;
/** The longest password checked (sign-in refuses longer ones before hashing). */
export const MAX_PASSWORD = 1024;

/** Why `password` cannot be chosen, in words for the person choosing it; null when it can. */
export function passwordProblem(
  password: string,
  confirmation: string,
  email: string,
): string | null {
  const length = [...password].length;
  if (length < MIN_PASSWORD) return `Choose a password of at least ${MIN_PASSWORD} characters.`;
  if (length > MAX_PASSWORD) return `A password has at most ${MAX_PASSWORD} characters.`;
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) {
    return 'Choose a password other than your email address.';
  }
  if (password !== confirmation) return 'The two passwords are not the same; type it again.';
  return null;
}
