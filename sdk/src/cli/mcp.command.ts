// `slotline-client mcp`: the service's MCP server over stdio, for desktop agents that
// start a local command (sdk/src/mcp/local-server.ts). stdout carries the protocol and
// nothing else; what goes wrong is said on stderr. A bad key or a service that does not
// answer does not stop it: the agent could only tell "connection closed", so the problem
// is said once on stderr and in every call's answer instead.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { serveLocal } from '../mcp/local-server.ts';
import { listOption, stringOption, type CommandContext } from './shared.ts';

export const mcpCommand = {
  options: {
    'media-dir': { type: 'string', multiple: true } as const,
  },
  help: `Usage: slotline-client mcp [--media-dir <dir> ...] [--url <url>] [--key <key>]

Serves the Slotline MCP server over stdio, for desktop agents (Claude Desktop, IDEs and
the like) that start a local command. The tools, resources and prompts are the service's
own (at <url>/mcp), listed and called with the API key given, so the key's scopes decide
which tools the agent sees. uploadMedia also takes filePath, a video or image on this
machine, uploaded with the signed upload flow.

Options:
  --media-dir <dir>     Upload local files only from this folder (repeatable); by
                        default any video or image file the user can read
  --url, --key          The service and a company API key (or SLOTLINE_URL, SLOTLINE_KEY)

An agent's configuration, for example:
  { "command": "npx", "args": ["slotline-client", "mcp"],
    "env": { "SLOTLINE_URL": "https://slotline.example.com", "SLOTLINE_KEY": "sl_..." } }
`,
  async run({ api, values, io }: CommandContext): Promise<number> {
    const baseUrl = (stringOption(values, 'url') ?? io.env.SLOTLINE_URL) as string;
    const apiKey = (stringOption(values, 'key') ?? io.env.SLOTLINE_KEY) as string;
    io.err(`slotline-client mcp: serving ${baseUrl}/mcp over stdio\n`);
    const transport = new StdioServerTransport();
    // An agent stops the server by closing its stdin, which the SDK's stdio transport does
    // not watch: without this the process ran out of work mid-await and exited with 13.
    process.stdin.once('end', () => void transport.close());
    await serveLocal(transport, {
      baseUrl,
      apiKey,
      api,
      mediaDirs: listOption(values, 'media-dir'),
      // The agent sees the problem in its tool results; whoever reads its logs, here.
      onUnavailable: (problem) =>
        io.err(
          `slotline-client mcp: ${problem.code}: ${problem.message}. ${problem.hint} ` +
            '(serving anyway: every call answers this until the service takes one)\n',
        ),
    });
    return 0;
  },
};
