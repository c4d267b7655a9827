// Smoke check of an S3 server with the SDK configured as the blob store configures it
// (path style, checksums only when required, presigned PUTs bound to Content-Length and
// Content-Type). Prints one line per check; exits 1 when a check fails. The `info` lines
// report behaviour that differs between servers rather than pass/fail.
// Usage: SLOTLINE_TEST_S3_URL=s3+http://KEY:SECRET@HOST:PORT/BUCKET?region=R \
//          node --import tsx scripts/s3-swift/smoke.ts
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

const raw = process.env.SLOTLINE_TEST_S3_URL;
if (!raw) throw new Error('set SLOTLINE_TEST_S3_URL (scripts/s3-swift/start.sh prints it)');
const url = new URL(raw);
const Bucket = url.pathname.slice(1);
const base: S3ClientConfig = {
  endpoint: `${url.protocol.replace('s3+', '')}//${url.host}`,
  region: url.searchParams.get('region') ?? 'us-east-1',
  forcePathStyle: true,
  credentials: {
    accessKeyId: decodeURIComponent(url.username),
    secretAccessKey: decodeURIComponent(url.password),
  },
};
const s3 = new S3Client({
  ...base,
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
});
const prefix = `smoke-${Date.now()}/`;
let failures = 0;

async function check(name: string, run: () => Promise<string | void>): Promise<void> {
  const start = performance.now();
  try {
    const detail = await run();
    console.log(`ok    ${name} (${ms(start)})${detail ? ` — ${detail}` : ''}`);
  } catch (error) {
    failures += 1;
    console.log(`FAIL  ${name} (${ms(start)}) — ${describe(error)}`);
  }
}
/** For behaviour that is reported, not judged: a thrown error is the finding. */
async function info(name: string, run: () => Promise<string>): Promise<void> {
  const detail = await run().catch((error: unknown) => `error ${describe(error)}`);
  console.log(`info  ${name} — ${detail}`);
}
function ms(start: number): string {
  return `${Math.round(performance.now() - start)} ms`;
}
function describe(error: unknown): string {
  const e = error as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  return `${e.$metadata?.httpStatusCode ?? ''} ${e.name ?? ''}: ${e.message ?? String(error)}`;
}
function assert(ok: boolean, message: string): void {
  if (!ok) throw new Error(message);
}
async function bytesOf(key: string, Range?: string): Promise<Buffer> {
  const out = await s3.send(new GetObjectCommand({ Bucket, Key: key, Range }));
  return Buffer.from(await out.Body!.transformToByteArray());
}
async function refused(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    return describe(error);
  }
  throw new Error('accepted, expected a refusal');
}
/** Presigned PUT with Content-Length and Content-Type in the signed headers. */
function presignPut(Key: string, length: number, type: string, expiresIn = 300): Promise<string> {
  const command = new PutObjectCommand({ Bucket, Key, ContentLength: length, ContentType: type });
  // Without signableHeaders the SDK signs content-length but leaves content-type out.
  const signableHeaders = new Set(['content-length', 'content-type']);
  return getSignedUrl(s3, command, { expiresIn, signableHeaders });
}
async function put(target: string, body: Buffer, type: string): Promise<Response> {
  return fetch(target, { method: 'PUT', body, headers: { 'content-type': type } });
}

const body = randomBytes(1000);
const key = `${prefix}object.bin`;

