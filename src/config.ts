// The service's configuration, read from the environment once at start-up.
// Nothing else in the code base reads process.env.
import { compilePostUrlPattern, type PostUrlPattern } from './lib/post-url-pattern.ts';
import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { DEFAULT_PLANS, type PlanTable, parsePlanTable } from './plans.ts';
import { parseMailConfig, type MailConfig } from './lib/mail-config.ts';
import { parsePushConfig, type PushConfig } from './lib/push-config.ts';
import { validTimezone } from './schedule/local-time.ts';
import { AllowListError, parseAllowList, type AllowList } from './media/remote-fetch.ts';
import { CliError } from './lib/cli-error.ts';
import {
  StorageConfigError,
  parseStorageConfig,
  type StorageConfig,
} from './media/storage-config.ts';
import {
  TrustedProxiesError,
  parseTrustedProxies,
  type TrustedProxies,
} from './lib/trusted-proxies.ts';

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** PostgreSQL connection string; the embedded SQLite file under dataDir when unset. */
  readonly databaseUrl: string | null;
  /** Connections the service keeps to PostgreSQL at most (PG_POOL_MAX); unused on SQLite. */
  readonly pgPoolMax: number;
  /**
   * On PostgreSQL, how often (ms) each process looks for changes committed by others, which is
   * how long a read it keeps may lag them (PG_READ_CACHE_MS); 0 keeps no reads there.
   */
  readonly pgReadCacheMs: number;
  /** Absolute base address used in signed URLs handed to callers. */
  readonly publicUrl: string;
  /**
   * Origins besides PUBLIC_URL's that browsers may call /mcp from (MCP_ALLOWED_ORIGINS,
   * comma-separated), each as `scheme://host[:port]`; a request of any other is refused.
   */
  readonly mcpAllowedOrigins: readonly string[];
  /** Secret for signing URLs and cursors; a generated secret stored in the database when unset. */
  readonly secret: string | null;
  readonly logLevel: string;
  readonly plans: PlanTable;
  readonly defaultPlan: string;
  /** IANA timezone given to new accounts when their company has no default worker timezone. */
  readonly defaultTimezone: string;
  /** Largest JSON request body accepted, in bytes. */
  readonly bodyLimit: number;
  /** Private targets remote uploads may fetch from (REMOTE_FETCH_ALLOW); none by default. */
  readonly remoteFetchAllow: AllowList;
  /** How often the release dispatcher runs in the service; 0 turns it off there. */
  readonly dispatchIntervalMs: number;
  /**
   * How often (ms) this process looks for webhook deliveries when it was not woken by an
   * event of its own (WEBHOOK_POLL_MS); 0 sends no webhooks from this process.
   */
  readonly webhookPollMs: number;
  /**
   * How often (ms) this process looks for due media jobs (renders, thumbnails) when it was
   * not woken by one of its own (MEDIA_JOB_POLL_MS); 0 runs no media work in this process.
   */
  readonly mediaJobPollMs: number;
  /**
   * How long a process's claim of a media job holds without renewal (MEDIA_JOB_LEASE_MS):
   * after a crash, another process takes the job again this long after the last renewal.
   */
  readonly mediaJobLeaseMs: number;
  /** How mail is sent (SMTP_URL, MAIL_FROM); `smtpUrl` null sends none. */
  readonly mail: MailConfig;
  /** How Web Push requests are signed (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT). */
  readonly push: PushConfig;
  /**
   * How often (ms) this process looks for mail in the outbox when it was not woken by mail
   * of its own (OUTBOX_POLL_MS); 0 sends no mail from this process.
   */
  readonly outboxPollMs: number;
  /** Wall time of one webhook attempt, connect to response (WEBHOOK_TIMEOUT_MS). */
  readonly webhookTimeoutMs: number;
  /** Webhook attempts in flight in this process (WEBHOOK_CONCURRENCY). */
  readonly webhookConcurrency: number;
  /** Webhook attempts in flight to one endpoint from this process (WEBHOOK_ENDPOINT_CONCURRENCY). */
  readonly webhookEndpointConcurrency: number;
  /**
   * How long a released task may go without a report before it fails as unconfirmed
   * (TASK_REPORT_TIMEOUT_SECONDS): counted from release while unclaimed, from the claim after.
   */
  readonly taskReportTimeoutMs: number;
  /**
   * A released task not claimed this long is pushed to its worker again and shown to the
   * operator side (HANDOFF_UNCLAIMED_MINUTES, 1 to 240, default 15).
   */
  readonly handoffUnclaimedMs: number;
  /**
   * A claimed task whose report deadline is this close reminds its worker
   * (REPORT_REMINDER_MINUTES, 1 to 240, default 30).
   */
  readonly reportReminderMs: number;
  /** Whether the service process drives its simulated workers (SIMULATOR=on|off, default on). */
  readonly simulator: boolean;
  /** Where media bytes live: local disk under dataDir/blobs, or an S3-compatible bucket. */
  readonly storage: StorageConfig;
  /**
   * Port of a separate listener serving only /metrics (METRICS_PORT); null for none.
   * It binds `metricsHost`, loopback by default, so metrics stay private.
   */
  readonly metricsPort: number | null;
  readonly metricsHost: string;
  /** When set, /metrics is also served on the main port to `Authorization: Bearer <token>`. */
  readonly metricsToken: string | null;
  /** Peers (addresses, CIDR ranges) whose X-Forwarded-For and X-Request-Id are believed. */
  readonly trustProxy: TrustedProxies | null;
  /** Time between readiness failing and the listener closing, for load balancers to notice. */
  readonly shutdownDelayMs: number;
  /** Bound on the whole graceful shutdown; past it the process exits 1. */
  readonly shutdownTimeoutMs: number;
  /** A post is on time when reported within this long after its slot's start. */
  readonly deliveryGraceMs: number;
  /** What a published post's URL looks like per platform; null where it is not checked. */
  readonly postUrlPatterns: Readonly<Record<'platformA' | 'platformB', PostUrlPattern | null>>;
}

