// The checks a post create makes before it writes anything (SPEC 4.2, DECISIONS 4), shared
// by the create and by its dry run (POST /v2/posts/validate). Each check collects every
// problem it finds, as an ApiError naming its field, in the order a create meets them: the
// create throws the first, the dry run answers them all.
import type { Db } from '../../db/types.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { findTargetAccounts, type TargetAccount } from '../accounts/index.ts';
import { getCompanyRow } from '../companies/index.ts';
import { groupProblems } from '../tags/index.ts';
import { findMediaUploads, type MediaUpload } from '../uploads/index.ts';
import type { SlideInput } from './posts.schemas.ts';

export type MediaKind = 'video' | 'image' | 'carousel';

/**
 * Ids as a body lists them. The dry run marks with `undefined` an item that broke the schema,
 * so that it is not checked while the others keep their places (and their JSON pointers).
 */
export type IdList = readonly (string | undefined)[];

/** Each id listed again after its first place, once per id, with the index of that repeat. */
function repeats(list: IdList): { index: number; id: string }[] {
  const seen = new Set<string>();
  const reported = new Set<string>();
  const out: { index: number; id: string }[] = [];
  for (const [index, id] of list.entries()) {
    if (id === undefined) continue;
    if (!seen.has(id)) seen.add(id);
    else if (!reported.has(id)) {
      reported.add(id);
      out.push({ index, id });
    }
  }
  return out;
}

/** Indices where an id appears for the first time: an unknown id is reported once. */
function firstPlaces(list: IdList): [number, string][] {
  const seen = new Set<string>();
  return [...list.entries()].filter(
    (entry): entry is [number, string] =>
      entry[1] !== undefined && !seen.has(entry[1]) && (seen.add(entry[1]), true),
  );
}

/** The ids listed, each once. */
const uniqueIds = (list: IdList): string[] => [...new Set(list.filter((id) => id !== undefined))];

/** Uploads of the company named by `media`: each unknown or not ready one is a problem. */
async function uploadProblems(ctx: AppContext, companyId: string, media: IdList) {
  const rows = await findMediaUploads(ctx.db, companyId, uniqueIds(media));
  const uploads = new Map(rows.map((r) => [r.id, r]));
  const problems: ApiError[] = [];
  for (const [i, id] of firstPlaces(media)) {
    const field = `/media/${i}`;
    const row = uploads.get(id);
    if (!row) {
      problems.push(
        new ApiError('upload_not_found', `${field}: upload ${id} does not exist`, {
          inBody: true,
          field,
        }),
      );
    } else if (row.status !== 'ready') {
      problems.push(
        new ApiError('upload_not_ready', `${field}: upload ${id} is ${row.status}, not ready`, {
          field,
        }),
      );
    }
  }
  return { uploads, problems };
}

/**
 * DECISIONS 4: which media combinations form a post; returns the media kind, or the problem.
 * `media` lists each upload once (repeats are a problem of their own) and every one of them
 * is in `uploads`.
 */
function checkMediaSet(
  media: readonly string[],
  uploads: ReadonlyMap<string, MediaUpload>,
  slides: readonly SlideInput[] | undefined,
  /** Where each id first appears in the body's `media`, for the field. */
  placeOf: (id: string) => string,
): MediaKind | ApiError {
  const kinds = media.map((id) => (uploads.get(id) as MediaUpload).kind);
  if (!slides) {
    if (kinds.length === 1 && kinds[0] === 'video') return 'video';
    if (kinds.every((k) => k === 'image')) return 'image';
    return new ApiError(
      'invalid_media_set',
      kinds.includes('video')
        ? '/media must be exactly one video, or 1-10 images; videos cannot be combined'
        : '/media cannot form a post',
      { field: '/media' },
    );
  }
  const firstVideo = media.find((id) => uploads.get(id)?.kind === 'video');
  if (firstVideo) {
    return new ApiError(
      'invalid_media_set',
      `/media: carousel slides use images only (${firstVideo} is a video)`,
      { field: placeOf(firstVideo) },
    );
  }
  const heic = media.find((id) => /hei[cf]/.test(uploads.get(id)?.content_type ?? ''));
  if (heic) {
    return new ApiError(
      'invalid_media_set',
      `/media: upload ${heic} is HEIC, which slides cannot be rendered from; use PNG, JPEG or WebP`,
      { field: placeOf(heic) },
    );
  }
  const used = new Set<string>();
  for (const [i, slide] of slides.entries()) {
    if (!media.includes(slide.image)) {
      return new ApiError(
        'invalid_media_set',
        `/slides/${i}/image ${slide.image} is not one of /media`,
        { field: `/slides/${i}/image` },
      );
    }
    used.add(slide.image);
  }
  const unused = media.find((id) => !used.has(id));
  if (unused) {
    return new ApiError('invalid_media_set', `/media: upload ${unused} is not used by any slide`, {
      field: placeOf(unused),
    });
  }
  return 'carousel';
}

