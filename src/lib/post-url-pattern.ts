// What a published post's URL looks like on a platform, so that a worker's report of a post
// can be checked against the account it was released for. A pattern is a URL template:
// `{username}` stands for the account's username and `{id}` for the post's id (letters,
// digits, `_` and `-`); the rest is literal, matched case-insensitively. A URL may end with
// or without `/` and carry a query or fragment (share links do). Pure.

export interface PostUrlPattern {
  /** The template, as configured: also the example shown when a URL does not match. */
  readonly template: string;
  readonly regex: RegExp;
  /** Whether the template names the account (some platforms' post URLs do not). */
  readonly hasUsername: boolean;
}

const PLACEHOLDER = /\{(username|id)\}/g;

/** Compiles a template; throws an Error saying what is wrong with it. */
export function compilePostUrlPattern(template: string): PostUrlPattern {
  let url: URL;
  try {
    url = new URL(template.replace(PLACEHOLDER, 'x'));
  } catch {
    throw new Error(`"${template}" is not a URL template`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`"${template}" must start with http:// or https://`);
  }
  const unknown = template.replace(PLACEHOLDER, '').match(/\{[^}]*\}/);
  if (unknown) throw new Error(`"${template}" has an unknown placeholder ${unknown[0]}`);
  if (!template.includes('{id}')) throw new Error(`"${template}" must contain {id}`);
  const literal = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  const body = literal(template.replace(/\/$/, ''))
    .replace('{username}', '(?<username>[^/?#]+)')
    .replaceAll('{username}', '\\k<username>')
    .replaceAll('{id}', '[A-Za-z0-9_-]+');
  // Case-insensitive throughout: hosts are, and usernames are compared so anyway.
  const regex = new RegExp(`^${body}/?(?:[?#].*)?$`, 'i');
  return { template, regex, hasUsername: template.includes('{username}') };
}

/**
 * Matches `url` against the pattern: null when it does not match, else the username it
 * names (decoded, without a leading `@`), or null there when the pattern names none.
 */
export function matchPostUrl(
  pattern: PostUrlPattern,
  url: string,
): { username: string | null } | null {
  const m = pattern.regex.exec(url);
  if (!m) return null;
  const raw = m.groups?.username;
  if (raw === undefined) return { username: null };
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    return null;
  }
  return { username: name.replace(/^@/, '') };
}
