// `slotline seed demo`: a demo company a newcomer can call right away, with a simulated
// worker operating its accounts and a few posts queued, so that `npm start` shows releases
// going out at the next window, the simulator posting them and analytics filling in.
// Every run creates a new, separate demo company (and worker); nothing is overwritten but
// the demo user's password: the user is made once, in the first demo company, since an
// email signs in to one company only, and every later run gives it a new password.
// A run that fails part-way removes everything it made before it reports the failure.
import {
  ADMIN_CLI,
  createOperator,
  listOperators,
  operatorWelcomeUrl,
  resetOperator,
} from '../modules/operators/index.ts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { AppContext } from '../context.ts';
import { DAY_MS, MINUTE_MS, offsetMs, validTimezone, zoneOf } from '../schedule/local-time.ts';
import { nextWindowStart } from '../schedule/windows.ts';
import type { Principal } from '../access.ts';
import { createPost } from '../modules/posts/index.ts';
import { completeUpload, createSignedUpload, storeUploadBytes } from '../modules/uploads/index.ts';
import {
  assignAccounts,
  createWorker,
  deleteIdleWorker,
  WorkerError,
} from '../modules/workers/index.ts';
import { createCompany } from '../modules/companies/index.ts';
import { OperatorError } from '../lib/operator-error.ts';
import { createKey } from '../modules/keys/index.ts';
import { createUser, findUserByEmail, resetPassword } from '../modules/users/index.ts';
import { SCOPES } from '../access.ts';
import { createAccount } from '../modules/accounts/index.ts';
import { createTag } from '../modules/tags/index.ts';
import { setAccountSchedule, setCompanySchedule } from '../modules/schedules/index.ts';
import { createPack, importImages } from '../modules/workspace/index.ts';
import { purgeCompany } from './seed-undo.ts';

/**
 * The demo accounts and their schedules. SPEC 4.5 rule 1 keeps windows between 08:00 and
 * 17:00 local, 3 hours apart; staggered across the accounts they put a window in every
 * local hour from 08:00 to 17:00. `null` follows the company default (09:00, 13:00, 17:00).
 * When the seed runs in the worker's working hours, the first account's windows start a
 * minute after the seed instead (soonWindows), so the first release goes out right away.
 */
const DEMO_ACCOUNTS = [
  {
    platform: 'platformA',
    username: 'demo.kitchen',
    displayName: 'Demo Kitchen',
    windows: ['08:00', '11:00', '14:00', '17:00'],
  },
  {
    platform: 'platformA',
    username: 'demo.travel',
    displayName: 'Demo Travel',
    windows: ['09:00', '12:00', '15:00'],
  },
  {
    platform: 'platformB',
    username: 'demo.kitchen',
    displayName: 'Demo Kitchen',
    windows: ['10:00', '13:00', '16:00'],
  },
  {
    platform: 'platformB',
    username: 'demo_studio',
    displayName: 'Demo Studio',
    windows: null,
  },
] as const;
const COMPANY_WINDOWS = ['09:00', '13:00', '17:00'];

/**
 * Posts to queue, by index into DEMO_ACCOUNTS. Two per account go out at its next windows;
 * the last waits for approval in the dashboard (or `slotline approve`).
 */
const DEMO_POSTS = [
  { title: 'Pasta in 10', images: 1, accounts: [0, 2], tag: 0, approval: false },
  { title: '48h in Lisbon', images: 2, accounts: [1], tag: 2, approval: false },
  { title: 'Studio tour', images: 1, accounts: [3], tag: 1, approval: false },
  { title: 'Knife skills', images: 1, accounts: [0], tag: 0, approval: false },
  { title: 'Packing list', images: 1, accounts: [1, 3], tag: 2, approval: false },
  { title: 'Launch teaser', images: 1, accounts: [2], tag: 1, approval: true },
] as const;

