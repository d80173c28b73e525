// The peers' system variables, `{{$name args}}`, as REST Client and httpYac write and compute them:
// `$guid`/`$uuid`, `$randomInt MIN MAX`, `$timestamp [offset unit]`, `$datetime` and
// `$localDatetime` with `rfc1123`, `iso8601` or a quoted Day.js format (the library and plugins both
// peers format with, so the text is theirs), `$dotenv NAME` and `$processEnv NAME`.
// Values from outside the file are the user's to give: `$dotenv` reads only the `.env` beside the
// request file, `$processEnv` only names the user allows, never a BIZDATA_ credential.
import { randomInt, randomUUID } from 'node:crypto';
import dayjs, { type Dayjs, type ManipulateType } from 'dayjs';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);

/** What system variables need from outside the file. */
export interface SystemContext {
  /** The values of the `.env` beside the request file, or why there are none. */
  readonly dotenv?: DotenvValues;
  /** Environment variables the user allows `{{$processEnv NAME}}` to read (CLI `--allow-env NAME`). */
  readonly allowEnv?: ReadonlySet<string>;
  /** The environment they are read from. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** How the user allows a name (the CLI's flag, an editor's setting): completes the refusal. */
  readonly allowEnvHow?: (name: string) => string;
}

export type DotenvValues = { readonly ok: true; readonly path: string; readonly values: Readonly<Record<string, string>> } | { readonly ok: false; readonly path: string; readonly why: string };

/** A system variable written wrong, or a value the user did not allow. */
export class SystemVariableError extends Error {}

export const SYSTEM_VARIABLE_FORMS = [
  '$guid',
  '$uuid',
  '$randomInt MIN MAX',
  '$timestamp [OFFSET UNIT]',
  '$isoTimestamp',
  '$datetime rfc1123|iso8601|"FORMAT" [OFFSET UNIT]',
  '$localDatetime rfc1123|iso8601|"FORMAT" [OFFSET UNIT]',
  '$dotenv NAME',
  '$processEnv NAME',
] as const;

const NAMES: ReadonlySet<string> = new Set(SYSTEM_VARIABLE_FORMS.map((f) => f.split(' ')[0]));
const OFFSET = String.raw`(?:\s+(-?\d+)\s+(\S+))?`;
const RANDOM_INT = /^\$randomInt\s+(-?\d+)\s+(-?\d+)$/;
const TIMESTAMP = new RegExp(`^\\$timestamp${OFFSET}$`);
const DATETIME = new RegExp(`^\\$(datetime|localDatetime)\\s+(rfc1123|iso8601|'[^']+'|"[^"]+")${OFFSET}$`);
const DOTENV = /^\$dotenv\s+(%?)([\w.-]+)$/;
const PROCESS_ENV = /^\$processEnv\s+(%?)(\w+)$/;
/** The units both peers pass to Day.js's add(); `Q` is left out: without a plugin Day.js adds milliseconds for it. */
const UNITS: ReadonlySet<string> = new Set(['y', 'M', 'w', 'd', 'h', 'm', 's', 'ms']);
const CREDENTIAL_ENV = /^BIZDATA_/i;

/** True for a reference that names a system variable (`$…`), well written or not. */
export function isSystemReference(name: string): boolean {
  return name.startsWith('$');
}

/** What is wrong with how a system variable is written (nothing outside the file is read), or undefined. */
export function systemReferenceProblem(name: string): string | undefined {
  try {
    compute(name, { dotenv: { ok: true, path: '', values: {} }, allowEnv: undefined, env: {} }, true);
    return undefined;
  } catch (err) {
    if (err instanceof SystemVariableError) return err.message;
    throw err;
  }
}

/** The value of a system variable; throws SystemVariableError with what to write or allow instead. */
export function systemValue(name: string, ctx: SystemContext): string {
  return compute(name, ctx, false);
}

function compute(name: string, ctx: SystemContext, syntaxOnly: boolean): string {
  const word = name.split(/\s/)[0];
  if (!NAMES.has(word)) {
    throw new SystemVariableError(`{{${name.slice(0, 60)}}} is not a system variable this client knows; use one of ${SYSTEM_VARIABLE_FORMS.map((f) => `{{${f}}}`).join(', ')}.`);
  }
  if (word === '$guid' || word === '$uuid' || word === '$isoTimestamp') {
    if (name !== word) throw new SystemVariableError(`{{${word}}} takes nothing after its name; write {{${word}}}.`);
    return word === '$isoTimestamp' ? new Date().toISOString() : randomUUID();
  }
  if (word === '$randomInt') return randomInteger(name);
  if (word === '$timestamp') {
    const m = TIMESTAMP.exec(name);
    if (!m) throw new SystemVariableError(`Write {{$timestamp}} or {{$timestamp OFFSET UNIT}}, such as {{$timestamp -1 d}}.`);
    return String(shifted(dayjs.utc(), m[1], m[2]).unix());
  }
  if (word === '$datetime' || word === '$localDatetime') return datetime(name, word);
  if (word === '$dotenv') return dotenvValue(name, ctx, syntaxOnly);
  return processEnvValue(name, ctx, syntaxOnly);
}

