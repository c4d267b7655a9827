// A file name for a fetched upload when the caller gave none (SPEC 4.1 remote form:
// `filename` is optional; SPEC 2.1 limits it to 255 characters). Taken from
// Content-Disposition (RFC 6266, `filename*` first) or the last path segment of the
// final URL, then reduced to one harmless path segment. The caller decides whether
// to use it; nothing here is trusted as a file type.

const MAX_CHARS = 255;

export function filenameFrom(contentDisposition: string | undefined, finalUrl: URL): string | null {
  const fromHeader =
    contentDisposition === undefined ? null : dispositionFilename(contentDisposition);
  if (fromHeader !== null) {
    const clean = sanitiseFilename(fromHeader);
    if (clean !== null) return clean;
  }
  const segment = finalUrl.pathname.split('/').pop() ?? '';
  return sanitiseFilename(safeDecode(segment) ?? segment);
}

/** The `filename*` (RFC 8187 UTF-8) or `filename` parameter, or null. */
export function dispositionFilename(header: string): string | null {
  const params = parameters(header);
  const extended = params.get('filename*');
  if (extended !== undefined) {
    const match = /^utf-8'[^']*'(.+)$/i.exec(extended);
    const decoded = match?.[1] === undefined ? null : safeDecode(match[1]);
    if (decoded !== null) return decoded;
  }
  return params.get('filename') ?? null;
}

/** Splits `type; a=b; c="d;e"` into lower-cased names and unquoted values. */
function parameters(header: string): Map<string, string> {
  const out = new Map<string, string>();
  const pattern = /;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  for (const match of header.matchAll(pattern)) {
    const name = (match[1] ?? '').toLowerCase();
    let value = (match[2] ?? '').trim();
    if (value.startsWith('"')) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    if (!out.has(name)) out.set(name, value);
  }
  return out;
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * One path segment without control or invisible formatting characters (bidi
 * overrides can disguise an extension), reserved file-system characters, leading
 * dots or surrounding blanks; at most 255 characters, keeping a short extension.
 */
export function sanitiseFilename(name: string): string | null {
  const segment = name.split(/[/\\]/).pop() ?? '';
  let clean = segment
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .replace(/[<>:"|?*]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .trim();
  const chars = [...clean];
  if (chars.length > MAX_CHARS) {
    const dot = clean.lastIndexOf('.');
    const ext = dot > 0 && clean.length - dot <= 16 ? [...clean.slice(dot)] : [];
    clean = chars.slice(0, MAX_CHARS - ext.length).join('') + ext.join('');
  }
  return clean === '' ? null : clean;
}
