// The import page's file (import.pages.ts): what a person's CSV must be before its rows are
// read (a text file of at most 1 MB and 500 rows), read by the SDK's own import format
// (`@slotline/sdk/import`, as `slotline-client import` reads it), the example file the page
// offers, and the checked import kept between the check and the create.
//
// Between the two steps the import is not trusted from the browser: it travels as a ticket
// sealed by the server (AES-256-GCM, lib/seal.ts) holding the file as read, the uploads its
// media became and the rows found ready, bound to the user and company and to an hour. A
// ticket cannot be made or changed outside the service, and the create reads the file again
// from it and checks every row again, so nothing of the page itself is believed.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { stringify } from 'csv-stringify/sync';
import { ImportFileError, readImportCsv, type CsvRow } from '@slotline/sdk/import';
import type { Sealer } from '../../lib/seal.ts';

export const IMPORT_LIMITS = {
  /** The file's size: the request stays short, and 500 rows of posts fit well within it. */
  bytes: 1024 * 1024,
  rows: 500,
  /** Distinct media addresses a file may name: each is fetched while the person waits. */
  media: 50,
} as const;

/** How long a checked import can be created: a person reading the preview, not a day. */
const TICKET_MS = 60 * 60 * 1000;
/** What a ticket's plain text starts with, so no other sealed value reads as one. */
const PURPOSE = 'slotline-import:1:';
/** A ticket's file and uploads, unpacked: far above a 1 MB file's, to refuse nothing real. */
const MAX_UNPACKED = 8 * 1024 * 1024;

/** A file as a multipart form sends it (the field's parser keeps at most the limit). */
export interface SentFile {
  filename: string;
  bytes: Buffer;
  /** Longer than the limit: `bytes` holds only its start. */
  truncated: boolean;
}

export type ReadFile =
  | { ok: true; fileName: string; text: string; rows: CsvRow[] }
  | { ok: false; status: 400 | 413; message: string };

