// The post composer's form (compose.pages.ts): what a browser sends, read back into the
// form's own state (so a refused form shows everything as it was typed), and the buttons
// that change it; compose-body.ts makes that state the body of POST /v2/posts.
//
// Field names: `kind` (video, photos or carousel), `video` (the video's upload id), `uploaded`
// (image uploads made in this form, its library), `image` (the images of a photo post, in
// order: upload ids, or `ws:<imageId>` for a workspace image), and per slide `s<i>.image`,
// `s<i>.imageFit`, `s<i>.role` and per text box `s<i>.t<j>.content` and `s<i>.t<j>.<style>`
// with the style fields of SPEC 2.3. The page's script adds, removes and reorders slides and
// text boxes and renumbers the names; without it, the `op` buttons do the same on the server.
import { CreatePostBody, TextStyle } from '../../modules/posts/index.ts';

export const KINDS = ['video', 'photos', 'carousel'] as const;
export type Kind = (typeof KINDS)[number];

/** A workspace image stands in the form as `ws:<imageId>` until it is made an upload. */
export const WORKSPACE_PREFIX = 'ws:';

type StyleSchema = {
  enum?: string[];
  minimum?: number;
  maximum?: number;
  default?: string | number;
};
const STYLE_SCHEMA = TextStyle.properties as unknown as Record<string, StyleSchema>;

/** How the form shows each style field of SPEC 2.3 (the SPEC's name is shown beside it). */
const STYLE_LABELS = {
  textMode: 'Text mode',
  textColor: 'Text colour',
  backgroundColor: 'Background colour',
  fontSize: 'Font size',
  fontWeight: 'Font weight',
  textAlign: 'Alignment',
  positionX: 'Position across (%)',
  positionY: 'Position down (%)',
  width: 'Width (%)',
  padding: 'Padding',
} as const;
export type StyleName = keyof typeof STYLE_LABELS;
const STYLE_NAMES = Object.keys(STYLE_LABELS) as StyleName[];

/** What each text mode draws (DECISIONS 4), beside its SPEC name. */
const MODE_WORDS: Record<string, string> = {
  stroke: 'stroke (outlined)',
  background: 'background (a box)',
  plain: 'plain',
  snapchat: 'snapchat (a band)',
};

export interface StyleField {
  name: StyleName;
  label: string;
  /** The choices of an enum field, with what the form shows for each. */
  options: { value: string; text: string }[] | null;
  min: number | null;
  max: number | null;
  /** The SPEC default; none for positionY, which every text box sets. */
  default: string | null;
}

/** The style fields with their bounds and defaults, read from the API's schema. */
export const STYLE_FIELDS: readonly StyleField[] = STYLE_NAMES.map((name) => {
  const s = STYLE_SCHEMA[name] ?? {};
  return {
    name,
    label: STYLE_LABELS[name],
    options: s.enum
      ? s.enum.map((value) => ({
          value,
          text: name === 'textMode' ? (MODE_WORDS[value] ?? value) : value,
        }))
      : null,
    min: s.minimum ?? null,
    max: s.maximum ?? null,
    default: s.default === undefined ? null : String(s.default),
  };
});

const SLIDE_SCHEMA = CreatePostBody.properties.slides as unknown as {
  minItems: number;
  maxItems: number;
  items: {
    properties: {
      textElements: { maxItems: number; items: { properties: { content: { maxLength: number } } } };
    };
  };
};
const BODY = CreatePostBody.properties as unknown as Record<
  string,
  {
    maxLength?: number;
    maxItems?: number;
    minItems?: number;
    maximum?: number;
    items?: { maxLength?: number };
  }
>;

/** The API's bounds the page shows and its script checks as people type. */
export const LIMITS = {
  caption: BODY.caption?.maxLength ?? 0,
  notes: BODY.notes?.maxLength ?? 0,
  hashtags: BODY.hashtags?.maxItems ?? 0,
  hashtagChars: BODY.hashtags?.items?.maxLength ?? 0,
  media: BODY.media?.maxItems ?? 0,
  accounts: BODY.accountIds?.maxItems ?? 0,
  tags: BODY.contentGroupIds?.maxItems ?? 0,
  priority: BODY.priority?.maximum ?? 0,
  minSlides: SLIDE_SCHEMA.minItems,
  maxSlides: SLIDE_SCHEMA.maxItems,
  texts: SLIDE_SCHEMA.items.properties.textElements.maxItems,
  content: SLIDE_SCHEMA.items.properties.textElements.items.properties.content.maxLength,
};

export interface TextState {
  content: string;
  style: Record<StyleName, string>;
}

export interface SlideState {
  image: string;
  imageFit: string;
  role: string;
  texts: TextState[];
}

export interface ComposeState {
  kind: Kind;
  /** The form's Idempotency-Key: one per form, so sending it twice makes one post. */
  key: string;
  video: string;
  uploaded: string[];
  images: string[];
  slides: SlideState[];
  caption: string;
  hashtags: string;
  notes: string;
  soundMode: string;
  soundUrl: string;
  soundUrlA: string;
  soundUrlB: string;
  tags: string[];
  accounts: string[];
  skipApproval: boolean;
  priority: string;
  format: string;
}

/** A new text box: the SPEC defaults, at `positionY` down the slide. */
export function newText(positionY: number): TextState {
  const style = {} as Record<StyleName, string>;
  for (const f of STYLE_FIELDS) style[f.name] = f.default ?? '';
  style.positionY = String(positionY);
  return { content: '', style };
}

export function newSlide(withText: boolean): SlideState {
  return { image: '', imageFit: 'fill', role: '', texts: withText ? [newText(50)] : [] };
}

