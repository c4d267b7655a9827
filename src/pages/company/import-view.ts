// How the import page shows a row: what it asks for by name (accounts, tags, media by their
// file names) beside where it stands; the company's accounts and tags it names them from.
import {
  isMediaUrl,
  resolveAccount,
  resolveTag,
  type AccountEntry,
  type AccountRef,
  type Platform,
  type RowDraft,
} from '@slotline/sdk/import';
import { contentTypeOf } from '@slotline/sdk/upload';
import type { AppContext } from '../../context.ts';
import { listCompanyAccounts } from '../../modules/accounts/index.ts';
import { listAllTags } from '../../modules/tags/index.ts';
import type { Names, Shown } from './import-words.ts';
import { isWorkspaceEntry } from './import-workspace.ts';
import { accountRef, captionStart, tagRef, type Ref } from './names.ts';
import { BASE } from './session.ts';

type Tag = Awaited<ReturnType<typeof listAllTags>>[number];
export type RowState = 'ready' | 'problems' | 'imported' | 'created' | 'failed';

/** A row as the page shows it: what it asks for by name, and where it stands. */
export interface RowView {
  row: number;
  /** "1 video", "3 images", "3 slides". */
  media: string;
  /** The media's file names, to know them by. */
  mediaNames: string[];
  /** Each account as written: by name when it is the company's, else as written. */
  accounts: { ref: Ref | null; written: string }[];
  caption: string | null;
  tags: { ref: Ref | null; written: string }[];
  state: RowState;
  problems: Shown[];
  /** The post the row made (or made before). */
  postHref: string | null;
}

export interface Directory {
  accounts: AccountEntry[];
  tags: Tag[];
  names: Names;
}

/** The company's accounts and tags, as the import format looks them up and names them. */
export async function directoryOf(
  ctx: AppContext,
  companyId: string,
  uploads: Map<string, string>,
) {
  const [rows, tags] = await Promise.all([
    listCompanyAccounts(ctx.db, companyId),
    listAllTags(ctx.db, companyId),
  ]);
  const accounts = rows.map((a) => ({
    accountId: a.id,
    username: a.username,
    platform: a.platform as Platform,
  }));
  const names: Names = {
    uploads,
    accounts: new Map(accounts.map((a) => [a.accountId, `@${a.username} (${a.platform})`])),
    tags: new Map(tags.map((t) => [t.tagId, t.name])),
  };
  return { accounts, tags, names } satisfies Directory;
}

function written(ref: AccountRef): string {
  return 'id' in ref ? ref.id : `${ref.platform ? `${ref.platform}:` : ''}@${ref.username}`;
}

const fileNameOf = (entry: string) => {
  const path = isMediaUrl(entry) ? safeUrlPath(entry) : entry;
  const name = path.split('/').filter(Boolean).pop() ?? entry;
  return name.length > 40 ? `${name.slice(0, 39)}…` : name;
};

function safeUrlPath(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname);
  } catch {
    return url;
  }
}

/** What a row asks for, by name; its state and problems are set by the step. */
export function viewOf(draft: RowDraft, dir: Directory): RowView {
  // A Workspace entry is an image, whatever its name ends in.
  const kinds = draft.media.map((m) => (isWorkspaceEntry(m) ? 'image' : typeOf(m)?.split('/')[0]));
  const n = draft.media.length;
  const plural = (word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const media = draft.slides
    ? plural('slide')
    : kinds.every((k) => k === 'image')
      ? plural('image')
      : kinds.every((k) => k === 'video')
        ? plural('video')
        : plural('media item');
  const groups = new Map(dir.tags.map((t) => [t.contentGroupId, t]));
  return {
    row: draft.row,
    media: n === 0 ? 'none' : media,
    mediaNames: draft.media.map(fileNameOf),
    accounts: draft.accounts.map((ref) => {
      const id = resolveAccount(ref, dir.accounts);
      const account = typeof id === 'string' ? dir.accounts.find((a) => a.accountId === id) : null;
      return { ref: account ? accountRef(account) : null, written: written(ref) };
    }),
    caption: captionStart(draft.caption, 80),
    tags: draft.tags.map((name) => {
      const group = resolveTag(name, dir.tags);
      const tag = typeof group === 'string' ? groups.get(group) : undefined;
      return { ref: tag ? tagRef(tag) : null, written: name };
    }),
    state: 'ready',
    problems: [],
    postHref: null,
  };
}

/**
 * The content type a media entry's extension implies, as the command line reads it; none for
 * an address that is not one (`contentTypeOf` parses it, and throws on a malformed one).
 */
export function typeOf(entry: string): string | undefined {
  try {
    return contentTypeOf(entry);
  } catch {
    return undefined;
  }
}

export const postHref = (postId: string) => `${BASE}/posts/${encodeURIComponent(postId)}`;
