// The pure parts of `slotline-client import` and `export` output: the import report's
// lines and summary, and the analytics file's caption start and engagement rate.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { csvReport, summary } from '../../sdk/src/cli/import.command.ts';
import { captionStart, engagementRate } from '../../sdk/src/cli/export-rows.ts';

describe('reports and export cells', () => {
  test('the report: one line per row and problem; the summary counts statuses', () => {
    const results = [
      { row: 2, status: 'created' as const, postId: 'pst_1', problems: [] },
      {
        row: 3,
        status: 'invalid' as const,
        problems: [
          { code: 'tag_not_found', message: 'tags: no content tag is named "X", y', hint: 'H' },
          { code: 'account_not_found', message: 'accounts: no account is @c', hint: 'I' },
        ],
      },
      { row: 4, status: 'existing' as const, postId: 'pst_2', problems: [] },
    ];
    assert.equal(
      csvReport(results),
      'row,status,postId,code,message,hint\n' +
        '2,created,pst_1,,,\n' +
        '3,invalid,,tag_not_found,"tags: no content tag is named ""X"", y",H\n' +
        '3,invalid,,account_not_found,accounts: no account is @c,I\n' +
        '4,existing,pst_2,,,\n',
    );
    assert.equal(summary(results), '1 created, 1 existing, 1 invalid');
    assert.equal(summary([]), 'no rows to import');
  });

  test('caption start and engagement rate', () => {
    assert.equal(captionStart('Line one\n\nline  two'), 'Line one line two');
    assert.equal(captionStart(null), '');
    assert.equal(captionStart('😀'.repeat(70)), `${'😀'.repeat(60)}…`);
    const figures = { views: 8, likes: 1, comments: 0, shares: 0, saves: 0 };
    assert.equal(engagementRate(figures), 12.5);
    assert.equal(engagementRate({ ...figures, views: 3 }), 33.33);
    assert.equal(engagementRate({ ...figures, views: 0 }), 0);
  });
});