/** Accounts of the company named by `accountIds`: repeats and unknown ones are problems. */
async function accountProblems(ctx: AppContext, companyId: string, accountIds: IdList) {
  const problems = repeats(accountIds).map(
    ({ index, id }) =>
      new ApiError('invalid_request', `/accountIds lists ${id} twice`, {
        hint: 'List each account once.',
        field: `/accountIds/${index}`,
      }),
  );
  const rows = await findTargetAccounts(ctx.db, companyId, uniqueIds(accountIds));
  const accounts = new Map(rows.map((r) => [r.id, r]));
  for (const [i, id] of firstPlaces(accountIds)) {
    if (accounts.has(id)) continue;
    const field = `/accountIds/${i}`;
    problems.push(
      new ApiError('account_not_found', `${field}: account ${id} does not exist`, {
        inBody: true,
        field,
      }),
    );
  }
  return { accounts, problems };
}

/** The accounts a queue call names, or the first problem with them thrown. */
export async function checkAccounts(
  ctx: AppContext,
  companyId: string,
  accountIds: readonly string[],
): Promise<Map<string, TargetAccount>> {
  const found = await accountProblems(ctx, companyId, accountIds);
  if (found.problems[0]) throw found.problems[0];
  return found.accounts;
}

/** `platformBPostFormat: "post"` needs the company's capability. */
export async function feedFormatProblem(
  db: Db,
  companyId: string,
  format: string | undefined,
): Promise<ApiError | null> {
  if (format !== 'post') return null;
  const company = await getCompanyRow(db, companyId);
  if (company?.platformb_feed_posts === 1) return null;
  return new ApiError(
    'platformB_feed_posts_disabled',
    'platformBPostFormat "post" is not enabled for this company',
    { field: '/platformBPostFormat' },
  );
}

export async function checkFeedFormat(
  db: Db,
  companyId: string,
  format: string | undefined,
): Promise<void> {
  const problem = await feedFormatProblem(db, companyId, format);
  if (problem) throw problem;
}

/**
 * What of a create's body the checks read. A field left out is not checked, nor an
 * `undefined` item of a list of ids: the dry run leaves out what broke the schema, whose
 * content cannot be judged.
 */
export interface PostChecksInput {
  media?: IdList | undefined;
  accountIds?: IdList | undefined;
  /** The carousel's slides; `false` when they broke the schema, so the media set is not judged. */
  slides?: readonly SlideInput[] | false | undefined;
  contentGroupIds?: IdList | undefined;
  platformBPostFormat?: string | undefined;
}

export interface PostChecks {
  /** Every problem, in the order a create meets them (empty when the post can be created). */
  problems: ApiError[];
  uploads: Map<string, MediaUpload>;
  accounts: Map<string, TargetAccount>;
  /** The media kind, once the media set is judged and forms a post. */
  kind: MediaKind | null;
  /** The content groups to attribute, each once. */
  groups: string[];
}

/**
 * Every check of a create that does not count against the plan (the quota is counted in
 * the create's own transaction, and read by the dry run). Read-only.
 */
export async function checkPost(
  ctx: AppContext,
  companyId: string,
  input: PostChecksInput,
): Promise<PostChecks> {
  const problems: ApiError[] = [];
  let uploads = new Map<string, MediaUpload>();
  let kind: MediaKind | null = null;
  if (input.media) {
    const media = input.media;
    const loaded = await uploadProblems(ctx, companyId, media);
    uploads = loaded.uploads;
    problems.push(...loaded.problems);
    problems.push(
      ...repeats(media).map(
        ({ index, id }) =>
          new ApiError('invalid_media_set', `/media lists upload ${id} twice`, {
            field: `/media/${index}`,
          }),
      ),
    );
    // The combination is judged once every upload is known (ready or not: its kind is).
    if (input.slides !== false && media.every((id) => id !== undefined && uploads.has(id))) {
      const placeOf = (id: string) => `/media/${media.indexOf(id)}`;
      const set = checkMediaSet(uniqueIds(media), uploads, input.slides, placeOf);
      if (set instanceof ApiError) problems.push(set);
      else kind = set;
    }
  }
  let accounts = new Map<string, TargetAccount>();
  if (input.accountIds) {
    const found = await accountProblems(ctx, companyId, input.accountIds);
    accounts = found.accounts;
    problems.push(...found.problems);
  }
  const checked = await groupProblems(ctx.db, companyId, input.contentGroupIds ?? []);
  problems.push(...checked.problems);
  const feed = await feedFormatProblem(ctx.db, companyId, input.platformBPostFormat);
  if (feed) problems.push(feed);
  return { problems, uploads, accounts, kind, groups: checked.groups };
}
