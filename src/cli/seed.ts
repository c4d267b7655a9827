// `slotline seed demo`: a demo company a newcomer can call right away.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { AppContext } from '../context.ts';
import { createCompany } from '../modules/companies/companies.service.ts';
import { createKey } from '../modules/keys/keys.service.ts';
import { SCOPES } from '../modules/keys/scopes.ts';
import { createAccount } from '../modules/accounts/accounts.service.ts';
import { createTag } from '../modules/tags/tags.service.ts';
import { setAccountSchedule, setCompanySchedule } from '../modules/schedules/schedules.service.ts';
import { createPack, importImages } from '../modules/workspace/workspace.service.ts';

const DEMO_ACCOUNTS = [
  {
    platform: 'platformA',
    username: 'demo.kitchen',
    displayName: 'Demo Kitchen',
    tz: 'America/New_York',
  },
  {
    platform: 'platformA',
    username: 'demo.travel',
    displayName: 'Demo Travel',
    tz: 'Europe/London',
  },
  {
    platform: 'platformB',
    username: 'demo.kitchen',
    displayName: 'Demo Kitchen',
    tz: 'America/New_York',
  },
  {
    platform: 'platformB',
    username: 'demo_studio',
    displayName: 'Demo Studio',
    tz: 'Asia/Kolkata',
  },
] as const;

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

export interface SeedResult {
  companyId: string;
  apiKey: string;
  accountIds: string[];
  tagIds: string[];
  folderIds: string[];
  packIds: string[];
}

export async function seedDemo(ctx: AppContext): Promise<SeedResult> {
  const company = await createCompany(ctx.db, ctx.clock, ctx.config.plans, {
    name: 'Demo Company',
    plan: ctx.config.defaultPlan,
    description: 'A demo workspace with accounts on both platforms',
    website: 'https://example.com',
  });
  const key = await createKey(ctx.db, ctx.clock, {
    companyId: company.companyId,
    scopes: [...SCOPES],
    name: 'Demo full-access key',
  });
  const principal = {
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
    await ctx.db
      .updateTable('accounts')
      .set({ timezone: a.tz })
      .where('id', '=', account.accountId)
      .execute();
    accountIds.push(account.accountId);
  }
  const tagIds: string[] = [];
  for (const [name, color] of [
    ['Hooks that work', 'amber'],
    ['Product launch', 'violet'],
    ['Evergreen', 'green'],
  ] as const) {
    tagIds.push((await createTag(ctx, company.companyId, { name, color })).tagId);
  }
  await setCompanySchedule(ctx, company.companyId, {
    schedule: { windows: ['09:00', '13:00', '17:00'] },
  });
  await setAccountSchedule(ctx, company.companyId, accountIds[0] as string, {
    schedule: { windows: ['08:00', '11:00', '14:00', '17:00'] },
  });

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
  return {
    companyId: company.companyId,
    apiKey: key.secret,
    accountIds,
    tagIds,
    folderIds,
    packIds,
  };
}
