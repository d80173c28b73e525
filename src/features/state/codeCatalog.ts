// The catalog of result codes the editor uses: the built-in one plus the user's codes file named by
// `bizdata.codes.file` (absolute, or relative to the first workspace folder). Reloaded when the
// setting or the file changes; a file with a mistake is reported once, naming the file and the
// entry, and the built-in catalog is used meanwhile.
import { basename, dirname, isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { BUILT_IN, type CodeBook } from '../../core/codes/codes';
import { loadCodeBook } from '../../core/codes/codesFile';
import { errorMessage } from '../../core/errors';
import { safeLine } from '../../core/sanitize';

export const CODES_FILE_SETTING = 'bizdata.codes.file';

export class CodeCatalog implements vscode.Disposable {
  private book: CodeBook | undefined;
  private watcher: vscode.FileSystemWatcher | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Fires after the catalog changed (setting or file); diagnostics and the client read it again. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.subscriptions.push(
      this.changed,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(CODES_FILE_SETTING)) this.reload();
      }),
    );
  }

  /** The current catalog; read on first use so activation stays cheap. */
  current(): CodeBook {
    if (this.book === undefined) this.book = this.read();
    return this.book;
  }

  dispose(): void {
    this.watcher?.dispose();
    for (const s of this.subscriptions) s.dispose();
  }

  private reload(): void {
    this.book = this.read();
    this.changed.fire();
  }

  private read(): CodeBook {
    const file = this.file();
    this.watch(file);
    if (file === undefined) return BUILT_IN;
    try {
      const book = loadCodeBook(file);
      this.log.info(`Result codes: ${book.entries.filter((c) => c.source === 'user').length} described in ${file}.`);
      return book;
    } catch (err) {
      const message = safeLine(errorMessage(err));
      this.log.warn(message);
      void vscode.window.showWarningMessage(`${message} Until it is fixed, only the built-in result codes are described (setting ${CODES_FILE_SETTING}).`);
      return BUILT_IN;
    }
  }

  private file(): string | undefined {
    const value = vscode.workspace.getConfiguration().get<string>(CODES_FILE_SETTING)?.trim();
    if (!value) return undefined;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    return isAbsolute(value) || folder === undefined ? value : join(folder, value);
  }

  private watch(file: string | undefined): void {
    this.watcher?.dispose();
    this.watcher = undefined;
    if (file === undefined) return;
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(dirname(file)), basename(file)));
    const changed = (uri: vscode.Uri): void => {
      if (uri.fsPath === file) this.reload();
    };
    watcher.onDidChange(changed);
    watcher.onDidCreate(changed);
    watcher.onDidDelete(changed);
    this.watcher = watcher;
  }
}
