// One row of the posts import file read into what it asks for (media as written, account
// and tag references, slides by media position), then, once accounts, tags and uploads are
// known, into the exact body of POST /v2/posts. Pure: lookups are passed in. Limits the API
// itself checks (caption length, counts, style ranges) are left to it, so that there is one
// rule and one message for each.
import type { operations } from '../schema.ts';
import {
  readBoolean,
  readInteger,
  readNumber,
  splitHashtags,
  splitList,
  type CsvRow,
  type Problem,
} from './format.ts';

/** The body of POST /v2/posts (and of POST /v2/posts/validate). */
export type CreatePostBody = operations['createPost']['requestBody']['content']['application/json'];
export type Slide = NonNullable<CreatePostBody['slides']>[number];
export type TextStyle = Slide['textElements'][number]['style'];
export type Platform = 'platformA' | 'platformB';

/** An entry of `accounts`: an account id, or a username on one platform or either. */
export type AccountRef = { id: string } | { username: string; platform?: Platform };

/** A slide whose `image` is still a 0-based position in the row's `media`. */
export type SlideDraft = Omit<Slide, 'image'> & { image: number };

/** What a row asks for, before accounts, tags and media are looked up. */
export interface RowDraft {
  row: number;
  /** File paths (as written, relative to the file's folder) and URLs, in order. */
  media: string[];
  accounts: AccountRef[];
  /** Content tag names. */
  tags: string[];
  caption?: string;
  hashtags?: string[];
  priority?: number;
  skipApproval?: boolean;
  notes?: string;
  platformBPostFormat?: 'reel' | 'post';
  slides?: SlideDraft[];
  problems: Problem[];
}

/** Default `positionY` of slide texts given as plain text (the middle of the slide). */
export const DEFAULT_SLIDE_TEXT_Y = 50;
const PLATFORMS: Record<string, Platform> = { platforma: 'platformA', platformb: 'platformB' };

/** What each column takes, as the hint of a cell that does not read. */
const COLUMN_HINTS: Record<string, string> = {
  accounts: 'Write accounts as acc_… ids, @username, or platformA:@username, separated by |.',
  priority: 'Write a whole number, 0 or more, or leave the cell empty.',
  skipApproval: 'Write true, false, yes, no, 1 or 0, or leave the cell empty (false).',
  platformBPostFormat: 'Write reel or post, or leave the cell empty (reel).',
  slides:
    'Write one text per media item separated by |, or a JSON array of slides whose image is a 1-based media position.',
  slideTextY: 'Write a number from 0 (top) to 100 (bottom), or leave the cell empty (50).',
  slideStyle: 'Write a JSON object of style fields, such as {"fontSize":28,"textColor":"yellow"}.',
};

function invalid(field: string, message: string, hint?: string): Problem {
  return {
    code: 'invalid_value',
    field,
    message: `${field}: ${message}`,
    hint:
      hint ?? COLUMN_HINTS[field] ?? 'Correct the cell; see the import format in the SDK README.',
  };
}

/** An `accounts` entry: `acc_123`, `@name`, or `platformA:@name` / `platformB:@name`. */
export function readAccountRef(entry: string): AccountRef | Problem {
  const qualified = /^([^:@]+):\s*@(.+)$/.exec(entry);
  if (qualified) {
    const platform = PLATFORMS[qualified[1]!.trim().toLowerCase()];
    if (!platform) {
      return invalid('accounts', `${entry}: the platform must be platformA or platformB`);
    }
    return { username: qualified[2]!.trim(), platform };
  }
  if (entry.startsWith('@')) {
    const username = entry.slice(1).trim();
    if (username === '') return invalid('accounts', `'@' names no account`);
    return { username };
  }
  return { id: entry };
}

export function isProblem(value: object): value is Problem {
  return 'code' in value && 'message' in value;
}

