// The edit form of a post's page: the fields as the browser sends them, the form as typed
// (kept when it is shown again), the PATCH it asks for (only what differs from the post),
// its check against the API's own body and the refusals that belong to one of its fields.
import { Type, type Static } from 'typebox';
import {
  Sound,
  UpdatePostBody,
  type PostOut,
  type UpdatePostInput,
} from '../../modules/posts/index.ts';
import { formCheck, Repeated, valuesOf, type CheckedForm } from './forms.ts';
import { editFormOf, type EditForm } from './post-detail.ts';

export const EditBody = Type.Object({
  /** `tags` when only the tags may change (the post is past editing). */
  scope: Type.Optional(Type.String()),
  caption: Type.Optional(Type.String()),
  hashtags: Type.Optional(Type.String()),
  soundMode: Type.Optional(Type.String()),
  soundUrl: Type.Optional(Type.String()),
  soundUrlA: Type.Optional(Type.String()),
  soundUrlB: Type.Optional(Type.String()),
  notes: Type.Optional(Type.String()),
  tag: Type.Optional(Repeated),
  format: Type.Optional(Type.String()),
});
export type EditBodyIn = Static<typeof EditBody>;

// The edit form against PATCH /v2/posts/{postId}'s own body, each field named as the form
// labels it. A sound is checked as the object it is (clearing it, null, needs no check), so
// that a broken link is named as its own field rather than as "sound".
const EditCheckBody = Type.Object(
  { ...UpdatePostBody.properties, sound: Type.Optional(Sound) },
  { additionalProperties: false },
);
const checkEditFields = formCheck(EditCheckBody, {
  caption: { label: 'Caption', id: 'post-caption' },
  hashtags: { label: 'Hashtags', id: 'post-hashtags', item: 'hashtag' },
  'sound.mode': { label: 'Sound', field: 'soundMode', id: 'post-sound-mode' },
  'sound.url': { label: 'Sound link', field: 'soundUrl', id: 'post-sound-url' },
  'sound.urlsByPlatform.platformA': {
    label: 'Sound link on platformA',
    field: 'soundUrlA',
    id: 'post-sound-a',
  },
  'sound.urlsByPlatform.platformB': {
    label: 'Sound link on platformB',
    field: 'soundUrlB',
    id: 'post-sound-b',
  },
  notes: { label: 'Notes', id: 'post-notes' },
  contentGroupIds: { label: 'Tags', field: 'tag', id: 'post-tags', item: 'tag' },
  platformBPostFormat: { label: 'Format on platformB', field: 'format', id: 'post-format' },
});

export function checkEdit(input: UpdatePostInput): CheckedForm<UpdatePostInput> {
  const { sound, ...rest } = input;
  const checked = checkEditFields(sound === null ? rest : input);
  return checked.ok ? { ok: true, value: input } : checked;
}

/** What browsers send from a textarea (CRLF line ends) as people count it (LF). */
function text(value: string | undefined): string {
  return (value ?? '').replace(/\r\n?/g, '\n');
}

/** "#summer, food #Launch" -> ["summer", "food", "Launch"]. */
function hashtagsOf(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((h) => h.replace(/^#+/, ''))
    .filter((h) => h !== '');
}

type SoundValue = UpdatePostInput['sound'];

/** A sound as the API keeps it, with keys in one order so two can be compared. */
function soundOf(
  mode: string,
  url: string,
  platformA: string,
  platformB: string,
): NonNullable<SoundValue> | null {
  if (mode === '') return null;
  const byPlatform = {
    ...(platformA ? { platformA } : {}),
    ...(platformB ? { platformB } : {}),
  };
  return {
    mode: mode as NonNullable<SoundValue>['mode'],
    ...(url ? { url } : {}),
    ...(Object.keys(byPlatform).length ? { urlsByPlatform: byPlatform } : {}),
  };
}

export function typedEdit(body: EditBodyIn, post: PostOut): EditForm {
  const current = editFormOf(post);
  return {
    caption: body.caption === undefined ? current.caption : text(body.caption),
    hashtags: body.hashtags ?? current.hashtags,
    soundMode: body.soundMode ?? current.soundMode,
    soundUrl: (body.soundUrl ?? current.soundUrl).trim(),
    soundUrlA: (body.soundUrlA ?? current.soundUrlA).trim(),
    soundUrlB: (body.soundUrlB ?? current.soundUrlB).trim(),
    notes: body.notes === undefined ? current.notes : text(body.notes),
    tags: valuesOf(body.tag),
    format: body.format ?? current.format,
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The PATCH the form asks for: only what differs from the post, so that saving an
 * unchanged form changes nothing, and a post past editing refuses only a real change.
 */
export function changesOf(form: EditForm, post: PostOut, tagsOnly: boolean): UpdatePostInput {
  const current = editFormOf(post);
  const tags = [...new Set(form.tags)];
  const input: UpdatePostInput = {};
  if (!same([...tags].sort(), [...current.tags].sort())) {
    // Template provenance stays whatever the list says (SPEC 2.2 rule 2).
    input.contentGroupIds = tags;
  }
  if (tagsOnly) return input;
  if (form.caption !== current.caption) input.caption = form.caption;
  const hashtags = hashtagsOf(form.hashtags);
  if (!same(hashtags, post.hashtags)) input.hashtags = hashtags;
  const sound = soundOf(form.soundMode, form.soundUrl, form.soundUrlA, form.soundUrlB);
  const had = post.sound
    ? soundOf(
        post.sound.mode,
        post.sound.url ?? '',
        post.sound.urlsByPlatform?.platformA ?? '',
        post.sound.urlsByPlatform?.platformB ?? '',
      )
    : null;
  if (!same(sound, had)) input.sound = sound;
  const notes = form.notes.trim() === '' ? null : form.notes;
  if (notes !== (post.notes === '' ? null : post.notes)) input.notes = notes;
  if (form.format !== post.platformBPostFormat) {
    input.platformBPostFormat = form.format as UpdatePostInput['platformBPostFormat'];
  }
  return input;
}

/** The edit's refusals that belong to one field, in its words. */
export const EDIT_REFUSALS: Partial<
  Record<string, { field: string; id: string; message: string }>
> = {
  platformB_feed_posts_disabled: {
    field: 'format',
    id: 'post-format',
    message:
      'Format on platformB: regular feed posts are not enabled for this company; choose Reel.',
  },
  tag_not_found: {
    field: 'tag',
    id: 'post-tags',
    message: 'Tags: a tag you chose no longer exists; choose again.',
  },
  // The one invalid_request a valid form can meet: an archived tag (checkGroups).
  invalid_request: {
    field: 'tag',
    id: 'post-tags',
    message: 'Tags: an archived tag cannot be added to a post; restore it on the Tags page first.',
  },
};
