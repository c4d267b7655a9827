// `slotline-client import <posts.csv>`: one post per row of a CSV file (the format is in
// sdk/README.md and sdk/src/import/). Every row's problems are collected and reported with
// its number; one row's failure never stops the others. --dry-run uploads the media and
// asks POST /v2/posts/validate about each row, creating nothing.
import { readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { SlotlineClient } from '../client.ts';
import { SlotlineError } from '../errors.ts';
import type { components } from '../schema.ts';
import {
  ImportFileError,
  buildBody,
  importKeys,
  mediaEntries,
  readImportCsv,
  readRow,
  type CreatePostBody,
  type Problem,
  type RowDraft,
} from '../import/index.ts';
import { prepareMedia } from './import-media.ts';
import { mapLimit } from './limit.ts';
import { UsageError, stringOption, type CommandContext } from './shared.ts';

/** Creates (or checks) at once: the service handles a few in parallel without strain. */
const ROWS_AT_ONCE = 4;

export type RowStatus = 'created' | 'existing' | 'invalid' | 'failed' | 'valid';
const STATUS_ORDER: RowStatus[] = ['created', 'existing', 'valid', 'invalid', 'failed'];

export interface RowResult {
  row: number;
  status: RowStatus;
  postId?: string;
  problems: Problem[];
}

export const importCommand = {
  options: {
    'dry-run': { type: 'boolean' },
    report: { type: 'string' },
  } as const,
  help: `Usage: slotline-client import <posts.csv> [options]

Creates one post per row of a CSV file (columns: media, accounts, caption, hashtags, tags,
priority, skipApproval, notes, platformBPostFormat, slides, slideTextY, slideStyle; see the
SDK's README). Each distinct media file or URL is uploaded once; uploads are remembered in
<posts.csv>.uploads.json and reused while the service holds them. Each row is sent with an
Idempotency-Key made from the file's name and the row, so running the import again creates
nothing twice: rows imported before are reported 'existing'.

Prints a report: one line per row and problem, CSV with the columns
row,status,postId,code,message,hint (status: created, existing, invalid, failed, or valid
with --dry-run), and a summary line on stderr.

Options:
  --dry-run                 Upload the media and check every row with the service
                            (POST /v2/posts/validate); create no post
  --report <file>           Write the report to a file instead of stdout
  --json                    The report as one JSON document
  --url <url>, --key <key>  The service and API key (or SLOTLINE_URL, SLOTLINE_KEY)
  -h, --help                Show this help

Exit codes: 0 every row went through, 1 a row had a problem (or the file cannot be read),
2 a bad command line.
`,
  async run({ api, values, positionals, io }: CommandContext): Promise<number> {
    const [file, ...extra] = positionals;
    if (!file || extra.length > 0) throw new UsageError('give exactly one CSV file');
    const dryRun = values['dry-run'] === true;
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      throw new Error(`cannot read ${file}: ${(err as Error).message}`);
    }
    let read;
    try {
      read = readImportCsv(text);
    } catch (err) {
      if (err instanceof ImportFileError) throw new Error(`${file}: ${err.message}`);
      throw err;
    }
    const drafts = read.rows.map(readRow);
    const keys = importKeys(basename(file), read.rows);
    const results =
      drafts.length === 0 ? [] : await importRows(api, drafts, keys, file, dryRun, io);

    const report = values.json ? jsonReport(results, dryRun) : csvReport(results);
    const reportFile = stringOption(values, 'report');
    if (reportFile !== undefined) await writeFile(reportFile, report);
    else io.out(report);
    io.err(`${summary(results)}\n`);
    return results.some((r) => r.status === 'invalid' || r.status === 'failed') ? 1 : 0;
  },
};

