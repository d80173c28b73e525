// "Business Data: Import Requests…": a Postman collection (with an environment if you pick one), a
// HAR file or an OpenAPI document, picked in a dialog or named by the Explorer's context menu,
// written as request files by core/import (the rules and the output door of `bizdata import`) into
// a folder, then opened; what was imported, changed or left out goes to the log, summed up in a
// message. The importer comes from its own bundle, loaded at the first import.
import * as vscode from 'vscode';
import type { ImportResult } from '../core/import/importer';
import type { Services } from '../features/services';
import type { ImportRequestsArgs } from '../features/shared/commandIds';
import { UserError } from '../features/shared/userError';
import { field, isRecord } from './args';

const SOURCES = { 'Postman collection, HAR file or OpenAPI document': ['json', 'har', 'yaml', 'yml'] };
const SHOW_REPORT = 'Show Report';
const REPLACE = 'Replace';
/** More files than this are written but not all opened. */
const MOST_OPENED = 10;

/** Test inputs (ExtensionMode.Test only, ImportRequestsArgs): the file, environment and folder, and whether to replace files there. */
type Given = ImportRequestsArgs;

/** Returns the URIs (strings) of the request files written; none when a dialog was cancelled. */
export async function importRequests(services: Services, arg?: unknown): Promise<string[]> {
  const given = services.testMode ? testInputs(arg) : {};
  const source = arg instanceof vscode.Uri ? arg : (given.file ?? (await pickFile('Import', SOURCES)));
  if (!source) return [];
  const importer = await import('../core/import/importer.js');
  const shown = vscode.workspace.asRelativePath(source);
  const text = await readText(source);
  const kind = importer.guessKind(text);
  if (kind === 'environment')
    throw new UserError(`${shown} is a Postman environment: import the collection, and pick this environment when asked for one.`);
  if (kind === undefined) throw new UserError(`${shown} is not a Postman collection, a HAR file or an OpenAPI document (JSON or YAML).`);
  const environment = kind === 'postman' ? await chooseEnvironment(source, given) : undefined;
  if (environment === null) return [];
  const name = source.path.split('/').at(-1) ?? 'requests';
  const out = given.out ?? (await chooseFolder(source, importer.slug(name.replace(/\.[^.]*$/, ''))));
  if (!out) return [];
  if (out.scheme !== 'file') throw new UserError("Pick a folder on this computer's disk: request files are written there.");
  let result: ImportResult;
  try {
    const read = importer.readImportSource(kind, text, name, environment === undefined ? undefined : await readText(environment));
    result = importer.writeImport(read, { endpoints: services.connections.active.settings().endpoints, hosts: [], all: false });
  } catch (err) {
    if (err instanceof importer.ImportError) throw new UserError(`${shown}: ${err.message}`);
    throw err;
  }
  log(services, shown, vscode.workspace.asRelativePath(out), result);
  if (result.files.length === 0)
    throw new UserError(`Nothing of ${shown} could be imported: ${leftOut(result)}, listed in the log (Business Data: Show Log).`);
  const files = [...result.files, ...result.bodyFiles];
  let paths: string[];
  try {
    paths = await importer.writeFilesInFolder(out.fsPath, files, given.replace === true);
  } catch (err) {
    if (err instanceof importer.ExistingFilesError && given.replace === undefined && (await confirmReplace(err.files)))
      paths = await importer.writeFilesInFolder(out.fsPath, files, true);
    else if (err instanceof importer.OutputFolderError) throw new UserError(err.message);
    else throw err;
  }
  const written = paths.slice(0, result.files.length).map((p) => vscode.Uri.file(p));
  for (const uri of written.slice(0, MOST_OPENED)) {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
  }
  const requests = result.files.reduce((n, f) => n + f.requests, 0);
  const changed = result.report.filter((l) => l.kind === 'changed').length;
  const parts = [`${count(requests, 'request')} of ${shown} into ${count(written.length, 'file')}`, ...(changed > 0 ? [count(changed, 'change')] : []), leftOut(result)];
  const summary = `Imported ${parts.join(', ')}: see the log.`;
  void vscode.window.showInformationMessage(summary, SHOW_REPORT).then((choice) => (choice === SHOW_REPORT ? services.log.show(true) : undefined));
  return written.map((u) => u.toString());
}

