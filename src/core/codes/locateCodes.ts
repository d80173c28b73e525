// Result codes in JSON text, with the offsets of their characters: for diagnostics, hovers and
// `bizdata check`. A jsonc-parser visitor reads each object's fields into the recogniser's `Fields`
// as it streams past (no tree is built, so large files stay cheap) and asks the same recogniser the
// client uses. Malformed JSON yields what can be recovered.
import { getLocation, visit } from 'jsonc-parser';
import { BUILT_IN, type CodeBook } from './codes';
import { CODE_PROPERTY, READ_PROPERTIES, recogniseFields, shapeOf, type Recognised } from './recognise';

export interface CodeLocation extends Recognised {
  /** Offset of the code's characters (inside the quotes of a string). */
  readonly offset: number;
  readonly length: number;
}

/** Properties whose value may be, or hold, a code. */
const CODE_VALUE_PROPERTIES: ReadonlySet<string> = new Set([...Object.values(CODE_PROPERTY), 'code', 'error_description']);

interface Span {
  readonly offset: number;
  readonly length: number;
  readonly quoted: boolean;
}

interface Frame {
  readonly isObject: boolean;
  /** The property the container sits under; elements of an array take the array's. */
  readonly key?: string;
  currentKey?: string;
  /** Made on the first property the recogniser reads: most objects of a large file have none. */
  values?: Record<string, string>;
  spans?: Record<string, Span>;
  descriptions?: string[];
}

/**
 * Cheap test before any parsing: text that never spells a property a code sits in cannot hold one,
 * so most JSON files (package.json, settings, large data files) cost a few substring searches.
 */
export function mayHoldCodes(text: string): boolean {
  return text.includes('"ResultID"') || text.includes('"errorCode"') || text.includes('"error"');
}

/** Every code in the text, in document order. */
export function locateCodes(text: string, book: CodeBook = BUILT_IN): CodeLocation[] {
  if (!mayHoldCodes(text)) return [];
  const found: CodeLocation[] = [];
  const frames: Frame[] = [];
  const open = (isObject: boolean): void => {
    const parent = frames[frames.length - 1];
    const key = parent === undefined ? undefined : parent.isObject ? parent.currentKey : parent.key;
    frames.push({ isObject, key });
  };
  visit(
    text,
    {
      onObjectBegin: () => open(true),
      onArrayBegin: () => open(false),
      onArrayEnd: () => void frames.pop(),
      onObjectEnd: () => {
        const frame = frames.pop();
        const at = frame?.values && locate(text, frame, book);
        if (at) found.push(at);
      },
      onObjectProperty: (property) => {
        const top = frames[frames.length - 1];
        if (top) top.currentKey = property;
      },
      onLiteralValue: (value: unknown, offset, length) => {
        const top = frames[frames.length - 1];
        if (!top?.isObject || top.currentKey === undefined) return;
        // Codes and texts are strings; only actionStatus may be written as a number.
        const v = typeof value === 'string' ? value : typeof value === 'number' && top.currentKey === 'actionStatus' ? String(value) : undefined;
        if (v === undefined) return;
        if (READ_PROPERTIES.has(top.currentKey)) {
          (top.values ??= {})[top.currentKey] = v;
          (top.spans ??= {})[top.currentKey] = { offset, length, quoted: typeof value === 'string' };
        } else if (top.currentKey === 'ResultDescription') {
          const owner = transactionResultOf(frames);
          if (owner) (owner.descriptions ??= []).push(v);
        }
      },
    },
    { allowTrailingComma: true, disallowComments: false },
  );
  return found.sort((a, b) => a.offset - b.offset);
}

/**
 * The code whose characters cover `offset`, if any. A first look reads the text only up to the offset
 * (jsonc-parser's getLocation), so hovering anything but a code value in a large file costs little.
 */
export function codeAt(text: string, offset: number, book: CodeBook = BUILT_IN): CodeLocation | undefined {
  const location = getLocation(text, offset);
  const node = location.previousNode;
  const property = location.path[location.path.length - 1];
  if (location.isAtPropertyKey || node === undefined || (node.type !== 'string' && node.type !== 'number')) return undefined;
  if (typeof property !== 'string' || !CODE_VALUE_PROPERTIES.has(property)) return undefined;
  if (offset < node.offset || offset > node.offset + node.length) return undefined;
  // Anywhere on the value, its quotes included.
  return locateCodes(text, book).find((f) => f.offset >= node.offset && f.offset <= node.offset + node.length);
}

/** The 0-based line and column (in UTF-16 code units, as editors count) of each offset, in one pass. */
export function lineColumns(text: string, offsets: readonly number[]): Array<{ line: number; column: number }> {
  const order = offsets.map((o, i) => [o, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<{ line: number; column: number }>(offsets.length);
  let line = 0;
  let lineStart = 0;
  let i = 0;
  for (const [offset, index] of order) {
    for (; i < offset && i < text.length; i++) {
      if (text.charCodeAt(i) === 10) {
        line++;
        lineStart = i + 1;
      }
    }
    out[index] = { line, column: offset - lineStart };
  }
  return out;
}

/** The TransactionResult a ResultDescription belongs to: through ResultMessage, as an object or in an array. */
function transactionResultOf(frames: readonly Frame[]): Frame | undefined {
  let i = frames.length - 1;
  if (frames[i]?.key !== 'ResultMessage') return undefined;
  i--;
  if (frames[i] && !frames[i].isObject && frames[i].key === 'ResultMessage') i--;
  const owner = frames[i];
  return owner?.isObject && owner.key === 'TransactionResult' ? owner : undefined;
}

function locate(text: string, frame: Frame, book: CodeBook): CodeLocation | undefined {
  const fields = { holder: frame.key, values: frame.values ?? {}, descriptions: frame.descriptions ?? [] };
  const shape = shapeOf(fields);
  const r = shape && recogniseFields(fields, book);
  const span = shape && frame.spans?.[shape.property];
  if (!r || !span) return undefined;
  const start = span.quoted ? span.offset + 1 : span.offset;
  const length = span.quoted ? Math.max(0, span.length - 2) : span.length;
  if (shape.inText) {
    // The code inside a longer text (OAuth error_description): its own characters, when written plainly.
    const at = text.slice(start, start + length).indexOf(shape.code);
    if (at >= 0) return Object.assign(r, { offset: start + at, length: shape.code.length });
  }
  // The recognition is made here for this location only, so it is completed in place (no copy per code).
  return Object.assign(r, { offset: start, length });
}
