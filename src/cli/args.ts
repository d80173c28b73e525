// Reading a command's arguments, shared by every command: the option parser that refuses credential
// flags, and the codes file of --codes. Nothing here reaches the network, so the light commands
// (check, explain) use it without loading the client (see main.ts).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CodeBook } from '../core/codes/codes';
import { loadCodeBook } from '../core/codes/codesFile';
import { errorMessage } from '../core/errors';
import { safeText } from '../core/sanitize';
import { UsageError } from './io';

/** The catalog with the codes file of --codes or BIZDATA_CODES_FILE; a bad file is a usage error naming it. */
export function codesFrom(flag: string | undefined, env: NodeJS.ProcessEnv): CodeBook {
  try {
    return loadCodeBook(flag ?? (env.BIZDATA_CODES_FILE || undefined));
  } catch (err) {
    throw new UsageError(safeText(errorMessage(err)));
  }
}

// Flags people reach for that would put a credential in shell history and the process list.
const CREDENTIAL_FLAG = /^--?(password|passwd|pwd|pass|secret|consumer-?secret|client-?secret|consumer-?key|key|api-?key|user|username|token|access-?token)(=|$)/i;

/** Refuses credential flags before parsing, naming only the flag: its value may be a secret. */
export function refuseCredentialFlags(args: readonly string[]): void {
  for (const a of args) {
    const m = CREDENTIAL_FLAG.exec(a);
    if (m) {
      const flag = a.split('=')[0];
      throw new UsageError(
        `${flag} is not accepted: credentials are never taken from command-line flags, because flags are saved in shell history and visible to other users in the process list.\n` +
          'Set BIZDATA_CONSUMER_KEY and BIZDATA_CONSUMER_SECRET (Interface A) or BIZDATA_USER and BIZDATA_PASSWORD (Interface B) in the environment, or run in a terminal to be asked for them without echo.',
      );
    }
  }
}

export function parse<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O, positionals: boolean) {
  refuseCredentialFlags(args);
  try {
    return parseArgs({ args, options, allowPositionals: positionals, strict: true });
  } catch (err) {
    // parseArgs names the offending option; it never prints option values.
    throw new UsageError(errorMessage(err));
  }
}

