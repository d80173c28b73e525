// What the parser made of each open request document, read once per version of its text: the
// CodeLenses, diagnostics, completion, the Test Explorer's tree and the commands all ask here, so an
// edit is parsed once, not once by each of them. A closed document's entry goes with it
// (registerRequestFiles.ts tells us). Plain TypeScript (unit-tested in plain Node).
import { parseRequestFile, type ParsedRequestFile } from '../../core/requests/requestFile';

/** The part of a vscode.TextDocument the cache reads. */
export interface VersionedDocument {
  readonly uri: { toString(): string };
  /** Rises with every change of the text while the document is open. */
  readonly version: number;
  readonly isClosed: boolean;
  getText(): string;
}

export class ParsedDocuments {
  private readonly parsed = new Map<string, { readonly version: number; readonly file: ParsedRequestFile }>();

  /** The document's current text parsed: the same object until its text changes. */
  get(document: VersionedDocument): ParsedRequestFile {
    const key = document.uri.toString();
    const kept = this.parsed.get(key);
    if (kept?.version === document.version && !document.isClosed) return kept.file;
    const file = parseRequestFile(document.getText());
    // A closed document has no later version to wait for: keeping it would only hold its memory.
    if (document.isClosed) this.parsed.delete(key);
    else this.parsed.set(key, { version: document.version, file });
    return file;
  }

  /** The document was closed: a reopened one starts its versions again. */
  forget(uri: { toString(): string }): void {
    this.parsed.delete(uri.toString());
  }
}
