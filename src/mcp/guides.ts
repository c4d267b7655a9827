// What an agent reads before it acts: the rules a valid post must follow, as MCP
// resources, and the usual flows as MCP prompts. The numbers come from the same
// constants the service enforces, so the text cannot promise what the API refuses.
import { IMAGE_LIMITS, VIDEO_LIMITS } from '../media/probe/index.ts';
import { MAX_POSTS_PER_DAY, STANDARD_SLOTS } from '../schedule/schedule-rules.ts';

export interface Guide {
  uri: string;
  name: string;
  title: string;
  description: string;
  text: string;
}

const mb = (bytes: number) => `${bytes.toLocaleString('en-US')} bytes`;

const MEDIA_RULES = `# Media and post rules

## Uploads (tool uploadMedia)
- Videos: MP4 or MOV container (filename ending .mp4 or .mov; content type video/mp4 or
  video/quicktime), H.264 or HEVC video, AAC audio when there is audio; at most
  ${mb(VIDEO_LIMITS.maxBytes)}, ${VIDEO_LIMITS.maxDurationSeconds} seconds,
  ${VIDEO_LIMITS.maxShortSide} x ${VIDEO_LIMITS.maxLongSide} pixels and ${VIDEO_LIMITS.maxFrameRate} fps.
  Videos are stored as they are, never transcoded: a file outside these rules is refused
  (invalid_media_specs, file_too_large or unsupported_media_type).
- Images: real PNG, JPEG, WebP or HEIC content, at most ${mb(IMAGE_LIMITS.maxBytes)} and
  ${IMAGE_LIMITS.maxSide} pixels a side.
- A remote sourceUrl must be a public http(s) address; private and loopback addresses are
  refused.
- An upload is usable in a post once its status is "ready".

## Posts (tools validatePost, createPost)
- Without slides, media is exactly one video (a video post) or 1-10 images (a photo
  post). Anything else is invalid_media_set.
- A carousel has 2-10 slides. Every media item is a ready image (PNG, JPEG or WebP), each
  slide's "image" is one of the media ids, and every media id is used by a slide. The
  service renders each slide to a 1080 x 1920 JPEG: text positions are percentages of
  the canvas (positionY is required, positionX defaults to 50), fontSize 6-72 (default
  16), width 20-100 (default 88), at most 6 text elements of 1-500 characters a slide.
- accountIds: 1-50 accounts of your company; the post is queued once per account.
- caption at most 2200 characters, notes 2000, hashtags at most 30 of 50 characters
  (without "#"), contentGroupIds at most 10 ("tag:<tagId>"; archived tags cannot be added).
- platformBPostFormat "post" needs the company's feed-post capability; "reel" is the default.
- Unless skipApproval is true, each queued item waits for a person to approve it in the
  dashboard.
- Call validatePost with the same arguments first: it lists every problem a create would
  meet and changes nothing. Pass an idempotencyKey to createPost so a retry never creates
  a second post.
`;

const SCHEDULE_RULES = `# Schedule and release rules

- Each account has posting windows: its own schedule, else the company's, else the
  standard slots ${STANDARD_SLOTS.join(', ')}.
- A schedule has 1-4 windows, "HH:mm", ascending, between 08:00 and 17:00 inclusive,
  at least 3 hours apart. Times are in the timezone of the worker operating the account
  (the account's "timezone").
- At each window one queued item of the account is released to its worker: the highest
  priority first, then the oldest. A window missed may be made up in an unused standard
  slot of the same day, never past ${MAX_POSTS_PER_DAY} posts per account per local day.
- scheduledSlotStart on an item is the window it is planned for; it moves as the queue
  changes. nextWindow on an account is its next window.
- Schedule changes apply to future releases only. schedule null clears an override; it
  does not pause posting (pauseAccount does).
- Item statuses: processing (media being prepared), pending_approval, queued, posting
  (released to the worker), then posted (with postUrl) or failed; cancelled from
  processing, pending_approval or queued. Caption and other metadata can change until an
  item reaches posting; contentGroupIds can always change.
`;

export const GUIDES: readonly Guide[] = [
  {
    uri: 'slotline://rules/media',
    name: 'media-rules',
    title: 'Media and post rules',
    description: 'What uploads, video posts, photo posts and carousels must satisfy.',
    text: MEDIA_RULES,
  },
  {
    uri: 'slotline://rules/schedule',
    name: 'schedule-rules',
    title: 'Schedule and release rules',
    description: 'Posting windows, releases, daily limits and item statuses.',
    text: SCHEDULE_RULES,
  },
];

export interface PromptSpec {
  name: string;
  title: string;
  description: string;
  arguments: { name: string; description: string; required: boolean }[];
  render(args: Record<string, string>): string;
}

export const PROMPTS: readonly PromptSpec[] = [
  {
    name: 'publish-video',
    title: 'Publish a video to accounts',
    description: 'Upload a video, check the post, then create it for the accounts named.',
    arguments: [
      {
        name: 'source',
        description: 'The video: an https URL (or a local file path over stdio)',
        required: true,
      },
      {
        name: 'accounts',
        description: 'Usernames or account ids, comma-separated',
        required: true,
      },
      { name: 'caption', description: 'The caption', required: false },
    ],
    render: (a) =>
      [
        `Publish the video ${a.source} to these accounts: ${a.accounts}.`,
        a.caption ? `Caption: ${a.caption}` : 'Write a short caption that fits the accounts.',
        'Steps: read the resource slotline://rules/media; call listAccounts and match the accounts',
        'by username (ask if one is ambiguous or missing); call uploadMedia and wait for "ready";',
        'call validatePost with the post you intend and fix every problem it lists; then call',
        'createPost with the same arguments and a fresh idempotencyKey, and report each',
        "account's status and scheduledSlotStart.",
      ].join('\n'),
  },
  {
    name: 'weekly-report',
    title: 'Report on the last days of posting',
    description: 'Summarise what was posted, what is queued and how posts performed.',
    arguments: [{ name: 'days', description: 'How many days back (default 7)', required: false }],
    render: (a) =>
      [
        `Report on the last ${a.days || '7'} days of posting.`,
        'Call listPosts with since set to that date and follow nextCursor to the end; for',
        'posted posts call getPostAnalytics. Give: posts per account and status, the best',
        'posts by views and engagementRate, failed or cancelled items with their reasons,',
        'and what is queued next (listAccountQueue). Name accounts by @username, never by id.',
      ].join('\n'),
  },
];