/** The file's own name (browsers on some systems send a whole path). */
export function baseName(name: string): string {
  return name.split(/[\\/]/).pop()?.trim() ?? '';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The rows of a sent file, or why it cannot be imported, in one sentence naming the file.
 * The row limit counts the rows with something in them, as the import itself does.
 */
export function readSentFile(file: SentFile | undefined): ReadFile {
  const refuse = (message: string, status: 400 | 413 = 400) =>
    ({ ok: false, status, message }) as const;
  const fileName = baseName(file?.filename ?? '');
  if (!file || (fileName === '' && file.bytes.length === 0)) {
    return refuse('Choose a CSV file to check.');
  }
  const named = `“${fileName || 'The file'}”`;
  if (file.truncated) {
    return refuse(
      `${named} is larger than 1 MB, the most an import takes. Split it into smaller files.`,
      413,
    );
  }
  if (file.bytes.length === 0) {
    return refuse(`${named} is empty. It needs a header row, then one row per post.`);
  }
  // Text has no NUL byte: a picture, a workbook or a PDF does.
  if (file.bytes.includes(0)) {
    return refuse(
      `${named} is not a CSV file. In your spreadsheet, save it as CSV (comma-separated values) and choose that file.`,
    );
  }
  let text: string;
  try {
    text = utf8.decode(file.bytes);
  } catch {
    return refuse(
      `${named} is not a CSV file in UTF-8. In your spreadsheet, save it as “CSV UTF-8” and choose that file.`,
    );
  }
  let read;
  try {
    read = readImportCsv(text);
  } catch (err) {
    if (!(err instanceof ImportFileError)) throw err;
    return refuse(`${named} cannot be imported: ${err.message}.`);
  }
  if (read.rows.length === 0) {
    return refuse(`${named} has no rows below its header. Add one row per post.`);
  }
  if (read.rows.length > IMPORT_LIMITS.rows) {
    return refuse(
      `${named} has ${read.rows.length} rows; an import takes at most ${IMPORT_LIMITS.rows}. Split it into smaller files.`,
    );
  }
  return { ok: true, fileName, text, rows: read.rows };
}

/** A checked import, as the create reads it back. */
export interface Ticket {
  companyId: string;
  userId: string;
  fileName: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  /** The file as read. */
  csv: string;
  /** Each media address of a ready row and the upload it became. */
  media: [string, string][];
  /** The rows found ready, by the numbers a spreadsheet shows. */
  ready: number[];
  /** Rows left out by the check (problems, or imported before), for the result's summary. */
  skipped: number;
}

export function sealTicket(sealer: Sealer, now: Date, ticket: Omit<Ticket, 'expiresAt'>): string {
  const packed = deflateRawSync(
    Buffer.from(JSON.stringify({ ...ticket, expiresAt: now.getTime() + TICKET_MS })),
  );
  return sealer.seal(`${PURPOSE}${packed.toString('base64')}`);
}

export type Opened = { ok: true; ticket: Ticket } | { ok: false; expired: boolean };

/** The ticket, if this service sealed it for this user of this company and it is current. */
export function openTicket(
  sealer: Sealer,
  sealed: string,
  now: Date,
  owner: { userId: string; companyId: string },
): Opened {
  let ticket: Ticket;
  try {
    const plain = sealer.open(sealed);
    if (!plain.startsWith(PURPOSE)) return { ok: false, expired: false };
    const packed = Buffer.from(plain.slice(PURPOSE.length), 'base64');
    ticket = JSON.parse(
      inflateRawSync(packed, { maxOutputLength: MAX_UNPACKED }).toString('utf8'),
    ) as Ticket;
  } catch {
    return { ok: false, expired: false };
  }
  if (ticket.userId !== owner.userId || ticket.companyId !== owner.companyId) {
    return { ok: false, expired: false };
  }
  if (!(ticket.expiresAt > now.getTime())) return { ok: false, expired: true };
  return { ok: true, ticket };
}

/** What the example file is made of: the company's own names where it has them. */
export interface ExampleParts {
  /** Up to two of its accounts as the import names them (`platformA:@name`). */
  accounts: string[];
  /** A tag of its own. */
  tag: string | null;
  /** Up to three of its Workspace images as the import names them (`workspace:Folder/image`). */
  images: string[];
}

/**
 * The example file the page offers: a photo post, a photo post to two accounts and a
 * carousel, of the company's own accounts (each with its platform, so that a name on both
 * platforms is not ambiguous), tag and Workspace images, so that it imports as it is. A
 * company without Workspace images gets web addresses to replace, with a video among them.
 */
export function exampleCsv(parts: ExampleParts): string {
  const [first = 'platformA:@your.account', second] = parts.accounts;
  const both = second ? `${first}|${second}` : first;
  const tag = parts.tag ?? '';
  const web = 'https://example.com/media';
  const own = parts.images.slice(0, 3);
  // A post's media are distinct images: with fewer of its own, a row takes fewer.
  const pair = own.length > 0 ? own.slice(0, 2) : [`${web}/terrace-1.jpg`, `${web}/terrace-2.jpg`];
  const three = own.length > 0 ? own : [`${web}/tip-1.jpg`, `${web}/tip-2.jpg`, `${web}/tip-3.jpg`];
  const texts = ['Three tips for crisp mornings', 'Warm the pan first', 'Salt at the end'];
  return stringify(
    [
      ['media', 'accounts', 'caption', 'hashtags', 'tags', 'skipApproval', 'slides'],
      [
        own[0] ?? `${web}/spring-menu.mp4`,
        first,
        'Our spring menu is here. Which dish first?',
        'spring menu',
        tag,
        'false',
        '',
      ],
      [pair.join('|'), both, 'The terrace opens on Friday.', '#terrace', '', 'false', ''],
      [
        three.join('|'),
        first,
        'Three tips for crisp mornings',
        '',
        tag,
        'false',
        texts.slice(0, three.length).join('|'),
      ],
    ],
    { record_delimiter: 'windows' },
  );
}
