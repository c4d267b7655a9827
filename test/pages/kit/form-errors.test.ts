// Form errors in plain words (pages/kit/form-errors.ts): every broken rule at once, one message a
// control, named as the form labels it, in the form's order, never a JSON pointer.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import { fieldError, formCheck } from '../../../src/pages/kit/form-errors.ts';
import { compileValidator, validationError } from '../../../src/http/validation.ts';
import { CreateAccountBody } from '../../../src/modules/accounts/index.ts';
import { CreateTagBody } from '../../../src/modules/tags/index.ts';
import { StringEnum } from '../../../src/schemas/common.ts';

const accountFields = {
  platform: { label: 'Platform', id: 'a-platform' },
  username: { label: 'Username', id: 'a-username' },
  displayName: { label: 'Display name', id: 'a-display' },
  bio: { label: 'Bio', id: 'a-bio' },
  profilePictureUrl: { label: 'Profile picture URL', id: 'a-picture' },
  bioUrl: { label: 'Bio link', id: 'a-bio-url' },
  'warmup.searchTerms': {
    label: 'Warm-up search terms',
    field: 'searchTerms',
    id: 'a-terms',
    item: 'term',
  },
};
const checkAccount = formCheck(CreateAccountBody, accountFields);

const good = {
  platform: 'platformA',
  username: 'made_here',
  displayName: 'Made Here',
  bio: 'Made in the dashboard',
  profilePictureUrl: 'https://example.com/me.png',
  warmup: { searchTerms: ['cooking'] },
};

describe('form errors in plain words', () => {
  test('a valid form passes with its value', () => {
    const checked = checkAccount(structuredClone(good));
    assert.equal(checked.ok, true);
    assert.deepEqual(checked.ok && checked.value, good);
  });

  test('every field’s error at once, in the form’s order, named by its label', () => {
    const checked = checkAccount({
      platform: 'platformC',
      username: `@${'a'.repeat(40)}`,
      displayName: '',
      bio: 'b'.repeat(230),
      profilePictureUrl: 'ftp://example.com/me.png',
      bioUrl: 'not a link',
      warmup: { searchTerms: ['a', 'b', 'c', 'd', 'e', 'f'.repeat(101)] },
    });
    assert.equal(checked.ok, false);
    const errors = checked.ok ? [] : checked.errors;
    assert.deepEqual(
      errors.map((e) => [e.field, e.id]),
      [
        ['platform', 'a-platform'],
        ['username', 'a-username'],
        ['displayName', 'a-display'],
        ['bio', 'a-bio'],
        ['profilePictureUrl', 'a-picture'],
        ['bioUrl', 'a-bio-url'],
        ['searchTerms', 'a-terms'],
      ],
    );
    const byField = Object.fromEntries(errors.map((e) => [e.field, e.message]));
    assert.equal(byField.platform, 'Platform: must be one of platformA, platformB');
    // Both rules a username breaks, in one message.
    assert.equal(
      byField.username,
      'Username: at most 30 characters (this has 41); must contain only letters, digits, "." and "_" (no "@")',
    );
    assert.equal(byField.displayName, 'Display name: required');
    assert.equal(byField.bio, 'Bio: at most 220 characters (this has 230)');
    // A link that breaks the format and the http(s) rule gets one sentence.
    assert.equal(byField.profilePictureUrl, 'Profile picture URL: must be an http or https URL');
    // The list's own rule, and the entry that breaks its item rule, by number.
    assert.equal(
      byField.searchTerms,
      'Warm-up search terms: at most 5 (you entered 6); term 6: at most 100 characters (this has 101)',
    );
    for (const e of errors) assert.doesNotMatch(e.message, /\/\w+|must have|instance/);
  });

  test('a missing or empty field says only that it is required', () => {
    const check = formCheck(CreateTagBody, { name: 'Name', color: 'Color' });
    const empty = check({ name: '' });
    assert.deepEqual(empty.ok ? null : empty.errors, [
      { field: 'name', id: 'name', message: 'Name: required' },
    ]);
    const missing = check({});
    assert.deepEqual(missing.ok ? null : missing.errors, [
      { field: 'name', id: 'name', message: 'Name: required' },
    ]);
    const blank = check({ name: '   ' });
    assert.deepEqual(blank.ok ? null : blank.errors.map((e) => e.message), [
      'Name: must contain a visible character',
    ]);
    // An empty link is missing, not a badly formed one.
    const noPicture = checkAccount({ ...good, profilePictureUrl: '' });
    assert.deepEqual(noPicture.ok ? null : noPicture.errors.map((e) => e.message), [
      'Profile picture URL: required',
    ]);
    const none = checkAccount({ ...good, warmup: { searchTerms: [] } });
    assert.deepEqual(none.ok ? null : none.errors.map((e) => e.message), [
      'Warm-up search terms: at least 1 (you entered none)',
    ]);
  });

  test('entries of a list, counts with separators, own words per keyword', () => {
    const check = formCheck(
      Type.Object({
        caption: Type.String({ maxLength: 2200 }),
        hashtags: Type.Array(Type.String({ minLength: 2 }), { uniqueItems: true }),
        priority: Type.Integer({ minimum: 0, maximum: 100 }),
        kind: StringEnum(['video', 'slides']),
      }),
      {
        caption: 'Caption',
        hashtags: { label: 'Hashtags', item: 'hashtag' },
        priority: 'Priority',
        kind: { label: 'Kind', messages: { enum: 'choose video or slides' } },
      },
    );
    const checked = check({
      caption: 'x'.repeat(2201),
      hashtags: ['a', 'ok', 'b'],
      priority: 101,
      kind: 'story',
    });
    assert.deepEqual(checked.ok ? null : checked.errors.map((e) => e.message), [
      'Caption: at most 2,200 characters (this has 2,201)',
      'Hashtags, hashtag 1: at least 2 characters (this has 1); hashtag 3: at least 2 characters (this has 1)',
      'Priority: at most 100',
      'Kind: choose video or slides',
    ]);
    const wrongType = check({ caption: ['a', 'b'], hashtags: [], priority: 1.5, kind: 'video' });
    assert.deepEqual(wrongType.ok ? null : wrongType.errors.map((e) => e.message), [
      'Caption: must be a single value',
      'Priority: must be a whole number',
    ]);
  });

  test('a field the form did not label is named by its own name', () => {
    const check = formCheck(Type.Object({ a: Type.String() }, { additionalProperties: false }), {
      a: 'A',
    });
    const checked = check({ a: 'x', extra: 1 });
    assert.deepEqual(checked.ok ? null : checked.errors, [
      { field: 'extra', id: 'extra', message: 'extra: is not a field of this form' },
    ]);
  });

  test('fieldError: an error of the service, or of the whole form', () => {
    assert.deepEqual(fieldError('name', 'Taken.', 'tag-name'), {
      field: 'name',
      id: 'tag-name',
      message: 'Taken.',
    });
    assert.deepEqual(fieldError('', 'Plan full.', ''), {
      field: '',
      id: '',
      message: 'Plan full.',
    });
  });

  test('the API keeps its own wording: one error, named by JSON pointer', () => {
    const validate = compileValidator(CreateAccountBody, 'body');
    const body = { ...good, bio: '', warmup: { searchTerms: ['a', 'b', 'c', 'd', 'e', 'f'] } };
    assert.equal(validate(body), false);
    assert.equal(validate.errors?.length, 1);
    assert.equal(
      validationError(validate.errors ?? [], 'body').message,
      '/bio must not be empty (got "")',
    );
  });
});