await check('HeadBucket', async () => {
  await s3.send(new HeadBucketCommand({ Bucket }));
});
await check('PutObject 1000 B', async () => {
  const out = await s3.send(
    new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: 'video/mp4' }),
  );
  return `ETag ${out.ETag}`;
});
await check('GetObject Range start bytes=0-9', async () => {
  assert((await bytesOf(key, 'bytes=0-9')).equals(body.subarray(0, 10)), 'wrong bytes');
});
await check('GetObject Range middle bytes=400-599', async () => {
  assert((await bytesOf(key, 'bytes=400-599')).equals(body.subarray(400, 600)), 'wrong bytes');
});
await check('GetObject Range overlapping the end bytes=990-1999', async () => {
  const got = await bytesOf(key, 'bytes=990-1999');
  assert(got.equals(body.subarray(990)), `got ${got.length} bytes`);
  return 'truncated to the 10 bytes left';
});
await check('GetObject Range past the end bytes=2000-2999 is refused', () =>
  refused(() => bytesOf(key, 'bytes=2000-2999')),
);
await check('PutObject with a stream body and ContentLength', async () => {
  const Body = Readable.from([body.subarray(0, 500), body.subarray(500)]);
  await s3.send(
    new PutObjectCommand({ Bucket, Key: `${prefix}stream`, Body, ContentLength: 1000 }),
  );
  assert((await bytesOf(`${prefix}stream`)).equals(body), 'stored bytes differ');
});
await check('HeadObject', async () => {
  const out = await s3.send(new HeadObjectCommand({ Bucket, Key: key }));
  assert(out.ContentLength === 1000, `ContentLength ${out.ContentLength}`);
  assert(out.ContentType === 'video/mp4', `ContentType ${out.ContentType}`);
});
await check('HeadObject of a missing key is 404', async () => {
  const reason = await refused(() =>
    s3.send(new HeadObjectCommand({ Bucket, Key: `${prefix}missing` })),
  );
  assert(reason.startsWith('404'), reason);
  return reason.slice(0, 20);
});
await check('CopyObject', async () => {
  const copy = `${prefix}copy of object.bin`;
  const CopySource = `${Bucket}/${encodeURIComponent(key)}`;
  await s3.send(new CopyObjectCommand({ Bucket, Key: copy, CopySource }));
  assert((await bytesOf(copy)).equals(body), 'copy differs');
  const head = await s3.send(new HeadObjectCommand({ Bucket, Key: copy }));
  return `content-type kept: ${head.ContentType}`;
});

const pkey = `${prefix}presigned.jpg`;
const pbody = randomBytes(4096);
await check('presigned PUT with signed length and type', async () => {
  const res = await put(await presignPut(pkey, pbody.length, 'image/jpeg'), pbody, 'image/jpeg');
  assert(res.ok, `${res.status} ${await res.text()}`);
  assert((await bytesOf(pkey)).equals(pbody), 'stored bytes differ');
});
await check('presigned PUT with another length is refused', async () => {
  const res = await put(
    await presignPut(pkey, 4096, 'image/jpeg'),
    pbody.subarray(1),
    'image/jpeg',
  );
  assert(!res.ok, `accepted (${res.status})`);
  return `${res.status} ${/<Code>(\w+)/.exec(await res.text())?.[1]}`;
});
await check('presigned PUT with another type is refused', async () => {
  const res = await put(await presignPut(pkey, 4096, 'image/jpeg'), pbody, 'text/html');
  assert(!res.ok, `accepted (${res.status})`);
  return `${res.status} ${/<Code>(\w+)/.exec(await res.text())?.[1]}`;
});
await check('presigned GET', async () => {
  const res = await fetch(await getSignedUrl(s3, new GetObjectCommand({ Bucket, Key: pkey })));
  assert(res.ok, `${res.status}`);
  assert(Buffer.from(await res.arrayBuffer()).equals(pbody), 'bytes differ');
});
await check('expired presigned GET is refused', async () => {
  const signed = await getSignedUrl(s3, new GetObjectCommand({ Bucket, Key: pkey }), {
    expiresIn: 1,
  });
  await new Promise((resolve) => setTimeout(resolve, 2100));
  const res = await fetch(signed);
  assert(!res.ok, `accepted (${res.status})`);
  return `${res.status} ${/<Code>(\w+)/.exec(await res.text())?.[1]}`;
});

