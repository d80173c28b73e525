// The lookup history's storage in VS Code: one small record per entry in globalState (shared by every
// window of the machine) and each answer in its own file under the extension's globalStorageUri.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import type { HistoryStorage } from './historyRecords';
import { LookupModel } from './lookupModel';

export class VscodeHistoryStorage implements HistoryStorage {
  private folderReady: Thenable<void> | undefined;

  constructor(
    private readonly state: vscode.Memento,
    private readonly folder: vscode.Uri,
  ) {}

  keys(): readonly string[] {
    return this.state.keys();
  }

  get(key: string): unknown {
    return this.state.get<unknown>(key);
  }

  async update(key: string, value: unknown): Promise<void> {
    await this.state.update(key, value);
  }

  async writeFile(name: string, data: Uint8Array): Promise<void> {
    this.folderReady ??= vscode.workspace.fs.createDirectory(this.folder);
    await this.folderReady;
    // Written beside, then renamed over: a reader (or another window) never sees half a file.
    const temporary = this.uri(`${name}.${randomBytes(4).toString('hex')}.tmp`);
    await vscode.workspace.fs.writeFile(temporary, data);
    await vscode.workspace.fs.rename(temporary, this.uri(name), { overwrite: true });
  }

  readFile(name: string): Promise<Uint8Array> {
    return Promise.resolve(vscode.workspace.fs.readFile(this.uri(name)));
  }

  async deleteFile(name: string): Promise<void> {
    try {
      await vscode.workspace.fs.delete(this.uri(name));
    } catch (err) {
      if (!(err instanceof vscode.FileSystemError && err.code === 'FileNotFound')) throw err;
    }
  }

  async listFiles(): Promise<readonly string[]> {
    try {
      const entries = await vscode.workspace.fs.readDirectory(this.folder);
      return entries.filter(([, type]) => type === vscode.FileType.File).map(([name]) => name);
    } catch (err) {
      if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return [];
      throw err;
    }
  }

  private uri(name: string): vscode.Uri {
    return vscode.Uri.joinPath(this.folder, name);
  }
}

export interface LookupsDeps {
  readonly log: vscode.LogOutputChannel;
  /** The client's redaction: what the history writes never holds a secret it knows. */
  readonly redact: (text: string) => string;
}

/**
 * The history of this window: loaded (and an old-format history brought over) in the background,
 * and read again whenever the window gains focus, so lookups made in another window show here.
 */
export function createLookups(context: vscode.ExtensionContext, deps: LookupsDeps): LookupModel {
  const storage = new VscodeHistoryStorage(context.globalState, vscode.Uri.joinPath(context.globalStorageUri, 'lookups'));
  const lookups = new LookupModel(storage, {
    redact: deps.redact,
    onError: (what, err) => deps.log.warn(`Lookup history: ${what}: ${deps.redact(errorMessage(err))}`),
  });
  context.subscriptions.push(
    { dispose: () => lookups.dispose() },
    vscode.window.onDidChangeWindowState((state) => {
      if (state.focused) lookups.refresh();
    }),
  );
  void lookups.load().catch((err: unknown) => deps.log.error(`Lookup history could not be loaded: ${deps.redact(errorMessage(err))}`));
  return lookups;
}
