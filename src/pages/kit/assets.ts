// The pages' stylesheets and scripts, minified once by esbuild and served from memory with an
// ETag: a page's first load is its HTML plus these, so their size is the page's weight. The
// sources stay readable in the repository; what a browser gets is the same code, smaller.
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import type { FastifyInstance } from 'fastify';

// src/pages/kit/ and dist/pages/kit/ are both three levels below the package root.
const ROOT = new URL('../../../', import.meta.url);

/**
 * A folder of src/ (`pages/operator/views`) as a path. Templates, stylesheets, scripts and
 * icons are not compiled, so the compiled service in dist/ reads them from src/ too.
 */
export function sourceFolder(path: string): string {
  return fileURLToPath(new URL(`src/${path}/`, ROOT));
}

/** What the apps share: the kit's stylesheet, the pages' script and the service's icon. */
export const KIT_ASSETS = sourceFolder('pages/kit/assets');

/** Files a family of pages serves under `<base>/assets/`. */
export interface AssetSet {
  /** The folders they are read from, in order. */
  roots: readonly string[];
  /** The asset paths served (`/kit.css`); every other one is a 404. */
  allowed: (path: string) => boolean;
}

/** One set serving what any of `sets` serves, from their folders in turn. */
export function joinAssets(...sets: AssetSet[]): AssetSet {
  return {
    roots: sets.flatMap((set) => set.roots),
    allowed: (path) => sets.some((set) => set.allowed(path)),
  };
}

interface Minified {
  body: Buffer;
  etag: string;
  type: string;
}

const TYPES = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8' } as const;

/** Minified files by path and modification time: every app of a process shares them. */
const memo = new Map<string, Promise<Minified>>();

async function minified(path: string, kind: keyof typeof TYPES): Promise<Minified> {
  const key = `${path}\n${(await stat(path)).mtimeMs}`;
  let entry = memo.get(key);
  if (!entry) {
    entry = (async () => {
      const source = await readFile(path, 'utf8');
      const out = await transform(source, { loader: kind, minify: true, legalComments: 'none' });
      const body = Buffer.from(out.code);
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
      return { body, etag, type: TYPES[kind] };
    })();
    memo.set(key, entry);
  }
  return entry;
}

/**
 * Registers `/assets/<name>` for each stylesheet and script of `roots` that `allowed` lets
 * through (already minified `*.min.js` files are left to the static files), ahead of the
 * static route serving everything else.
 */
export async function registerMinifiedAssets(
  app: FastifyInstance,
  roots: readonly string[],
  allowed: (path: string) => boolean,
): Promise<void> {
  const seen = new Set<string>();
  for (const root of roots) {
    for (const name of await readdir(root)) {
      const kind = /\.(css|js)$/.exec(name)?.[1] as keyof typeof TYPES | undefined;
      if (!kind || name.endsWith('.min.js') || seen.has(name) || !allowed(`/${name}`)) continue;
      seen.add(name);
      const asset = await minified(join(root, name), kind);
      app.get(`/assets/${name}`, async (req, reply) => {
        reply
          .header('content-type', asset.type)
          .header('cache-control', 'public, max-age=3600')
          .header('etag', asset.etag);
        if (req.headers['if-none-match'] === asset.etag) return reply.code(304).send();
        return reply.send(asset.body);
      });
    }
  }
}
