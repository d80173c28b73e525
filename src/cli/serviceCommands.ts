// The commands that talk to the service (ip, org, batch, token, send, test, connections, usage): a bundle of
// their own (dist/cliService.js, see esbuild.mjs) with the client and undici, loaded by main.ts only
// when one of them runs.
import { runBatchCommand } from './batch';
import { runConnectionsCommand } from './connectionsCommand';
import { withUsage, type CliIo } from './io';
import { runLookupCommand } from './lookups';
import { runSendCommand } from './send';
import { runTestCommand } from './test';
import { runToken } from './token';
import { runUsageCommand } from './usage';

export type ServiceCommand = 'ip' | 'org' | 'batch' | 'token' | 'send' | 'test' | 'connections' | 'usage';

const RUN: Record<ServiceCommand, (rest: string[], io: CliIo) => Promise<number>> = {
  ip: (rest, io) => runLookupCommand('ip', rest, io),
  org: (rest, io) => runLookupCommand('org', rest, io),
  batch: runBatchCommand,
  token: runToken,
  send: runSendCommand,
  test: runTestCommand,
  connections: runConnectionsCommand,
  usage: runUsageCommand,
};

export function runServiceCommand(command: ServiceCommand, rest: string[], io: CliIo): Promise<number> {
  return withUsage(command, io, () => RUN[command](rest, io));
}
