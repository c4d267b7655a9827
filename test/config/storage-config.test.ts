// Storage configuration: local disk by default, a bucket from STORAGE_URL or S3_*, and
// a precise ConfigError for anything incomplete or malformed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config.ts';

const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/x', ...env }).storage;

test('local disk unless a bucket is named', () => {
  assert.deepEqual(load({}), { kind: 'local' });
});

test('STORAGE_URL and S3_* name the same bucket', () => {
  const fromUrl = load({
    STORAGE_URL: 's3+https://AK:s%2Fe%2Bc@s3.example.com/media?region=eu-west-1',
  });
  const fromVars = load({
    S3_ENDPOINT: 'https://s3.example.com',
    S3_BUCKET: 'media',
    S3_REGION: 'eu-west-1',
    S3_ACCESS_KEY_ID: 'AK',
    S3_SECRET_ACCESS_KEY: 's/e+c',
  });
  const expected = {
    kind: 's3',
    endpoint: 'https://s3.example.com',
    publicEndpoint: 'https://s3.example.com',
    bucket: 'media',
    region: 'eu-west-1',
    accessKeyId: 'AK',
    secretAccessKey: 's/e+c',
    forcePathStyle: true,
  };
  assert.deepEqual(fromUrl, expected);
  assert.deepEqual(fromVars, expected);
  const pub = load({
    STORAGE_URL:
      's3+http://a:b@127.0.0.1:9000/bkt?forcePathStyle=off&publicEndpoint=http://media.test',
  });
  assert.equal(pub.kind === 's3' && pub.publicEndpoint, 'http://media.test');
  assert.equal(pub.kind === 's3' && pub.forcePathStyle, false);
});

test('incomplete or malformed settings stop the service with the reason', () => {
  const refused = (env: Record<string, string>, message: RegExp) =>
    assert.throws(
      () => load(env),
      (e: unknown) => e instanceof ConfigError && message.test(e.message),
    );
  refused({ S3_BUCKET: 'media' }, /needs S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY/);
  refused({ STORAGE_URL: 'http://a:b@host/bkt' }, /must start with s3\+http/);
  refused({ STORAGE_URL: 's3+http://a:b@host/' }, /exactly one bucket/);
  refused({ STORAGE_URL: 's3+http://host/bkt' }, /access key id and a secret/);
  refused({ STORAGE_URL: 's3+http://a:b@host/Bad_Bucket' }, /not a valid S3 bucket name/);
  refused({ STORAGE_URL: 's3+http://a:b@host/bkt?regoin=x' }, /unknown parameter "regoin"/);
  refused({ STORAGE_URL: 's3+http://a:b@host/bkt', S3_BUCKET: 'x' }, /not both/);
  refused(
    { S3_ENDPOINT: 'ftp://h', S3_BUCKET: 'bkt', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 'b' },
    /S3_ENDPOINT must be an http\(s\) URL/,
  );
  refused(
    {
      S3_ENDPOINT: 'http://h',
      S3_BUCKET: 'bkt',
      S3_ACCESS_KEY_ID: 'a',
      S3_SECRET_ACCESS_KEY: 'b',
      S3_FORCE_PATH_STYLE: 'maybe',
    },
    /S3_FORCE_PATH_STYLE must be "on" or "off"/,
  );
});