export class ConfigError extends CliError {}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'on') return true;
  if (raw === 'off') return false;
  throw new ConfigError(`${name} must be "on" or "off" (got "${raw}")`);
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
  }
  return n;
}

/** Post URLs of the platforms as the service knows them; an operator may change either. */
export const DEFAULT_POST_URL_PATTERNS = {
  platformA: 'https://platform-a.example/@{username}/video/{id}',
  platformB: 'https://platform-b.example/p/{id}/',
} as const;

function postUrlPattern(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: string,
): PostUrlPattern | null {
  const raw = env[name] || fallback;
  if (raw === 'off') return null;
  try {
    return compilePostUrlPattern(raw);
  } catch (err) {
    throw new ConfigError(`${name}: ${(err as Error).message} (or "off" to accept any URL)`);
  }
}

/** MCP_ALLOWED_ORIGINS: comma-separated web origins, each kept as the URL standard writes it. */
function origins(raw: string): string[] {
  const out: string[] = [];
  for (const item of raw.split(',')) {
    const text = item.trim();
    if (text === '') continue;
    let origin: string | null = null;
    try {
      const u = new URL(text);
      const bare = u.pathname === '/' && !u.search && !u.hash && !u.username && !u.password;
      if ((u.protocol === 'http:' || u.protocol === 'https:') && bare) origin = u.origin;
    } catch {
      // Refused below, as any text that is not an origin.
    }
    if (origin === null) {
      throw new ConfigError(
        `MCP_ALLOWED_ORIGINS: "${text}" is not an origin (scheme://host[:port], e.g. https://agent.example.com)`,
      );
    }
    out.push(origin);
  }
  return out;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env, 'PORT', 8080, 0, 65535);
  const host = env.HOST || '0.0.0.0';
  const dataDir = resolve(env.DATA_DIR || './data');
  const databaseUrl = env.DATABASE_URL || null;
  const publicUrl = (env.PUBLIC_URL || `http://127.0.0.1:${port}`).replace(/\/+$/, '');
  try {
    const u = new URL(publicUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an http(s) URL (got "${publicUrl}")`);
  }
  let mail: MailConfig;
  let push: PushConfig;
  try {
    mail = parseMailConfig(env, publicUrl);
    push = parsePushConfig(env, mail.from);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const secret = env.SLOTLINE_SECRET || null;
  if (secret !== null && secret.length < 32) {
    throw new ConfigError('SLOTLINE_SECRET must be at least 32 characters');
  }
  let plans = DEFAULT_PLANS;
  if (env.PLANS_FILE) {
    let text: string;
    try {
      text = readFileSync(env.PLANS_FILE, 'utf8');
    } catch (err) {
      throw new ConfigError(`PLANS_FILE cannot be read: ${(err as Error).message}`);
    }
    plans = parsePlanTable(text);
  }
  const defaultPlan = env.DEFAULT_PLAN || 'starter';
  if (!plans[defaultPlan]) {
    throw new ConfigError(
      `DEFAULT_PLAN "${defaultPlan}" is not one of: ${Object.keys(plans).join(', ')}`,
    );
  }
  const defaultTimezone = env.DEFAULT_TIMEZONE || 'UTC';
  if (!validTimezone(defaultTimezone)) {
    throw new ConfigError(`DEFAULT_TIMEZONE "${defaultTimezone}" is not an IANA timezone`);
  }
  let remoteFetchAllow: AllowList;
  try {
    remoteFetchAllow = parseAllowList(env.REMOTE_FETCH_ALLOW ?? '');
  } catch (err) {
    if (err instanceof AllowListError) throw new ConfigError(`REMOTE_FETCH_ALLOW: ${err.message}`);
    throw err;
  }
  let storage: StorageConfig;
  try {
    storage = parseStorageConfig(env);
  } catch (err) {
    if (err instanceof StorageConfigError) throw new ConfigError(err.message);
    throw err;
  }
  let trustProxy: TrustedProxies | null;
  try {
    trustProxy = parseTrustedProxies(env.TRUST_PROXY ?? '');
  } catch (err) {
    if (err instanceof TrustedProxiesError) throw new ConfigError(`TRUST_PROXY: ${err.message}`);
    throw err;
  }
  const metricsToken = env.METRICS_TOKEN || null;
  if (metricsToken !== null && (metricsToken.length < 16 || /\s/.test(metricsToken))) {
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters without spaces');
  }
  const metricsPort = int(env, 'METRICS_PORT', 0, 0, 65535);
  return Object.freeze({
    port,
    host,
    dataDir,
    databaseUrl,
    pgPoolMax: int(env, 'PG_POOL_MAX', 20, 1, 1000),
    pgReadCacheMs: int(env, 'PG_READ_CACHE_MS', 20, 0, 1000),
    publicUrl,
    mcpAllowedOrigins: origins(env.MCP_ALLOWED_ORIGINS ?? ''),
    secret,
    logLevel: env.LOG_LEVEL || 'info',
    plans,
    defaultPlan,
    defaultTimezone,
    bodyLimit: int(env, 'BODY_LIMIT', 1024 * 1024, 1024, 64 * 1024 * 1024),
    remoteFetchAllow,
    dispatchIntervalMs: int(env, 'DISPATCH_INTERVAL_MS', 15_000, 0, 3_600_000),
    webhookPollMs: int(env, 'WEBHOOK_POLL_MS', 250, 0, 60_000),
    mediaJobPollMs: int(env, 'MEDIA_JOB_POLL_MS', 1_000, 0, 60_000),
    mediaJobLeaseMs: int(env, 'MEDIA_JOB_LEASE_MS', 30_000, 3_000, 600_000),
    mail,
    push,
    outboxPollMs: int(env, 'OUTBOX_POLL_MS', 1_000, 0, 60_000),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 1_000, 60_000),
    webhookConcurrency: int(env, 'WEBHOOK_CONCURRENCY', 32, 1, 1_000),
    webhookEndpointConcurrency: int(env, 'WEBHOOK_ENDPOINT_CONCURRENCY', 4, 1, 100),
    taskReportTimeoutMs: int(env, 'TASK_REPORT_TIMEOUT_SECONDS', 7_200, 60, 7 * 86_400) * 1000,
    handoffUnclaimedMs: int(env, 'HANDOFF_UNCLAIMED_MINUTES', 15, 1, 240) * 60_000,
    reportReminderMs: int(env, 'REPORT_REMINDER_MINUTES', 30, 1, 240) * 60_000,
    simulator: onOff(env, 'SIMULATOR', true),
    storage,
    metricsPort: metricsPort === 0 ? null : metricsPort,
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    metricsToken,
    trustProxy,
    shutdownDelayMs: int(env, 'SHUTDOWN_DELAY_MS', 0, 0, 300_000),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 30_000, 1_000, 3_600_000),
    deliveryGraceMs: int(env, 'DELIVERY_GRACE_MINUTES', 60, 1, 1_440) * 60_000,
    postUrlPatterns: {
      platformA: postUrlPattern(
        env,
        'POST_URL_PATTERN_PLATFORMA',
        DEFAULT_POST_URL_PATTERNS.platformA,
      ),
      platformB: postUrlPattern(
        env,
        'POST_URL_PATTERN_PLATFORMB',
        DEFAULT_POST_URL_PATTERNS.platformB,
      ),
    },
  });
}
