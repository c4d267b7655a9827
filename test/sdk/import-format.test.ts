// The posts import format of the SDK (sdk/src/import/): the header, rows numbered as a
// spreadsheet shows them, each column's reading, lookups of accounts and tags, the exact
// create body, and the Idempotency-Key of each row.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  ImportFileError,
  buildBody,
  importKey,
  importKeys,
  readBoolean,
  readHeader,
  readImportCsv,
  readInteger,
  readRow,
  resolveAccount,
  resolveTag,
  splitHashtags,
  splitList,
  type AccountEntry,
  type CsvRow,
  type Lookups,
} from '../../sdk/src/import/index.ts';

const row = (cells: CsvRow['cells'], n = 2): CsvRow => ({ row: n, cells, problems: [] });

const ACCOUNTS: AccountEntry[] = [
  { accountId: 'acc_a1', username: 'Anna', platform: 'platformA' },
  { accountId: 'acc_b1', username: 'anna', platform: 'platformB' },
  { accountId: 'acc_a2', username: 'bob', platform: 'platformA' },
];
const TAGS = [
  { name: 'Launch', contentGroupId: 'tag:tag_1' },
  { name: 'Spring sale', contentGroupId: 'tag:tag_2' },
];
const lookups: Lookups = {
  accounts: ACCOUNTS,
  tags: TAGS,
  upload: (entry) =>
    entry.includes('missing')
      ? {
          code: 'file_not_found',
          field: 'media',
          message: `media ${entry}: no such file`,
          hint: 'Paths are relative to the folder of the CSV file.',
        }
      : `upl_${entry.replace(/\W/g, '')}`,
};

describe('the import file', () => {
  test('the header: any letter case, unknown and repeated names refused by name', () => {
    assert.deepEqual(readHeader([' MEDIA ', 'Accounts', 'skipapproval']), [
      'media',
      'accounts',
      'skipApproval',
    ]);
    assert.throws(
      () => readHeader(['media', 'accounts', 'Title', 'when']),
      (err: Error) =>
        err instanceof ImportFileError &&
        /^unknown columns Title, when: the columns are /.test(err.message),
    );
    assert.throws(() => readHeader(['media', 'accounts', 'Media']), /column media appears twice/);
    assert.throws(() => readHeader(['caption', 'media']), /the header has no accounts column/);
  });

  test('rows keep a spreadsheet’s numbers: blank rows counted, quoted line breaks inside', () => {
    const text =
      '\uFEFFmedia,accounts,caption\r\n' +
      'a.png,@bob,"one\r\nline ""two"""\r\n' +
      '\r\n' +
      ',,\r\n' +
      'b.png,@bob,three\r\n' +
      'c.png,@bob,four,extra\r\n' +
      'd.png,@bob\r\n';
    const { columns, rows } = readImportCsv(text);
    assert.deepEqual(columns, ['media', 'accounts', 'caption']);
    assert.deepEqual(
      rows.map((r) => r.row),
      [2, 5, 6, 7],
    );
    assert.equal(rows[0]!.cells.caption, 'one\r\nline "two"');
    assert.deepEqual(rows[1]!.problems, []);
    assert.equal(rows[2]!.problems[0]!.code, 'invalid_row');
    assert.match(rows[2]!.problems[0]!.message, /4 cells, the header 3/);
    // A short row is read with its missing cells empty.
    assert.deepEqual(rows[3]!.cells, { media: 'd.png', accounts: '@bob' });
    assert.throws(() => readImportCsv(''), /needs a header row/);
    assert.throws(
      () => readImportCsv('media,accounts\n"a.png,@bob\n'),
      (err: Error) => err instanceof ImportFileError && /Quote Not Closed/.test(err.message),
    );
  });

  test('lists, hashtags, booleans and numbers', () => {
    assert.deepEqual(splitList(' a.png | | https://x.test/b.jpg|'), [
      'a.png',
      'https://x.test/b.jpg',
    ]);
    assert.deepEqual(splitList(undefined), []);
    assert.deepEqual(splitHashtags('#one two|#three  ##four'), ['one', 'two', 'three', '#four']);
    for (const yes of ['true', 'YES', '1', ' Yes ']) assert.equal(readBoolean(yes), true);
    for (const no of ['false', 'No', '0', undefined]) assert.equal(readBoolean(no), false);
    assert.equal(readBoolean('maybe'), null);
    assert.equal(readInteger(' 12 '), 12);
    assert.equal(readInteger('-3'), -3);
    for (const bad of ['1.5', 'high', '1e3', '']) assert.equal(readInteger(bad), null);
  });
});