/**
 * One city per UTC offset, roughly. Without --timezone the demo worker lives where it is
 * working hours now (demoTimezone), so the first release goes out within minutes and
 * another every hour after it until 17:00 local, whenever the demo is seeded.
 */
const DEMO_TIMEZONES = [
  'Pacific/Pago_Pago',
  'Pacific/Honolulu',
  'America/Anchorage',
  'America/Los_Angeles',
  'America/Denver',
  'America/Chicago',
  'America/New_York',
  'America/Halifax',
  'America/Sao_Paulo',
  'Atlantic/South_Georgia',
  'Atlantic/Azores',
  'Europe/London',
  'Europe/Berlin',
  'Europe/Athens',
  'Europe/Istanbul',
  'Asia/Dubai',
  'Asia/Karachi',
  'Asia/Dhaka',
  'Asia/Bangkok',
  'Asia/Singapore',
  'Asia/Tokyo',
  'Australia/Brisbane',
  'Pacific/Noumea',
  'Pacific/Auckland',
];
/** The dashboard user of the demo, an admin. */
export const DEMO_EMAIL = 'demo@slotline.local';
/** The operator of the demo, for the console. */
export const DEMO_OPERATOR_EMAIL = 'operator@slotline.local';

/** Posts are queued before the first window starts, with room for a slow seed. */
const LEAD_MS = 5 * MINUTE_MS;
/** The first demo window opens this long after the posts are queued. */
const FIRST_WINDOW_LEAD_MS = MINUTE_MS;
/** Windows lie between 08:00 and 17:00 local (SPEC 4.5 rule 1). */
const FIRST_WINDOW_MINUTE = 8 * 60;
const LAST_WINDOW_MINUTE = 17 * 60;

function localMinutes(timezone: string, at: number): number {
  const wall = at + offsetMs(zoneOf(timezone), at);
  return Math.floor(wall / MINUTE_MS) % (24 * 60);
}

/**
 * The demo worker's zone: one where it is working hours now (08:00 to 14:00 local, so most
 * of the day's windows are still ahead), the earliest such hour first; the first demo
 * account then gets a window a minute after the seed and the first release goes out right
 * away. Otherwise (never with every offset listed) the zone where 08:00 comes soonest.
 */
export function demoTimezone(now: Date): string {
  let best = DEMO_TIMEZONES[0] as string;
  let bestWait = Infinity;
  let working: { tz: string; first: string } | null = null;
  for (const tz of DEMO_TIMEZONES) {
    const first = soonWindows(tz, now)?.[0];
    if (first && first <= '14:00' && (!working || first < working.first)) working = { tz, first };
    const untilEight = (8 * 60 - localMinutes(tz, now.getTime())) * MINUTE_MS - LEAD_MS;
    const wait = ((untilEight % DAY_MS) + DAY_MS) % DAY_MS;
    if (wait < bestWait) {
      best = tz;
      bestWait = wait;
    }
  }
  return working?.tz ?? best;
}

/**
 * Windows starting a minute after `at` (local "HH:mm" in `timezone`) and every 3 hours
 * after it until 17:00, when that first one falls within the day's window hours; null
 * otherwise (the account keeps its staggered windows).
 */
export function soonWindows(timezone: string, at: Date): string[] | null {
  // The start of the local minute after the lead: between one and two minutes away.
  const first = localMinutes(timezone, at.getTime() + FIRST_WINDOW_LEAD_MS) + 1;
  if (first < FIRST_WINDOW_MINUTE || first > LAST_WINDOW_MINUTE) return null;
  const windows: string[] = [];
  for (let m = first; m <= LAST_WINDOW_MINUTE && windows.length < 4; m += 180) {
    windows.push(
      `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`,
    );
  }
  return windows;
}

const PALETTE = [
  ['#0f172a', '#38bdf8'],
  ['#1e1b4b', '#a78bfa'],
  ['#052e16', '#4ade80'],
  ['#451a03', '#fbbf24'],
  ['#4c0519', '#fb7185'],
  ['#083344', '#22d3ee'],
];

