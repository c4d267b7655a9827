// An account's analytics (dashboard page): the figures of GET /v2/accounts/{id}/analytics
// (SPEC 2.8) as its worker last reported them, and its posts' totals day by day, drawn as
// a server-rendered SVG chart (no script) with the same figures as a table.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { getAccountRow } from '../../modules/accounts/index.ts';
import {
  accountSnapshots,
  accountStatsOf,
  engagementRate,
  getAccountAnalytics,
} from '../../modules/analytics/index.ts';
import { page } from './layout.ts';
import { BASE, userOf } from './session.ts';
import { clockface, displayTimezone, type Clockface } from './time.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

/** Snapshots read per query, and at most in all (oldest first). */
const SNAPSHOT_PAGE = 1000;
const MAX_SNAPSHOTS = 50_000;

const AccountParams = Type.Object({ accountId: Type.String({ maxLength: 200 }) });

/** The account's posts' totals at the end of one local day. */
export interface DayTotals {
  /** The reader's calendar date, "2026-03-02". */
  day: string;
  /** The last collection instant of that day. */
  at: string;
  views: number;
  likes: number;
  comments: number;
  shares: number;
  saves: number;
  engagementRate: number;
  /** Posts (queue items) with figures so far. */
  posts: number;
}

interface Snapshot {
  id: string;
  taskId: string;
  views: number;
  likes: number;
  comments: number;
  shares: number;
  saves: number;
  collectedAt: string;
}

const FIGURES = ['views', 'likes', 'comments', 'shares', 'saves'] as const;

/**
 * Totals at the end of each local day with a collection: the sum over the latest snapshot
 * of each of the account's items so far, as a post's summary adds them up (an item's
 * older snapshot never counts twice). `snapshots` come oldest first; only each item's
 * latest one is kept while they are read.
 */
export async function dailyTotals(
  snapshots: Iterable<Snapshot> | AsyncIterable<Snapshot>,
  clock: Clockface,
): Promise<DayTotals[]> {
  const latest = new Map<string, Snapshot>();
  const sum = { views: 0, likes: 0, comments: 0, shares: 0, saves: 0 };
  const days: DayTotals[] = [];
  for await (const s of snapshots) {
    const before = latest.get(s.taskId);
    for (const f of FIGURES) sum[f] += s[f] - (before?.[f] ?? 0);
    latest.set(s.taskId, s);
    const row: DayTotals = {
      day: clock.localDate(s.collectedAt),
      at: s.collectedAt,
      ...sum,
      engagementRate: engagementRate(sum.views, sum.likes, sum.comments, sum.shares, sum.saves),
      posts: latest.size,
    };
    if (days[days.length - 1]?.day === row.day) days[days.length - 1] = row;
    else days.push(row);
  }
  return days;
}

const WIDTH = 640;
const PANEL = 110;
const GAP = 34;
const LEFT = 64;
const RIGHT = 16;
const TOP = 24;
const SERIES = [
  { key: 'views', label: 'Views', color: '#0b5cad' },
  { key: 'likes', label: 'Likes', color: '#a40e26' },
  { key: 'engagementRate', label: 'Engagement (%)', color: '#1a7f37' },
] as const;

function xml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The days' totals as one panel per series over a shared date axis, labelled with the
 * reader's dates (the post page's chart, by day); null when there is nothing to draw.
 */
