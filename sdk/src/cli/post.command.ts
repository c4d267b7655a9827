// `slotline-client post`: creates (and queues) a post from ready uploads, prints its id and
// status, and with --watch follows it like `watch`.
import { UsageError, listOption, stringOption, type CommandContext } from './shared.ts';
import { watchOptions, watchPost } from './watch.command.ts';

export const postCommand = {
  options: {
    media: { type: 'string', multiple: true },
    account: { type: 'string', multiple: true },
    caption: { type: 'string' },
    'skip-approval': { type: 'boolean' },
    watch: { type: 'boolean' },
    ...watchOptions,
  } as const,
  help: `Usage: slotline-client post --media <uploadId>... --account <accountId>... [options]

Creates a post of ready uploads for the accounts given and prints its id and status.
Repeat --media and --account, or give comma-separated lists.

Options:
  --media <uploadId>        An upload to post (1 to 10, in order)
  --account <accountId>     An account to post to (1 to 50)
  --caption <text>          The caption
  --skip-approval           Queue for posting at once instead of waiting for approval
  --watch                   Then follow the post as \`slotline-client watch\` does
  --interval <s>            With --watch: seconds between checks (default 5)
  --timeout <s>             With --watch: give up after this many seconds (exit 124)
  --json                    Print the post as one line of JSON (then NDJSON with --watch)
  --url <url>, --key <key>  The service and API key (or SLOTLINE_URL, SLOTLINE_KEY)
  -h, --help                Show this help
`,
  async run(context: CommandContext): Promise<number> {
    const { api, values, positionals, io } = context;
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const media = listOption(values, 'media');
    const accountIds = listOption(values, 'account');
    if (media.length === 0) throw new UsageError('give at least one --media <uploadId>');
    if (accountIds.length === 0) throw new UsageError('give at least one --account <accountId>');
    const caption = stringOption(values, 'caption');
    const { data: post } = await api.POST('/v2/posts', {
      body: {
        media,
        accountIds,
        ...(caption !== undefined ? { caption } : {}),
        ...(values['skip-approval'] ? { skipApproval: true } : {}),
      },
    });
    io.out(values.json ? `${JSON.stringify(post)}\n` : `${post!.postId} ${post!.status}\n`);
    if (!values.watch) return 0;
    return watchPost(api, post!.postId, context);
  },
};