/** A 1080x1920 gradient card with a title, made without any image files. */
async function demoImage(title: string, from: string, to: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="1920">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="1080" height="1920" fill="url(#g)"/>
  <circle cx="840" cy="420" r="260" fill="#ffffff" fill-opacity="0.12"/>
  <circle cx="220" cy="1500" r="340" fill="#000000" fill-opacity="0.15"/>
  <text x="540" y="1000" font-family="sans-serif" font-size="96" font-weight="700"
    fill="#ffffff" text-anchor="middle">${title}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * Uploads generated image bytes through the signed upload flow, with its thumbnail. The
 * bytes are stored where a PUT to `uploadUrl` would store them, not sent to that URL: with
 * object storage it is the bucket's, and the service need not be running for the seed.
 */
async function uploadImage(
  ctx: AppContext,
  principal: Principal,
  filename: string,
  bytes: Buffer,
): Promise<string> {
  const created = await createSignedUpload(ctx, principal, {
    kind: 'image',
    filename,
    contentType: 'image/jpeg',
    sizeBytes: bytes.length,
  });
  await storeUploadBytes(ctx, principal.companyId, created.uploadId, {
    contentType: 'image/jpeg',
    body: bytes,
  });
  // Its thumbnail is a media job: the command does it before it ends (seed.command.ts).
  await completeUpload(ctx, principal, created.uploadId);
  return created.uploadId;
}

export interface SeedAccount {
  accountId: string;
  platform: string;
  username: string;
  /** The account's windows, local to the worker; the company default when it has none. */
  windows: string[];
  nextWindow: string;
}

export interface SeedUser {
  userId: string;
  email: string;
  role: string;
  /** The first demo company: the user was made there by the first seed. */
  companyId: string;
  /** New on every seed, shown once. */
  password: string;
  signInUrl: string;
}

/** The demo operator: its one-time sign-in link to the console, new on every seed. */
export interface SeedOperator {
  email: string;
  signInUrl: string;
  expiresAt: string;
}

export interface SeedResult {
  companyId: string;
  apiKey: string;
  /** The dashboard's demo admin, with its (new) password. */
  user: SeedUser;
  operator: SeedOperator;
  accountIds: string[];
  accounts: SeedAccount[];
  /** The simulated worker operating every demo account; its token is not kept. */
  worker: { workerId: string; name: string; timezone: string; simulated: boolean };
  posts: { postId: string; status: string; accountIds: string[] }[];
  /** The earliest window start of the demo accounts: when the first release goes out. */
  nextWindow: string;
  tagIds: string[];
  folderIds: string[];
  packIds: string[];
}

/** Creates the demo admin in this company, or gives the existing one a new password. */
async function demoUser(ctx: AppContext, companyId: string): Promise<SeedUser> {
  const existing = await findUserByEmail(ctx.db, DEMO_EMAIL);
  const { user, password } = existing
    ? await resetPassword(ctx.db, ctx.clock, existing.userId)
    : await createUser(ctx.db, ctx.clock, { companyId, email: DEMO_EMAIL, role: 'admin' });
  return {
    userId: user.userId,
    email: user.email,
    role: user.role,
    companyId: user.companyId,
    password,
    signInUrl: `${ctx.config.publicUrl}/dashboard/`,
  };
}

/** The operator of the demo, made once; later seeds start it over with a new link. */
async function demoOperator(ctx: AppContext): Promise<SeedOperator> {
  const existing = (await listOperators(ctx.db)).find((o) => o.email === DEMO_OPERATOR_EMAIL);
  const { link } = existing
    ? await resetOperator(ctx.db, ctx.clock, DEMO_OPERATOR_EMAIL, ADMIN_CLI)
    : await createOperator(
        ctx.db,
        ctx.clock,
        { email: DEMO_OPERATOR_EMAIL, name: 'Demo operator' },
        ADMIN_CLI,
      );
  return {
    email: DEMO_OPERATOR_EMAIL,
    signInUrl: operatorWelcomeUrl(ctx.config.publicUrl, link.token),
    expiresAt: link.expiresAt,
  };
}

/** A seed that failed; what it had made is removed first. The CLI prints it on one line. */
export class SeedError extends OperatorError {}

/** What a seed has made so far that undoing it must remove. */
interface Made {
  companyId?: string;
  workerId?: string;
}

function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\s+/g, ' ').trim() || (err as Error).name || 'unknown error';
}

