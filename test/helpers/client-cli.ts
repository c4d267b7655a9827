// `slotline-client` run in this process against a listening service, its output captured.
import { runClientCli } from '../../sdk/src/cli/run.ts';
import type { CliIo } from '../../sdk/src/cli/shared.ts';

export interface ClientRun {
  code: number;
  out: string;
  err: string;
}

export async function clientCli(env: Record<string, string>, args: string[]): Promise<ClientRun> {
  let out = '';
  let err = '';
  const io: CliIo = {
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    errIsTty: false,
    env,
  };
  const code = await runClientCli(args, io);
  return { code, out, err };
}
