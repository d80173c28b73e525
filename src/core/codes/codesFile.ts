// A user's own descriptions of result codes (a JSON file named by --codes, BIZDATA_CODES_FILE or the
// setting bizdata.codes.file; schemas/codes.schema.json). Checked whole before use: every problem
// names the file and the entry, so a typo never silently drops a description.
import type { CodeInfo } from './codeInfo';
import { BUILT_IN, CodeBook } from './codes';
import { errorMessage } from '../errors';
import { readNamedFile } from '../readText';

export class CodesFileError extends Error {}

const ENTRY_KEYS = new Set(['code', 'text', 'action', 'meaning', 'severity', 'status', 'interface']);
const SEVERITIES = ['error', 'warning', 'info'] as const;

/** The catalog with the file's codes added; the built-in one when no file is named. */
export function loadCodeBook(file: string | undefined): CodeBook {
  if (file === undefined || file === '') return BUILT_IN;
  return CodeBook.withUserCodes(parseCodesFile(file, readNamedFile('the codes file', file)));
}

/** The entries of a codes file's text; throws CodesFileError naming the file and the entry. */
export function parseCodesFile(file: string, text: string): CodeInfo[] {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new CodesFileError(`The codes file ${file} is not JSON: ${errorMessage(err)}.`, { cause: err });
  }
  const codes = isRecord(json) ? json.codes : undefined;
  if (!Array.isArray(codes)) {
    throw new CodesFileError(`The codes file ${file} must be an object with a "codes" array, e.g. {"codes": [{"code": "CM021", "text": "…", "action": "…"}]}.`);
  }
  const seen = new Set<string>();
  return codes.map((raw, i) => {
    const where = `The codes file ${file}, entry ${i + 1}`;
    const entry = checkEntry(raw, where);
    if (seen.has(entry.code)) throw new CodesFileError(`${where}: ${entry.code} is described twice; keep one entry per code.`);
    seen.add(entry.code);
    try {
      CodeBook.withUserCodes([entry]);
    } catch (err) {
      throw new CodesFileError(`${where}: ${errorMessage(err)}`, { cause: err });
    }
    return entry;
  });
}

function checkEntry(raw: unknown, where: string): CodeInfo {
  if (!isRecord(raw)) throw new CodesFileError(`${where} must be an object with "code", "text" and "action".`);
  const unknown = Object.keys(raw).find((k) => !ENTRY_KEYS.has(k));
  if (unknown !== undefined) throw new CodesFileError(`${where} has an unknown property "${printable(unknown)}"; allowed: ${[...ENTRY_KEYS].join(', ')}.`);
  const code = raw.code;
  if (typeof code !== 'string' || !/^[A-Za-z0-9_.-]{1,32}$/.test(code)) {
    throw new CodesFileError(`${where}: "code" must be the code as the service writes it (letters, digits, _ . -; up to 32), such as "CM021".`);
  }
  const at = `${where} (${code})`;
  const text = textField(raw.text, 'text', at, true) as string;
  const action = textField(raw.action, 'action', at, true) as string;
  const meaning = textField(raw.meaning, 'meaning', at, false);
  const severity = raw.severity ?? 'error';
  if (typeof severity !== 'string' || !(SEVERITIES as readonly string[]).includes(severity)) throw new CodesFileError(`${at}: "severity" must be one of ${SEVERITIES.join(', ')}.`);
  const status = raw.status;
  if (status !== undefined && !(typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599)) {
    throw new CodesFileError(`${at}: "status" must be an HTTP status from 100 to 599.`);
  }
  const iface = raw.interface ?? (/^\d+$/.test(code) ? 'A' : 'B');
  if (iface !== 'A' && iface !== 'B') throw new CodesFileError(`${at}: "interface" must be "A" or "B".`);
  return {
    code,
    text,
    action,
    meaning: meaning ?? text,
    severity: severity as 'error' | 'warning' | 'info',
    recovery: 'stop',
    interfaceName: iface,
    source: 'user',
    ...(status !== undefined ? { status } : {}),
  };
}

function textField(v: unknown, name: string, at: string, required: boolean): string | undefined {
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || v.trim() === '') return fail(`${at}: "${name}" must be a non-empty text.`);
  if (v.length > 1000) return fail(`${at}: "${name}" is ${v.length} characters long; keep it under 1000.`);
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(v)) return fail(`${at}: "${name}" contains a control or bidirectional character; remove it.`);
  return v;
}

function fail(message: string): never {
  throw new CodesFileError(message);
}

function printable(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, '?').slice(0, 40);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
