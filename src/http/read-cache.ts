// The read cache of GET routes. A service reads plain data; the route answers
// with it serialized by the route's own response serializer once per data
// version, with holes where the values of each request go (json-template.ts),
// and fills the holes per request. What data is kept is versioned-memo.ts's
// rule: until the data version moves (on PostgreSQL, a commit by another
// process is seen one poll later, pg-data-version.ts); the version is read before the data, so a write racing
// the read leaves a body no later request accepts.
//
// The route's plan says which fields are holes and how each is computed; the
// services stay unaware of bytes and replies, so any other caller can use the
// same plain data.
import type { FastifyReply } from 'fastify';
import type { DbOrTx } from '../db/types.ts';
import { VersionedMemo, type KeyedRead } from '../db/versioned-memo.ts';
import {
  BodyWriter,
  encodeHole,
  makeTemplate,
  templateBytes,
  type JsonTemplate,
} from './json-template.ts';

/** A route's body with every per-request field at its placeholder. */
export interface Skeleton {
  /** The response as the route's 200 schema describes it. */
  body: unknown;
  /** The per-request fields by key, each with the JSON text of its placeholder. */
  holes: Readonly<Record<string, string>>;
  /** How many such fields the body holds. */
  count: number;
}

/** Takes the values of one request's holes, in body order. */
export interface HoleWriter {
  /** The next hole's value. */
  put(value: string | number | null): void;
  /**
   * The next hole's value, made by `make` only when `at` differs from what
   * this hole's value was last made at; its JSON text is kept with the body.
   * For values that repeat across requests: a URL signed for one second, a
   * cursor within one millisecond.
   */
  keep(at: unknown, make: () => string | number | null): void;
  /** The next hole's value, such as a window start, kept as JSON text while it is the same. */
  same(value: string | null): void;
}

/** How a route makes its body from data read once per data version, and fills it per request. */
export interface BodyPlan<D> {
  skeleton(data: D): Skeleton;
  /** Writes the values of the request at `now` into the holes the skeleton left. */
  fill(data: D, now: Date, out: HoleWriter): void;
}

/** A body kept for one read: its data, template and the kept values of its holes. */
interface Body {
  plan: BodyPlan<unknown>;
  data: unknown;
  template: JsonTemplate;
  keptAt: unknown[];
  kept: (Buffer | undefined)[];
}

class Writer extends BodyWriter implements HoleWriter {
  private readonly keptAt: unknown[];
  private readonly kept: (Buffer | undefined)[];

  constructor(body: Body) {
    super(body.template);
    this.keptAt = body.keptAt;
    this.kept = body.kept;
  }

  put(value: string | number | null): void {
    this.write(value);
  }

  keep(at: unknown, make: () => string | number | null): void {
    this.writeKept(at, make);
  }

  same(value: string | null): void {
    this.writeKept(value, value);
  }

  private writeKept(at: unknown, source: string | null | (() => string | number | null)): void {
    const i = this.filled;
    let json = this.kept[i];
    if (json === undefined || this.keptAt[i] !== at) {
      json = encodeHole(typeof source === 'function' ? source() : source);
      this.kept[i] = json;
      this.keptAt[i] = at;
    }
    this.writeJson(json);
  }
}

function filled(body: Body, now: Date): Buffer {
  // A body without holes, such as a last page of tags, is sent as kept.
  const { parts } = body.template;
  if (parts.length === 1) return parts[0] as Buffer;
  const out = new Writer(body);
  body.plan.fill(body.data, now, out);
  return out.finish();
}

/** Bodies kept per database, in bytes, whatever the number of entries. */
const MAX_BYTES = 32 * 1024 * 1024;

const JSON_TYPE = 'application/json; charset=utf-8';

/** Sends a JSON body already serialized, with the headers the serializer's would have. */
function sendJson(reply: FastifyReply, body: Buffer): void {
  reply.header('content-type', JSON_TYPE).send(body);
}

/** The route's serializer for its 200 response. */
function okSerializer(reply: FastifyReply): (payload: unknown) => string {
  const serialize = reply.getSerializationFunction('200');
  if (!serialize) throw new Error('route has no 200 response schema');
  return serialize as (payload: unknown) => string;
}

/**
 * Bodies of one or more GET routes, kept per database. Routes sharing one
 * share its bounds, so their read keys must differ.
 */
export class ReadCache {
  private readonly bodies: VersionedMemo<Body>;

  constructor(maxEntries: number) {
    this.bodies = new VersionedMemo<Body>({
      maxEntries,
      maxBytes: MAX_BYTES,
      sizeOf: (body) => templateBytes(body.template),
    });
  }

  /**
   * Answers with the body `plan` makes of `read`'s data, filled for the
   * request at `now`: in the same turn when a body is kept for the current
   * data, else after reading. Failures reach the route's error handler.
   */
  send<D>(
    reply: FastifyReply,
    db: DbOrTx,
    plan: BodyPlan<D>,
    read: KeyedRead<D>,
    now: Date,
  ): Promise<void> | void {
    const kept = this.bodies.peek(db, read.key);
    if (kept && kept.plan === plan) return sendJson(reply, filled(kept, now));
    return this.bodies
      .compute(db, read.key, async (): Promise<Body> => {
        const data = await read.read();
        const { body, holes, count } = plan.skeleton(data);
        const template = makeTemplate(okSerializer(reply)(body), holes, count);
        return { plan, data, template, keptAt: [], kept: [] };
      })
      .then((body) => sendJson(reply, filled(body, now)));
  }
}