/** Removes what a failed seed made; the error to report, saying what was undone. */
async function undo(ctx: AppContext, made: Made, cause: unknown): Promise<SeedError> {
  const failed = `seed demo failed: ${oneLine(cause)}`;
  if (!made.companyId) return new SeedError(`${failed}; nothing was made`, { cause });
  const what = `demo company ${made.companyId}`;
  try {
    const purged = await purgeCompany(ctx, made.companyId);
    if (made.workerId) await deleteIdleWorker(ctx.db, made.workerId);
    const files = purged.fileErrors.length;
    return new SeedError(
      files === 0
        ? `${failed}; ${what} and everything made for it were removed`
        : `${failed}; ${what} was removed, but ${files} of its stored files could not be deleted (${purged.fileErrors[0]})`,
      { cause },
    );
  } catch (err) {
    return new SeedError(
      `${failed}; removing ${what} failed too (${oneLine(err)}): it is left behind`,
      { cause },
    );
  }
}

export async function seedDemo(
  ctx: AppContext,
  options: { timezone?: string } = {},
): Promise<SeedResult> {
  const timezone = options.timezone ?? demoTimezone(ctx.clock.now());
  if (!validTimezone(timezone)) {
    throw new WorkerError(`"${timezone}" is not an IANA timezone (e.g. Europe/Berlin)`);
  }
  const made: Made = {};
  try {
    return await seedInto(ctx, timezone, made);
  } catch (err) {
    throw await undo(ctx, made, err);
  }
}

