// `slotline-client export posts|analytics`: a CSV file of the company's posts, streamed
// page by page (GET /v2/posts through `paginate`, each page's analytics a few at a time),
// never held whole in memory. Written as the dashboard writes its posts CSV: RFC 4180 with
// CRLF, UTF-8 with a byte order mark, cells a spreadsheet would run as a formula prefixed
// with an apostrophe.
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { stringify } from 'csv-stringify';
import type { SlotlineClient } from '../client.ts';
import { SlotlineError } from '../errors.ts';
import { readAccountRef, resolveAccount, isProblem } from '../import/index.ts';
import {
  ANALYTICS_COLUMNS,
  POST_COLUMNS,
  accountFigures,
  analyticsRows,
  postRows,
  type Cell,
  type Figures,
  type RowContext,
} from './export-rows.ts';
import { mapOrdered } from './limit.ts';
import { UsageError, stringOption, type CliIo, type CommandContext } from './shared.ts';

/** Analytics read at once while the posts stream by. */
const ANALYTICS_AT_ONCE = 4;
const PAGE = 100;

export const exportCommand = {
  options: {
    since: { type: 'string' },
    account: { type: 'string' },
    tag: { type: 'string' },
    out: { type: 'string' },
  } as const,
  help: `Usage: slotline-client export posts|analytics [options]

Writes the company's posts as CSV (newest first), to stdout or --out:
  posts      The dashboard's posts export: one row per post and account with its status,
             post URL and figures (Post ID, Created at (UTC), Caption, Hashtags, Tags,
             Username, Platform, Status, Posted at (UTC), Post URL, Views, Likes,
             Comments, Shares, Saves)
  analytics  One row per post and account with the account's figures: Post ID, Created
             at (UTC), Caption (start), Tags, Account ID, Username, Platform, Views, Likes,
             Comments, Shares, Saves, Engagement rate (%), Last updated (UTC), Post URL
             (figures empty while the post has none on that account)
UTF-8 with a byte order mark, CRLF line ends, RFC 4180 quoting.

Options:
  --since <date-time>       Posts created at or after this time (e.g. 2026-03-01T00:00:00Z)
  --account <id | @name>    Only this account's rows (platformA:@name when the name is on
                            both platforms)
  --tag <name>              Only posts with this content tag
  --out <file>              Write to this file instead of stdout
  --url <url>, --key <key>  The service and API key (or SLOTLINE_URL, SLOTLINE_KEY)
  -h, --help                Show this help
`,
  async run({ api, values, positionals, io }: CommandContext): Promise<number> {
    const [kind, ...extra] = positionals;
    if ((kind !== 'posts' && kind !== 'analytics') || extra.length > 0) {
      throw new UsageError('give what to export: posts or analytics');
    }
    if (values.json) throw new UsageError('export writes CSV; --json does not apply');
    const sinceText = stringOption(values, 'since');
    const since = sinceText === undefined ? undefined : readSince(sinceText);
    const accountId = await findAccount(api, stringOption(values, 'account'));
    const tagList = await collect(
      api.paginate('/v2/content-tags', { params: { query: { limit: PAGE } } }),
    );
    const tagNames = new Map(tagList.map((t) => [t.contentGroupId, t.name]));
    const tagName = stringOption(values, 'tag');
    let contentGroupId: string | undefined;
    if (tagName !== undefined) {
      const tag = tagList.find((t) => t.name.toLowerCase() === tagName.toLowerCase());
      if (!tag) throw new Error(`no content tag is named ${tagName}`);
      contentGroupId = tag.contentGroupId;
    }
    const query = {
      limit: PAGE,
      ...(since ? { since } : {}),
      ...(accountId ? { accountId } : {}),
      ...(contentGroupId ? { contentGroupId } : {}),
    };
    const posts = api.paginate('/v2/posts', { params: { query } });
    const columns = kind === 'posts' ? POST_COLUMNS : ANALYTICS_COLUMNS;
    const toRows = kind === 'posts' ? postRows : analyticsRows;
    const analytics = analyticsReader(api, io, kind === 'posts');
    const records = (async function* (): AsyncGenerator<Cell[]> {
      yield [...columns];
      const withFigures = mapOrdered(posts, ANALYTICS_AT_ONCE, async (post) => ({
        post,
        figures: await analytics(post),
      }));
      for await (const { post, figures } of withFigures) {
        const context: RowContext = { tagNames, figures, ...(accountId ? { accountId } : {}) };
        yield* toRows(post, context);
      }
    })();
    await writeCsv(records, stringOption(values, 'out'), io);
    return 0;
  },
};

