// The body of the final response: refused when it carries a content or transfer
// coding (no decompression, so no gzip bombs), refused early when Content-Length is
// over the cap, and otherwise streamed into the sink through a counter that stops at
// the cap whatever Content-Length said (reliability anchors 2.3 step 5).
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { Transform, type Readable } from 'node:stream';
import { RemoteFetchError } from './errors.ts';
import { filenameFrom } from './filename.ts';
import { seconds, type Limits } from './hop.ts';
import { errorCode } from './target.ts';

export interface FetchedInfo {
  /** As the source declared it; never trusted as the media type. */
  contentType: string | null;
  contentLength: number | null;
  finalUrl: string;
  /** From Content-Disposition or the last path segment, sanitised; null when neither helps. */
  filename: string | null;
}

/**
 * Consumes the body. It must settle once the body ends or errors: a failure of the
 * fetch (byte cap, time limit, dropped connection) destroys `body` with the
 * RemoteFetchError, which `fetchToStore` then rejects with.
 */
export type FetchSink<T> = (body: Readable, info: FetchedInfo) => Promise<T>;

/** Checks the final response headers, then streams the body through the byte cap. */
export async function deliver<T>(
  response: IncomingMessage,
  socket: Socket,
  url: URL,
  limits: Limits,
  totalSignal: AbortSignal,
  stopClock: () => void,
  sink: FetchSink<T>,
): Promise<T> {
  if (hasCoding(response.headers['content-encoding'], ['identity'])) {
    throw new RemoteFetchError(
      'unsupported_content_encoding',
      'the source sent a compressed body; serve the file without Content-Encoding',
    );
  }
  // Node decodes chunked only; any other transfer coding would reach the sink encoded.
  if (hasCoding(response.headers['transfer-encoding'], ['identity', 'chunked'])) {
    throw new RemoteFetchError(
      'unsupported_content_encoding',
      'the source sent a transfer coding other than chunked',
    );
  }
  const declared = response.headers['content-length'];
  const contentLength = declared === undefined ? null : Number(declared);
  if (contentLength !== null && contentLength > limits.maxBytes) {
    throw tooLarge(limits.maxBytes);
  }

  let failure: RemoteFetchError | undefined;
  let received = 0;
  const body = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > limits.maxBytes) callback(tooLarge(limits.maxBytes));
      else callback(null, chunk);
    },
  });
  const fail = (error: unknown) => {
    if (failure !== undefined) return;
    failure =
      error instanceof RemoteFetchError
        ? error
        : new RemoteFetchError('source_unreachable', 'the connection to the source failed', {
            detail: errorCode(error),
            cause: error,
          });
    body.destroy(failure);
    response.destroy();
    socket.destroy();
  };
  const onAbort = () => fail(totalSignal.reason);
  if (totalSignal.aborted) onAbort();
  else totalSignal.addEventListener('abort', onAbort, { once: true });
  body.on('error', (error) => {
    if (error instanceof RemoteFetchError) fail(error);
  });
  response.on('error', (cause) =>
    fail(
      new RemoteFetchError(
        'source_unreachable',
        'the source closed the connection before the whole file arrived',
        { detail: errorCode(cause), cause },
      ),
    ),
  );
  response.once('end', stopClock);
  socket.setTimeout(limits.idleTimeoutMs, () =>
    fail(
      new RemoteFetchError(
        'source_timeout',
        `the source sent nothing for ${seconds(limits.idleTimeoutMs)}`,
      ),
    ),
  );
  response.pipe(body);

  const info: FetchedInfo = {
    contentType: response.headers['content-type'] ?? null,
    contentLength,
    finalUrl: url.href,
    filename: filenameFrom(response.headers['content-disposition'], url),
  };
  try {
    const result = await sink(body, info);
    if (failure !== undefined) throw failure;
    return result;
  } catch (error) {
    throw failure ?? error;
  } finally {
    totalSignal.removeEventListener('abort', onAbort);
    socket.setTimeout(0);
    body.destroy();
  }
}

/** True when a coding list names anything outside `allowed`. */
function hasCoding(header: string | undefined, allowed: readonly string[]): boolean {
  if (header === undefined) return false;
  return header
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .some((token) => token !== '' && !allowed.includes(token));
}

function tooLarge(maxBytes: number): RemoteFetchError {
  return new RemoteFetchError(
    'file_too_large',
    `the file at sourceUrl is larger than ${maxBytes} bytes`,
  );
}
