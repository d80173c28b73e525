// Result codes in JSON text for the editor: the core's one recogniser (locateCodes, the same rules as
// the client, the batch and `bizdata check`), plus how each finding is shown. Plain TypeScript (no
// `vscode` import) so it is tested in plain Node; the extension turns findings into diagnostics and hovers.
import { BUILT_IN, type CodeBook } from '../../core/codes/codes';
import { codeAt as locateAt, locateCodes, mayHoldCodes, type CodeLocation } from '../../core/codes/locateCodes';
import { explainLine } from '../../core/codes/recognise';
import { safeLine } from '../../core/sanitize';

export { mayHoldCodes };

/** How a finding is shown: `none` is a code worth a hover but not a diagnostic (CM000). */
export type FindingSeverity = 'error' | 'warning' | 'info' | 'none';

export interface CodeFinding extends CodeLocation {
  readonly display: FindingSeverity;
  /** One line, ready to show: the service's own words (else the catalog's text), the meaning or "not in the catalog", and the action. */
  readonly message: string;
}

/** Every code in the text, in document order. Malformed JSON yields what can be recovered. */
export function findCodes(text: string, book: CodeBook = BUILT_IN): CodeFinding[] {
  return locateCodes(text, book).map(toFinding);
}

/** The code whose characters cover `offset`, if any. */
export function codeAt(text: string, offset: number, book: CodeBook = BUILT_IN): CodeFinding | undefined {
  const found = locateAt(text, offset, book);
  return found && toFinding(found);
}

function toFinding(l: CodeLocation): CodeFinding {
  const display: FindingSeverity = l.info?.severity === 'success' ? 'none' : l.severity;
  // Texts from files and the service are shown as they are, except characters that could hide or reorder them.
  return Object.assign(l, { display, message: safeLine(`${l.code}: ${explainLine(l)}`) });
}
