// The Prometheus implementation of the metrics recorder, on a registry of its own (never
// prom-client's global one, so two apps in one process, as in tests, never collide).
// Gauges of state (pool, queue items, media backlog) are read at scrape time; the item
// counts cost a grouped query, so they are cached for a few seconds.
import {
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type LabelValues,
} from 'prom-client';
import type { PoolStats } from '../db/connect.ts';
import { ITEM_STATUSES } from '../schemas/statuses.ts';
import {
  MEDIA_LANES,
  type DispatchPassFacts,
  type MediaLane,
  type MetricsRecorder,
  type UploadOutcome,
} from '../lib/metrics.ts';
import type { MediaBacklog, MediaJobKind } from '../modules/media-jobs/index.ts';

/** What the gauges read at scrape time, wired by the composition root. */
export interface ScrapeSources {
  /** The PostgreSQL pool's use; null on SQLite (one connection, no pool to watch). */
  poolStats(): PoolStats | null;
  /** Queue items per status over every company (one grouped query). */
  itemCounts(): Promise<Record<string, number>>;
  /** Media jobs waiting and running in every process, and the oldest waiting one's age. */
  mediaBacklog(): Promise<MediaBacklog>;
  /** Delivery figures of every company together, per period (`7d`, `30d`). */
  delivery(): Promise<Record<string, DeliveryAggregate>>;
}

/** The service-wide delivery figures of one period (aggregates only, no per-item labels). */
export interface DeliveryAggregate {
  delivered: number;
  onTimeRatio: number | null;
  failedRatio: number | null;
  unconfirmedRatio: number | null;
  releaseToPostedP50Minutes: number | null;
  releaseToPostedP95Minutes: number | null;
  releaseToClaimP50Minutes: number | null;
  releaseToClaimP95Minutes: number | null;
  windowsMissed: number;
}

/** How long one reading of the delivery figures serves scrapes. */
const DELIVERY_TTL_MS = 60_000;

/** How long one reading of the media backlog serves scrapes (its gauges read it together). */
const MEDIA_TTL_MS = 1_000;

/** How long one reading of the item counts serves scrapes. */
const ITEM_COUNTS_TTL_MS = 5_000;

type Labels = 'route' | 'method' | 'status';

export class PromMetrics implements MetricsRecorder {
  readonly registry = new Registry();
  private sources: ScrapeSources | null = null;
  private itemsCache: { at: number; counts: Promise<Record<string, number>> } | null = null;
  private mediaCache: { at: number; figures: Promise<MediaBacklog> } | null = null;
  private deliveryCache: {
    at: number;
    figures: Promise<Record<string, DeliveryAggregate>>;
  } | null = null;

