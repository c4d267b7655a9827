// `slotline-client`: parses the command line (node:util parseArgs), builds an SDK client
// from --url/--key or SLOTLINE_URL/SLOTLINE_KEY, runs one command and maps what went wrong
// to an exit code and a short message on stderr, never a stack trace.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { createClient } from '../client.ts';
import { SlotlineError } from '../errors.ts';
import { exportCommand } from './export.command.ts';
import { importCommand } from './import.command.ts';
import { mcpCommand } from './mcp.command.ts';
import { postCommand } from './post.command.ts';
import { UsageError, processIo, stringOption, type CliIo, type CommandContext } from './shared.ts';
import { uploadCommand } from './upload.command.ts';
import { watchCommand } from './watch.command.ts';

interface Command {
  options: NonNullable<ParseArgsConfig['options']>;
  help: string;
  run(context: CommandContext): Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  upload: uploadCommand,
  post: postCommand,
  watch: watchCommand,
  import: importCommand,
  export: exportCommand,
  mcp: mcpCommand,
};

const GLOBAL_OPTIONS = {
  url: { type: 'string' },
  key: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const HELP = `Usage: slotline-client <command> [options]

A command line for the Slotline API, built on @slotline/sdk.

Commands:
  upload <file | url>   Upload a video or image and print its id once it is ready
  post                  Create a post from uploads for accounts
  watch <postId>        Follow a post's status until every account is final
  import <posts.csv>    Create one post per row of a CSV file (--dry-run to check it)
  export <what>         Write the posts or their analytics as CSV (posts, analytics)
  mcp                   Serve the Slotline MCP server over stdio, for desktop agents

Options for every command:
  --url <url>           The service (or SLOTLINE_URL)
  --key <key>           A company API key (or SLOTLINE_KEY)
  --json                Machine-readable output
  -h, --help            Help; 'slotline-client <command> --help' for a command's

Exit codes: 0 done, 1 an error (the API's code, message and hint on stderr; for import,
a row with a problem), 2 a bad command line, 124 a watch that timed out.
`;

export async function runClientCli(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help') {
    (name === undefined ? io.err : io.out)(HELP);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`slotline-client: unknown command '${name}'\nRun 'slotline-client --help' for usage.\n`);
    return 2;
  }
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { ...GLOBAL_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      io.out(command.help);
      return 0;
    }
    const baseUrl = stringOption(values, 'url') ?? io.env.SLOTLINE_URL;
    const apiKey = stringOption(values, 'key') ?? io.env.SLOTLINE_KEY;
    if (!baseUrl) throw new UsageError('give the service with --url or SLOTLINE_URL');
    if (!apiKey) throw new UsageError('give an API key with --key or SLOTLINE_KEY');
    const api = createClient({ baseUrl: checkedUrl(baseUrl), apiKey });
    return await command.run({ api, values, positionals, io });
  } catch (err) {
    return report(err, name, io);
  }
}

function checkedUrl(text: string): string {
  try {
    new URL(text);
  } catch {
    throw new UsageError(`'${text}' is not a URL (e.g. https://slotline.example.com)`);
  }
  return text;
}

function report(err: unknown, name: string, io: CliIo): number {
  if (err instanceof UsageError || isParseError(err)) {
    const message = (err as Error).message;
    io.err(`slotline-client: ${message}\nRun 'slotline-client ${name} --help' for usage.\n`);
    return 2;
  }
  if (err instanceof SlotlineError) {
    io.err(`error: ${err.code}: ${err.message}\n`);
    if (err.hint) io.err(`hint: ${err.hint}\n`);
    if (err.requestId) io.err(`request id: ${err.requestId}\n`);
    return 1;
  }
  io.err(`error: ${describe(err)}\n`);
  return 1;
}

function isParseError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/** An error's message and its causes' (fetch hides the network error in `cause`). */
function describe(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  while (current instanceof Error && parts.length < 4) {
    parts.push(current.message);
    current = current.cause;
  }
  if (parts.length === 0) parts.push(String(err));
  return parts.join(': ');
}