async function importRows(
  api: SlotlineClient,
  drafts: RowDraft[],
  keys: Map<number, string>,
  file: string,
  dryRun: boolean,
  io: CommandContext['io'],
): Promise<RowResult[]> {
  const accounts = await collect(
    api.paginate('/v2/accounts', { params: { query: { limit: 100 } } }),
  );
  const tags = drafts.some((d) => d.tags.length > 0)
    ? await collect(api.paginate('/v2/content-tags', { params: { query: { limit: 100 } } }))
    : [];
  const uploads = await prepareMedia(api, mediaEntries(drafts), file, io);
  const lookups = {
    accounts,
    tags,
    upload: (entry: string) =>
      uploads.get(entry) ?? {
        code: 'upload_error',
        message: entry,
        hint: 'Run the import again; the upload of this media did not finish.',
      },
  };
  const entryOf = new Map<string, string>();
  for (const [entry, upload] of uploads) {
    if (typeof upload === 'string' && !entryOf.has(upload)) entryOf.set(upload, entry);
  }
  return mapLimit(drafts, ROWS_AT_ONCE, async (draft): Promise<RowResult> => {
    const { row } = draft;
    const built = buildBody(draft, lookups);
    if (!built.body) return { row, status: 'invalid', problems: built.problems };
    const result = dryRun
      ? await checkRow(api, row, built.body)
      : await createRow(api, row, built.body, keys.get(row)!);
    return { ...result, problems: result.problems.map((p) => namingMedia(p, entryOf)) };
  });
}

/** The service's messages name uploads by id; the file's reader knows them by path or URL. */
function namingMedia(problem: Problem, entryOf: Map<string, string>): Problem {
  const message = problem.message.replace(/\bupl_\w+/g, (id) =>
    entryOf.has(id) ? `${id} (${entryOf.get(id)})` : id,
  );
  return { ...problem, message };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

function refusal(err: SlotlineError): Problem {
  return { code: err.code, message: err.message, hint: err.hint };
}

/** What POST /v2/posts/validate answers: every problem a create of the body would meet. */
type Validation = components['schemas']['PostValidation'];

async function checkRow(
  api: SlotlineClient,
  row: number,
  body: CreatePostBody,
): Promise<RowResult> {
  let answer: Validation;
  try {
    const { data } = await api.POST('/v2/posts/validate', { body });
    answer = data!;
  } catch (err) {
    if (!(err instanceof SlotlineError)) throw err;
    if (err.code === 'not_found') {
      throw new Error(
        'this service has no POST /v2/posts/validate, which --dry-run needs: update the service, or import without --dry-run',
      );
    }
    return { row, status: 'failed', problems: [refusal(err)] };
  }
  if (answer.valid) return { row, status: 'valid', problems: [] };
  return { row, status: 'invalid', problems: answer.problems };
}

async function createRow(
  api: SlotlineClient,
  row: number,
  body: CreatePostBody,
  key: string,
): Promise<RowResult> {
  try {
    const { data, response } = await api.POST('/v2/posts', {
      params: { header: { 'Idempotency-Key': key } },
      body,
    });
    // SPEC 4.2: 200 is a replay of the key, the post this row created before.
    const status = response.status === 200 ? 'existing' : 'created';
    return { row, status, postId: data!.postId, problems: [] };
  } catch (err) {
    if (!(err instanceof SlotlineError)) throw err;
    if (err.code === 'idempotency_key_mismatch') {
      return {
        row,
        status: 'failed',
        problems: [
          {
            code: err.code,
            message:
              'this row was imported before (in the last 24 hours) with other content, so it was not imported again',
            hint: 'Change that post itself (PATCH /v2/posts/{postId}), or import the new row from a file of another name.',
          },
        ],
      };
    }
    return { row, status: 'failed', problems: [refusal(err)] };
  }
}

export function csvReport(results: readonly RowResult[]): string {
  const records: string[][] = [['row', 'status', 'postId', 'code', 'message', 'hint']];
  for (const r of results) {
    const lead = [String(r.row), r.status, r.postId ?? ''];
    if (r.problems.length === 0) records.push([...lead, '', '', '']);
    for (const p of r.problems) records.push([...lead, p.code, p.message, p.hint ?? '']);
  }
  return stringify(records);
}

function counts(results: readonly RowResult[]): Partial<Record<RowStatus, number>> {
  const out: Partial<Record<RowStatus, number>> = {};
  for (const status of STATUS_ORDER) {
    const n = results.filter((r) => r.status === status).length;
    if (n > 0) out[status] = n;
  }
  return out;
}

export function jsonReport(results: readonly RowResult[], dryRun: boolean): string {
  return `${JSON.stringify({ dryRun, summary: counts(results), rows: results })}\n`;
}

/** `12 created, 3 existing, 2 invalid`: the statuses that occur, in a fixed order. */
export function summary(results: readonly RowResult[]): string {
  const parts = Object.entries(counts(results)).map(([status, n]) => `${n} ${status}`);
  return parts.length > 0 ? parts.join(', ') : 'no rows to import';
}
