// Reading a command's arguments, shared by every command: the option parser that refuses credential
// flags, and the codes file of --codes. Nothing here reaches the network, so the light commands
// (check, explain) use it without loading the client (see main.ts).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CodeBook } from '../core/codes/codes';
import { loadCodeBook } from '../core/codes/codesFile';
import { errorMessage } from '../core/errors';
import { closest } from '../core/closest';
import { safeLine, safeText } from '../core/sanitize';
import { OptionError, UsageError } from './io';

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
  const unknown = unknownOption(args, options);
  if (unknown !== undefined) throw new OptionError(unknown);
  try {
    return parseArgs({ args, options, allowPositionals: positionals, strict: true });
  } catch (err) {
    throw new OptionError(parseArgsProblem(err));
  }
}

/** The first word that looks like an option and is none of the command's, with the closest one; never its value. */
function unknownOption(args: readonly string[], options: NonNullable<ParseArgsConfig['options']>): string | undefined {
  const longs = Object.keys(options).map((n) => `--${n}`);
  const shorts = new Map(Object.entries(options).flatMap(([name, o]) => (o.short !== undefined ? [[o.short, name] as const] : [])));
  const takesValue = (name: string): boolean => options[name]?.type === 'string';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') return undefined;
    if (arg.startsWith('--')) {
      const name = arg.slice(2).split('=')[0];
      if (!Object.hasOwn(options, name)) return unknownText(`--${name}`, closest(`--${name}`, longs));
      if (takesValue(name) && !arg.includes('=')) i++;
    } else if (arg.startsWith('-') && arg.length > 1) {
      // A long option written with one dash (-sandbox) is named as such.
      if (arg.length > 2 && Object.hasOwn(options, arg.slice(1).split('=')[0])) return unknownText(arg.split('=')[0], `--${arg.slice(1).split('=')[0]}`);
      for (let c = 1; c < arg.length; c++) {
        const name = shorts.get(arg[c]);
        if (name === undefined) return unknownText(`-${arg[c]}`, arg.length > 2 ? closest(`--${arg.slice(1).split('=')[0]}`, longs) : undefined);
        if (takesValue(name)) {
          if (c === arg.length - 1) i++;
          break;
        }
      }
    }
  }
  return undefined;
}

function unknownText(option: string, suggestion: string | undefined): string {
  return `unknown option ${safeLine(option)}.${suggestion !== undefined ? ` Did you mean ${suggestion}?` : ''}`;
}

/** Node's parseArgs message in our words: which option lacks a value or takes none, which argument is one too many. */
function parseArgsProblem(err: unknown): string {
  const code = (err as { code?: string }).code;
  const message = errorMessage(err);
  const option = /'(-{1,2}[^'\s<]+)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option !== undefined) {
    if (/does not take an argument/.test(message)) return `${option} takes no value.`;
    return `${option} needs a value: ${option} VALUE (a value that starts with "-" as ${option}=VALUE).`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const word = /'([^']*)'/.exec(message)?.[1] ?? '';
    return `unexpected argument "${safeLine(word)}": this command takes options only.`;
  }
  return safeLine(message);
}