describe('a row', () => {
  test('every column read into the exact create body', () => {
    const draft = readRow(
      row({
        media: 'clip.mp4',
        accounts: 'acc_a2 | platformB:@ANNA | @bob',
        caption: '  Launch day  ',
        hashtags: '#launch|new',
        tags: 'launch|Spring sale',
        priority: '3',
        skipApproval: 'yes',
        notes: 'from the sheet',
        platformBPostFormat: 'Post',
      }),
    );
    assert.deepEqual(draft.problems, []);
    assert.deepEqual(buildBody(draft, lookups), {
      body: {
        media: ['upl_clipmp4'],
        // The account entries in order, as written: the API refuses a repeat itself.
        accountIds: ['acc_a2', 'acc_b1', 'acc_a2'],
        caption: '  Launch day  ',
        hashtags: ['launch', 'new'],
        contentGroupIds: ['tag:tag_1', 'tag:tag_2'],
        priority: 3,
        skipApproval: true,
        notes: 'from the sheet',
        platformBPostFormat: 'post',
      },
      problems: [],
    });
    // Empty optional cells are left out of the body, not sent empty.
    assert.deepEqual(buildBody(readRow(row({ media: 'a.png', accounts: '@bob' })), lookups).body, {
      media: ['upl_apng'],
      accountIds: ['acc_a2'],
    });
  });

  test('each problem of a row is listed with its column; none is thrown', () => {
    const draft = readRow(
      row({
        accounts: 'platformC:@bob',
        priority: 'high',
        skipApproval: 'maybe',
        platformBPostFormat: 'story',
        slideTextY: '40',
      }),
    );
    assert.deepEqual(
      draft.problems.map((p) => [p.code, p.field]),
      [
        ['missing_value', 'media'],
        ['invalid_value', 'accounts'],
        ['invalid_value', 'priority'],
        ['invalid_value', 'skipApproval'],
        ['invalid_value', 'platformBPostFormat'],
        ['invalid_value', 'slideTextY'],
      ],
    );
    assert.equal(draft.problems[2]!.message, "priority: 'high' is not a whole number");
    const lookedUp = buildBody(
      readRow(row({ media: 'a.png|missing.png', accounts: '@anna|@carol|acc_zz', tags: 'Nope' })),
      lookups,
    );
    assert.equal(lookedUp.body, null);
    assert.deepEqual(
      lookedUp.problems.map((p) => [p.code, p.message]),
      [
        ['ambiguous_account', 'accounts: @anna is an account on both platforms'],
        ['account_not_found', 'accounts: no account is @carol'],
        ['account_not_found', 'accounts: no account has the id acc_zz'],
        ['tag_not_found', 'tags: no content tag is named Nope'],
        ['file_not_found', 'media missing.png: no such file'],
      ],
    );
    assert.equal(lookedUp.problems[0]!.hint, 'Write platformA:@anna or platformB:@anna.');
  });

  test('accounts and tags: names in any letter case, a platform when a name is on both', () => {
    assert.equal(resolveAccount({ username: 'BOB' }, ACCOUNTS), 'acc_a2');
    assert.equal(resolveAccount({ username: 'anna', platform: 'platformA' }, ACCOUNTS), 'acc_a1');
    assert.equal(resolveAccount({ id: 'acc_b1' }, ACCOUNTS), 'acc_b1');
    assert.deepEqual(
      (resolveAccount({ username: 'bob', platform: 'platformB' }, ACCOUNTS) as { code: string })
        .code,
      'account_not_found',
    );
    assert.equal(resolveTag('SPRING SALE', TAGS), 'tag:tag_2');
  });

  test('slides as texts: one per media item, at slideTextY, with slideStyle', () => {
    const draft = readRow(
      row({
        media: 'one.png|two.png|three.png',
        accounts: '@bob',
        slides: 'Hook | |Buy now',
        slideTextY: '20.5',
        slideStyle: '{"fontSize":24,"textColor":"yellow"}',
      }),
    );
    assert.deepEqual(draft.problems, []);
    assert.deepEqual(buildBody(draft, lookups).body?.slides, [
      {
        image: 'upl_onepng',
        textElements: [
          { content: 'Hook', style: { fontSize: 24, textColor: 'yellow', positionY: 20.5 } },
        ],
      },
      { image: 'upl_twopng', textElements: [] },
      {
        image: 'upl_threepng',
        textElements: [
          { content: 'Buy now', style: { fontSize: 24, textColor: 'yellow', positionY: 20.5 } },
        ],
      },
    ]);
    const plain = readRow(row({ media: 'one.png|two.png', accounts: '@bob', slides: 'a|b' }));
    assert.deepEqual(plain.slides?.[0]?.textElements[0]?.style, { positionY: 50 });

    const wrong = (cells: CsvRow['cells']) =>
      readRow(row({ media: 'one.png|two.png', accounts: '@bob', ...cells })).problems.map(
        (p) => p.message,
      );
    assert.deepEqual(wrong({ slides: 'a|b|c' }), ['slides: 3 slide texts for 2 media items']);
    assert.deepEqual(wrong({ slides: 'a|b', slideTextY: '101' }), [
      "slideTextY: '101' is not a number from 0 to 100",
    ]);
    assert.deepEqual(wrong({ slides: 'a|b', slideStyle: '{"positionY":3}' }), [
      'slideStyle: give the height of the text in slideTextY, not here',
    ]);
    assert.deepEqual(wrong({ slides: 'a|b', slideStyle: 'bold' }), [
      'slideStyle: is not a JSON object',
    ]);
  });

  test('slides as JSON: SPEC 2.3 slides whose image is a 1-based media position', () => {
    const slides = [
      { image: 2, imageFit: 'fit', textElements: [{ content: 'B', style: { positionY: 10 } }] },
      { image: 1, role: 'cta', textElements: [] },
    ];
    const draft = readRow(
      row({ media: 'one.png|two.png', accounts: '@bob', slides: JSON.stringify(slides) }),
    );
    assert.deepEqual(draft.problems, []);
    assert.deepEqual(buildBody(draft, lookups).body?.slides, [
      { ...slides[0], image: 'upl_twopng' },
      { ...slides[1], image: 'upl_onepng' },
    ]);
    const bad = readRow(
      row({
        media: 'one.png|two.png',
        accounts: '@bob',
        slides: '[{"image":3,"textElements":[]},{"image":"1","textElements":[]}]',
        slideTextY: '10',
      }),
    );
    assert.deepEqual(
      bad.problems.map((p) => p.message),
      [
        'slideTextY: applies to slides given as texts; in JSON slides, give each text its style',
        "slides: slide 1: image must be the position of one of the row's 2 media items (1 to 2)",
        "slides: slide 2: image must be the position of one of the row's 2 media items (1 to 2)",
      ],
    );
    assert.deepEqual(
      readRow(row({ media: 'a.png', accounts: '@bob', slides: '[oops' })).problems.map(
        (p) => p.message,
      ),
      ['slides: starts with [ but is not a JSON array'],
    );
  });
});