const big = randomBytes(12 * 1024 * 1024);
const mkey = `${prefix}multipart.bin`;
await check('multipart 12 MiB in 5 MiB parts (lib-storage)', async () => {
  const upload = new Upload({
    client: s3,
    params: { Bucket, Key: mkey, Body: big, ContentType: 'video/mp4' },
    partSize: 5 * 1024 * 1024,
    queueSize: 2,
    leavePartsOnError: false,
  });
  const out = await upload.done();
  const head = await s3.send(new HeadObjectCommand({ Bucket, Key: mkey }));
  assert(head.ContentLength === big.length, `ContentLength ${head.ContentLength}`);
  const tail = await bytesOf(mkey, `bytes=${big.length - 100}-`);
  assert(tail.equals(big.subarray(big.length - 100)), 'ranged read across parts differs');
  return `ETag ${out.ETag}, type ${head.ContentType}`;
});

// Five rounds each, alternating, so the shared machine's noise hits both sides alike.
const ten = big.subarray(0, 10 * 1000 * 1000);
const direct: number[] = [];
const presigned: number[] = [];
await check('direct PutObject vs presigned PUT, 10 MB x5 each', async () => {
  for (let round = 0; round < 5; round += 1) {
    let start = performance.now();
    await s3.send(new PutObjectCommand({ Bucket, Key: `${prefix}direct-10mb`, Body: ten }));
    direct.push(performance.now() - start);
    start = performance.now();
    const target = await presignPut(`${prefix}presigned-10mb`, ten.length, 'video/mp4');
    const res = await put(target, ten, 'video/mp4');
    assert(res.ok, `${res.status}`);
    presigned.push(performance.now() - start);
  }
  return `median direct ${median(direct)} ms, presigned ${median(presigned)} ms`;
});
function median(values: number[]): number {
  return Math.round([...values].sort((a, b) => a - b)[values.length >> 1]!);
}

await check('GetObject of a missing key is NoSuchKey', async () => {
  const reason = await refused(() => bytesOf(`${prefix}missing`));
  assert(reason.includes('NoSuchKey'), reason);
});
await info('HeadBucket of a missing bucket', () =>
  refused(() => s3.send(new HeadBucketCommand({ Bucket: `${Bucket}-missing` }))),
);
await info('ListObjectsV2 under the prefix', async () => {
  const out = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: prefix }));
  return `${out.KeyCount} keys`;
});
await info('DeleteObjects (the SDK sends a CRC32 checksum, no Content-MD5)', async () => {
  const out = await s3.send(
    new DeleteObjectsCommand({ Bucket, Delete: { Objects: [{ Key: `${prefix}direct-10mb` }] } }),
  );
  return `deleted ${out.Deleted?.length ?? 0}, errors ${out.Errors?.length ?? 0}`;
});
await info('a client with default checksum settings (WHEN_SUPPORTED)', async () => {
  const eager = new S3Client(base);
  await eager.send(new PutObjectCommand({ Bucket, Key: `${prefix}eager`, Body: body }));
  const out = await eager.send(new GetObjectCommand({ Bucket, Key: `${prefix}eager` }));
  const back = Buffer.from(await out.Body!.transformToByteArray());
  return `PutObject accepted, GetObject ${back.equals(body) ? 'same bytes' : 'DIFFERENT bytes'}`;
});
await info('the same client, PutObject with a stream body', async () => {
  const Body = Readable.from([body.subarray(0, 500), body.subarray(500)]);
  const Key = `${prefix}eager-stream`;
  await new S3Client(base).send(new PutObjectCommand({ Bucket, Key, Body, ContentLength: 1000 }));
  return 'accepted';
});

await check('DeleteObject, then the key is gone', async () => {
  for (const Key of [key, mkey]) await s3.send(new DeleteObjectCommand({ Bucket, Key }));
  const reason = await refused(() => s3.send(new HeadObjectCommand({ Bucket, Key: key })));
  assert(reason.startsWith('404'), reason);
});
await check('DeleteObject of a missing key succeeds', async () => {
  await s3.send(new DeleteObjectCommand({ Bucket, Key: `${prefix}never-was` }));
});

console.log(failures === 0 ? 'all checks passed' : `${failures} check(s) failed`);
process.exit(failures === 0 ? 0 : 1);
