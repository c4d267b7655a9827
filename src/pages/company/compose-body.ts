// The composer's state (compose-form.ts) as the body of POST /v2/posts, checked against
// the API's own schema with every error at once, each named as the form labels its control
// (`slideField` gives the names, ids and labels of a slide's and a text box's controls).
import { compileFormValidator } from '../../http/validation.ts';
import { CreatePostBody, type CreatePostInput } from '../../modules/posts/index.ts';
import { STYLE_FIELDS, type ComposeState, type TextState } from './compose-form.ts';
import { fieldErrors, fieldError, type FieldError, type FormFields } from './forms.ts';

/** Hashtags as typed (spaces or commas between them, # or not), without the #. */
export function hashtagsOf(typed: string): string[] {
  return typed
    .split(/[\s,]+/)
    .map((t) => t.replace(/^#+/, ''))
    .filter((t) => t !== '');
}

/** A number as typed: a number, nothing for an empty field, the text itself otherwise. */
function numberOf(typed: string): number | string | undefined {
  const t = typed.trim();
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
}

/** The post's media ids as the kind of post takes them: a carousel's, in slide order. */
export function mediaOf(state: ComposeState): string[] {
  if (state.kind === 'video') return state.video ? [state.video] : [];
  if (state.kind === 'photos') return state.images;
  return [...new Set(state.slides.map((s) => s.image).filter(Boolean))];
}

/** The body the form stands for, and which text box of the form each one of it is. */
export function bodyOf(state: ComposeState): { body: Record<string, unknown>; texts: number[][] } {
  const body: Record<string, unknown> = { media: mediaOf(state), accountIds: state.accounts };
  if (state.caption !== '') body.caption = state.caption;
  const hashtags = hashtagsOf(state.hashtags);
  if (hashtags.length > 0) body.hashtags = hashtags;
  if (state.notes.trim() !== '') body.notes = state.notes;
  if (state.soundMode !== '') {
    const sound: Record<string, unknown> = { mode: state.soundMode };
    if (state.soundUrl.trim()) sound.url = state.soundUrl.trim();
    const byPlatform: Record<string, string> = {};
    if (state.soundUrlA.trim()) byPlatform.platformA = state.soundUrlA.trim();
    if (state.soundUrlB.trim()) byPlatform.platformB = state.soundUrlB.trim();
    if (Object.keys(byPlatform).length > 0) sound.urlsByPlatform = byPlatform;
    body.sound = sound;
  }
  const priority = numberOf(state.priority);
  if (priority !== undefined) body.priority = priority;
  if (state.tags.length > 0) body.contentGroupIds = state.tags.map((id) => `tag:${id}`);
  if (state.format !== '') body.platformBPostFormat = state.format;
  if (state.skipApproval) body.skipApproval = true;
  const texts: number[][] = [];
  if (state.kind === 'carousel') {
    body.slides = state.slides.map((slide, i) => {
      // A text box left empty is no text: it is left out, whatever its style.
      const kept = slide.texts.flatMap((t, j) => (t.content.trim() === '' ? [] : [j]));
      texts[i] = kept;
      const out: Record<string, unknown> = {
        image: slide.image,
        textElements: kept.map((j) => {
          const t = slide.texts[j] as TextState;
          const style: Record<string, unknown> = {};
          for (const f of STYLE_FIELDS) {
            const typed = t.style[f.name] ?? '';
            const value = f.options ? typed || undefined : numberOf(typed);
            if (value !== undefined) style[f.name] = value;
          }
          return { content: t.content, style };
        }),
      };
      if (slide.imageFit) out.imageFit = slide.imageFit;
      if (slide.role) out.role = slide.role;
      return out;
    });
  }
  return { body, texts };
}

/** The control of slide `i` (and text box `j`): its name and id, as the templates make them. */
export function slideField(i: number, field: string, j?: number) {
  const path = j === undefined ? `s${i}.${field}` : `s${i}.t${j}.${field}`;
  return { name: path, id: path.replace(/\./g, '-') };
}

/** How the form labels every value of the body, for the errors' words and places. */
function fieldsOf(state: ComposeState, texts: number[][]): FormFields {
  const media =
    state.kind === 'video'
      ? {
          label: 'Video',
          field: 'video',
          id: 'video-file',
          messages: { minItems: 'upload a video first' },
        }
      : state.kind === 'photos'
        ? {
            label: 'Images',
            field: 'image',
            id: 'images',
            item: 'image',
            messages: { minItems: 'tick at least one image to post' },
          }
        : // A carousel's media are its slides' images: each slide's own error tells it.
          { label: 'Slides', field: 'media', id: 'slides' };
  const fields: FormFields = { media };
  if (state.kind === 'carousel') {
    fields.slides = { label: 'Slides', field: 'slides', id: 'slides', item: 'slide' };
    state.slides.forEach((_, i) => {
      const name = `Slide ${i + 1}`;
      const at = (field: string, label: string, j?: number) => {
        const f = slideField(i, field, j);
        return { label, field: f.name, id: f.id };
      };
      fields[`slides.${i}.image`] = {
        ...at('image', `${name}, background image`),
        messages: { required: 'choose an image', minLength: 'choose an image' },
      };
      fields[`slides.${i}.imageFit`] = at('imageFit', `${name}, image fit`);
      fields[`slides.${i}.role`] = at('role', `${name}, role`);
      fields[`slides.${i}.textElements`] = {
        label: `${name}, text boxes`,
        field: `s${i}.texts`,
        id: `s${i}-texts`,
      };
      (texts[i] ?? []).forEach((j, k) => {
        const box = `${name}, text ${j + 1}`;
        fields[`slides.${i}.textElements.${k}.content`] = at('content', `${box}`, j);
        for (const f of STYLE_FIELDS) {
          fields[`slides.${i}.textElements.${k}.style.${f.name}`] = at(
            f.name,
            `${box}, ${f.label.replace(/ \(%\)$/, '').toLowerCase()}`,
            j,
          );
        }
      });
    });
  }
  Object.assign(fields, {
    caption: { label: 'Caption', id: 'caption' },
    hashtags: { label: 'Hashtags', id: 'hashtags', item: 'hashtag' },
    'sound.mode': { label: 'Sound', field: 'soundMode', id: 'sound-mode' },
    'sound.url': { label: 'Sound link', field: 'soundUrl', id: 'sound-url' },
    'sound.urlsByPlatform.platformA': {
      label: 'platformA sound link',
      field: 'soundUrlA',
      id: 'sound-url-a',
    },
    'sound.urlsByPlatform.platformB': {
      label: 'platformB sound link',
      field: 'soundUrlB',
      id: 'sound-url-b',
    },
    contentGroupIds: { label: 'Content tags', field: 'tag', id: 'tags' },
    accountIds: {
      label: 'Accounts',
      field: 'account',
      id: 'accounts',
      messages: { minItems: 'choose at least one account to post to' },
    },
    skipApproval: { label: 'Skip approval', id: 'skip-approval' },
    priority: { label: 'Priority', id: 'priority' },
    platformBPostFormat: { label: 'platformB format', field: 'platformBPostFormat', id: 'format' },
    notes: { label: 'Notes', id: 'notes' },
  });
  return fields;
}

const validate = compileFormValidator(CreatePostBody);

export type Checked =
  { ok: true; input: CreatePostInput; texts: number[][] } | { ok: false; errors: FieldError[] };

/** The form as POST /v2/posts's body, or every error of it in the form's words. */
export function checkState(state: ComposeState): Checked {
  const { body, texts } = bodyOf(state);
  const errors: FieldError[] = [];
  if (state.soundMode === '' && (state.soundUrl || state.soundUrlA || state.soundUrlB).trim()) {
    errors.push(
      fieldError('soundMode', 'Sound: choose how the sound is used for these links', 'sound-mode'),
    );
  }
  if (!validate(body)) {
    const all = fieldErrors(validate.errors ?? [], fieldsOf(state, texts));
    errors.push(...all.filter((e) => e.field !== 'media'));
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, input: body as CreatePostInput, texts };
}
