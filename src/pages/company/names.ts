// Names, not ids: how the company's pages name an account, a post, a tag or template, an
// item or a person wherever they mention one, each with a link to its page. A `Ref` is what
// views/ref.eta renders; an id shows only as secondary text.
import { BASE } from './session.ts';

export type RefKind =
  'account' | 'post' | 'tag' | 'template' | 'item' | 'user' | 'key' | 'webhook' | 'company';

/** One thing named on a page: what it is, how it reads, where its page is. */
export interface Ref {
  kind: RefKind;
  id: string;
  /** How it reads: `@demo.kitchen`, “Summer menu…”, a tag's name, an email. */
  label: string;
  href: string | null;
  /** An account's platform (`platformA`, `platformB`). */
  platform?: string;
  /** A tag's colour. */
  color?: string;
  /** Said after the label in small print: "archived", "on @demo.kitchen". */
  note?: string;
}

/** An account as every page names it: `@username` with its platform, linking to its page. */
export function accountRef(a: { accountId: string; username: string; platform: string }): Ref {
  return {
    kind: 'account',
    id: a.accountId,
    label: `@${a.username}`,
    platform: a.platform,
    href: `${BASE}/accounts/${encodeURIComponent(a.accountId)}`,
  };
}

/** The first words of a caption, at most `max` characters, cut at a word. */
export function captionStart(caption: string | null | undefined, max = 60): string | null {
  const text = (caption ?? '').replace(/\s+/g, ' ').trim();
  if (text === '') return null;
  const chars = [...text];
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/u, '')}…`;
}

/** What a post is called where it has no caption: "Video post", "Image post". */
export function untitled(mediaKind: string): string {
  if (mediaKind === 'carousel') return 'Carousel post';
  return mediaKind === 'video' ? 'Video post' : 'Image post';
}

/** A post's human title: the start of its caption in quotes, else its kind. */
export function postTitle(caption: string | null | undefined, mediaKind: string): string {
  const start = captionStart(caption);
  return start ? `“${start}”` : untitled(mediaKind);
}

export function postRef(postId: string, caption: string | null, mediaKind: string): Ref {
  return {
    kind: 'post',
    id: postId,
    label: postTitle(caption, mediaKind),
    href: `${BASE}/posts/${encodeURIComponent(postId)}`,
  };
}

/** The posts list filtered by a content group: a tag's or template's page of posts. */
export function groupPostsUrl(contentGroupId: string): string {
  return `${BASE}/posts?tag=${encodeURIComponent(contentGroupId)}`;
}

/** A tag by name and colour, linking to its posts. */
export function tagRef(tag: {
  tagId: string;
  contentGroupId: string;
  name: string;
  color: string;
  archived: boolean;
}): Ref {
  return {
    kind: 'tag',
    id: tag.tagId,
    label: tag.name,
    color: tag.color,
    href: groupPostsUrl(tag.contentGroupId),
    ...(tag.archived ? { note: 'archived' } : {}),
  };
}

/**
 * A post's content group (SPEC 2.2): a tag of the company by name and colour, or the
 * template the post was made from (provenance, which has no record to name it by).
 */
export function groupRef(
  contentGroupId: string,
  tags: ReadonlyMap<string, Parameters<typeof tagRef>[0]>,
): Ref {
  const tag = tags.get(contentGroupId);
  if (tag) return tagRef(tag);
  const [kind, id = contentGroupId] = contentGroupId.split(':');
  if (kind === 'template') {
    return {
      kind: 'template',
      id,
      label: `Template ${id}`,
      href: groupPostsUrl(contentGroupId),
      note: 'made from it',
    };
  }
  // A tag deleted since (its attribution goes with it, so this is a passing moment).
  return { kind: 'tag', id, label: 'Deleted tag', href: null };
}

/** A person in the log or on a post: a dashboard user's email, or the operator. */
export function personLabel(by: string | null, emails: ReadonlyMap<string, string>): string {
  if (by === null) return 'someone';
  if (by === 'operator') return 'the operator (admin CLI)';
  const userId = by.startsWith('user:') ? by.slice(5) : by;
  return emails.get(userId) ?? 'a former user';
}
