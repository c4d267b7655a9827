// The import page (dashboard): many posts at once from a spreadsheet saved as CSV, in the
// format `slotline-client import` reads (sdk/README.md). Three steps: choose a file; check
// it (its media fetched, every row checked by the posts service, nothing created) and see
// each row ready or with every problem in plain words; create the ready rows, each under
// its own Idempotency-Key, so pressing Create twice or importing the same file again never
// makes a post twice. For the people who may create posts (editors and admins), as the
// composer. The file comes as a multipart form: the parser is this plugin's own, keeping
// at most the file limit, so a longer file arrives cut short and is refused by name.
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { listCompanyAccounts } from '../../modules/accounts/index.ts';
import { listAllTags } from '../../modules/tags/index.ts';
import { principalOf } from './compose.pages.ts';
import {
  IMPORT_LIMITS,
  exampleCsv,
  openTicket,
  readSentFile,
  sealTicket,
  type SentFile,
} from './import-file.ts';
import { unreadableMultipart } from './forms.ts';
import { checkImport, createImport } from './import-rows.ts';
import type { RowView } from './import-view.ts';
import { workspaceExamples } from './import-workspace.ts';
import { page } from './layout.ts';
import { actorOf, checkCsrf, userOf } from './session.ts';

/** The form's parts: its CSRF token and the file, nothing more. */
const MULTIPART_LIMITS = {
  files: 1,
  fileSize: IMPORT_LIMITS.bytes,
  fields: 4,
  fieldSize: 4 * 1024,
  fieldNameSize: 100,
  parts: 5,
  headerPairs: 100,
};
/** The create form: a ticket holds the file (deflated, sealed), far below this. */
const CREATE_FORM_BYTES = 4 * 1024 * 1024;
const CreateForm = Type.Object({ ticket: Type.Optional(Type.String()) });

/** Refusals of the multipart parser: the form did not arrive as the page sends it. */
const MULTIPART_REFUSALS = new Set([
  'FST_FILES_LIMIT',
  'FST_PARTS_LIMIT',
  'FST_FIELDS_LIMIT',
  'FST_PROTO_VIOLATION',
  'FST_INVALID_MULTIPART_CONTENT_TYPE',
  'FST_INVALID_JSON_FIELD_ERROR',
]);

type Stage = 'choose' | 'check' | 'create';

interface PageData {
  stage: Stage;
  fileError?: string | null;
  fileName?: string;
  rows?: RowView[];
  ticket?: string | null;
  counts?: Record<string, number>;
  skipped?: number;
}

