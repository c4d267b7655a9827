// `slotline seed demo`: a demo company a newcomer can call right away, with a simulated
// worker operating its accounts and a few posts queued, so that `npm start` shows releases
// going out at the next window, the simulator posting them and analytics filling in.
// Every run creates a new, separate demo company (and worker); nothing is overwritten but
// the demo user's password: the user is made once, in the first demo company, since an
// email signs in to one company only, and every later run gives it a new password.
// A run that fails part-way removes everything it made before it reports the failure.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { AppContext } from '../context.ts';
import { validTimezone } from '../schedule/local-time.ts';
import { nextWindowStart } from '../schedule/windows.ts';
import type { Principal } from '../access.ts';
import { createPost } from '../modules/posts/index.ts';
import { assignAccounts, createWorker, WorkerError } from '../modules/workers/index.ts';
import { createCompany } from '../modules/companies/index.ts';
import { createKey } from '../modules/keys/index.ts';
import { SCOPES } from '../access.ts';
import { createAccount } from '../modules/accounts/index.ts';
import { createTag } from '../modules/tags/index.ts';
import { setAccountSchedule, setCompanySchedule } from '../modules/schedules/index.ts';
import { createPack, importImages } from '../modules/workspace/index.ts';
import { undo, type Made } from './seed-undo.ts';
import { demoImage, PALETTE, uploadImage } from './seed-media.ts';
import { demoOperator, demoUser, type SeedOperator, type SeedUser } from './seed-users.ts';
import { demoTimezone, soonWindows } from './seed-windows.ts';

export { SeedError } from './seed-undo.ts';
export { DEMO_EMAIL, DEMO_OPERATOR_EMAIL } from './seed-users.ts';
export type { SeedOperator, SeedUser } from './seed-users.ts';
export { demoTimezone, soonWindows } from './seed-windows.ts';

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

export interface SeedAccount {
  accountId: string;
  platform: string;
  username: string;
  /** The account's windows, local to the worker; the company default when it has none. */
  windows: string[];
  nextWindow: string;
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
      const pack = await createPack(ctx.db, ctx.clock, company.companyId, {
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
