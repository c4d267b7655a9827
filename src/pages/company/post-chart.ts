// The post detail's analytics chart: a server-rendered inline SVG (no script, so it shows
// without JavaScript and prints), with the same figures as a table for screen readers.
import { engagementRate } from '../../modules/analytics/index.ts';

/** A snapshot as the analytics service returns it (SPEC 2.7 history item). */
export interface SnapshotPoint {
  id: string;
  accountId: string;
  views: number;
  likes: number;
  comments: number;
  shares: number;
  saves: number;
  collectedAt: string;
}

/** The post's totals at one collection instant. */
export interface ChartRow {
  at: string;
  views: number;
  likes: number;
  engagementRate: number;
}

/**
 * Totals over time: at each instant a snapshot was collected, the sum over the latest
 * snapshot of every account so far, as the summary adds them up (an account's older
 * snapshot never counts twice).
 */
export function chartRows(history: readonly SnapshotPoint[]): ChartRow[] {
  const sorted = [...history].sort((a, b) =>
    a.collectedAt === b.collectedAt
      ? a.id < b.id
        ? -1
        : 1
      : a.collectedAt < b.collectedAt
        ? -1
        : 1,
  );
  const latest = new Map<string, SnapshotPoint>();
  const rows: ChartRow[] = [];
  for (const s of sorted) {
    latest.set(s.accountId, s);
    let views = 0;
    let likes = 0;
    let engaged = 0;
    for (const l of latest.values()) {
      views += l.views;
      likes += l.likes;
      engaged += l.comments + l.shares + l.saves;
    }
    const row = { at: s.collectedAt, views, likes, engagementRate: 0 };
    row.engagementRate = engagementRate(views, likes, engaged, 0, 0);
    // Snapshots of several accounts collected at one instant make one point.
    if (rows[rows.length - 1]?.at === s.collectedAt) rows[rows.length - 1] = row;
    else rows.push(row);
  }
  return rows;
}

const WIDTH = 640;
const PANEL = 110;
const GAP = 34;
const LEFT = 64;
const RIGHT = 16;
const TOP = 24;

const SERIES = [
  { key: 'views', label: 'Views', color: '#0b5cad', unit: '' },
  { key: 'likes', label: 'Likes', color: '#a40e26', unit: '' },
  { key: 'engagementRate', label: 'Engagement', color: '#1a7f37', unit: ' %' },
] as const;

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function label(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** An instant as the chart's axis says it: the page's clock, or UTC by default. */
export type AxisTime = (iso: string) => string;

const utcTime: AxisTime = (iso) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** One panel per series, sharing the time axis; null when there is nothing to draw. */
export function chartSvg(
  rows: readonly ChartRow[],
  titleId: string,
  axisTime: AxisTime = utcTime,
): string | null {
  if (rows.length === 0) return null;
  const first = Date.parse(rows[0]?.at ?? '');
  const last = Date.parse(rows[rows.length - 1]?.at ?? '');
  const span = Math.max(last - first, 1);
  const plotWidth = WIDTH - LEFT - RIGHT;
  const x = (at: string) =>
    rows.length === 1 ? LEFT + plotWidth / 2 : LEFT + ((Date.parse(at) - first) / span) * plotWidth;
  const height = TOP + SERIES.length * (PANEL + GAP);
  const parts: string[] = [];
  SERIES.forEach((series, i) => {
    const top = TOP + i * (PANEL + GAP);
    const values = rows.map((r) => r[series.key]);
    const max = Math.max(...values, 0) || 1;
    const y = (v: number) => top + PANEL - (v / max) * PANEL;
    const points = rows.map((r) => `${x(r.at).toFixed(1)},${y(r[series.key]).toFixed(1)}`);
    parts.push(
      `<text x="${LEFT}" y="${top - 8}" class="series">${series.label}${series.unit ? ` (${series.unit.trim()})` : ''}</text>`,
      `<line x1="${LEFT}" y1="${top + PANEL}" x2="${WIDTH - RIGHT}" y2="${top + PANEL}" class="axis"/>`,
      `<line x1="${LEFT}" y1="${top}" x2="${LEFT}" y2="${top + PANEL}" class="axis"/>`,
      `<text x="${LEFT - 6}" y="${top + 4}" text-anchor="end" class="tick">${escapeXml(label(max))}</text>`,
      `<text x="${LEFT - 6}" y="${top + PANEL}" text-anchor="end" class="tick">0</text>`,
      `<polyline fill="none" stroke="${series.color}" stroke-width="2" points="${points.join(' ')}"/>`,
      ...rows.map(
        (r) =>
          `<circle cx="${x(r.at).toFixed(1)}" cy="${y(r[series.key]).toFixed(1)}" r="3" fill="${series.color}"/>`,
      ),
    );
  });
  const bottom = height - 6;
  const firstAt = rows[0]?.at ?? '';
  const lastAt = rows[rows.length - 1]?.at ?? '';
  parts.push(`<text x="${LEFT}" y="${bottom}" class="tick">${escapeXml(axisTime(firstAt))}</text>`);
  if (rows.length > 1) {
    parts.push(
      `<text x="${WIDTH - RIGHT}" y="${bottom}" text-anchor="end" class="tick">${escapeXml(axisTime(lastAt))}</text>`,
    );
  }
  return (
    `<svg class="chart" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${escapeXml(titleId)}" xmlns="http://www.w3.org/2000/svg">` +
    `<title id="${escapeXml(titleId)}">Views, likes and engagement over time; the table below lists the same figures</title>` +
    parts.join('') +
    '</svg>'
  );
}