/** Reads a row's cells; every problem found is listed in `problems`, none is thrown. */
export function readRow(source: CsvRow): RowDraft {
  const { cells } = source;
  const problems: Problem[] = [...source.problems];
  const draft: RowDraft = {
    row: source.row,
    media: splitList(cells.media),
    accounts: [],
    tags: splitList(cells.tags),
    problems,
  };
  if (draft.media.length === 0) {
    problems.push({
      code: 'missing_value',
      field: 'media',
      message: 'media: the cell is empty',
      hint: 'List the media of the post: file paths or http(s) URLs, separated by |.',
    });
  }
  for (const entry of splitList(cells.accounts)) {
    const ref = readAccountRef(entry);
    if (isProblem(ref)) problems.push(ref);
    else draft.accounts.push(ref);
  }
  if (cells.accounts === undefined || splitList(cells.accounts).length === 0) {
    problems.push({
      code: 'missing_value',
      field: 'accounts',
      message: 'accounts: the cell is empty',
      hint: COLUMN_HINTS.accounts as string,
    });
  }
  if (cells.caption !== undefined) draft.caption = cells.caption;
  if (cells.notes !== undefined) draft.notes = cells.notes;
  const hashtags = splitHashtags(cells.hashtags);
  if (hashtags.length > 0) draft.hashtags = hashtags;
  if (cells.priority !== undefined) {
    const priority = readInteger(cells.priority);
    if (priority === null) {
      problems.push(invalid('priority', `'${cells.priority}' is not a whole number`));
    } else draft.priority = priority;
  }
  const skip = readBoolean(cells.skipApproval);
  if (skip === null) {
    problems.push(
      invalid('skipApproval', `'${cells.skipApproval}' is not true, false, yes, no, 1 or 0`),
    );
  } else if (skip) draft.skipApproval = true;
  if (cells.platformBPostFormat !== undefined) {
    const format = cells.platformBPostFormat.trim().toLowerCase();
    if (format === 'reel' || format === 'post') draft.platformBPostFormat = format;
    else {
      problems.push(
        invalid('platformBPostFormat', `'${cells.platformBPostFormat}' is not reel or post`),
      );
    }
  }
  readSlides(cells, draft);
  return draft;
}

/** `slides` as texts (with `slideTextY`, `slideStyle`) or as a JSON array of slides. */
function readSlides(cells: CsvRow['cells'], draft: RowDraft): void {
  const { problems } = draft;
  const cell = cells.slides;
  if (cell === undefined || cell.trim().startsWith('[')) {
    for (const column of ['slideTextY', 'slideStyle'] as const) {
      if (cells[column] === undefined) continue;
      problems.push(
        invalid(
          column,
          cell === undefined
            ? 'applies to slides, and the row has none'
            : 'applies to slides given as texts; in JSON slides, give each text its style',
        ),
      );
    }
    if (cell !== undefined) readJsonSlides(cell, draft);
    return;
  }
  let positionY = DEFAULT_SLIDE_TEXT_Y;
  if (cells.slideTextY !== undefined) {
    const y = readNumber(cells.slideTextY);
    if (y === null || y < 0 || y > 100) {
      problems.push(invalid('slideTextY', `'${cells.slideTextY}' is not a number from 0 to 100`));
    } else positionY = y;
  }
  let style: Record<string, unknown> = {};
  if (cells.slideStyle !== undefined) {
    const parsed = readJson(cells.slideStyle);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      problems.push(
        invalid(
          'slideStyle',
          'is not a JSON object',
          'For example {"fontSize":24,"textColor":"yellow"}.',
        ),
      );
    } else if ('positionY' in parsed) {
      problems.push(invalid('slideStyle', 'give the height of the text in slideTextY, not here'));
    } else style = parsed as Record<string, unknown>;
  }
  const texts = cell.split('|').map((text) => text.trim());
  if (texts.length !== draft.media.length) {
    problems.push(
      invalid(
        'slides',
        `${texts.length} slide text${texts.length === 1 ? '' : 's'} for ${draft.media.length} media item${draft.media.length === 1 ? '' : 's'}`,
        'Give one text per slide, separated by |, in the order of the images in media (an empty text for a slide without one).',
      ),
    );
    return;
  }
  draft.slides = texts.map((content, image) => ({
    image,
    textElements: content === '' ? [] : [{ content, style: { ...style, positionY } }],
  }));
}

function readJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** JSON slides: SPEC 2.3 slides whose `image` is a 1-based position in the row's media. */
function readJsonSlides(cell: string, draft: RowDraft): void {
  const parsed = readJson(cell);
  if (!Array.isArray(parsed)) {
    draft.problems.push(invalid('slides', 'starts with [ but is not a JSON array'));
    return;
  }
  const slides: SlideDraft[] = [];
  for (const [i, slide] of parsed.entries()) {
    const image = (slide as { image?: unknown } | null)?.image;
    const position = typeof image === 'number' ? image : Number.NaN;
    if (typeof slide !== 'object' || slide === null || Array.isArray(slide)) {
      draft.problems.push(invalid('slides', `slide ${i + 1} is not a JSON object`));
    } else if (!Number.isInteger(position) || position < 1 || position > draft.media.length) {
      draft.problems.push(
        invalid(
          'slides',
          `slide ${i + 1}: image must be the position of one of the row's ${draft.media.length} media items (1 to ${draft.media.length})`,
        ),
      );
    } else slides.push({ ...(slide as Slide), image: position - 1 });
  }
  if (slides.length === parsed.length) draft.slides = slides;
}

