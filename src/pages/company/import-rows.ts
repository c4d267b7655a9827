// The import page's two steps over the module services (import.pages.ts renders them). Rows
// are read by the SDK's import format exactly as `slotline-client import` reads them (the
// same columns, lists, account and tag references, slides, row numbers and per-row
// Idempotency-Keys); here the media are fetched by the uploads service's remote form, as
// POST /v2/uploads fetches them, or taken from the Workspace (import-workspace.ts), and every row is checked by the posts service's dry run
// (POST /v2/posts/validate) and created by its create (POST /v2/posts) under the row's key.
import {
  buildBody,
  importKeys,
  isMediaUrl,
  mediaEntries,
  readImportCsv,
  readRow,
  type CsvRow,
  type Lookups,
  type Problem,
  type RowDraft,
} from '@slotline/sdk/import';
import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../../access.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../../modules/activity/index.ts';
import {
  createPost,
  CreatePostBody,
  postOfCreateKey,
  validatePost,
  type CreatePostInput,
} from '../../modules/posts/index.ts';
import { CreateUploadBody, createRemoteUpload } from '../../modules/uploads/index.ts';
import { checkWith } from './forms.ts';
import { IMPORT_LIMITS, type Ticket } from './import-file.ts';
import {
  mediaProblem,
  shownRowProblem,
  shownServiceProblem,
  ofTheAddress,
  type Names,
  type Shown,
} from './import-words.ts';
import { isWorkspaceEntry, workspaceMedia } from './import-workspace.ts';
import {
  directoryOf,
  postHref,
  typeOf,
  viewOf,
  type Directory,
  type RowState,
  type RowView,
} from './import-view.ts';

/** Media fetched at once: each is mostly waiting on its source. */
const FETCHES_AT_ONCE = 3;

const checkUpload = checkWith(CreateUploadBody);
const checkBody = checkWith(CreatePostBody);

export interface Checked {
  rows: RowView[];
  /** The rows that can be created now. */
  ready: number[];
  /** Each media address of a ready row and its upload. */
  media: [string, string][];
}

export type CheckOutcome = { ok: true; checked: Checked } | { ok: false; media: number };

/**
 * The dry run of an import: each row read, its media fetched (each distinct address once,
 * as remote uploads), its accounts and tags looked up, and its post checked by the posts
 * service. A row imported before (its key already made a post) is shown as such and its
 * media are not fetched for it. Creates no post; more media than the limit, no upload.
 */