function readSince(text: string): string {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) {
    throw new UsageError(`--since must be a date-time (e.g. 2026-03-01T00:00:00Z), not '${text}'`);
  }
  return new Date(ms).toISOString();
}

/** `--account`: an id or @username, checked against the company's accounts up front. */
async function findAccount(api: SlotlineClient, given: string | undefined) {
  if (given === undefined) return undefined;
  const ref = readAccountRef(given.trim());
  if (isProblem(ref)) throw new UsageError(`--account ${ref.message.replace(/^accounts: /, '')}`);
  const accounts = await collect(
    api.paginate('/v2/accounts', { params: { query: { limit: PAGE } } }),
  );
  const found = resolveAccount(ref, accounts);
  if (typeof found !== 'string') {
    throw new Error(
      `${found.message.replace(/^accounts: /, '')}${found.hint ? ` (${found.hint})` : ''}`,
    );
  }
  return found;
}

/**
 * Each post's figures by account. The posts file is also useful to a key that may not
 * read analytics: its figures are then left empty, said once on stderr.
 */
function analyticsReader(api: SlotlineClient, io: CliIo, optional: boolean) {
  let allowed = true;
  return async (
    post: Parameters<typeof accountFigures>[1],
  ): Promise<Map<string, Figures> | null> => {
    if (!allowed) return null;
    try {
      return await accountFigures(api, post);
    } catch (err) {
      if (!optional || !(err instanceof SlotlineError) || err.code !== 'insufficient_scope')
        throw err;
      if (allowed) io.err('warning: this key may not read analytics: the figures are left empty\n');
      allowed = false;
      return null;
    }
  };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/**
 * Streams the records as CSV. A file is written beside its name and renamed when
 * complete, so a failed export leaves no half file behind.
 */
async function writeCsv(records: AsyncIterable<Cell[]>, out: string | undefined, io: CliIo) {
  const csv = stringify({
    bom: true,
    record_delimiter: 'windows',
    // Quoted as RFC 4180 asks (delimiter, quote) and for any line break, not only CRLF.
    quoted_match: /[\r\n]/,
    escape_formulas: true,
  });
  if (out === undefined) {
    const reader = { gone: false };
    try {
      await pipeline(Readable.from(records), csv, (chunks) => toStdout(chunks, io, reader));
    } catch (err) {
      // A reader that stopped early (`| head`) ends the export; it is no failure.
      if (!reader.gone) throw err;
    }
    return;
  }
  const partial = `${out}.partial`;
  try {
    await pipeline(Readable.from(records), csv, createWriteStream(partial));
    await rename(partial, out);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
}

/** Writes to stdout as fast as its reader takes it (the stream's drain), never ending it. */
async function toStdout(
  chunks: AsyncIterable<Buffer | string>,
  io: CliIo,
  reader: { gone: boolean },
): Promise<void> {
  const stream = io.stdout;
  if (!stream) {
    const decoder = new StringDecoder('utf8');
    for await (const chunk of chunks)
      io.out(typeof chunk === 'string' ? chunk : decoder.write(chunk));
    return;
  }
  let failure: Error | undefined;
  // Left attached: writes still queued may fail after the export has stopped.
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') reader.gone = true;
    else failure ??= err;
  });
  for await (const chunk of chunks) {
    if (!stream.write(chunk)) {
      await new Promise<void>((resolve) => {
        const go = () => {
          stream.off('drain', go);
          stream.off('error', go);
          resolve();
        };
        stream.on('drain', go);
        stream.on('error', go);
      });
    }
    if (failure) throw failure;
    if (reader.gone) return;
  }
}