/** An account of the company, as GET /v2/accounts lists it. */
export interface AccountEntry {
  accountId: string;
  username: string;
  platform: Platform;
}

/** The account an entry names, or the problem why none or several. */
export function resolveAccount(
  ref: AccountRef,
  accounts: readonly AccountEntry[],
): string | Problem {
  if ('id' in ref) {
    if (accounts.some((a) => a.accountId === ref.id)) return ref.id;
    return {
      code: 'account_not_found',
      field: 'accounts',
      message: `accounts: no account has the id ${ref.id}`,
      hint: 'Give an account id from GET /v2/accounts, or @username.',
    };
  }
  // DECISIONS 7: usernames are unique per platform regardless of letter case.
  const name = ref.username.toLowerCase();
  const found = accounts.filter(
    (a) => a.username.toLowerCase() === name && (!ref.platform || a.platform === ref.platform),
  );
  const shown = `${ref.platform ? `${ref.platform}:` : ''}@${ref.username}`;
  if (found.length === 1) return found[0]!.accountId;
  if (found.length === 0) {
    return {
      code: 'account_not_found',
      field: 'accounts',
      message: `accounts: no account is ${shown}`,
      hint: 'Check the username against GET /v2/accounts (or the dashboard); letter case does not matter.',
    };
  }
  return {
    code: 'ambiguous_account',
    field: 'accounts',
    message: `accounts: @${ref.username} is an account on both platforms`,
    hint: `Write platformA:@${ref.username} or platformB:@${ref.username}.`,
  };
}

/** A content tag of the company, as GET /v2/content-tags lists it. */
export interface TagEntry {
  name: string;
  contentGroupId: string;
}

/** The `tag:<tagId>` group of a tag name (letter case aside), or why there is none. */
export function resolveTag(name: string, tags: readonly TagEntry[]): string | Problem {
  const tag = tags.find((t) => t.name.toLowerCase() === name.toLowerCase());
  if (tag) return tag.contentGroupId;
  return {
    code: 'tag_not_found',
    field: 'tags',
    message: `tags: no content tag is named ${name}`,
    hint: 'Create the tag first (POST /v2/content-tags), or correct its name.',
  };
}

export interface Lookups {
  accounts: readonly AccountEntry[];
  tags: readonly TagEntry[];
  /** The ready upload of a media entry as written, or why there is none. */
  upload(entry: string): string | Problem;
}

/**
 * The POST /v2/posts body of a row, or every problem that keeps it from one (the row's
 * own, then those of its accounts, tags and media).
 */
export function buildBody(
  draft: RowDraft,
  lookups: Lookups,
): { body: CreatePostBody; problems: [] } | { body: null; problems: Problem[] } {
  const problems = [...draft.problems];
  const take = <T extends string>(result: T | Problem): T | null => {
    if (typeof result === 'string') return result;
    problems.push(result);
    return null;
  };
  const accountIds = draft.accounts.map((ref) => take(resolveAccount(ref, lookups.accounts)));
  const groups = draft.tags.map((name) => take(resolveTag(name, lookups.tags)));
  const media = draft.media.map((entry) => take(lookups.upload(entry)));
  if (problems.length > 0) return { body: null, problems };
  const uploads = media as string[];
  const body: CreatePostBody = { media: uploads, accountIds: accountIds as string[] };
  if (draft.caption !== undefined) body.caption = draft.caption;
  if (draft.hashtags) body.hashtags = draft.hashtags;
  if (groups.length > 0) body.contentGroupIds = groups as string[];
  if (draft.priority !== undefined) body.priority = draft.priority;
  if (draft.skipApproval) body.skipApproval = true;
  if (draft.notes !== undefined) body.notes = draft.notes;
  if (draft.platformBPostFormat) body.platformBPostFormat = draft.platformBPostFormat;
  if (draft.slides) {
    body.slides = draft.slides.map((slide) => ({ ...slide, image: uploads[slide.image]! }));
  }
  return { body, problems: [] };
}

/** Every distinct media entry of the rows, in order of first use. */
export function mediaEntries(drafts: readonly RowDraft[]): string[] {
  return [...new Set(drafts.flatMap((d) => d.media))];
}
