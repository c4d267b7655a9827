// Protocol-level failures (a malformed request line, an invalid header, headers
// past Node's size limit, a request that took too long) never reach a route:
// Node's HTTP parser rejects them on the socket. They still answer with the SPEC 7
// envelope and a request id, then close the connection, since after a parse
// error the rest of the stream cannot be framed.
import { STATUS_CODES, maxHeaderSize, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../errors.ts';
import { envelope } from './errors.ts';

interface ParserError extends Error {
  code?: string;
}

/** The answer to a parser error: its HTTP status and the error it renders. */
export function clientErrorOf(err: ParserError): { status: number; error: ApiError } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      // 431 is the status HTTP names for this; the code is the catalog's size error.
      return {
        status: 431,
        error: new ApiError(
          'request_too_large',
          `Request line and headers exceed ${maxHeaderSize} bytes`,
          {
            hint: `Keep the URL, query string and headers under ${maxHeaderSize} bytes in all; send large values in a JSON body.`,
          },
        ),
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return {
        status: 408,
        error: new ApiError('request_timeout', 'The request was not received in time'),
      };
    // No code, or one llhttp added later: the generic answer.
    case undefined:
    default:
      return {
        status: 400,
        error: new ApiError('invalid_request', `Malformed HTTP request: ${describe(err)}`, {
          hint: 'Send a well-formed HTTP/1.1 request: method, path and version on the request line, header names of token characters, one Content-Length or chunked body.',
        }),
      };
  }
}

/** What the parser objected to, in words (llhttp's own reason is terse). */
function describe(err: ParserError): string {
  switch (err.code) {
    case 'HPE_INVALID_METHOD':
      return 'the method is not valid';
    case 'HPE_INVALID_URL':
      return 'the request target is not valid';
    case 'HPE_INVALID_VERSION':
    case 'HPE_INVALID_CONSTANT':
      return 'the request line is not "METHOD /path HTTP/1.1"';
    case 'HPE_INVALID_HEADER_TOKEN':
      return 'a header name or value contains characters HTTP does not allow';
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_CONTENT_LENGTH':
      return 'Content-Length is not valid, repeated or combined with Transfer-Encoding';
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
      return 'the chunked body is not valid';
    case 'HPE_CR_EXPECTED':
    case 'HPE_LF_EXPECTED':
      return 'lines must end with CRLF';
    case undefined:
    default: {
      const reason = (err as { reason?: unknown }).reason;
      return typeof reason === 'string' && reason.length > 0
        ? reason
        : 'the request cannot be parsed';
    }
  }
}

/**
 * The server's `clientError` path: answers in the envelope with a fresh request id
 * (also in X-Request-Id) and `Connection: close`, then ends the socket.
 */
export function makeClientErrorHandler(
  nextRequestId: () => string,
  log: (err: Error, requestId: string, status: number) => void,
): (err: ParserError, socket: Socket) => void {
  return (err, socket) => {
    // A reset connection has no one to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const requestId = nextRequestId();
    const { status, error } = clientErrorOf(err);
    log(err, requestId, status);
    const answer = () => {
      if (!socket.writable) return;
      const body = JSON.stringify(envelope(error, requestId));
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
          'Content-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${requestId}\r\n` +
          'Connection: close\r\n\r\n' +
          body,
      );
    };
    // A pipelined request before the bad one may still be answering: the refusal
    // follows its response, in order, and only then is the connection closed.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (inFlight && !inFlight.writableFinished) {
      inFlight.once('finish', answer);
      inFlight.once('close', () => socket.destroySoon());
      return;
    }
    answer();
    socket.destroySoon();
  };
}
