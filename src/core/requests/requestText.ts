// The text of request files below their grammar: the lines (CR, LF and CRLF each end one, as in
// the editor, so line numbers agree with it), the characters a request cannot carry, files that are
// not text at all, and the `{{name}}` references. Pure, so the CLI and the editor read a file alike.

export interface LineSpan {
  /** 0-based line. */
  readonly line: number;
  /** 0-based character columns, end exclusive. */
  readonly start: number;
  readonly end: number;
}

/** A problem of the text itself, at a line; `binary`: the whole file is no request file. */
export interface TextProblem {
  readonly span: LineSpan;
  readonly message: string;
  readonly code: 'binary' | 'character';
}

/** The lines of a text, whichever of CR, LF or CRLF ends them (VS Code splits the same way). */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** A file's bytes as text: UTF-8 without its byte order mark; bytes that are not UTF-8 become U+FFFD, which the parser reports at their line. */
export function requestFileText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

const REPLACEMENT = 0xfffd;

/** Characters no request can carry: C0 controls but tab, DEL, C1 controls, U+2028/U+2029 and U+FFFD (bytes that were not UTF-8). */
function isBad(code: number): boolean {
  return (code < 0x20 && code !== 0x09) || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 || code === REPLACEMENT;
}

const hex = (code: number): string => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/** The first character of a line that no request can carry, with what to do about it. */
export function characterProblem(line: string, lineNo: number): TextProblem | undefined {
  let start = 0;
  while (start < line.length && !isBad(line.charCodeAt(start))) start++;
  if (start === line.length) return undefined;
  const code = line.charCodeAt(start);
  const at = `at column ${start + 1}`;
  const message =
    code === 0x2028 || code === 0x2029
      ? `${hex(code)} (${code === 0x2028 ? 'LINE' : 'PARAGRAPH'} SEPARATOR) ${at} looks like a line break in some programs but is none here, and a request cannot carry it. Delete it, or put a real line break there.`
      : code === REPLACEMENT
        ? `${hex(code)} ${at} marks bytes that are not UTF-8 text. Save the file as UTF-8, then write that character again.`
        : code === 0
          ? `A NUL byte (U+0000) ${at}: a request file is plain text. Delete it.`
          : `The control character ${hex(code)} ${at} cannot be part of a request. Delete it.`;
  return { span: { line: lineNo, start, end: start + 1 }, message, code: 'character' };
}

const SAMPLE_CHARS = 8192;
/** Share of control characters and non-UTF-8 bytes above which a file is taken for binary, not for text with a stray character. */
const BINARY_SHARE = 0.1;
/** Compressed and archive formats, by the characters their magic bytes decode to (a byte that is not UTF-8 as U+FFFD). */
const MAGIC: ReadonlyArray<{ readonly prefixes: readonly string[]; readonly what: string; readonly fix: string }> = [
  { prefixes: ['\x1f\ufffd'], what: 'gzip-compressed', fix: 'decompress it first (gunzip)' },
  { prefixes: ['PK\x03\x04', 'PK\x05\x06'], what: 'a zip archive', fix: 'unpack it first' },
  { prefixes: Array.from({ length: 9 }, (_, i) => `BZh${i + 1}1AY&SY`), what: 'bzip2-compressed', fix: 'decompress it first (bunzip2)' },
  { prefixes: ['\ufffd7zXZ\x00'], what: 'xz-compressed', fix: 'decompress it first (unxz)' },
  { prefixes: ['(\ufffd/\ufffd'], what: 'zstd-compressed', fix: 'decompress it first (unzstd)' },
];

/**
 * Why a whole file is no request file (compressed, an archive, UTF-16, or binary: many control
 * characters or bytes that are not UTF-8), at the line of its first such character; undefined for text.
 */
export function binaryProblem(text: string, lines: readonly string[]): TextProblem | undefined {
  const magic = MAGIC.find((m) => m.prefixes.some((p) => text.startsWith(p)));
  if (magic) return notText(0, 0, `it is ${magic.what}. A request file is plain UTF-8 text: ${magic.fix}, or open the request file you meant.`);
  const sample = text.slice(0, SAMPLE_CHARS);
  let bad = 0;
  let nul = 0;
  for (let i = 0; i < sample.length; i++) {
    const code = sample.charCodeAt(i);
    if (code === 0) nul++;
    if (isBad(code) && code !== 0x0a && code !== 0x0d) bad++;
  }
  if (bad === 0 || bad < sample.length * BINARY_SHARE) return undefined;
  // At the first line that holds one, where in it.
  let first: TextProblem | undefined;
  for (let i = 0; i < lines.length && !first; i++) first = characterProblem(lines[i], i);
  const [line, column] = [first?.span.line ?? 0, first?.span.start ?? 0];
  return nul * 4 >= sample.length
    ? notText(line, column, 'every other byte is zero, as in UTF-16 text. A request file is UTF-8 text: save it as UTF-8.')
    : notText(line, column, `${bad} of its first ${sample.length} characters are control characters or bytes that are not UTF-8. A request file is plain UTF-8 text: open the request file you meant, or save this one as UTF-8.`);
}

function notText(line: number, start: number, why: string): TextProblem {
  return { span: { line, start, end: start + 1 }, message: `This file is not text: ${why}`, code: 'binary' };
}

/** `{{name}}` with anything but braces as its name (spaces around it are not part of it). */
const REFERENCE = /\{\{([^{}]*)\}\}/g;

/** Every `{{…}}` of a line that names something, with its column span (the braces included). */
export function references(line: string, lineNo: number): Array<{ readonly name: string; readonly span: LineSpan }> {
  return [...line.matchAll(REFERENCE)].flatMap((m) => {
    const name = m[1].trim();
    return name === '' ? [] : [{ name, span: { line: lineNo, start: m.index, end: m.index + m[0].length } }];
  });
}

/** The text with every reference that names something replaced by what `value` gives for its name. */
export function replaceReferences(text: string, value: (name: string) => string): string {
  return text.replace(REFERENCE, (all, raw: string) => (raw.trim() === '' ? all : value(raw.trim())));
}

/**
 * A `{{` that opens no reference (never closed on its line, or `{{}}` naming nothing): its column and
 * what to do; the message names the column when `text` is a whole line of the file.
 */
export function openReference(text: string, wholeLine = true): { readonly start: number; readonly message: string } | undefined {
  // Blank out every well-formed reference; a `{{` left over opens nothing.
  const rest = text.replace(REFERENCE, (all, raw: string) => (raw.trim() === '' ? all : ' '.repeat(all.length)));
  const start = rest.indexOf('{{');
  if (start < 0) return undefined;
  return {
    start,
    message: /^\{\{\s*\}\}/.test(rest.slice(start))
      ? '"{{}}" names no variable. Write the name between the braces, as {{baseUrl}}, or delete them.'
      : `"{{"${wholeLine ? ` at column ${start + 1}` : ''} opens a variable that is not closed on this line. Write it as {{name}} (the name and both pairs of braces on one line), or delete the braces.`,
  };
}