export function importPages(ctx: AppContext) {
  const show = (req: FastifyRequest, reply: FastifyReply, data: PageData) =>
    page(req, reply, 'import.eta', 'Import posts', {
      fileError: null,
      fileName: '',
      rows: [],
      ticket: null,
      counts: {},
      skipped: 0,
      limits: IMPORT_LIMITS,
      ...data,
    });
  const refuse = (req: FastifyRequest, reply: FastifyReply, status: number, message: string) => {
    reply.code(status);
    return show(req, reply, { stage: 'choose', fileError: message });
  };

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const editor = { role: 'editor' as const };

    await app.register(multipart, {
      attachFieldsToBody: 'keyValues',
      throwFileSizeLimit: false,
      limits: MULTIPART_LIMITS,
      onFile: async (part) => {
        const file: SentFile = {
          filename: part.filename,
          bytes: await part.toBuffer(),
          truncated: part.file.truncated,
        };
        (part as unknown as { value: SentFile }).value = file;
      },
    });

    // The file's form is read by the parser above, after the dashboard's session hook (so
    // a signed-out visitor's body is never read): its CSRF token is checked once it is.
    app.addHook('preValidation', async (req) => {
      if (req.routeOptions.config.csrfAfterBody) checkCsrf(req, userOf(req));
    });

    // A form the parser refused or could not read to its end (cut short, no boundary) is the
    // form's problem, told on the form; anything else goes to the dashboard's error page.
    app.setErrorHandler(async (err: FastifyError, req, reply) => {
      const refused = MULTIPART_REFUSALS.has(err.code) || unreadableMultipart(req, err);
      if (!refused || !req.dashboardUser) throw err;
      return refuse(req, reply, 400, 'The file did not arrive whole. Choose it and send it again.');
    });

    app.get('/import', { config: editor }, async (req, reply) =>
      show(req, reply, { stage: 'choose' }),
    );

    app.get('/import/example.csv', { config: editor }, async (req, reply) => {
      const user = userOf(req);
      const [accounts, tags, images] = await Promise.all([
        listCompanyAccounts(ctx.db, user.companyId),
        listAllTags(ctx.db, user.companyId),
        workspaceExamples(ctx, user.companyId, 3),
      ]);
      // One account of each platform where it has both, for the post to two accounts.
      const picked = [
        accounts.find((a) => a.platform === 'platformA') ?? accounts[0],
        accounts.find((a) => a.platform === 'platformB'),
      ].filter((a) => a !== undefined);
      const named = [...new Set(picked)].map((a) => `${a.platform}:@${a.username}`);
      const tag = tags.find((t) => !t.archived)?.name ?? null;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="slotline-import-example.csv"')
        .header('cache-control', 'no-store')
        .send(exampleCsv({ accounts: named, tag, images }));
    });

    app.post(
      '/import/check',
      { config: { ...editor, csrfAfterBody: true }, bodyLimit: IMPORT_LIMITS.bytes + 64 * 1024 },
      async (req, reply) => {
        const user = userOf(req);
        const body = (req.body ?? {}) as Record<string, unknown>;
        const sent = body.file;
        const file = readSentFile(isSentFile(sent) ? sent : undefined);
        if (!file.ok) return refuse(req, reply, file.status, file.message);
        const principal = await principalOf(ctx, user.companyId);
        const outcome = await checkImport(ctx, principal, file, req.log);
        if (!outcome.ok) {
          return refuse(
            req,
            reply,
            400,
            `“${file.fileName}” names ${outcome.media} different media; an import fetches at most ${IMPORT_LIMITS.media}. Split it into smaller files.`,
          );
        }
        const { rows, ready, media } = outcome.checked;
        const ticket =
          ready.length > 0
            ? sealTicket(ctx.sealer, ctx.clock.now(), {
                companyId: user.companyId,
                userId: user.userId,
                fileName: file.fileName,
                csv: file.text,
                media,
                ready,
                skipped: rows.length - ready.length,
              })
            : null;
        return show(req, reply, {
          stage: 'check',
          fileName: file.fileName,
          rows,
          ticket,
          counts: countsOf(rows),
        });
      },
    );

    app.post(
      '/import/create',
      { config: editor, bodyLimit: CREATE_FORM_BYTES, schema: { body: CreateForm } },
      async (req, reply) => {
        const user = userOf(req);
        const opened = openTicket(ctx.sealer, req.body.ticket ?? '', ctx.clock.now(), user);
        if (!opened.ok) {
          return refuse(
            req,
            reply,
            400,
            opened.expired
              ? 'This check is more than an hour old. Choose the file again to check it afresh.'
              : 'This import could not be read. Choose the file again to check it.',
          );
        }
        const { ticket } = opened;
        const principal = await principalOf(ctx, user.companyId);
        const done = await createImport(ctx, principal, ticket, actorOf(user));
        return show(req, reply, {
          stage: 'create',
          fileName: ticket.fileName,
          rows: done.rows,
          counts: countsOf(done.rows),
          skipped: ticket.skipped,
        });
      },
    );
  };
}

function isSentFile(value: unknown): value is SentFile {
  return typeof value === 'object' && value !== null && Buffer.isBuffer((value as SentFile).bytes);
}

function countsOf(rows: readonly RowView[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of rows) counts[r.state] = (counts[r.state] ?? 0) + 1;
  return counts;
}
