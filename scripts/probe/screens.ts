// The screens a new user meets first, over HTTP from the running processes: `seed demo` made
// through the services (its company, admin, operator and Workspace), one of its releases
// posted by the simulated worker, its post waiting for approval rejected, and a worker signed
// in on the workers' page. Each wording defect still on those pages is counted: the doubled
// tick of the delivery chip, the phone menu's "Importposts", rejection shown as cancellation
// (a 400 for its filter), a post's planned window gone once posted, the platformB format on a
// platformA-only post, a post id field too narrow for the id, a worker "never" seen after
// signing in, the console's unexplained "Posts today" and its phone tabs cut at the edge, and
// the import page's own example failing against the demo company, or its problems in API
// words. What lives in the stylesheet (the menu, the id field, the tabs) is read from it.
import { Secret, TOTP } from 'otpauth';
import { seedDemo } from '../../src/cli/seed.ts';
import { openContext } from '../../src/bootstrap.ts';
import { loadConfig } from '../../src/config.ts';
import { dispatchPass } from '../../src/dispatch/loop.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { reportWorkerStatus } from '../../src/modules/accounts/accounts.state.ts';
import { reject } from '../../src/modules/items/items.service.ts';
import { createWorker } from '../../src/modules/workers/index.ts';
import { simulatePass } from '../../src/simulator/simulator.ts';
import { hidden, httpBrowser, type Browser } from '../../test/helpers/dashboard.ts';
import type { ProbeRun, Section } from './section.ts';

/** A page's text with its markup taken out. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

/**
 * The declarations of `selector` inside the `@media (max-width: <px>px)` blocks of a
 * stylesheet, minified as the service serves it or not.
 */
function rulesIn(css: string, px: number, selector: string): string[] {
  const out: string[] = [];
  const media = new RegExp(`@media\\s*\\(max-width:\\s*${px}px\\)\\s*\\{`, 'g');
  for (const m of css.matchAll(media)) {
    // The block runs to the `}` that closes its opening brace.
    let depth = 1;
    let end = (m.index ?? 0) + m[0].length;
    for (; end < css.length && depth > 0; end++) {
      if (css[end] === '{') depth++;
      else if (css[end] === '}') depth--;
    }
    const block = css.slice((m.index ?? 0) + m[0].length, end - 1);
    for (const r of block.matchAll(/([^{}]+)\{([^}]*)\}/g)) {
      const selectors = (r[1] as string).split(',').map((x) => x.trim().replace(/\s+/g, ' '));
      if (selectors.includes(selector)) out.push(r[2] as string);
    }
  }
  return out;
}

/** Posts a CSV file to the import page's check, as its form does. */
async function checkFile(base: string, b: Browser, csrf: string, name: string, csv: string) {
  const boundary = `----probe${Math.random().toString(16).slice(2)}`;
  const body =
    `--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${csrf}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
    `Content-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
  const res = await fetch(`${base}/dashboard/import/check`, {
    method: 'POST',
    headers: {
      cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    body,
    signal: AbortSignal.timeout(60_000),
  });
  return { status: res.status, body: await res.text() };
}

/** The operator of the demo, through its welcome link: password, authenticator, signed in. */
async function operatorIn(base: string, signInUrl: string): Promise<Browser> {
  const b = httpBrowser(base);
  const link = new URL(signInUrl);
  const welcome = await b.get(`${link.pathname}${link.search}`);
  const password = 'a long probe operator passphrase';
  await b.post('/operator/welcome', {
    _csrf: hidden(welcome.body, '_csrf'),
    token: link.searchParams.get('token') ?? '',
    password,
    confirmation: password,
  });
  const enrol = await b.get('/operator/welcome/authenticator');
  const key = /id="manual-key"[^>]*value="([^"]*)"/.exec(enrol.body)?.[1]?.replace(/\s/g, '');
  if (!key) throw new Error(`the operator's authenticator page showed no key (${enrol.status})`);
  const code = TOTP.generate({ secret: Secret.fromBase32(key), timestamp: Date.now() });
  await b.post('/operator/welcome/authenticator', { _csrf: hidden(enrol.body, '_csrf'), code });
  return b;
}