export function dailyChartSvg(
  days: readonly DayTotals[],
  clock: Clockface,
  titleId: string,
): string | null {
  const first = days[0];
  const last = days[days.length - 1];
  if (!first || !last) return null;
  const start = Date.parse(`${first.day}T00:00:00Z`);
  const span = Math.max(Date.parse(`${last.day}T00:00:00Z`) - start, 1);
  const plot = WIDTH - LEFT - RIGHT;
  const x = (day: string) =>
    days.length === 1
      ? LEFT + plot / 2
      : LEFT + ((Date.parse(`${day}T00:00:00Z`) - start) / span) * plot;
  const height = TOP + SERIES.length * (PANEL + GAP);
  const parts: string[] = [];
  SERIES.forEach((series, i) => {
    const top = TOP + i * (PANEL + GAP);
    const max = Math.max(...days.map((d) => d[series.key]), 0) || 1;
    const y = (v: number) => top + PANEL - (v / max) * PANEL;
    const points = days.map((d) => `${x(d.day).toFixed(1)},${y(d[series.key]).toFixed(1)}`);
    parts.push(
      `<text x="${LEFT}" y="${top - 8}" class="series">${series.label}</text>`,
      `<line x1="${LEFT}" y1="${top + PANEL}" x2="${WIDTH - RIGHT}" y2="${top + PANEL}" class="axis"/>`,
      `<line x1="${LEFT}" y1="${top}" x2="${LEFT}" y2="${top + PANEL}" class="axis"/>`,
      `<text x="${LEFT - 6}" y="${top + 4}" text-anchor="end" class="tick">${xml(max.toLocaleString('en-US', { maximumFractionDigits: 2 }))}</text>`,
      `<text x="${LEFT - 6}" y="${top + PANEL}" text-anchor="end" class="tick">0</text>`,
      `<polyline fill="none" stroke="${series.color}" stroke-width="2" points="${points.join(' ')}"/>`,
      ...days.map(
        (d) =>
          `<circle cx="${x(d.day).toFixed(1)}" cy="${y(d[series.key]).toFixed(1)}" r="3" fill="${series.color}"/>`,
      ),
    );
  });
  const bottom = height - 6;
  parts.push(`<text x="${LEFT}" y="${bottom}" class="tick">${xml(clock.date(first.at))}</text>`);
  if (days.length > 1) {
    parts.push(
      `<text x="${WIDTH - RIGHT}" y="${bottom}" text-anchor="end" class="tick">${xml(clock.date(last.at))}</text>`,
    );
  }
  return (
    `<svg class="chart" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${xml(titleId)}" xmlns="http://www.w3.org/2000/svg">` +
    `<title id="${xml(titleId)}">Views, likes and engagement of the account's posts day by day; the table below lists the same figures</title>` +
    parts.join('') +
    '</svg>'
  );
}

/** The account's snapshots oldest first, page by page, up to MAX_SNAPSHOTS. */
async function* snapshotsOf(
  ctx: AppContext,
  companyId: string,
  accountId: string,
  state: { truncated: boolean },
): AsyncGenerator<Snapshot> {
  let after: [string, string] | undefined;
  let read = 0;
  for (;;) {
    const limit = Math.min(SNAPSHOT_PAGE, MAX_SNAPSHOTS - read);
    const rows = await accountSnapshots(ctx.db, companyId, accountId, {
      ...(after ? { after } : {}),
      limit,
    });
    yield* rows;
    read += rows.length;
    const end = rows[rows.length - 1];
    if (rows.length < limit || !end) return;
    if (read >= MAX_SNAPSHOTS) {
      state.truncated = true;
      return;
    }
    after = [end.collectedAt, end.id];
  }
}

export function accountAnalyticsPages(ctx: AppContext) {
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    // The account's page: its figures and their history, with links to its posts, windows
    // and export. Names of accounts elsewhere link to /accounts/<id>; /analytics is the same.
    for (const path of ['/accounts/:accountId', '/accounts/:accountId/analytics']) {
      app.get(path, { schema: { params: AccountParams } }, async (req, reply) => {
        const user = userOf(req);
        const { accountId } = req.params;
        let account;
        let figures;
        try {
          [account, figures] = await Promise.all([
            getAccountRow(ctx.db, user.companyId, accountId),
            getAccountAnalytics(ctx.db, user.companyId, accountId),
          ]);
        } catch (err) {
          // Another company's account reads exactly as an unknown one.
          if (err instanceof ApiError && err.code === 'account_not_found') {
            throw new ActionRefused('not_found', 'Not found.');
          }
          throw err;
        }
        const clock = clockface(displayTimezone(req));
        const stats = await accountStatsOf(ctx.db, user.companyId, account.id);
        const state = { truncated: false };
        const days = await dailyTotals(snapshotsOf(ctx, user.companyId, account.id, state), clock);
        const here = `${BASE}/accounts/${encodeURIComponent(account.id)}`;
        return page(req, reply, 'account-analytics.eta', `Analytics of @${account.username}`, {
          account: {
            accountId: account.id,
            username: account.username,
            displayName: account.display_name,
            platform: account.platform,
          },
          figures,
          reportedAt: stats?.updated_at ?? null,
          days,
          latest: days[days.length - 1] ?? null,
          // Newest day first in the table.
          table: [...days].reverse(),
          chart: dailyChartSvg(days, clock, 'account-chart-title'),
          truncated: state.truncated,
          maxSnapshots: MAX_SNAPSHOTS,
          postsUrl: `${BASE}/posts?account=${encodeURIComponent(account.id)}`,
          scheduleUrl: `${here}/schedule`,
          exportUrl: `${BASE}/exports/posts.csv?account=${encodeURIComponent(account.id)}`,
        });
      });
    }
  };
}
