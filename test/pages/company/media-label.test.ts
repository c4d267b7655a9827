// The media's label in the dashboard's lists, from what the API says of a post's media.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  durationText,
  mediaKind,
  mediaKindLabel,
  mediaLabel,
} from '../../../src/pages/company/media-label.ts';

test('a carousel names its slides, a video its length, an image nothing more', () => {
  assert.equal(mediaLabel({ kind: 'image', count: 3 }), 'Carousel · 3 slides');
  assert.equal(mediaLabel({ kind: 'video', count: 1, durationSeconds: 15 }), 'Video · 0:15');
  assert.equal(mediaLabel({ kind: 'image', count: 1 }), 'Image');
});

test('a video whose length is not known yet is just a video', () => {
  assert.equal(mediaLabel({ kind: 'video', count: 1 }), 'Video');
  assert.equal(mediaLabel({ kind: 'video', count: 1, durationSeconds: null }), 'Video');
  assert.equal(mediaLabel({ kind: 'video', count: 1, durationSeconds: Number.NaN }), 'Video');
});

test('lengths read as a player shows them, in whole seconds', () => {
  assert.equal(durationText(0), '0:00');
  assert.equal(durationText(2.002), '0:02');
  assert.equal(durationText(14.6), '0:15');
  assert.equal(durationText(59.5), '1:00');
  assert.equal(durationText(125), '2:05');
  assert.equal(durationText(180), '3:00');
  assert.equal(durationText(3600), '1:00:00');
  assert.equal(durationText(3725), '1:02:05');
  assert.equal(durationText(-3), '0:00');
});

test('the kind: more than one image is a carousel; a video stays a video', () => {
  assert.equal(mediaKind({ kind: 'image', count: 2 }), 'carousel');
  assert.equal(mediaKind({ kind: 'image', count: 1 }), 'image');
  assert.equal(mediaKind({ kind: 'video', count: 1 }), 'video');
  assert.deepEqual(
    [
      mediaKindLabel({ kind: 'image', count: 10 }),
      mediaKindLabel({ kind: 'video', count: 1 }),
      mediaKindLabel({ kind: 'image', count: 1 }),
    ],
    ['Carousel', 'Video', 'Image'],
  );
});
