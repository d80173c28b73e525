// The codes the diagnostics found in each large document, by document version: hovers on a large
// document read them instead of parsing its text again on the extension host's thread.
import type { CodeFinding } from '../shared/findCodes';

export class FoundCodes {
  private readonly byUri = new Map<string, { readonly version: number; readonly findings: readonly CodeFinding[] }>();

  set(uri: string, version: number, findings: readonly CodeFinding[]): void {
    this.byUri.set(uri, { version, findings: [...findings].sort((a, b) => a.offset - b.offset) });
  }

  /** The finding whose characters cover `offset` in that version of the document, if it was scanned. */
  at(uri: string, version: number, offset: number): CodeFinding | undefined {
    const found = this.byUri.get(uri);
    if (found?.version !== version) return undefined;
    const list = found.findings;
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const f = list[mid];
      if (offset < f.offset) hi = mid - 1;
      else if (offset > f.offset + f.length) lo = mid + 1;
      else return f;
    }
    return undefined;
  }

  delete(uri: string): void {
    this.byUri.delete(uri);
  }
}