export async function checkImport(
  ctx: AppContext,
  principal: Principal,
  file: { fileName: string; rows: CsvRow[] },
  log: FastifyBaseLogger,
): Promise<CheckOutcome> {
  const companyId = principal.companyId;
  const drafts = file.rows.map(readRow);
  const keys = importKeys(file.fileName, file.rows);
  const now = ctx.clock.now();
  const before = new Map<number, string>();
  for (const d of drafts) {
    const post = await postOfCreateKey(ctx.db, companyId, keys.get(d.row) as string, now);
    if (post) before.set(d.row, post);
  }
  const open = drafts.filter((d) => !before.has(d.row));

  const outcome = new Map<string, string | Problem>();
  const toFetch: { entry: string; kind: 'video' | 'image' }[] = [];
  const fromWorkspace: string[] = [];
  for (const entry of mediaEntries(open)) {
    const type = isMediaUrl(entry) ? typeOf(entry) : undefined;
    if (isWorkspaceEntry(entry)) {
      fromWorkspace.push(entry);
    } else if (!isMediaUrl(entry)) {
      outcome.set(
        entry,
        mediaProblem(
          entry,
          'media_path',
          'a file path works only from the command line (slotline-client import); here, give the public http or https address of the file, or a Workspace image as workspace:Folder/image',
        ),
      );
    } else if (!URL.canParse(entry)) {
      outcome.set(entry, mediaProblem(entry, 'invalid_value', 'is not a valid web address'));
    } else if (!type) {
      outcome.set(
        entry,
        mediaProblem(
          entry,
          'unknown_media_type',
          'the address does not end in .mp4, .mov, .png, .jpg, .jpeg, .webp or .heic',
        ),
      );
    } else toFetch.push({ entry, kind: type.startsWith('video/') ? 'video' : 'image' });
  }
  const taken = toFetch.length + fromWorkspace.length;
  if (taken > IMPORT_LIMITS.media) return { ok: false, media: taken };
  for (const [entry, got] of await workspaceMedia(ctx, principal, fromWorkspace)) {
    outcome.set(entry, got);
  }

  const fetchOne = async ({ entry, kind }: (typeof toFetch)[number]) => {
    outcome.set(entry, await fetchMedia(ctx, principal, entry, kind, log));
  };
  const queue = [...toFetch];
  await Promise.all(
    Array.from({ length: Math.min(FETCHES_AT_ONCE, queue.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await fetchOne(next);
    }),
  );

  const uploads = new Map<string, string>();
  for (const [entry, got] of outcome) if (typeof got === 'string') uploads.set(got, entry);
  const dir = await directoryOf(ctx, companyId, uploads);
  const lookups = lookupsOf(dir, (entry) => outcome.get(entry));
  const rows: RowView[] = [];
  const ready: number[] = [];
  const media = new Map<string, string>();
  for (const draft of drafts) {
    const view = viewOf(draft, dir);
    rows.push(view);
    const made = before.get(draft.row);
    if (made) {
      view.state = 'imported';
      view.postHref = postHref(made);
      continue;
    }
    const { problems } = await rowBody(ctx, principal, draft, lookups, dir.names);
    if (problems.length > 0) {
      view.state = 'problems';
      view.problems = problems;
      continue;
    }
    ready.push(draft.row);
    for (const entry of draft.media) media.set(entry, outcome.get(entry) as string);
  }
  return { ok: true, checked: { rows, ready, media: [...media] } };
}

/** A media address as a remote upload of the uploads service, or why it could not be one. */
async function fetchMedia(
  ctx: AppContext,
  principal: Principal,
  entry: string,
  kind: 'video' | 'image',
  log: FastifyBaseLogger,
): Promise<string | Problem> {
  const input = checkUpload({ kind, sourceUrl: entry });
  if (!input.ok) {
    return mediaProblem(
      entry,
      'invalid_value',
      'is not an http or https address of at most 2048 characters',
    );
  }
  try {
    return (await createRemoteUpload(ctx, principal, input.value)).uploadId;
  } catch (err) {
    if (err instanceof ApiError) return mediaProblem(entry, err.code, ofTheAddress(err.message));
    // One address's failure is that row's problem; the rest of the file is still checked.
    log.error({ err, entry }, 'import media fetch failed');
    return mediaProblem(entry, 'upload_error', 'could not be fetched; check the file again');
  }
}

function lookupsOf(dir: Directory, upload: (entry: string) => string | Problem | undefined) {
  return {
    accounts: dir.accounts,
    tags: dir.tags,
    upload: (entry: string) =>
      upload(entry) ?? mediaProblem(entry, 'upload_error', 'was not fetched; check the file again'),
  } satisfies Lookups;
}

/**
 * A row's post body, or every problem of the row: its own reading, its names and its media,
 * else what the posts service's dry run finds. The body is read by the API's own validator,
 * as the route reads one: with its defaults, as a create sees it.
 */
async function rowBody(
  ctx: AppContext,
  principal: Principal,
  draft: RowDraft,
  lookups: Lookups,
  names: Names,
): Promise<{ body: CreatePostInput; problems: [] } | { body: null; problems: Shown[] }> {
  const built = buildBody(draft, lookups);
  if (!built.body) return { body: null, problems: built.problems.map(shownRowProblem) };
  const answer = await validatePost(ctx, principal, built.body);
  if (!answer.valid) {
    return { body: null, problems: answer.problems.map((p) => shownServiceProblem(p, names)) };
  }
  const body = checkBody(built.body);
  // The dry run passed the same schema; this only fills in the defaults.
  if (!body.ok) throw new Error(`a validated import row broke the schema at ${body.broken.field}`);
  return { body: body.value, problems: [] };
}

export interface Created {
  rows: RowView[];
  created: number;
  before: number;
  failed: number;
}

/**
 * The create of a checked import: the file read again from the ticket, and each row found
 * ready checked again (accounts and tags looked up afresh, the posts service's dry run) and
 * created under its Idempotency-Key, by the signed-in user. A row whose key already made a
 * post (a second press, the same file imported again) creates nothing and shows that post.
 */
export async function createImport(
  ctx: AppContext,
  principal: Principal,
  ticket: Ticket,
  actor: Actor,
): Promise<Created> {
  const companyId = principal.companyId;
  const { rows } = readImportCsv(ticket.csv);
  const keys = importKeys(ticket.fileName, rows);
  const media = new Map(ticket.media);
  const uploads = new Map(ticket.media.map(([entry, id]): [string, string] => [id, entry]));
  const dir = await directoryOf(ctx, companyId, uploads);
  const lookups = lookupsOf(dir, (entry) => media.get(entry));
  const ready = new Set(ticket.ready);
  const out: Created = { rows: [], created: 0, before: 0, failed: 0 };
  const done = (view: RowView, state: RowState, postId: string | null, problems: Shown[] = []) => {
    view.state = state;
    view.postHref = postId ? postHref(postId) : null;
    view.problems = problems;
    out.rows.push(view);
    if (state === 'created') out.created++;
    else if (state === 'imported') out.before++;
    else out.failed++;
  };
  for (const source of rows) {
    if (!ready.has(source.row)) continue;
    const draft = readRow(source);
    const view = viewOf(draft, dir);
    const key = keys.get(source.row) as string;
    const made = await postOfCreateKey(ctx.db, companyId, key, ctx.clock.now());
    if (made) {
      done(view, 'imported', made);
      continue;
    }
    const { body, problems } = await rowBody(ctx, principal, draft, lookups, dir.names);
    if (!body) {
      done(view, 'failed', null, problems);
      continue;
    }
    try {
      const written = await createPost(ctx, principal, body, key, actor);
      done(view, written.replay ? 'imported' : 'created', written.post.postId);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // The same row made a post meanwhile (another press of the button, another tab).
      if (err.code === 'idempotency_key_mismatch' || err.code === 'idempotency_key_in_use') {
        const post = await postOfCreateKey(ctx.db, companyId, key, ctx.clock.now());
        if (post) {
          done(view, 'imported', post);
          continue;
        }
      }
      done(view, 'failed', null, [shownServiceProblem(err, dir.names)]);
    }
  }
  return out;
}
