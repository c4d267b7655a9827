// Multipart bodies the parser cannot read to their end (cut short in a file, a field or a
// part header; without a boundary) on every multipart form: the import check and the
// workers' report and proof forms answer 400 with a page in their own look, never a 500,
// and nothing is checked or stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { seedCompany, type SeededCompany } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn } from '../../helpers/dashboard.ts';
import { createWorker } from '../../../src/modules/workers/index.ts';
import { sendRaw, signedInAt } from '../worker/worker-page.helpers.ts';

const B = 'cutShortBoundary';
const field = (name: string, value: string) =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = (name: string, type: string) =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"; filename="x"\r\nContent-Type: ${type}\r\n\r\n`;

/** Bodies cut short or framed wrong, each with its Content-Type. */
function unreadable(csrf: string, file: string, type: string): [string, string, string][] {
  const multipart = `multipart/form-data; boundary=${B}`;
  return [
    ['cut in the file', multipart, field('_csrf', csrf) + fileHead(file, type) + 'media,acc'],
    ['cut in a field', multipart, field('_csrf', csrf).slice(0, -10)],
    ['cut in a part header', multipart, `--${B}\r\nContent-Disposition: form-da`],
    ['cut after a part', multipart, field('_csrf', csrf)],
    ['no boundary parameter', 'multipart/form-data', field('_csrf', csrf)],
    ['no boundary in the body', multipart, 'not a multipart body'],
  ];
}

describeEachDialect('multipart bodies cut short', (get) => {
  let co: SeededCompany;

  test('setup', async () => {
    co = await seedCompany(get());
  });

  test('the import check answers 400 on its own form, naming the problem', async () => {
    const t = get();
    const u = await userIn(t, co.companyId, 'editor');
    const b = browser(t, '192.0.2.31');
    assert.equal((await signIn(b, u.email, u.password)).status, 303);
    const csrf = hidden((await b.get('/dashboard/import')).body, '_csrf');
    for (const [what, contentType, payload] of unreadable(csrf, 'file', 'text/csv')) {
      const res = await sendRaw(t, b, '/dashboard/import/check', {
        'content-type': contentType,
        payload,
        ip: '192.0.2.31',
      });
      assert.equal(res.status, 400, `${what}: ${res.body.slice(0, 300)}`);
      // The import page itself, in the dashboard's layout, with the refusal by the file field.
      assert.match(res.body, /<h1 id="import-title">Import posts<\/h1>/, what);
      assert.match(res.body, /id="import-file-error" role="alert"/, what);
      assert.match(res.body, /The file did not arrive whole\. Choose it and send it again\./, what);
      assert.doesNotMatch(res.body, /Something went wrong/, what);
    }
    // A whole form still goes through.
    const whole = await sendRaw(t, b, '/dashboard/import/check', {
      'content-type': `multipart/form-data; boundary=${B}`,
      payload: field('_csrf', csrf) + fileHead('file', 'text/csv') + 'x\r\n' + `--${B}--\r\n`,
      ip: '192.0.2.31',
    });
    assert.notEqual(whole.status, 500, whole.body.slice(0, 300));
    assert.doesNotMatch(whole.body, /did not arrive whole/);
  });

  test('a signed-out visitor is sent to sign in before the body is read', async () => {
    const t = get();
    const res = await sendRaw(t, browser(t), '/dashboard/import/check', {
      'content-type': `multipart/form-data; boundary=${B}`,
      payload: `--${B}\r\nContent-Disposition: form-da`,
    });
    assert.equal(res.status, 303);
    assert.match(res.location ?? '', /\/dashboard\/sign-in/);
  });

  test("the workers' report and proof forms answer 400 on the workers' error page", async () => {
    const t = get();
    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Cut', timezone: 'UTC' });
    const b = browser(t, '198.51.100.31');
    const csrf = await signedInAt(b, worker.token);
    for (const form of ['report', 'proof']) {
      const url = `/dashboard/worker/tasks/tsk_cut/${form}`;
      for (const [what, contentType, payload] of unreadable(csrf, 'screenshot', 'image/png')) {
        const res = await sendRaw(t, b, url, { 'content-type': contentType, payload });
        assert.equal(res.status, 400, `${form}, ${what}: ${res.body.slice(0, 300)}`);
        assert.match(res.body, /The form did not arrive whole/, `${form}, ${what}`);
      }
    }
  });
});
