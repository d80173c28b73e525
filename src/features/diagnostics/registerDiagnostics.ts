// Attaches code diagnostics to result documents and to JSON files that hold service responses.
// The finding logic is plain (findCodes.ts); this file only adapts it to VS Code. A large document is
// read range by range and scanned on the worker (codeScanner.ts), so the editor never waits for it.
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { CODE_DOCUMENTS, DIAGNOSTIC_SOURCE, documentLength, documentSlices, INLINE_SCAN_CHARS } from '../shared/codeDocuments';
import { ScanCancelledError, type CodeScanner } from '../shared/codeScanner';
import { findCodes, mayHoldCodes, type CodeFinding } from '../shared/findCodes';
import type { CodeCatalog } from '../state/codeCatalog';
import type { FoundCodes } from '../state/foundCodes';

export interface DiagnosticsDeps {
  readonly log?: vscode.LogOutputChannel;
  readonly codes: CodeCatalog;
  readonly scanner: CodeScanner;
  /** Where the findings of large documents are kept for the hovers. */
  readonly found: FoundCodes;
}

const DEBOUNCE_MS = 300;
/** Extra wait per MB: scanning takes ~15 ms per MB, so big files are rescanned after longer pauses in typing. */
const DEBOUNCE_PER_MB_MS = 200;
const DEBOUNCE_MAX_MS = 3000;

/** The wait after an edit before rescanning: short for responses of a few KB, longer for very large files. */
export function debounceFor(length: number): number {
  return Math.min(DEBOUNCE_MAX_MS, DEBOUNCE_MS + Math.floor(length / (1024 * 1024)) * DEBOUNCE_PER_MB_MS);
}

interface DiagnosticsSettings {
  readonly enabled: boolean;
  readonly maxChars: number;
}

function readSettings(): DiagnosticsSettings {
  const config = vscode.workspace.getConfiguration('bizdata.diagnostics');
  const maxMb = config.get<number>('maxFileSizeMB', 128);
  return { enabled: config.get<boolean>('enabled', true), maxChars: Math.max(0, maxMb) * 1024 * 1024 };
}

function appliesTo(document: vscode.TextDocument): boolean {
  return vscode.languages.match(CODE_DOCUMENTS, document) > 0;
}

const SEVERITY = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
} as const;

export function toDiagnostic(document: vscode.TextDocument, finding: CodeFinding): vscode.Diagnostic | undefined {
  if (finding.display === 'none') return undefined;
  const range = new vscode.Range(document.positionAt(finding.offset), document.positionAt(finding.offset + finding.length));
  const diagnostic = new vscode.Diagnostic(range, finding.message, SEVERITY[finding.display]);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = finding.code;
  return diagnostic;
}

function tabUri(tab: vscode.Tab): vscode.Uri | undefined {
  return tab.input instanceof vscode.TabInputText ? tab.input.uri : undefined;
}

function isInTab(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => tabUri(t)?.toString() === key));
}

/** Registers the diagnostics collection and the listeners that keep it current. */
export function registerDiagnostics(context: vscode.ExtensionContext, deps: DiagnosticsDeps): vscode.DiagnosticCollection {
  const collection = vscode.languages.createDiagnosticCollection('bizdata');
  const timers = new Map<string, NodeJS.Timeout>();
  /** Scans on the worker, by document: a newer one (or a close) cancels the older. */
  const scans = new Map<string, AbortController>();
  let settings = readSettings();

  const cancelPending = (uri: vscode.Uri): void => {
    const key = uri.toString();
    const timer = timers.get(key);
    if (timer) clearTimeout(timer);
    timers.delete(key);
    scans.get(key)?.abort();
    scans.delete(key);
  };

  const show = (document: vscode.TextDocument, findings: readonly CodeFinding[]): void => {
    collection.set(document.uri, findings.map((f) => toDiagnostic(document, f)).filter((d): d is vscode.Diagnostic => d !== undefined));
  };

  const clear = (uri: vscode.Uri): void => {
    collection.delete(uri);
    deps.found.delete(uri.toString());
  };

  const update = (document: vscode.TextDocument): void => {
    cancelPending(document.uri);
    if (document.isClosed || !settings.enabled || !appliesTo(document)) return clear(document.uri);
    const length = documentLength(document);
    if (length > settings.maxChars) {
      clear(document.uri);
      deps.log?.info(`Diagnostics skipped for ${document.uri.toString(true)}: larger than bizdata.diagnostics.maxFileSizeMB.`);
      return;
    }
    if (length > INLINE_SCAN_CHARS) return void scanLarge(document);
    const text = document.getText();
    if (!mayHoldCodes(text)) return clear(document.uri);
    show(document, findCodes(text, deps.codes.current()));
  };

  const scanLarge = async (document: vscode.TextDocument): Promise<void> => {
    const key = document.uri.toString();
    const abort = new AbortController();
    scans.set(key, abort);
    const version = document.version;
    try {
      const findings = await deps.scanner.scan(documentSlices(document), { book: deps.codes.current(), signal: abort.signal });
      if (abort.signal.aborted || document.isClosed || document.version !== version) return;
      show(document, findings);
      deps.found.set(key, version, findings);
    } catch (err) {
      if (!(err instanceof ScanCancelledError)) deps.log?.warn(`Diagnostics of ${document.uri.toString(true)} failed: ${errorMessage(err)}`);
    } finally {
      if (scans.get(key) === abort) scans.delete(key);
    }
  };

  const forget = (uri: vscode.Uri): void => {
    cancelPending(uri);
    clear(uri);
  };

  const schedule = (document: vscode.TextDocument, delayMs: number): void => {
    cancelPending(document.uri);
    timers.set(document.uri.toString(), setTimeout(() => update(document), delayMs));
  };

  const refreshAll = (): void => {
    for (const document of vscode.workspace.textDocuments) schedule(document, 0);
  };

  context.subscriptions.push(
    collection,
    { dispose: () => [...timers.values()].forEach((t) => clearTimeout(t)) },
    { dispose: () => [...scans.values()].forEach((a) => a.abort()) },
    vscode.workspace.onDidOpenTextDocument((d) => schedule(d, 0)),
    vscode.workspace.onDidChangeTextDocument((e) => {
      // The length from the last line's end offset: cheaper than getText() on every keystroke.
      if (e.contentChanges.length > 0) schedule(e.document, debounceFor(e.document.offsetAt(e.document.lineAt(e.document.lineCount - 1).range.end)));
    }),
    vscode.workspace.onDidCloseTextDocument((d) => forget(d.uri)),
    // VS Code keeps a closed editor's document alive for a while; the user has closed it when its
    // last tab goes, so clear then, and check again when a tab brings it back.
    vscode.window.tabGroups.onDidChangeTabs((e) => {
      for (const uri of e.closed.map(tabUri)) if (uri && !isInTab(uri)) forget(uri);
      for (const uri of e.opened.map(tabUri)) {
        const document = uri && vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
        if (document) schedule(document, 0);
      }
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('bizdata.diagnostics')) return;
      settings = readSettings();
      refreshAll();
    }),
    deps.codes.onDidChange(refreshAll),
  );
  // Documents already open at activation are checked after activate() returns, keeping it cheap.
  refreshAll();
  return collection;
}
