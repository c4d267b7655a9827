// Where media bytes are kept, from the environment (config.ts hands the variables
// over; nothing here reads process.env). Local disk under DATA_DIR/blobs unless
// STORAGE_URL or S3_* name an S3-compatible bucket.

export interface S3StorageConfig {
  readonly kind: 's3';
  /** Base address the service reaches the S3 API at, e.g. http://127.0.0.1:9000. */
  readonly endpoint: string;
  /** Base address callers reach for presigned URLs; `endpoint` when they are the same. */
  readonly publicEndpoint: string;
  readonly bucket: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** Bucket in the path (http://host/bucket/key) rather than in the host name. */
  readonly forcePathStyle: boolean;
}

export type StorageConfig = { readonly kind: 'local' } | S3StorageConfig;

export class StorageConfigError extends Error {}

const S3_VARS = [
  'S3_ENDPOINT',
  'S3_BUCKET',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'S3_PUBLIC_ENDPOINT',
] as const;

// S3 bucket naming rules (lower case, digits, dots, hyphens; 3 to 63 characters).
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION = /^[a-z0-9-]{1,40}$/;

function httpBase(name: string, raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new StorageConfigError(`${name} must be an http(s) URL (got "${raw}")`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new StorageConfigError(`${name} must be an http(s) URL (got "${raw}")`);
  }
  if (u.username || u.password || u.search || u.hash || u.pathname.replace(/\/+$/, '') !== '') {
    throw new StorageConfigError(
      `${name} must be a bare http(s) address without credentials, path or query (got "${raw}")`,
    );
  }
  return u.origin;
}

function checked(c: Omit<S3StorageConfig, 'kind'>, from: string): S3StorageConfig {
  if (!BUCKET.test(c.bucket)) {
    throw new StorageConfigError(
      `${from}: bucket "${c.bucket}" is not a valid S3 bucket name (3-63 lower-case letters, digits, dots, hyphens)`,
    );
  }
  if (!REGION.test(c.region)) {
    throw new StorageConfigError(`${from}: region "${c.region}" is not a region name`);
  }
  if (!c.accessKeyId || !c.secretAccessKey) {
    throw new StorageConfigError(`${from}: an access key id and a secret access key are required`);
  }
  return { kind: 's3', ...c };
}

function pathStyle(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === '') return true;
  if (raw === 'on' || raw === 'true') return true;
  if (raw === 'off' || raw === 'false') return false;
  throw new StorageConfigError(`${name} must be "on" or "off" (got "${raw}")`);
}

/**
 * `s3+http://KEY:SECRET@host:port/bucket?region=...&forcePathStyle=off&publicEndpoint=...`
 * (or `s3+https://`). Key and secret are percent-decoded, so secrets with `/` or `+` work.
 */
export function parseStorageUrl(raw: string): S3StorageConfig {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new StorageConfigError(
      'STORAGE_URL is not a URL (expected s3+http(s)://KEY:SECRET@host/bucket)',
    );
  }
  if (u.protocol !== 's3+http:' && u.protocol !== 's3+https:') {
    throw new StorageConfigError(
      `STORAGE_URL must start with s3+http:// or s3+https:// (got "${u.protocol}//")`,
    );
  }
  const bucket = decodeURIComponent(u.pathname.replace(/^\/+|\/+$/g, ''));
  if (!bucket || bucket.includes('/')) {
    throw new StorageConfigError(
      'STORAGE_URL must name exactly one bucket as its path, e.g. s3+http://KEY:SECRET@host:9000/media',
    );
  }
  const known = new Set(['region', 'forcePathStyle', 'publicEndpoint']);
  for (const name of u.searchParams.keys()) {
    if (!known.has(name)) {
      throw new StorageConfigError(
        `STORAGE_URL: unknown parameter "${name}" (known: ${[...known].join(', ')})`,
      );
    }
  }
  const endpoint = `${u.protocol.slice(3)}//${u.host}`;
  const publicRaw = u.searchParams.get('publicEndpoint');
  return checked(
    {
      endpoint,
      publicEndpoint: publicRaw ? httpBase('STORAGE_URL publicEndpoint', publicRaw) : endpoint,
      bucket,
      region: u.searchParams.get('region') || 'us-east-1',
      accessKeyId: decodeURIComponent(u.username),
      secretAccessKey: decodeURIComponent(u.password),
      forcePathStyle: pathStyle(
        'STORAGE_URL forcePathStyle',
        u.searchParams.get('forcePathStyle') ?? undefined,
      ),
    },
    'STORAGE_URL',
  );
}

export function parseStorageConfig(
  env: Readonly<Record<string, string | undefined>>,
): StorageConfig {
  const given = S3_VARS.filter((name) => env[name]);
  if (env.STORAGE_URL) {
    if (given.length > 0) {
      throw new StorageConfigError(
        `Set either STORAGE_URL or the S3_* variables, not both (also set: ${given.join(', ')})`,
      );
    }
    return parseStorageUrl(env.STORAGE_URL);
  }
  if (given.length === 0) return { kind: 'local' };
  const missing = (
    ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const
  ).filter((name) => !env[name]);
  if (missing.length > 0) {
    throw new StorageConfigError(
      `Object storage needs ${missing.join(', ')} as well (set: ${given.join(', ')})`,
    );
  }
  const endpoint = httpBase('S3_ENDPOINT', env.S3_ENDPOINT as string);
  return checked(
    {
      endpoint,
      publicEndpoint: env.S3_PUBLIC_ENDPOINT
        ? httpBase('S3_PUBLIC_ENDPOINT', env.S3_PUBLIC_ENDPOINT)
        : endpoint,
      bucket: env.S3_BUCKET as string,
      region: env.S3_REGION || 'us-east-1',
      accessKeyId: env.S3_ACCESS_KEY_ID as string,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY as string,
      forcePathStyle: pathStyle('S3_FORCE_PATH_STYLE', env.S3_FORCE_PATH_STYLE),
    },
    'S3_*',
  );
}
