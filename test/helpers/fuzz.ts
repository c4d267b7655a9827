// fast-check arbitraries for the mutation model of scripts/fuzz-mutations.ts, shared by
// the crash property (test/media/probe-fuzz.test.ts) and the differential one
// (test/media/probe-decode.test.ts).
import fc from 'fast-check';
import { EDGE_DELTAS, EDGE_U32, EDGE_U64 } from '../../scripts/fuzz-mutations.ts';
import type { Mutation } from '../../scripts/fuzz-mutations.ts';

const u32 = fc.oneof(fc.constantFrom(...EDGE_U32), fc.maxSafeNat());
const position = fc.nat();

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('flip' as const), at: position, bit: fc.nat(7) }),
  fc.record({ op: fc.constant('byte' as const), at: position, value: fc.nat(255) }),
  fc.record({ op: fc.constant('size' as const), box: fc.nat(), value: u32 }),
  fc.record({
    op: fc.constant('largesize' as const),
    box: fc.nat(),
    value: fc.oneof(fc.constantFrom(...EDGE_U64), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n })),
  }),
  fc.record({ op: fc.constant('count' as const), box: fc.nat(), field: fc.nat(2), value: u32 }),
  fc.record({ op: fc.constant('truncate' as const), at: position }),
  fc.record({
    op: fc.constant('duplicate' as const),
    at: position,
    length: fc.nat(4095),
    to: position,
  }),
  fc.record({ op: fc.constant('remove' as const), at: position, length: fc.nat(4095) }),
  fc.record({ op: fc.constant('nest' as const), box: fc.nat(), depth: fc.nat(39) }),
  fc.record({
    op: fc.constant('entry' as const),
    box: fc.nat(),
    index: fc.nat(),
    value: fc.oneof(u32, fc.nat(300)),
    delta: fc.constantFrom(...EDGE_DELTAS),
  }),
);
