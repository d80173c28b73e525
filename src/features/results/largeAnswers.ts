// A request's answer made ready for the history and the editor without holding the extension host:
// any secret the client knows is replaced (a service may echo a header), and a large answer the
// client left unparsed is pretty-printed on the worker and redacted slice by slice.
import type { CallResult } from '../../core/model';
import { EXTENSION_DOCUMENT_LIMIT_CHARS, PARSE_IN_HOST_BYTES } from '../connection/settings';
import { lineSlicesOf, type CodeScanner } from '../shared/codeScanner';
import { withoutSecrets } from './withoutSecrets';

export interface ReadyAnswer {
  readonly result: CallResult;
  /** The answer's `text` is JSON (pretty-printed here); it opens as JSON. */
  readonly json: boolean;
}

export async function readyAnswer(result: CallResult, deps: { readonly scanner: CodeScanner; readonly redact: (text: string) => string }): Promise<ReadyAnswer> {
  // Parsed by the client (small), or a small text that is not JSON: cheap to clean on this thread.
  if (!result.ok || result.text === undefined || result.text.length <= PARSE_IN_HOST_BYTES) return { result: withoutSecrets(result, deps.redact), json: false };
  // Indenting adds about half again: an answer that would then pass what VS Code lets extensions read
  // stays as it came, so that its codes are still marked and explained.
  const pretty = await deps.scanner.prettyPrint(result.text, { maxChars: EXTENSION_DOCUMENT_LIMIT_CHARS });
  const clean: string[] = [];
  // Slices end at line ends: no secret is split, and each redaction is short.
  for (const slice of pretty ?? lineSlicesOf(result.text)) {
    clean.push(deps.redact(slice));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { result: { ...result, text: clean.join('') }, json: pretty !== undefined };
}
