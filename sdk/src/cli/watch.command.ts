// `slotline-client watch <postId>`: asks for the post every interval and prints each change
// of its status and of each account item's status, until every item is final (exit 0) or
// the timeout passes (exit 124).
import type { SlotlineClient } from '../client.ts';
import type { components } from '../schema.ts';
import { UsageError, secondsOption, type CommandContext } from './shared.ts';

type Post = components['schemas']['Post'];
type Item = Post['accounts'][number];

export const TIMEOUT_EXIT = 124;
const FINAL = new Set<string>(['posted', 'failed', 'cancelled']);
const FINAL_POST = new Set<string>([...FINAL, 'partially_posted']);
const DEFAULT_INTERVAL_MS = 5000;

export const watchOptions = {
  interval: { type: 'string' },
  timeout: { type: 'string' },
} as const;

export const watchCommand = {
  options: watchOptions,
  help: `Usage: slotline-client watch <postId> [options]

Follows a post: prints a line (with the time) for each change of the post's status and of
each account's status, and exits 0 once every account is posted, failed or cancelled.

Options:
  --interval <s>            Seconds between checks (default 5; fractions allowed)
  --timeout <s>             Give up after this many seconds, with exit code 124
  --json                    One JSON object per change and line (NDJSON)
  --url <url>, --key <key>  The service and API key (or SLOTLINE_URL, SLOTLINE_KEY)
  -h, --help                Show this help

Exit codes: 0 every account final, 1 an error, 2 a bad command line, 124 timed out.
`,
  async run(context: CommandContext): Promise<number> {
    const [postId, ...extra] = context.positionals;
    if (!postId || extra.length > 0) throw new UsageError('give exactly one post id');
    return watchPost(context.api, postId, context);
  },
};

/** A change worth a line: of the post, or of one account's item. */
type Change =
  | { time: string; type: 'post'; postId: string; status: string }
  | {
      time: string;
      type: 'account';
      postId: string;
      accountId: string;
      username: string;
      status: string;
      postUrl?: string;
      error?: string;
    };

export async function watchPost(
  api: SlotlineClient,
  postId: string,
  { values, io }: Pick<CommandContext, 'values' | 'io'>,
): Promise<number> {
  const intervalMs = secondsOption(values, 'interval') ?? DEFAULT_INTERVAL_MS;
  const timeoutMs = secondsOption(values, 'timeout');
  const deadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
  const print = (change: Change) =>
    io.out(values.json ? `${JSON.stringify(change)}\n` : line(change));
  let postStatus = '';
  const itemStatus = new Map<string, string>();
  for (;;) {
    const { data } = await api.GET('/v2/posts/{postId}', { params: { path: { postId } } });
    const post = data!;
    const time = new Date().toISOString();
    if (post.status !== postStatus) {
      postStatus = post.status;
      print({ time, type: 'post', postId, status: post.status });
    }
    for (const item of post.accounts) {
      if (itemStatus.get(item.accountId) === item.status) continue;
      itemStatus.set(item.accountId, item.status);
      print(itemChange(time, postId, item));
    }
    if (isFinal(post)) return 0;
    const left = deadline - Date.now();
    if (left <= 0) {
      const seconds = (timeoutMs ?? 0) / 1000;
      io.err(`slotline-client: timed out after ${seconds} s: post ${postId} is ${post.status}\n`);
      return TIMEOUT_EXIT;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, left)));
  }
}

function isFinal(post: Post): boolean {
  if (post.accounts.length === 0) return FINAL_POST.has(post.status);
  return post.accounts.every((item) => FINAL.has(item.status));
}

function itemChange(time: string, postId: string, item: Item): Change {
  return {
    time,
    type: 'account',
    postId,
    accountId: item.accountId,
    username: item.username,
    status: item.status,
    ...(item.postUrl ? { postUrl: item.postUrl } : {}),
    ...(item.error ? { error: item.error } : {}),
  };
}

function line(change: Change): string {
  if (change.type === 'post') return `${change.time} post ${change.postId} ${change.status}\n`;
  const detail = change.postUrl ? ` ${change.postUrl}` : change.error ? `: ${change.error}` : '';
  return `${change.time} account ${change.accountId} (@${change.username}) ${change.status}${detail}\n`;
}
