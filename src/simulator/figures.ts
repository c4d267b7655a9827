// What a simulated worker reports, as pure functions of ids and elapsed time: the URL a
// post "went out" at, a post's figures and an account's followers. Seeded from the task or
// account id, so a repeated report is the same and figures never decrease.
import { createHash } from 'node:crypto';
import { DEFAULT_POST_URL_PATTERNS } from '../config.ts';
import { DAY_MS, MINUTE_MS } from '../schedule/local-time.ts';

const HOUR_MS = 60 * MINUTE_MS;

/** A uniform number in [0, 1) derived from `seed` and `label`. */
function unit(seed: string, label: string): number {
  const h = createHash('sha256').update(`${seed}\n${label}`).digest();
  return h.readUIntBE(0, 6) / 2 ** 48;
}

function digits(seed: string, n: number): string {
  const h = createHash('sha256').update(`${seed}\nurl`).digest();
  let out = '';
  for (let i = 0; out.length < n; i++) out += String((h[i % h.length] as number) % 10);
  return out;
}

const CODE_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/**
 * Where a simulated post "went out", fixed by the task id: the platform's post URL as the
 * service is configured to check it (POST_URL_PATTERN_*), or the default one where it is not.
 */
export function simulatedPostUrl(
  taskId: string,
  platform: string,
  username: string,
  template?: string,
): string {
  let id: string;
  if (platform === 'platformB') {
    const h = createHash('sha256').update(`${taskId}\ncode`).digest();
    id = [...h.subarray(0, 11)].map((b) => CODE_CHARS[b % 64]).join('');
  } else {
    id = `7${digits(taskId, 18)}`;
  }
  const pattern =
    template ?? DEFAULT_POST_URL_PATTERNS[platform === 'platformB' ? 'platformB' : 'platformA'];
  return pattern.replaceAll('{username}', encodeURIComponent(username)).replaceAll('{id}', id);
}

export interface SimulatedFigures {
  views: number;
  likes: number;
  comments: number;
  shares: number;
  saves: number;
}

/**
 * The figures of a simulated post `elapsedMs` after it went out: views rise fast and flatten
 * towards a ceiling (between ~400 and ~100k, seeded), the rest are fixed fractions of views.
 * Non-decreasing in `elapsedMs`.
 */
export function simulatedFigures(taskId: string, elapsedMs: number): SimulatedFigures {
  const ceiling = 400 * 10 ** (2.4 * unit(taskId, 'ceiling'));
  const halfLifeMs = (2 + 10 * unit(taskId, 'pace')) * HOUR_MS;
  // A few minutes' head start so the first snapshot, taken right after posting, is not all zeros.
  const t = Math.max(0, elapsedMs) + 5 * MINUTE_MS;
  const views = Math.floor(ceiling * (1 - 2 ** (-t / halfLifeMs)));
  const share = (label: string, from: number, span: number) =>
    Math.floor(views * (from + span * unit(taskId, label)));
  return {
    views,
    likes: share('likes', 0.03, 0.09),
    comments: share('comments', 0.002, 0.012),
    shares: share('shares', 0.002, 0.015),
    saves: share('saves', 0.004, 0.02),
  };
}

/**
 * Followers of a simulated account: a seeded base, a steady daily gain since the account
 * was created, and a bump per post. Non-decreasing over time and posts.
 */
export function simulatedFollowers(
  accountId: string,
  createdAt: string,
  now: number,
  posts: number,
) {
  const base = Math.floor(300 + 20_000 * unit(accountId, 'followers') ** 2);
  const perDay = 5 + 60 * unit(accountId, 'daily');
  const perPost = 3 + 40 * unit(accountId, 'per-post');
  const days = Math.max(0, now - Date.parse(createdAt)) / DAY_MS;
  return base + Math.floor(days * perDay) + Math.floor(posts * perPost);
}