describe('the Idempotency-Key of a row', () => {
  const cells = { media: 'a.png', accounts: '@bob', caption: 'Hi' };

  test('the same row of the same file gives the same key, of at most 200 characters', () => {
    const key = importKey('posts.csv', cells, 1);
    assert.match(key, /^import-[0-9a-f]{64}$/);
    assert.equal(key, importKey('posts.csv', { ...cells }, 1));
    // Columns in another order are the same row.
    assert.equal(
      key,
      importKey('posts.csv', { caption: 'Hi', accounts: '@bob', media: 'a.png' }, 1),
    );
    assert.notEqual(key, importKey('other.csv', cells, 1));
    assert.notEqual(key, importKey('posts.csv', { ...cells, caption: 'Hi!' }, 1));
    assert.notEqual(key, importKey('posts.csv', cells, 2));
  });

  test('rows inserted above keep every key; identical rows get one key each', () => {
    const rows = [row(cells, 2), row({ ...cells, caption: 'B' }, 3), row(cells, 4)];
    const keys = importKeys('posts.csv', rows);
    assert.equal(new Set(keys.values()).size, 3);
    const shifted = importKeys('posts.csv', [
      row({ media: 'new.png', accounts: '@bob' }, 2),
      ...rows.map((r) => ({ ...r, row: r.row + 1 })),
    ]);
    assert.equal(shifted.get(3), keys.get(2));
    assert.equal(shifted.get(4), keys.get(3));
    assert.equal(shifted.get(5), keys.get(4));
  });
});

describe('the SDK README’s example file', () => {
  test('reads without a problem into the bodies it describes', async () => {
    const readme = await readFile('sdk/README.md', 'utf8');
    const example = /<!-- import example -->\s*```csv\n([\s\S]*?)```/.exec(readme)?.[1];
    assert.ok(example, 'the README shows an example import file');
    const { rows } = readImportCsv(example);
    const accounts: AccountEntry[] = [
      { accountId: 'acc_1', username: 'bakery_daily', platform: 'platformA' },
      { accountId: 'acc_2', username: 'bakery', platform: 'platformA' },
      { accountId: 'acc_3', username: 'bakery', platform: 'platformB' },
      { accountId: 'acc_01jq3v2m7k', username: 'menu', platform: 'platformB' },
    ];
    const tags = [...TAGS, { name: 'launch', contentGroupId: 'tag:tag_1' }];
    const bodies = rows.map((r) => buildBody(readRow(r), { ...lookups, accounts, tags }));
    assert.deepEqual(
      bodies.flatMap((b) => b.problems),
      [],
    );
    assert.deepEqual(bodies[0]!.body, {
      media: ['upl_clipslaunchmp4'],
      accountIds: ['acc_1'],
      caption: 'Fresh bread, every morning',
      hashtags: ['bread', 'morning'],
      contentGroupIds: ['tag:tag_1'],
      priority: 2,
      skipApproval: true,
    });
    assert.deepEqual(
      bodies.map((b) => b.body?.slides?.length ?? 0),
      [0, 0, 0, 2, 2],
    );
    assert.equal(bodies[1]!.body?.platformBPostFormat, 'post');
  });
});
