// The commands that only read result codes (check, explain): a bundle of their own (dist/cliCodes.js,
// see esbuild.mjs), so that they start without the client, undici or the sandbox.
import { runCheckCommand } from './check';
import { runExplainCommand } from './explain';
import { withUsage, type CliIo } from './io';

export type CodeCommand = 'check' | 'explain';

export function runCodeCommand(command: CodeCommand, rest: string[], io: CliIo): Promise<number> {
  return withUsage(command, io, () => (command === 'check' ? runCheckCommand(rest, io) : runExplainCommand(rest, io)));
}