  private readonly requests = new Counter<Labels>({
    name: 'slotline_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'],
    registers: [this.registry],
  });
  private readonly duration = new Histogram<Labels>({
    name: 'slotline_http_request_duration_seconds',
    help: 'Time from request start to the response sent, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
    registers: [this.registry],
  });
  private readonly inFlight = new Gauge({
    name: 'slotline_http_requests_in_flight',
    help: 'HTTP requests received and not yet answered',
    registers: [this.registry],
  });
  private readonly passes = new Counter<'outcome'>({
    name: 'slotline_dispatch_passes_total',
    help: 'Dispatcher passes, by outcome (ok or error)',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  private readonly passDuration = new Histogram({
    name: 'slotline_dispatch_pass_duration_seconds',
    help: 'Duration of dispatcher passes that finished',
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60],
    registers: [this.registry],
  });
  private readonly releases = new Counter({
    name: 'slotline_dispatch_releases_total',
    help: 'Queue items released to workers',
    registers: [this.registry],
  });
  private readonly releaseLag = new Histogram({
    name: 'slotline_dispatch_release_lag_seconds',
    help: 'Per release, time from when it became due until a pass released it',
    buckets: [1, 5, 15, 30, 60, 120, 300, 900, 3600],
    registers: [this.registry],
  });
  private readonly deadlines = new Counter<'kind'>({
    name: 'slotline_report_deadlines_missed_total',
    help: 'Released tasks failed at their report deadline, by kind (unclaimed or unconfirmed)',
    labelNames: ['kind'],
    registers: [this.registry],
  });
  private readonly uploads = new Counter<'kind' | 'outcome'>({
    name: 'slotline_uploads_completed_total',
    help: 'Uploads that left pending, by kind and outcome (ready or failed)',
    labelNames: ['kind', 'outcome'],
    registers: [this.registry],
  });
  private readonly uploadBytesTotal = new Counter({
    name: 'slotline_upload_bytes_total',
    help: 'Bytes of uploads stored',
    registers: [this.registry],
  });
  private readonly mediaFailures = new Counter<'lane'>({
    name: 'slotline_media_job_failures_total',
    help: 'Background media jobs that failed, by lane (thumbnails or renders)',
    labelNames: ['lane'],
    registers: [this.registry],
  });

  private readonly webhookAttempts = new Counter<'outcome'>({
    name: 'slotline_webhook_attempts_total',
    help: 'Webhook delivery attempts, by outcome (succeeded: a 2xx answer; failed)',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  private readonly webhookDuration = new Histogram({
    name: 'slotline_webhook_attempt_duration_seconds',
    help: 'Duration of webhook attempts, connect to answer',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60],
    registers: [this.registry],
  });
  private readonly webhookLag = new Histogram({
    name: 'slotline_webhook_delivery_lag_seconds',
    help: "Per delivered event, time from its change to the endpoint's 2xx answer",
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 300, 3600, 86400],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    // collect() runs with `this` bound to its gauge; these reach the instance.
    const sources = () => this.sources;
    const itemCounts = (from: ScrapeSources) => this.itemCounts(from);
    new Gauge<'state'>({
      name: 'slotline_db_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting = queued queries, max); absent on SQLite',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        this.reset();
        const stats = sources()?.poolStats();
        if (!stats) return;
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
        this.set({ state: 'max' }, stats.max);
      },
    });
    new Gauge<'status'>({
      name: 'slotline_queue_items',
      help: 'Queue items of every company by status (read at most every 5 s)',
      labelNames: ['status'],
      registers: [this.registry],
      async collect() {
        const from = sources();
        if (!from) return;
        let counts: Record<string, number>;
        try {
          counts = await itemCounts(from);
        } catch {
          // The database did not answer: the last reading stays, and the scrape still works.
          return;
        }
        this.reset();
        for (const status of ITEM_STATUSES) this.set({ status }, 0);
        for (const [status, n] of Object.entries(counts)) this.set({ status }, n);
      },
    });
    const delivery = (from: ScrapeSources) => this.deliveryFigures(from);
    const deliveryGauge = (
      name: string,
      help: string,
      read: (f: DeliveryAggregate) => number | null,
    ) =>
      new Gauge<'period'>({
        name,
        help: `${help}, over the last 7 and 30 UTC days (read at most every minute)`,
        labelNames: ['period'],
        registers: [this.registry],
        async collect() {
          const from = sources();
          if (!from) return;
          let figures: Record<string, DeliveryAggregate>;
          try {
            figures = await delivery(from);
          } catch {
            return;
          }
          this.reset();
          for (const [period, f] of Object.entries(figures)) {
            const value = read(f);
            if (value !== null) this.set({ period }, value);
          }
        },
      });
    deliveryGauge(
      'slotline_delivery_items',
      'Released items with an outcome (posted, failed or unconfirmed)',
      (f) => f.delivered,
    );
    deliveryGauge(
      'slotline_delivery_on_time_ratio',
      'Share of delivered items posted within the grace after their slot opened',
      (f) => f.onTimeRatio,
    );
    deliveryGauge(
      'slotline_delivery_failed_ratio',
      'Share of delivered items that failed',
      (f) => f.failedRatio,
    );
    deliveryGauge(
      'slotline_delivery_unconfirmed_ratio',
      'Share of delivered items claimed and never reported',
      (f) => f.unconfirmedRatio,
    );
    deliveryGauge(
      'slotline_delivery_release_to_posted_p50_minutes',
      'Median minutes from release to the reported posting',
      (f) => f.releaseToPostedP50Minutes,
    );
    deliveryGauge(
      'slotline_delivery_release_to_posted_p95_minutes',
      '95th percentile of minutes from release to the reported posting',
      (f) => f.releaseToPostedP95Minutes,
    );
    deliveryGauge(
      'slotline_delivery_release_to_claim_p50_minutes',
      "Median minutes from release to a worker's claim of the task",
      (f) => f.releaseToClaimP50Minutes,
    );
    deliveryGauge(
      'slotline_delivery_release_to_claim_p95_minutes',
      "95th percentile of minutes from release to a worker's claim of the task",
      (f) => f.releaseToClaimP95Minutes,
    );
    deliveryGauge(
      'slotline_delivery_windows_missed',
      'Windows that released nothing although an item was due',
      (f) => f.windowsMissed,
    );
    const media = (from: ScrapeSources) => this.mediaFigures(from);
    const mediaGauge = (
      name: string,
      help: string,
      read: (b: MediaBacklog) => Record<MediaJobKind, number>,
    ) =>
      new Gauge<'lane'>({
        name,
        help: `${help}, by lane (renders, thumbnails), over every process`,
        labelNames: ['lane'],
        registers: [this.registry],
        async collect() {
          const from = sources();
          if (!from) return;
          let figures: MediaBacklog;
          try {
            figures = await media(from);
          } catch {
            // The database did not answer: the last reading stays, and the scrape still works.
            return;
          }
          for (const [kind, n] of Object.entries(read(figures)) as [MediaJobKind, number][]) {
            this.set({ lane: MEDIA_LANES[kind] }, n);
          }
        },
      });
    mediaGauge('slotline_media_backlog', 'Media jobs waiting or running', (b) => ({
      render: b.waiting.render + b.running.render,
      thumbnail: b.waiting.thumbnail + b.running.thumbnail,
    }));
    mediaGauge('slotline_media_jobs_waiting', 'Media jobs waiting to be claimed', (b) => b.waiting);
    mediaGauge(
      'slotline_media_oldest_waiting_seconds',
      'Seconds the oldest waiting media job has waited (0 when none waits); a figure that keeps growing means no media loop is taking jobs',
      (b) => b.oldestWaitingSeconds,
    );
  }

  /** Wires what the scrape-time gauges read; until then they stay empty. */
  observe(sources: ScrapeSources): void {
    this.sources = sources;
  }

  /** The text exposition of every metric. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  requestStarted(): void {
    this.inFlight.inc();
  }

  requestFinished(labels: LabelValues<Labels>, seconds: number): void {
    this.inFlight.dec();
    this.requests.inc(labels);
    this.duration.observe(labels, seconds);
  }

  dispatchPass(facts: DispatchPassFacts, seconds: number): void {
    this.passes.inc({ outcome: 'ok' });
    this.passDuration.observe(seconds);
    this.releases.inc(facts.released);
    for (const lag of facts.lagSeconds) this.releaseLag.observe(lag);
    this.deadlines.inc({ kind: 'unclaimed' }, facts.deadlinesMissed.unclaimed);
    this.deadlines.inc({ kind: 'unconfirmed' }, facts.deadlinesMissed.unconfirmed);
  }

  dispatchFailed(): void {
    this.passes.inc({ outcome: 'error' });
  }

  uploadCompleted(kind: string, outcome: UploadOutcome): void {
    this.uploads.inc({ kind, outcome });
  }

  uploadBytes(bytes: number): void {
    this.uploadBytesTotal.inc(bytes);
  }

  mediaJobFailed(lane: MediaLane): void {
    this.mediaFailures.inc({ lane });
  }

  webhookAttempt(outcome: 'succeeded' | 'failed', seconds: number, lagSeconds?: number): void {
    this.webhookAttempts.inc({ outcome });
    this.webhookDuration.observe(seconds);
    if (lagSeconds !== undefined) this.webhookLag.observe(Math.max(0, lagSeconds));
  }

  /** One reading of the media backlog serves the media gauges of one scrape. */
  private mediaFigures(sources: ScrapeSources): Promise<MediaBacklog> {
    const now = Date.now();
    if (this.mediaCache && now - this.mediaCache.at < MEDIA_TTL_MS) return this.mediaCache.figures;
    const figures = sources.mediaBacklog();
    const entry = { at: now, figures };
    this.mediaCache = entry;
    figures.catch(() => {
      if (this.mediaCache === entry) this.mediaCache = null;
    });
    return figures;
  }

  /** The cached item counts; a failed read is not kept, so the next scrape tries again. */
  private itemCounts(sources: ScrapeSources): Promise<Record<string, number>> {
    const now = Date.now();
    if (this.itemsCache && now - this.itemsCache.at < ITEM_COUNTS_TTL_MS) {
      return this.itemsCache.counts;
    }
    const counts = sources.itemCounts();
    const entry = { at: now, counts };
    this.itemsCache = entry;
    counts.catch(() => {
      if (this.itemsCache === entry) this.itemsCache = null;
    });
    return counts;
  }

  private deliveryFigures(sources: ScrapeSources): Promise<Record<string, DeliveryAggregate>> {
    const now = Date.now();
    if (this.deliveryCache && now - this.deliveryCache.at < DELIVERY_TTL_MS) {
      return this.deliveryCache.figures;
    }
    const figures = sources.delivery();
    const entry = { at: now, figures };
    this.deliveryCache = entry;
    figures.catch(() => {
      if (this.deliveryCache === entry) this.deliveryCache = null;
    });
    return figures;
  }
}