/** The seed itself; `made` names what exists so far, for undoing a failure. */
async function seedInto(ctx: AppContext, timezone: string, made: Made): Promise<SeedResult> {
  const company = await createCompany(ctx.db, ctx.clock, ctx.config.plans, {
    name: 'Demo Company',
    plan: ctx.config.defaultPlan,
    defaultTimezone: timezone,
    description: 'A demo workspace with accounts on both platforms',
    website: 'https://example.com',
  });
  made.companyId = company.companyId;
  const key = await createKey(ctx.db, ctx.clock, {
    companyId: company.companyId,
    scopes: [...SCOPES],
    name: 'Demo full-access key',
  });
  const principal: Principal = {
    keyId: key.keyId,
    companyId: company.companyId,
    scopes: new Set<string>(SCOPES),
    plan: company.plan,
  };
  const accountIds: string[] = [];
  for (const a of DEMO_ACCOUNTS) {
    const account = await createAccount(ctx, principal, {
      platform: a.platform,
      username: a.username,
      displayName: a.displayName,
      bio: `${a.displayName}: short videos every day`,
      profilePictureUrl: 'https://example.com/avatar.png',
      warmup: { searchTerms: ['recipes', 'travel tips', 'behind the scenes'] },
    });
    accountIds.push(account.accountId);
  }
  const worker = await createWorker(ctx.db, ctx.clock, {
    name: 'Demo phone (simulated)',
    timezone,
    simulated: true,
  });
  made.workerId = worker.workerId;
  await assignAccounts(ctx.db, ctx.clock, worker.workerId, accountIds);

  const tagIds: string[] = [];
  for (const [name, color] of [
    ['Hooks that work', 'amber'],
    ['Product launch', 'violet'],
    ['Evergreen', 'green'],
  ] as const) {
    tagIds.push((await createTag(ctx, company.companyId, { name, color })).tagId);
  }
  await setCompanySchedule(ctx, company.companyId, { schedule: { windows: COMPANY_WINDOWS } });
  const now = ctx.clock.now();
  const accounts: SeedAccount[] = [];
  for (const [i, a] of DEMO_ACCOUNTS.entries()) {
    const accountId = accountIds[i] as string;
    if (a.windows) {
      await setAccountSchedule(ctx, company.companyId, accountId, {
        schedule: { windows: [...a.windows] },
      });
    }
    const windows = a.windows ? [...a.windows] : COMPANY_WINDOWS;
    accounts.push({
      accountId,
      platform: a.platform,
      username: a.username,
      windows,
      nextWindow: nextWindowStart(windows, timezone, now).toISOString(),
    });
  }

  const dir = await mkdtemp(join(tmpdir(), 'slotline-seed-'));
  const folderIds: string[] = [];
  const packIds: string[] = [];
  try {
    for (const [f, folderName] of ['Backgrounds', 'Product shots'].entries()) {
      const files: string[] = [];
      for (let i = 0; i < 3; i++) {
        const [from, to] = PALETTE[f * 3 + i] as [string, string];
        const file = join(dir, `${folderName.toLowerCase().replace(/ /g, '-')}-${i + 1}.png`);
        await writeFile(file, await demoImage(`${folderName} ${i + 1}`, from, to));
        files.push(file);
      }
      const imported = await importImages(ctx, company.companyId, folderName, files);
      folderIds.push(imported.folderId);
      const pack = await createPack(ctx, company.companyId, {
        folderId: imported.folderId,
        name: `${folderName} pack`,
        imageIds: imported.imageIds,
        imageFit: f === 0 ? 'fill' : 'fit',
        useOnce: f === 1,
      });
      packIds.push(pack.packId);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  const posts: SeedResult['posts'] = [];
  for (const [p, demo] of DEMO_POSTS.entries()) {
    const media: string[] = [];
    for (let i = 0; i < demo.images; i++) {
      const [from, to] = PALETTE[(p + i) % PALETTE.length] as [string, string];
      const png = await demoImage(
        demo.images > 1 ? `${demo.title} ${i + 1}` : demo.title,
        from,
        to,
      );
      const jpeg = await sharp(png).jpeg({ quality: 82 }).toBuffer();
      media.push(await uploadImage(ctx, principal, `demo-${p + 1}-${i + 1}.jpg`, jpeg));
    }
    const written = await createPost(
      ctx,
      principal,
      {
        media,
        accountIds: demo.accounts.map((i) => accountIds[i] as string),
        caption: `${demo.title}: a demo post queued by slotline seed demo`,
        hashtags: ['demo', 'slotline'],
        contentGroupIds: [`tag:${tagIds[demo.tag] as string}`],
        skipApproval: !demo.approval,
      },
      undefined,
    );
    posts.push({
      postId: written.post.postId,
      status: written.post.status,
      accountIds: demo.accounts.map((i) => accountIds[i] as string),
    });
  }

  // The first account's first window a minute from now, after its posts were queued: it
  // is theirs, and the first release goes out as soon as the service runs.
  const soon = soonWindows(timezone, ctx.clock.now());
  const first = accounts[0];
  if (soon && first) {
    await setAccountSchedule(ctx, company.companyId, first.accountId, {
      schedule: { windows: soon },
    });
    first.windows = soon;
    first.nextWindow = nextWindowStart(soon, timezone, ctx.clock.now()).toISOString();
  }

  // Last, since nothing could undo an existing demo user's new password, nor the demo
  // operator's new start.
  const user = await demoUser(ctx, company.companyId);
  const operator = await demoOperator(ctx);
  return {
    companyId: company.companyId,
    apiKey: key.secret,
    user,
    operator,
    accountIds,
    accounts,
    worker: {
      workerId: worker.workerId,
      name: worker.name,
      timezone: worker.timezone,
      simulated: worker.simulated,
    },
    posts,
    nextWindow: accounts.map((a) => a.nextWindow).sort()[0] as string,
    tagIds,
    folderIds,
    packIds,
  };
}
