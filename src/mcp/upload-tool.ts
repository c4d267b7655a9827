// The upload tool: what an agent uses instead of the signed upload flow (create, PUT the
// bytes, complete), which needs a byte stream no tool call carries. It creates a remote
// upload (the service fetches the URL itself, under the same rules as POST /v2/uploads)
// and answers once the upload is ready. The local server (`slotline-client mcp`) adds a
// file path to the same tool.
import type { JsonSchema } from './schema-inline.ts';
import { ArgumentError, type RestAnswer, type RestRequest } from './tool-call.ts';
import type { ToolSpec } from './tool-catalog.ts';

export const UPLOAD_TOOL = 'uploadMedia';

const KIND_BY_EXTENSION: Record<string, 'video' | 'image'> = {
  mp4: 'video',
  mov: 'video',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  webp: 'image',
  heic: 'image',
};

/** How long the tool waits for a pending upload to become ready, at most. */
const WAIT_LIMIT_SECONDS = 300;
const POLL_MS = 500;

/** The upload tool, its output the API's Upload (as GET /v2/uploads/{uploadId} answers). */
export function uploadToolSpec(uploadSchema: JsonSchema | undefined): ToolSpec {
  return {
    name: UPLOAD_TOOL,
    title: 'Upload a video or image',
    description:
      'Uploads a video or image from a public http(s) URL (the service downloads it) and ' +
      'answers once it is ready to use in a post, with its uploadId. Videos are checked for ' +
      'real (container, codecs, size, duration, dimensions, frame rate) and refused with ' +
      'invalid_media_specs, file_too_large or unsupported_media_type when outside the rules ' +
      '(resource slotline://rules/media). Takes the place of createUpload and completeUpload.' +
      '\n\nRequires scope `posts:write`.',
    inputSchema: {
      type: 'object',
      properties: {
        sourceUrl: {
          type: 'string',
          format: 'uri',
          maxLength: 2048,
          description: 'A public http(s) URL of the file',
        },
        kind: {
          type: 'string',
          enum: ['video', 'image'],
          description: 'Defaults from the file extension (.mp4 and .mov are videos)',
        },
        filename: {
          type: 'string',
          minLength: 1,
          maxLength: 255,
          description: 'The name to keep; defaults from the URL',
        },
      },
      required: ['sourceUrl'],
      additionalProperties: false,
    },
    ...(uploadSchema?.type === 'object'
      ? { outputSchema: uploadSchema as JsonSchema & { type: 'object' } }
      : {}),
    annotations: {
      title: 'Upload a video or image',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
    scopes: ['posts:write'],
  };
}

/** The kind a file name or URL implies by its extension, if any. */
export function kindOfName(name: string): 'video' | 'image' | undefined {
  const ext = /\.([a-z0-9]+)$/i.exec(name.split(/[?#]/)[0] ?? '')?.[1]?.toLowerCase();
  return ext ? KIND_BY_EXTENSION[ext] : undefined;
}

type Send = (request: RestRequest) => Promise<RestAnswer>;

/** Runs the tool: the REST answer of the last call it made (an error, or the ready upload). */
export async function runUploadTool(
  send: Send,
  args: Record<string, unknown> | undefined,
): Promise<RestAnswer> {
  const { sourceUrl, kind, filename, ...rest } = args ?? {};
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) {
    throw new ArgumentError(
      `/${unknown} is not an argument of this tool`,
      'Pass sourceUrl, and kind or filename when the URL does not end in a file extension.',
    );
  }
  if (typeof sourceUrl !== 'string' || sourceUrl === '') {
    throw new ArgumentError('/sourceUrl is required', 'Pass the public http(s) URL of the file.');
  }
  const path = safePathname(sourceUrl);
  const chosen =
    kind ?? kindOfName(typeof filename === 'string' ? filename : '') ?? kindOfName(path);
  if (chosen === undefined) {
    throw new ArgumentError(
      '/kind is required when the URL names no .mp4, .mov, .png, .jpg, .jpeg, .webp or .heic file',
      'Pass kind "video" or "image".',
    );
  }
  const created = await send({
    method: 'POST',
    url: '/v2/uploads',
    headers: { 'content-type': 'application/json' },
    body: { kind: chosen, sourceUrl, ...(filename === undefined ? {} : { filename }) },
  });
  if (created.status >= 400) return created;
  const { uploadId } = JSON.parse(created.body) as { uploadId: string };
  const read = () =>
    send({ method: 'GET', url: `/v2/uploads/${encodeURIComponent(uploadId)}`, headers: {} });
  let upload = await read();
  const deadline = Date.now() + WAIT_LIMIT_SECONDS * 1000;
  while (upload.status === 200 && isPending(upload.body) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    upload = await read();
  }
  return upload;
}

function isPending(body: string): boolean {
  return (JSON.parse(body) as { status?: string }).status === 'pending';
}

function safePathname(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