function testInputs(arg: unknown): Given {
  if (!isRecord(arg)) return {};
  const uri = (key: string): vscode.Uri | undefined => {
    const value = field(arg, key);
    return value instanceof vscode.Uri ? value : undefined;
  };
  const replace = field(arg, 'replace');
  return {
    file: uri('file'),
    environment: field(arg, 'environment') === null ? null : uri('environment'),
    out: uri('out'),
    ...(typeof replace === 'boolean' ? { replace } : {}),
  };
}

/** The environment to import with the collection: undefined for none, null when the question was cancelled. */
async function chooseEnvironment(source: vscode.Uri, given: Given): Promise<vscode.Uri | undefined | null> {
  if (given.environment !== undefined) return given.environment ?? undefined;
  if (given.file) return undefined;
  const none = { label: 'No environment', description: "the collection's own variables" };
  const pick = { label: 'Choose an environment file…', description: "its values win over the collection's, as in Postman" };
  const choice = await vscode.window.showQuickPick([none, pick], { title: 'Import with a Postman environment?', ignoreFocusOut: true });
  if (!choice) return null;
  return choice === none ? undefined : ((await pickFile('Use this environment', { 'Postman environment': ['json'] }, source)) ?? null);
}

/** A new folder beside the source, or one the user picks; undefined when cancelled. */
async function chooseFolder(source: vscode.Uri, base: string): Promise<vscode.Uri | undefined> {
  const beside = vscode.Uri.joinPath(source, '..', base);
  const here = { label: `$(new-folder) ${base}`, description: 'a folder beside the file (made when missing)' };
  const other = { label: '$(folder-opened) Choose a folder…' };
  const choice = await vscode.window.showQuickPick([here, other], { title: 'Write the request files into', ignoreFocusOut: true });
  if (!choice) return undefined;
  if (choice === here) return beside;
  const picked = await vscode.window.showOpenDialog({
    canSelectFiles: false,
    canSelectFolders: true,
    canSelectMany: false,
    defaultUri: vscode.Uri.joinPath(source, '..'),
    openLabel: 'Write Here',
  });
  return picked?.[0];
}

async function pickFile(openLabel: string, filters: Record<string, string[]>, near?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectFiles: true,
    canSelectMany: false,
    filters,
    openLabel,
    ...(near ? { defaultUri: vscode.Uri.joinPath(near, '..') } : {}),
  });
  return picked?.[0];
}

async function readText(uri: vscode.Uri): Promise<string> {
  try {
    return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
  } catch (err) {
    throw new UserError(`Cannot read ${vscode.workspace.asRelativePath(uri)}: ${(err as Error).message}`);
  }
}

async function confirmReplace(files: readonly string[]): Promise<boolean> {
  const names = files.length > 3 ? `${files.slice(0, 3).join(', ')} and ${files.length - 3} more` : files.join(', ');
  return (
    (await vscode.window.showWarningMessage(
      `The folder has ${names} already. Replace ${files.length === 1 ? 'it' : 'them'} with the import?`,
      { modal: true },
      REPLACE,
    )) === REPLACE
  );
}

/** Every line of the report in the log, at the place of the source it is about. */
function log(services: Services, shown: string, out: string, result: ImportResult): void {
  const requests = result.files.reduce((n, f) => n + f.requests, 0);
  services.log.info(`Import Requests: ${shown} → ${out}: ${count(requests, 'request')} in ${count(result.files.length, 'file')}.`);
  const words = { imported: 'imported', changed: 'changed', 'left-out': 'left out' } as const;
  for (const l of result.report) services.log.info(`Import Requests: ${words[l.kind]}: ${l.where}: ${l.message}`);
}

function leftOut(result: ImportResult): string {
  const n = result.report.filter((l) => l.kind === 'left-out').length;
  return n === 0 ? 'nothing left out' : `${n} left out`;
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
