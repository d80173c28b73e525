// Where a pasted request goes in a request file, and the separators it needs: at the cursor's line,
// or after the request the cursor is in (a request split in two would send its tail as a request of
// its own). Plain TypeScript (unit-tested in plain Node).
import type { ParsedRequestFile } from '../../core/requests/requestFile';
import { splitLines } from '../../core/requests/requestText';

export interface Placement {
  /** 0-based line the text goes before; the line count means after the last line. */
  readonly line: number;
  /** With its own line breaks (`\n`; the caller writes the document's). */
  readonly text: string;
}

const SEPARATOR = /^###/;

/** `parsed`: what the parser read of `document`. */
export function pastePlacement(document: string, parsed: ParsedRequestFile, cursorLine: number, request: readonly string[]): Placement {
  const lines = splitLines(document);
  if (document.trim() === '') return { line: 0, text: `${request.join('\n')}\n` };
  const inside = parsed.requests.find((r) => r.startLine <= cursorLine && cursorLine <= r.endLine && cursorLine >= firstWritten(lines, r.startLine));
  const line = inside ? inside.endLine + 1 : Math.min(cursorLine, lines.length);
  const before = lines.slice(0, line).filter((l) => l.trim() !== '').at(-1);
  const after = lines.slice(line).find((l) => l.trim() !== '');
  const head = before === undefined || SEPARATOR.test(before) ? '' : `${lines[line - 1]?.trim() === '' ? '' : '\n'}###\n`;
  const tail = after === undefined ? '' : SEPARATOR.test(after) ? '\n' : '\n###\n';
  // After the last line: that line has no line break of its own to end it.
  const start = line >= lines.length && lines.at(-1) !== '' ? '\n' : '';
  return { line, text: `${start}${head}${request.join('\n')}\n${tail}` };
}

/** The block's first line that is not blank: the cursor above it is between requests. */
function firstWritten(lines: readonly string[], from: number): number {
  let i = from;
  while (i < lines.length && lines[i].trim() === '') i++;
  return i;
}
