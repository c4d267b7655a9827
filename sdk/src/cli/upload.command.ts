// `slotline-client upload <file | url>`: sends a file (or has the service fetch a URL) and
// prints the ready upload's id, or the upload as JSON.
import { contentTypeOf, uploadFile } from '../upload.ts';
import { progressReporter } from './progress.ts';
import { UsageError, stringOption, type CommandContext } from './shared.ts';

export const uploadCommand = {
  options: {
    kind: { type: 'string' },
    'content-type': { type: 'string' },
  } as const,
  help: `Usage: slotline-client upload <file | http(s) URL> [options]

Uploads a video or image and waits until the service has validated it. A URL is fetched
by the service itself (remote upload). Prints the upload id, or the upload with --json.
Progress goes to stderr: a bar on a terminal, plain lines otherwise.

Options:
  --kind <video|image>      Needed when the file's extension does not tell
  --content-type <type>     Needed when the file's extension does not tell
  --json                    Print the upload as JSON
  --url <url>, --key <key>  The service and API key (or SLOTLINE_URL, SLOTLINE_KEY)
  -h, --help                Show this help
`,
  async run({ api, values, positionals, io }: CommandContext): Promise<number> {
    const [target, ...extra] = positionals;
    if (!target || extra.length > 0) throw new UsageError('give exactly one file or URL');
    const kind = kindOption(stringOption(values, 'kind'));
    const contentType = stringOption(values, 'content-type');
    const common = { ...(kind ? { kind } : {}), ...(contentType ? { contentType } : {}) };
    const remote = /^https?:\/\//i.test(target);
    // Said here as the options to pass, rather than by the library as its own fields.
    const typed = contentType ?? contentTypeOf(target);
    if (remote && !kind && !typed) {
      throw new UsageError(
        `the extension of ${target} does not tell whether it is a video or an image: pass --kind video or --kind image`,
      );
    }
    if (!remote && !typed) {
      throw new UsageError(
        `the extension of ${target} does not tell its content type: pass --content-type (for example video/mp4, video/quicktime, image/png or image/jpeg)`,
      );
    }
    let upload;
    if (remote) {
      upload = await uploadFile(api, { ...common, sourceUrl: target });
    } else {
      const progress = progressReporter(io.err, io.errIsTty);
      try {
        upload = await uploadFile(api, {
          ...common,
          path: target,
          onProgress: progress.onProgress,
        });
      } finally {
        progress.done();
      }
    }
    io.out(values.json ? `${JSON.stringify(upload)}\n` : `${upload.uploadId}\n`);
    return 0;
  },
};

function kindOption(kind: string | undefined): 'video' | 'image' | undefined {
  if (kind === undefined || kind === 'video' || kind === 'image') return kind;
  throw new UsageError(`--kind must be video or image, not '${kind}'`);
}
