// Where a page may send the browser: the one rule every family of pages applies to a
// target it did not build itself (a sign-in's `next`, a form's way back) and, as a last
// guard, to every redirect. A target goes into a Location (or HX-Redirect) header, so a
// character Node refuses there (CR, LF, BEL, U+2028, ...) would fail the answer after its
// handler had written its session and log rows; and a target another site could name
// (`//evil`, `/\evil`, `https:`, `javascript:`) would make the sign-in an open redirect.

/** Longer targets are refused: no page of ours has an address near this long. */
export const MAX_TARGET_LENGTH = 2048;

/** Printable ASCII without the space: what a path and query need once percent-encoded. */
function printableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x21 || c > 0x7e) return false;
  }
  return true;
}

/** A control (C0, DEL, C1), U+2028/U+2029 or a backslash: what an escape may not hide. */
function hasUnsafeDecoded(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029 || c === 0x5c) {
      return true;
    }
  }
  return false;
}

/**
 * Whether `target` is a same-site absolute path a page may send the browser to: one
 * leading slash (never `//` or `/\`), printable ASCII only (so no C0 or C1 control, DEL,
 * space, tab, U+2028/U+2029 or other non-ASCII), no backslash, at most MAX_TARGET_LENGTH
 * characters. Its path, once percent-decoded, holds no control, separator or backslash
 * either (the page it names reads it decoded), and no empty, `.` or `..` segment
 * (browsers resolve `%2e%2e` as `..`). With `prefix` (a path such as `/dashboard`), the
 * path is the prefix or starts with it and a slash.
 */
export function isSafeTarget(target: string, prefix = ''): boolean {
  if (target.length === 0 || target.length > MAX_TARGET_LENGTH) return false;
  if (!printableAscii(target) || target.includes('\\')) return false;
  if (!target.startsWith('/') || target.startsWith('//')) return false;
  const path = target.split(/[?#]/, 1)[0] as string;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  if (hasUnsafeDecoded(decoded)) return false;
  const segments = decoded.split('/').slice(1);
  const last = segments.length - 1;
  if (segments.some((s, i) => (s === '' && i < last) || s === '.' || s === '..')) return false;
  return prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * The target a page was asked to go to (`raw`, as its query or form sent it) if it is
 * safe and within `prefix`, else `fallback`: the app's default page. Read once, where the
 * request is read, so nothing is written for a target that could not be answered.
 */
export function safeTarget(raw: unknown, prefix: string, fallback: string): string {
  return typeof raw === 'string' && isSafeTarget(raw, prefix) ? raw : fallback;
}