function randomInteger(name: string): string {
  const m = RANDOM_INT.exec(name);
  if (!m) throw new SystemVariableError('Write {{$randomInt MIN MAX}} with two whole numbers, such as {{$randomInt 1 100}} (MIN included, MAX not).');
  const [min, max] = [Number(m[1]), Number(m[2])];
  // REST Client leaves the reference unreplaced and httpYac swaps the two: the peers disagree, so neither is guessed.
  if (!(min < max)) throw new SystemVariableError(`{{$randomInt ${m[1]} ${m[2]}}}: MIN must be less than MAX (MAX itself is never chosen).`);
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max - min > 2 ** 48 - 1) {
    throw new SystemVariableError(`{{$randomInt ${m[1]} ${m[2]}}}: the range is too wide; keep MAX - MIN below 2^48.`);
  }
  return String(randomInt(min, max));
}

function shifted(date: Dayjs, offset: string | undefined, unit: string | undefined): Dayjs {
  if (offset === undefined || unit === undefined) return date;
  if (!UNITS.has(unit)) {
    const why = unit === 'Q' ? 'the peers add Q as milliseconds, not quarters; write 3 M for a quarter' : `"${unit.slice(0, 10)}" is no unit`;
    throw new SystemVariableError(`The offset unit ${why}. Use one of y, M, w, d, h, m, s, ms (as in "-1 d").`);
  }
  return date.add(Number(offset), unit as ManipulateType);
}

function datetime(name: string, word: '$datetime' | '$localDatetime'): string {
  const m = DATETIME.exec(name);
  if (!m) throw new SystemVariableError(`Write {{${word} rfc1123}}, {{${word} iso8601}} or {{${word} "YYYY-MM-DDTHH:mm:ss"}}, optionally followed by an offset such as 1 d.`);
  const base = word === '$datetime' ? dayjs.utc() : dayjs.utc().local();
  const date = shifted(base, m[3], m[4]);
  const format = m[2];
  if (format === 'rfc1123') return word === '$datetime' ? date.toDate().toUTCString() : date.locale('en').format('ddd, DD MMM YYYY HH:mm:ss ZZ');
  if (format === 'iso8601') return word === '$datetime' ? date.toISOString() : date.format();
  return date.format(format.slice(1, -1));
}

function dotenvValue(name: string, ctx: SystemContext, syntaxOnly: boolean): string {
  const m = DOTENV.exec(name);
  if (!m) throw new SystemVariableError('Write {{$dotenv NAME}}: NAME is a variable of the .env file beside this request file.');
  if (m[1] === '%') throw new SystemVariableError(`{{$dotenv %${m[2]}}} takes the name from a REST Client environment, which this client does not have; write the name itself: {{$dotenv NAME}}.`);
  if (syntaxOnly) return '';
  const dotenv = ctx.dotenv;
  if (!dotenv) throw new SystemVariableError(`{{$dotenv ${m[2]}}} needs the .env file beside the request file, and this request file has no folder (save it first).`);
  if (!dotenv.ok) throw new SystemVariableError(`{{$dotenv ${m[2]}}}: ${dotenv.why}`);
  if (!Object.hasOwn(dotenv.values, m[2])) throw new SystemVariableError(`{{$dotenv ${m[2]}}}: ${dotenv.path} defines no ${m[2]}. Add a line "${m[2]}=value" to it.`);
  return dotenv.values[m[2]];
}

function processEnvValue(name: string, ctx: SystemContext, syntaxOnly: boolean): string {
  const m = PROCESS_ENV.exec(name);
  if (!m) throw new SystemVariableError('Write {{$processEnv NAME}} with the name of one environment variable.');
  if (m[1] === '%') throw new SystemVariableError(`{{$processEnv %${m[2]}}} takes the name from a REST Client environment, which this client does not have; write the name itself: {{$processEnv NAME}}.`);
  const env = m[2];
  if (CREDENTIAL_ENV.test(env)) {
    throw new SystemVariableError(`{{$processEnv ${env}}} is refused: BIZDATA_ variables hold this client's settings and credentials, and a request file never reads them. The client adds the token itself; delete this reference.`);
  }
  if (syntaxOnly) return '';
  if (!ctx.allowEnv?.has(env)) {
    const how = ctx.allowEnvHow?.(env) ?? `allow the name ${env} first`;
    throw new SystemVariableError(`{{$processEnv ${env}}} is refused: a request file may come from someone else, so it reads only environment variables you allow. To send ${env}, ${how}.`);
  }
  const value = ctx.env?.[env];
  // Both peers send '' for an unset variable; an empty value sent by surprise is a wrong request.
  if (value === undefined) throw new SystemVariableError(`{{$processEnv ${env}}}: ${env} is not set in the environment. Set it, or write the value in the file.`);
  return value;
}