async function probeScreens(probe: ProbeRun): Promise<void> {
  const base = probe.bases[0] as string;
  // Replica 0's data directory: the Workspace images the seed stores are read back by it.
  const opened = await openContext(
    loadConfig({ ...process.env, ...probe.env, DATA_DIR: '/tmp/probe-0' }),
    { clock: systemClock },
  );
  const ctx = opened.ctx;
  let setup;
  try {
    const demo = await seedDemo(ctx);
    for (const accountId of demo.accountIds) {
      await reportWorkerStatus(ctx, demo.companyId, accountId, 'active', undefined);
    }
    // The first window's release, posted by the simulated worker (in the minutes ahead).
    const first = Date.parse(demo.nextWindow);
    for (let m = 0; m <= 10; m++) {
      await dispatchPass(ctx, new Date(first + m * 60_000));
      await simulatePass(ctx, new Date(first + (m + 1) * 60_000));
    }
    const waiting = demo.posts.find((p) => p.status === 'pending_approval');
    if (waiting) {
      await reject(ctx, { postId: waiting.postId, companyId: demo.companyId, reason: 'Off brand' });
    }
    const worker = await createWorker(ctx.db, systemClock, {
      name: 'Probe phone',
      timezone: 'UTC',
    });
    const posted = await ctx.db
      .selectFrom('queue_items')
      .select('post_id')
      .where('company_id', '=', demo.companyId)
      .where('status', '=', 'posted')
      .executeTakeFirst();
    setup = { demo, worker, postedId: posted?.post_id ?? null, rejectedId: waiting?.postId };
  } finally {
    await opened.close();
  }
  const { demo, worker, postedId, rejectedId } = setup;
  const aOnly = demo.posts.find(
    (p) => p.accountIds.length === 1 && p.accountIds[0] === demo.accountIds[1],
  );

  const count: Record<string, number> = {};
  const found = (what: string, defect: boolean, detail = '') => {
    count[what] = (count[what] ?? 0) + (defect ? 1 : 0);
    if (defect) probe.defect(`screens: ${what}${detail ? ` (${detail})` : ''}`);
  };

  const admin = httpBrowser(base);
  const form = await admin.get('/dashboard/sign-in');
  await admin.post('/dashboard/sign-in', {
    _csrf: hidden(form.body, '_csrf'),
    next: '',
    email: demo.user.email,
    password: demo.user.password,
  });

  // The post that went out: its chip and its window.
  if (!postedId) found('no release was posted by the simulated worker', true);
  else {
    const page = await admin.get(`/dashboard/posts/${postedId}`);
    found('delivery chip reads "✓ ✓ on time"', />\s*✓ on time</.test(page.body));
    const released = [...page.body.matchAll(/<tr data-account="[^"]+">([\s\S]*?)<\/tr>/g)].filter(
      (r) => /status-posted/.test(r[1] as string),
    );
    found(
      'a posted account says "Planned window —" while Delivery shows its window',
      released.some((r) => /Planned window: <\/span>—/.test(r[1] as string)),
    );
  }
  // The post rejected in review: its state, its delivery wording, its list and filter.
  if (rejectedId) {
    const page = await admin.get(`/dashboard/posts/${rejectedId}`);
    found(
      'a rejected post reads "cancelled"',
      /<dt>Status<\/dt><dd><span class="status status-cancelled">/.test(page.body),
    );
    found(
      'a rejected post says its record "appears here once its window opens"',
      /appears here once its window opens/.test(page.body),
    );
    const filtered = await admin.get('/dashboard/posts?status=rejected');
    found(
      '/dashboard/posts?status=rejected is not a page',
      filtered.status !== 200,
      `${filtered.status}`,
    );
    const row = new RegExp(`<tr data-post="${rejectedId}">([\\s\\S]*?)</tr>`).exec(
      (await admin.get('/dashboard/posts')).body,
    );
    found(
      'a rejected post looks cancelled in the list',
      !row || /status-cancelled/.test(row[1] as string),
    );
    found(
      'the rejected filter does not list the rejected post',
      filtered.status === 200 && !filtered.body.includes(`data-post="${rejectedId}"`),
    );
  }
  if (aOnly) {
    const page = await admin.get(`/dashboard/posts/${aOnly.postId}`);
    found(
      'a platformA-only post shows "Format on platformB"',
      /Format on platformB/.test(page.body),
    );
  }

  // The stylesheets: the phone menu's import link, the id field, the console's phone tabs.
  const css = await (await fetch(`${base}/dashboard/assets/dashboard.css`)).text();
  const consoleCss = await (await fetch(`${base}/operator/assets/operator.css`)).text();
  const menuLink = rulesIn(css, 1199, '.masthead .import-link').join(';');
  found(
    'the phone menu reads "Importposts from a file"',
    /display:\s*(inline-)?flex/.test(menuLink),
    'its label is a flex box, whose second item loses its leading space',
  );
  const idRule = /\.post-id input\.id-field\s*\{([^}]*)\}/.exec(css)?.[1] ?? '';
  const basis = /flex:\s*0 1 (calc\()?(\d+)ch/.exec(idRule);
  found(
    'the post id field cuts off its last character',
    !basis ||
      (!basis[1] && Number(basis[2]) <= 30) ||
      (basis[1] !== undefined && Number(basis[2]) < 30),
    `its basis: ${basis?.[0] ?? 'none'}`,
  );
  const tabs = rulesIn(consoleCss, 640, '.top nav').join(';');
  found(
    'the console\'s phone tab bar is cut at the edge ("Ope")',
    /flex-wrap:\s*nowrap/.test(tabs),
  );

  // The workers' page: signing in is a sight of the worker.
  const phone = httpBrowser(base);
  const signIn = await phone.get('/dashboard/worker/sign-in');
  await phone.post('/dashboard/worker/sign-in', {
    _csrf: hidden(signIn.body, '_csrf'),
    token: worker.token,
  });
  await phone.get('/dashboard/worker/tasks');

  // The console: the demo company's count, and the worker's last sight.
  const op = await operatorIn(base, demo.operator.signInUrl);
  const companies = await op.get('/operator/companies');
  const company = await op.get(`/operator/companies/${demo.companyId}`);
  found(
    'the console says "Posts today" for a count of queue items',
    /Posts today/.test(companies.body + company.body),
  );
  const seen = await op.get(`/operator/workers/${worker.workerId}`);
  found(
    'a worker stays "Last seen: Never" after signing in',
    seen.status !== 200 || /Never: it has not reported in yet/.test(seen.body),
    `${seen.status}`,
  );

  // The import page's own example, against the demo company, and a fetch that fails.
  const importPage = await admin.get('/dashboard/import');
  const csrf = hidden(importPage.body, '_csrf');
  const example = await admin.get('/dashboard/import/example.csv');
  const checked = await checkFile(base, admin, csrf, 'slotline-import-example.csv', example.body);
  const problemRows = (checked.body.match(/class="import-row row-problems"/g) ?? []).length;
  found(
    "the import page's example CSV has rows with problems against the demo company",
    checked.status !== 200 || problemRows > 0,
    `${problemRows} rows: ${text(
      /<ul class="problems">([\s\S]*?)<\/ul>/.exec(checked.body)?.[1] ?? '',
    )
      .trim()
      .slice(0, 160)}`,
  );
  const far = await checkFile(
    base,
    admin,
    csrf,
    'far.csv',
    'media,accounts\r\nhttps://no-such-host.invalid/a.png,platformA:@demo.travel\r\n',
  );
  found(
    'an import problem names an API field ("sourceUrl")',
    /sourceUrl|accountIds|contentGroupIds/.test(text(far.body)),
  );

  const total = Object.values(count).reduce((a, b) => a + b, 0);
  console.log(
    `screens: ${Object.keys(count).length} wordings checked, ${total} still wrong` +
      (total > 0
        ? `: ${Object.entries(count)
            .filter(([, n]) => n > 0)
            .map(([k]) => k)
            .join('; ')}`
        : ''),
  );
}

export const screenSections: Section[] = [{ name: 'screens', run: probeScreens }];
