// What a request of a request file reads from outside its text when sent from the editor: the
// answers to its `# @prompt` lines (asked now, never kept), the `.env` beside the file, the
// environment variables the user allows `{{$processEnv}}` to read (a setting of the user's, never
// of a workspace: a cloned repository cannot widen it), and its body files, read only inside the
// file's workspace folder (its own folder when it is in none).
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { dotenvBeside } from '../../core/requests/fileSafety';
import { noFileAccess, requestFileAccess } from '../../core/requests/requestFileAccess';
import type { SnapshotWriting } from '../../core/requests/snapshotCheck';
import type { ParsedRequest } from '../../core/requests/requestFile';
import type { DotenvValues } from '../../core/requests/systemVariables';
import type { FileInputs } from '../../core/run/prepare';
import { askPrompts } from './requestSettingsUi';

export const ALLOW_ENV_SECTION = 'bizdata.requestFiles';
export const ALLOW_ENV_KEY = 'allowEnv';

/** The inputs of one send; undefined when the user closed a prompt (nothing is sent then). */
export async function requestInputs(uri: vscode.Uri, r: ParsedRequest, label: string, snapshots: SnapshotWriting = 'missing'): Promise<FileInputs | undefined> {
  const prompts = await askPrompts(r.settings.prompts, label);
  if (prompts === undefined) return undefined;
  const allowEnv = new Set(allowedEnvironment());
  const allowEnvHow = (name: string) => `add "${name}" to the user setting ${ALLOW_ENV_SECTION}.${ALLOW_ENV_KEY}`;
  if (uri.scheme !== 'file') {
    const unsaved = `the request file is not saved yet; save it in a folder first`;
    const dotenv: DotenvValues = { ok: false, path: '.env', why: unsaved };
    return { prompts, system: { dotenv, allowEnv, env: process.env, allowEnvHow }, files: noFileAccess(unsaved) };
  }
  const path = uri.fsPath;
  const root = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? dirname(path);
  return { prompts, system: { dotenv: await dotenvBeside(path, root), allowEnv, env: process.env, allowEnvHow }, files: requestFileAccess(path, root, snapshots) };
}

/** The names of the user setting only: a workspace's or a folder's value is never read. */
function allowedEnvironment(): string[] {
  const value = vscode.workspace.getConfiguration(ALLOW_ENV_SECTION).inspect<unknown>(ALLOW_ENV_KEY)?.globalValue;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
