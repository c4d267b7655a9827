// Creates the bucket named in an s3+http:// test URL, retrying until the server answers or the
// time limit passes: the first success proves the whole chain (s3api, tempauth, memcached,
// the rings and the three storage servers) works, so it doubles as start.sh's readiness wait.
// Usage: node create-bucket.js s3+http://KEY:SECRET@HOST:PORT/BUCKET?region=R [SECONDS]
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';

const url = new URL(process.argv[2] ?? '');
const limitMs = Number(process.argv[3] ?? 60) * 1000;
const bucket = url.pathname.slice(1);
const client = new S3Client({
  endpoint: `http://${url.host}`,
  region: url.searchParams.get('region') ?? 'us-east-1',
  forcePathStyle: true,
  credentials: {
    accessKeyId: decodeURIComponent(url.username),
    secretAccessKey: decodeURIComponent(url.password),
  },
  // A refused connection is the normal state while the daemons boot; the loop retries.
  maxAttempts: 1,
});

const deadline = Date.now() + limitMs;
let lastError;
while (Date.now() < deadline) {
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
    console.error(`bucket ${bucket} ready`);
    process.exit(0);
  } catch (error) {
    // Swift answers 409 BucketAlreadyExists for a bucket its own account holds.
    if (error?.name === 'BucketAlreadyOwnedByYou' || error?.name === 'BucketAlreadyExists') {
      await client.send(new HeadBucketCommand({ Bucket: bucket }));
      console.error(`bucket ${bucket} already there`);
      process.exit(0);
    }
    lastError = error;
    await sleep(250);
  }
}
console.error(`no answer from ${url.host} within ${limitMs} ms: ${lastError?.name ?? lastError}`);
process.exit(1);
