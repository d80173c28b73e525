// The editor's side of a run's edges (core/run/preflight.ts and asking.ts), for Send, the Test
// Explorer and Run with Data: the files as the editor has them (an open editor's text, body files, the
// `.env` and a data file beside it read only inside the request file's own folder, as `bizdata` reads
// them), the window's connections (their stored
// credentials join the run's secrets), Workspace Trust, and the questions asked in the core's order as
// modals and input boxes. It decides nothing: what is refused and asked is the preflight's.
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import type { DataSource } from '../../core/data/dataSource';
import type { Credentials } from '../../core/model';
import type { RunSecrets } from '../../core/redact';
import { bodyFiles, dotenvBeside, type BodyFileAccess } from '../../core/requests/fileSafety';
import type { ParsedRequest, ParsedRequestFile } from '../../core/requests/requestFile';
import type { DotenvValues } from '../../core/requests/systemVariables';
import { askRun, type RunAnswers, type RunAsker } from '../../core/run/asking';
import { preflight, type Preflight, type PreflightFile, type Refusal, type RunConnections } from '../../core/run/preflight';
import { confirmProductionRun } from '../connection/consent';
import type { Connections } from '../connection/connections';
import { INTERFACE_IDS } from '../shared/interfaces';
import { askPrompts, confirmNote } from './requestSettingsUi';

export const ALLOW_ENV_SECTION = 'bizdata.requestFiles';
export const ALLOW_ENV_KEY = 'allowEnv';

/** A request file of a run as the editor has it. */
export interface EditorFile {
  readonly uri: vscode.Uri;
  readonly text: string;
  readonly parsed: ParsedRequestFile;
  /** The requests that run (`# @disabled` ones left out). */
  readonly requests: readonly ParsedRequest[];
  /** Its data file, when it is data-driven. */
  readonly data?: DataSource;
}

/** The run's edges, passed: what the host's requests read and confirm, and its one set of secrets. */
export interface EditorEdges {
  readonly ok: true;
  readonly preflight: Preflight;
  readonly answers: RunAnswers;
  readonly secrets: RunSecrets;
  /** A file's place in the preflight (its inputs, its name in messages). */
  fileOf(uri: vscode.Uri): PreflightFile;
}

export type EditorRefusal = { readonly ok: false; readonly refusals: readonly Refusal[]; readonly more: number } | { readonly ok: false; readonly declined: true };

/** The folder a request file reads from: its own, as on the command line (the door resolves links), so a file reads the same files everywhere. */
export function readRoot(uri: vscode.Uri): string {
  return dirname(uri.fsPath);
}

/** What a request file's requests read besides its text: the `.env` beside it, the allowed environment, body files. */
export async function fileInputs(uri: vscode.Uri): Promise<PreflightFile['inputs']> {
  const allowEnv = new Set(allowedEnvironment());
  const allowEnvHow = (name: string): string => `add "${name}" to the user setting ${ALLOW_ENV_SECTION}.${ALLOW_ENV_KEY}`;
  if (uri.scheme !== 'file') {
    const unsaved = 'the request file is not saved yet; save it in a folder first';
    const dotenv: DotenvValues = { ok: false, path: '.env', why: unsaved };
    const files: BodyFileAccess = { read: () => Promise.resolve({ ok: false, message: `A body file is read relative to its request file, and ${unsaved}.` }) };
    return { system: { dotenv, allowEnv, env: process.env, allowEnvHow }, files };
  }
  const root = readRoot(uri);
  return { system: { dotenv: await dotenvBeside(uri.fsPath, root), allowEnv, env: process.env, allowEnvHow }, files: bodyFiles(uri.fsPath, root) };
}

/** The names of the user setting only: a workspace's or a folder's value is never read. */
function allowedEnvironment(): string[] {
  const value = vscode.workspace.getConfiguration(ALLOW_ENV_SECTION).inspect<unknown>(ALLOW_ENV_KEY)?.globalValue;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The window's connections for a run: their addresses, production marks and stored credentials. */
export function editorConnections(connections: Connections): RunConnections {
  const choice = connections.choice();
  return {
    ...choice,
    endpoints: (name) => choice.endpoints(name),
    isProduction: (name) => connections.named(name)?.production === true,
    async credentials(name) {
      const connection = connections.named(name);
      const out: Credentials[] = [];
      for (const id of INTERFACE_IDS) {
        const c = await connection?.credentials(id);
        if (c) out.push(c);
      }
      return out;
    },
  };
}

/** Checks the run and asks its questions (`what`: the run, as the production question names it); nothing is sent before. */
export async function editorEdges(connections: Connections, files: readonly EditorFile[], what: string): Promise<EditorEdges | EditorRefusal> {
  const planned = new Map<string, PreflightFile>();
  for (const f of files) {
    const file: PreflightFile = { path: vscode.workspace.asRelativePath(f.uri), text: f.text, parsed: f.parsed, requests: f.requests, inputs: await fileInputs(f.uri), ...(f.data ? { data: f.data } : {}) };
    planned.set(f.uri.toString(), file);
  }
  const run = editorConnections(connections);
  const p = await preflight({ files: [...planned.values()], connections: run, trusted: vscode.workspace.isTrusted });
  if (p.refusals.length > 0) return { ok: false, refusals: p.refusals, more: p.more };
  const asked = await askRun(p, editorAsker(connections, what));
  if (!asked.ok) return asked.refusals ? { ok: false, refusals: asked.refusals, more: 0 } : { ok: false, declined: true };
  // A secret-looking prompt's answer is hidden from the log and the history like a credential: every connection the run reaches knows it.
  for (const q of p.prompts) {
    const answer = q.prompt.secret ? asked.answers.prompts.get(q.file.path)?.get(q.prompt.name) : undefined;
    if (answer) for (const name of p.reached) connections.named(name)?.getClient().addSecret(answer);
  }
  const secrets: RunSecrets = {
    // The run's registry (every reached connection's stored credentials, the secret prompts) and each client's (the tokens it was given).
    redact: (text) => p.secrets.redact(connections.redact(text)),
    holds: (text) => p.secrets.holds(text) || connections.holds(text),
  };
  return { ok: true, preflight: p, answers: asked.answers, secrets, fileOf: (uri) => planned.get(uri.toString()) as PreflightFile };
}

/** The editor's way of asking: one modal for production, one per note, an input box per prompt (masked when secret). */
function editorAsker(connections: Connections, what: string): RunAsker {
  return {
    production: (names) => confirmProductionRun(names.flatMap((n) => connections.named(n) ?? []), what),
    async notes(notes) {
      const confirmed = new Set<ParsedRequest>();
      for (const n of notes) if (await confirmNote(n.note, `${labelOf(n.request)}${n.perRow ? ' for every row' : ''}`)) confirmed.add(n.request);
      return confirmed;
    },
    async prompts(questions) {
      const byFile = new Map<string, Map<string, string>>();
      for (const q of questions) {
        const answer = await askPrompts([q.prompt], labelOf(q.request));
        const value = answer?.get(q.prompt.name);
        if (value === undefined) return undefined;
        const mine = byFile.get(q.file.path) ?? new Map<string, string>();
        mine.set(q.prompt.name, value);
        byFile.set(q.file.path, mine);
      }
      return byFile;
    },
  };
}

/** The label a request goes by in the editor's questions. */
export function labelOf(r: ParsedRequest): string {
  return r.name ?? `the request at line ${r.requestLine + 1}`;
}
