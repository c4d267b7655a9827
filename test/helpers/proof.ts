// What the proof screenshot tests share: the service's default post URL patterns (so a URL
// of another account is refused), and what a company keeps of proof screenshots.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestApp, TestAppOptions } from './app.ts';

/** The service's own URL patterns (an empty value restores the defaults). */
export const DEFAULT_PATTERNS: TestAppOptions = {
  env: { POST_URL_PATTERN_PLATFORMA: '', POST_URL_PATTERN_PLATFORMB: '' },
};

/** The company's proof screenshots: upload rows, and the blobs under its local prefix. */
export async function proofTrace(t: TestApp, companyId: string) {
  const rows = await t.ctx.db
    .selectFrom('uploads')
    .select('id')
    .where('company_id', '=', companyId)
    .where('source', '=', 'proof')
    .execute();
  const dir = join(t.config.dataDir, 'blobs', 'uploads', companyId);
  const blobs = await readdir(dir).catch(() => [] as string[]);
  return { rows: rows.map((r) => r.id).sort(), blobs: blobs.sort() };
}