/**
 * A new form of `kind`. A carousel starts with two slides; other kinds with none, which the
 * page's script adds when the carousel is chosen (without it, "Add a slide" does).
 */
export function emptyState(key: string, kind: Kind = 'video'): ComposeState {
  return {
    kind,
    key,
    video: '',
    uploaded: [],
    images: [],
    slides: kind === 'carousel' ? [newSlide(true), newSlide(true)] : [],
    caption: '',
    hashtags: '',
    notes: '',
    soundMode: '',
    soundUrl: '',
    soundUrlA: '',
    soundUrlB: '',
    tags: [],
    accounts: [],
    skipApproval: false,
    priority: '0',
    format: 'reel',
  };
}

export type FormBody = Record<string, string | string[] | undefined>;

const one = (v: string | string[] | undefined): string =>
  Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
const all = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

/** The form's own uploads it keeps (each is looked up to show it): a day's work at most. */
const MAX_UPLOADED = 100;
/** Slides and text boxes read past these are ignored (the schema's bounds are lower). */
const MAX_SLIDE_INDEX = 20;
const MAX_TEXT_INDEX = 10;
const SLIDE_FIELD = /^s(\d{1,2})\.(image|imageFit|role)$/;
const TEXT_FIELD = /^s(\d{1,2})\.t(\d{1,2})\.(\w+)$/;

/** The slides a form sent, in the order of their numbers (gaps closed). */
function slidesOf(body: FormBody): SlideState[] {
  const slides = new Map<number, SlideState & { byIndex: Map<number, TextState> }>();
  const slideAt = (i: number) => {
    let s = slides.get(i);
    if (!s) {
      s = { ...newSlide(false), byIndex: new Map() };
      slides.set(i, s);
    }
    return s;
  };
  for (const [name, value] of Object.entries(body)) {
    const own = SLIDE_FIELD.exec(name);
    if (own) {
      const i = Number(own[1]);
      if (i < MAX_SLIDE_INDEX) slideAt(i)[own[2] as 'image' | 'imageFit' | 'role'] = one(value);
      continue;
    }
    const text = TEXT_FIELD.exec(name);
    if (!text) continue;
    const i = Number(text[1]);
    const j = Number(text[2]);
    const field = text[3] as string;
    if (i >= MAX_SLIDE_INDEX || j >= MAX_TEXT_INDEX) continue;
    if (field !== 'content' && !(STYLE_NAMES as string[]).includes(field)) continue;
    const slide = slideAt(i);
    let t = slide.byIndex.get(j);
    if (!t) {
      t = newText(50);
      for (const f of STYLE_NAMES) t.style[f] = '';
      slide.byIndex.set(j, t);
    }
    if (field === 'content') t.content = one(value);
    else t.style[field as StyleName] = one(value);
  }
  return [...slides.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, s]) => ({
      image: s.image,
      imageFit: s.imageFit,
      role: s.role,
      texts: [...s.byIndex.entries()].sort(([a], [b]) => a - b).map(([, t]) => t),
    }));
}

/** The form as it was sent. */
export function stateOf(body: FormBody, freshKey: () => string): ComposeState {
  const kind = one(body.kind);
  return {
    kind: (KINDS as readonly string[]).includes(kind) ? (kind as Kind) : 'video',
    key: one(body.key) || freshKey(),
    video: one(body.video),
    uploaded: [...new Set(all(body.uploaded).filter(Boolean))].slice(0, MAX_UPLOADED),
    images: all(body.image).filter(Boolean),
    slides: slidesOf(body),
    caption: one(body.caption),
    hashtags: one(body.hashtags),
    notes: one(body.notes),
    soundMode: one(body.soundMode),
    soundUrl: one(body.soundUrl),
    soundUrlA: one(body.soundUrlA),
    soundUrlB: one(body.soundUrlB),
    tags: all(body.tag).filter(Boolean),
    accounts: all(body.account).filter(Boolean),
    skipApproval: one(body.skipApproval) === 'true',
    priority: one(body.priority),
    format: one(body.platformBPostFormat),
  };
}

/**
 * Applies an editing button of the form (`add-slide`, `remove-text:1.0`, ...), as the page's
 * script does without a round trip; false for a value that names nothing.
 */
export function applyOp(state: ComposeState, op: string): boolean {
  const m = /^(add|remove|up|down)-(slide|text)(?::(\d{1,2})(?:\.(\d{1,2}))?)?$/.exec(op);
  if (!m) return false;
  const [, verb, what] = m;
  const i = m[3] === undefined ? -1 : Number(m[3]);
  const j = m[4] === undefined ? -1 : Number(m[4]);
  const move = <T>(list: T[], at: number, by: number): boolean => {
    const to = at + by;
    if (at < 0 || at >= list.length || to < 0 || to >= list.length) return false;
    [list[at], list[to]] = [list[to] as T, list[at] as T];
    return true;
  };
  if (what === 'slide') {
    if (verb === 'add') {
      if (state.slides.length >= LIMITS.maxSlides) return false;
      state.slides.push(newSlide(true));
      return true;
    }
    if (i < 0 || i >= state.slides.length) return false;
    if (verb === 'remove') return state.slides.splice(i, 1).length === 1;
    return move(state.slides, i, verb === 'up' ? -1 : 1);
  }
  const slide = state.slides[i];
  if (!slide) return false;
  if (verb === 'add') {
    if (slide.texts.length >= LIMITS.texts) return false;
    slide.texts.push(newText(Math.min(90, 30 + slide.texts.length * 15)));
    return true;
  }
  if (j < 0 || j >= slide.texts.length) return false;
  if (verb === 'remove') return slide.texts.splice(j, 1).length === 1;
  return move(slide.texts, j, verb === 'up' ? -1 : 1);
}
