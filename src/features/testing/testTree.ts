// The Test Explorer's tree of request files: file → request (→ assertion), found lazily; a data-driven
// file (NAME.bizdata.http with NAME.data.csv or NAME.data.jsonl beside it) is file → row, one test per
// row of its data file. The files are listed when VS Code first asks (the Testing view opens, a run of
// everything starts) and kept current by a file watcher; a file is read when its item is expanded,
// run, or open in an editor, and read again on every change (an open editor's unsaved text wins over
// the file on disk, and is parsed once per version for everyone: parsedDocuments.ts).
import * as vscode from 'vscode';
import { parseRequestFile, type ParsedRequestFile } from '../../core/requests/requestFile';
import { requestFileText } from '../../core/requests/requestText';
import { safeLine } from '../../core/sanitize';
import { uriExists } from '../shared/uriExists';
import type { ParsedDocuments } from '../requestFiles/parsedDocuments';
import { REQUEST_FILE_EXTENSION, REQUEST_FILE_LANGUAGE } from '../requestFiles/requestFileLanguage';
import { DATA_GLOB, dataFileOf, requestFileOfData, rowLabel, type DataRows } from './testData';
import { requestTests } from './requestTests';

const GLOB = `**/*${REQUEST_FILE_EXTENSION}`;
/** Dependencies hold other people's files; a huge tree is listed only up to this many. */
const EXCLUDE = '**/node_modules/**';
const MAX_FILES = 5000;
const DEBOUNCE_MS = 200;

/** What a test item stands for. */
export type TestNode =
  | { readonly kind: 'file'; readonly uri: vscode.Uri }
  | { readonly kind: 'request'; readonly uri: vscode.Uri; readonly index: number }
  | { readonly kind: 'assertion'; readonly uri: vscode.Uri; readonly index: number; readonly line: number }
  /** A row of a data-driven file's data file, by its 1-based line there. */
  | { readonly kind: 'row'; readonly uri: vscode.Uri; readonly line: number };

/** A file as read for a run: its text, what the parser made of it, and its request items by index. */
export interface ReadFile {
  readonly uri: vscode.Uri;
  readonly text: string;
  readonly parsed: ParsedRequestFile;
  readonly item: vscode.TestItem;
  readonly requests: ReadonlyMap<number, vscode.TestItem>;
  /** A data-driven file's rows (or why its data file cannot be read), and their items by line. */
  readonly data?: DataRows & { readonly items: ReadonlyMap<number, vscode.TestItem> };
}

export class RequestTestTree implements vscode.Disposable {
  private readonly nodes = new WeakMap<vscode.TestItem, TestNode>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private watching = false;

