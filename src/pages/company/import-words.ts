// The import page's problems in plain words (import-rows.ts). The SDK's import format words a
// row's own problems by the file's column names ("accounts: no account is @nobody"); the
// posts service words a create's by the API body's JSON pointers and ids ("/media: upload
// upl_... is a video"). Here both read as the file reads: columns by their header names,
// media by the address written in the file, accounts as @username (platform), tags by name.
import type { Problem } from '@slotline/sdk/import';

/** A problem as the page shows it beside its row. */
export interface Shown {
  code: string;
  message: string;
  hint: string | null;
}

/** What ids in the service's words stand for, by the file's own names. */
export interface Names {
  /** Upload id → the media address the row names. */
  uploads: ReadonlyMap<string, string>;
  /** Account id → `@username (platform)`. */
  accounts: ReadonlyMap<string, string>;
  /** Tag id → its name. */
  tags: ReadonlyMap<string, string>;
}

/** The file's column of each field of the create body. */
const COLUMN_OF: Record<string, string> = {
  media: 'media',
  accountIds: 'accounts',
  contentGroupIds: 'tags',
  caption: 'caption',
  hashtags: 'hashtags',
  priority: 'priority',
  skipApproval: 'skipApproval',
  notes: 'notes',
  platformBPostFormat: 'platformBPostFormat',
  slides: 'slides',
};

/** A body field's JSON pointer as the file names the place: `slides (slide 2, text 1, fontSize)`. */
function placeOf(pointer: string): string {
  const [top = '', ...rest] = pointer.split('/').slice(1);
  const column = COLUMN_OF[top] ?? (top || 'row');
  const parts: string[] = [];
  if (top === 'slides' && rest[0] !== undefined) {
    const [slide, key, text, ...more] = rest;
    parts.push(`slide ${Number(slide) + 1}`);
    if (key === 'textElements' && text !== undefined) {
      parts.push(`text ${Number(text) + 1}`);
      const field = more.filter((m) => m !== 'style').join(' ');
      if (field) parts.push(field);
    } else if (key !== undefined && key !== 'textElements') parts.push(key);
  } else if (top === 'hashtags' && rest[0] !== undefined) {
    parts.push(`hashtag ${Number(rest[0]) + 1}`);
  }
  return parts.length > 0 ? `${column} (${parts.join(', ')})` : column;
}

/** Hints that point at the API rather than at the page, in the page's words. */
const PAGE_HINTS: Record<string, string> = {
  account_not_found:
    'Write the account as @username, as the Accounts page shows it, or add the account there first.',
  tag_not_found: 'Create the tag on the Tags page first, or correct its name in the file.',
};

/** A problem of the file's own reading (the SDK's words), for the page. */
export function shownRowProblem(p: Problem): Shown {
  const apiHint = p.hint !== undefined && /\/v2\/|GET |POST /.test(p.hint);
  const hint = PAGE_HINTS[p.code] ?? (apiHint ? null : (p.hint ?? null));
  return { code: p.code, message: sentence(p.message), hint };
}

/**
 * A problem the posts service found with a row's post (POST /v2/posts/validate or a create),
 * with its field and ids put in the file's words. The service's hints restate the message
 * by JSON pointer, so only the page's own are kept.
 */
export function shownServiceProblem(p: { code: string; message: string }, names: Names): Shown {
  const message = p.message
    // The field it leads with: `/caption must ...`, `/media/0: upload ...`.
    .replace(/^(\/[\w/]*)(?::|(?=\s))\s*/, (_m, pointer: string) => `${placeOf(pointer)}: `)
    // A field named again later: `... is not one of /media`.
    .replace(/(\s)\/(\w+)\b/g, (_m, space: string, field: string) => space + placeOf(`/${field}`))
    .replace(/\bupl_[0-9A-Za-z]+/g, (id) => names.uploads.get(id) ?? 'a media item')
    .replace(/\bacc_[0-9A-Za-z]+/g, (id) => names.accounts.get(id) ?? 'an account')
    .replace(/\b(?:tag:)?(tag_[0-9A-Za-z]+)/g, (_m, id: string) => {
      const name = names.tags.get(id);
      return name ? `“${name}”` : 'a tag';
    });
  return { code: p.code, message: sentence(message), hint: PAGE_HINTS[p.code] ?? null };
}

/** A media address the page will not fetch, or could not: said of the address as written. */
export function mediaProblem(entry: string, code: string, words: string): Problem {
  return {
    code,
    field: 'media',
    message: `media ${entry}: ${words}`,
    hint: 'Give a public http(s) address of a .mp4 or .mov video, or a .png, .jpg, .jpeg, .webp or .heic image.',
  };
}

/**
 * What the uploads service said of a fetch, of the address rather than of the API's field,
 * wherever the message names it (`/sourceUrl: sourceUrl answered HTTP 404` → `the address
 * answered HTTP 404`; `the host of redirect 1 of sourceUrl could not be resolved` → `the
 * host of redirect 1 of the address could not be resolved`).
 */
export function ofTheAddress(message: string): string {
  return message.replace(/^\/[\w/]+:?\s*/, '').replace(/\bsourceUrl\b/g, 'the address');
}

/**
 * A message ending as a sentence. Its first word stays as written: most lead with the
 * column's name as the file's header spells it (`platformBPostFormat: ...`).
 */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
