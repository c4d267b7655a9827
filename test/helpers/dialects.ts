// Runs a suite once per database dialect, each with its own fresh test app.
import { after, before, describe } from 'node:test';
import type { Dialect } from '../../src/db/types.ts';
import { DIALECTS } from './databases.ts';
import { createTestApp, type TestApp, type TestAppOptions } from './app.ts';

export function describeEachDialect(
  name: string,
  body: (get: () => TestApp, dialect: Dialect) => void,
  options: TestAppOptions = {},
): void {
  for (const dialect of DIALECTS) {
    describe(`${name} [${dialect}]`, () => {
      let t: TestApp | undefined;
      before(async () => {
        t = await createTestApp(dialect, options);
      });
      after(async () => {
        await t?.close();
      });
      body(() => {
        if (!t) throw new Error('test app not ready');
        return t;
      }, dialect);
    });
  }
}