  constructor(
    private readonly controller: vscode.TestController,
    private readonly documents: ParsedDocuments,
  ) {
    controller.resolveHandler = (item) => (item ? this.resolve(item) : this.discover());
    controller.refreshHandler = () => this.discover();
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.documentChanged(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.documentChanged(e.document, DEBOUNCE_MS);
      }),
      // Closing an editor with unsaved changes leaves the file as it is on disk.
      vscode.workspace.onDidCloseTextDocument((d) => this.documentChanged(d, 0)),
    );
    for (const d of vscode.workspace.textDocuments) this.documentChanged(d, 0);
  }

  node(item: vscode.TestItem): TestNode | undefined {
    return this.nodes.get(item);
  }

  /** Lists every request file of the workspace and starts watching for more. */
  async discover(): Promise<void> {
    this.watch();
    const uris = await vscode.workspace.findFiles(GLOB, EXCLUDE, MAX_FILES);
    const found = new Set(uris.map((u) => u.toString()));
    for (const uri of uris) this.fileItem(uri);
    // Files gone while nobody watched (a refresh); open documents stay.
    this.controller.items.forEach((item) => {
      if (!found.has(item.id) && !this.isOpen(item.id)) this.controller.items.delete(item.id);
    });
  }

  /** Reads the file behind any item again and returns it with its request items, fresh. */
  async read(uri: vscode.Uri): Promise<ReadFile> {
    const item = this.fileItem(uri);
    const { text, parsed } = await this.contentOf(uri);
    const data = await dataFileOf(uri);
    this.fill(item, parsed, data);
    const requests = new Map<number, vscode.TestItem>();
    const rows = new Map<number, vscode.TestItem>();
    item.children.forEach((child) => {
      const node = this.nodes.get(child);
      if (node?.kind === 'request') requests.set(node.index, child);
      if (node?.kind === 'row') rows.set(node.line, child);
    });
    return { uri, text, parsed, item, requests, ...(data ? { data: { ...data, items: rows } } : {}) };
  }

  private async resolve(item: vscode.TestItem): Promise<void> {
    const node = this.nodes.get(item);
    if (node?.kind !== 'file') return;
    try {
      this.fill(item, (await this.contentOf(node.uri)).parsed, await dataFileOf(node.uri));
    } catch (err) {
      item.error = safeLine(`This file could not be read: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private watch(): void {
    if (this.watching) return;
    this.watching = true;
    const watcher = vscode.workspace.createFileSystemWatcher(GLOB);
    this.disposables.push(
      watcher,
      watcher.onDidCreate((uri) => this.fileItem(uri)),
      watcher.onDidChange((uri) => this.fileChanged(uri)),
      watcher.onDidDelete((uri) => this.controller.items.delete(uri.toString())),
    );
    // A data file made, changed or deleted changes the rows of its request file, if that one was read.
    const data = vscode.workspace.createFileSystemWatcher(DATA_GLOB);
    const rowsChanged = (uri: vscode.Uri): void => {
      const file = requestFileOfData(uri);
      const item = this.controller.items.get(file.toString());
      if (item && !item.canResolveChildren) this.schedule(file, DEBOUNCE_MS);
    };
    this.disposables.push(data, data.onDidCreate(rowsChanged), data.onDidChange(rowsChanged), data.onDidDelete(rowsChanged));
  }

  /** The file's item, made (unread: its children come when asked) if it is not there yet. */
  private fileItem(uri: vscode.Uri): vscode.TestItem {
    const existing = this.controller.items.get(uri.toString());
    if (existing) return existing;
    const item = this.controller.createTestItem(uri.toString(), vscode.workspace.asRelativePath(uri), uri);
    item.canResolveChildren = true;
    this.nodes.set(item, { kind: 'file', uri });
    this.controller.items.add(item);
    return item;
  }

  /** Sets the file's children from what the parser read of it (and its data file's rows). */
  private fill(item: vscode.TestItem, parsed: ParsedRequestFile, data?: DataRows): void {
    const node = this.nodes.get(item);
    if (node?.kind !== 'file') throw new Error(`${item.id} is not a request file's item`);
    if (data) {
      this.fillRows(item, node.uri, data);
      return;
    }
    const children = requestTests(parsed).map((t) => {
      const child = this.controller.createTestItem(`${item.id}#${t.key}`, safeLine(t.label), node.uri);
      child.range = new vscode.Range(t.firstLine, 0, t.lastLine, 0);
      child.sortText = String(t.request.index).padStart(6, '0');
      this.nodes.set(child, { kind: 'request', uri: node.uri, index: t.request.index });
      child.children.replace(
        t.assertions.map((a, i) => {
          const check = this.controller.createTestItem(`${child.id}/${a.key}`, safeLine(a.label), node.uri);
          check.range = new vscode.Range(a.assertion.line, a.assertion.span.start, a.assertion.line, a.assertion.span.end);
          check.sortText = String(i).padStart(6, '0');
          this.nodes.set(check, { kind: 'assertion', uri: node.uri, index: t.request.index, line: a.assertion.line });
          return check;
        }),
      );
      return child;
    });
    item.children.replace(children);
    item.canResolveChildren = false;
    item.error = undefined;
  }

  /** One test per row of the data file; a data file that cannot be read is the file's error. */
  private fillRows(item: vscode.TestItem, uri: vscode.Uri, data: DataRows): void {
    const rows = data.read.ok ? data.read.table.rows : [];
    item.children.replace(
      rows.map((row) => {
        const child = this.controller.createTestItem(`${item.id}#row${row.line}`, safeLine(rowLabel(row)), uri);
        child.sortText = String(row.line).padStart(8, '0');
        this.nodes.set(child, { kind: 'row', uri, line: row.line });
        return child;
      }),
    );
    item.canResolveChildren = false;
    item.error = data.read.ok ? undefined : safeLine(data.problem ?? '');
  }

  /** The file's text and what the parser read: an open editor's (shared, parsed once per version), else the disk's. */
  private async contentOf(uri: vscode.Uri): Promise<{ readonly text: string; readonly parsed: ParsedRequestFile }> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) return { text: open.getText(), parsed: this.documents.get(open) };
    const text = requestFileText(await vscode.workspace.fs.readFile(uri));
    return { text, parsed: parseRequestFile(text) };
  }

  private isOpen(id: string): boolean {
    return vscode.workspace.textDocuments.some((d) => !d.isClosed && d.uri.toString() === id);
  }

  private isRequestFile(document: vscode.TextDocument): boolean {
    // A request file of this workspace: untitled documents and others' folders have no place in the tree.
    return (document.languageId === REQUEST_FILE_LANGUAGE || document.uri.path.endsWith(REQUEST_FILE_EXTENSION)) && vscode.workspace.getWorkspaceFolder(document.uri) !== undefined;
  }

  private documentChanged(document: vscode.TextDocument, delayMs: number): void {
    if (!this.isRequestFile(document)) return;
    this.schedule(document.uri, delayMs);
  }

  private fileChanged(uri: vscode.Uri): void {
    const item = this.controller.items.get(uri.toString());
    // A file nobody expanded stays unread; an open one follows its editor, not the disk.
    if (!item || item.canResolveChildren || this.isOpen(item.id)) return;
    this.schedule(uri, DEBOUNCE_MS);
  }

  private schedule(uri: vscode.Uri, delayMs: number): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.refresh(uri);
      }, delayMs),
    );
  }

  /** Reads a file again after a change; a file gone from disk and from the editors leaves the tree. */
  private async refresh(uri: vscode.Uri): Promise<void> {
    if (!this.isOpen(uri.toString()) && !(await uriExists(uri))) {
      this.controller.items.delete(uri.toString());
      return;
    }
    const item = this.fileItem(uri);
    await this.resolve(item);
    // Results of the text before the change no longer say anything about it.
    this.controller.invalidateTestResults(item);
  }

  dispose(): void {
    this.timers.forEach((t) => clearTimeout(t));
    for (const d of this.disposables) d.dispose();
  }
}
