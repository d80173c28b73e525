// The files a request's schema and snapshot assertions read (answerChecks.ts), read before it is
// sent, by the engine's one preparation (core/run/prepare.ts): each schema compiled (once per run),
// the snapshot read if there is one. A schema that is missing, outside the request file's folder or
// not a usable JSON Schema, or a snapshot that may not be read (a link), stops the request at the
// assertion's line before anything is sent.
import type { AnswerChecks } from './answerChecks';
import type { SchemaError } from './jsonSchema';
import type { RequestFileAccess } from './requestFileAccess';
import type { ParsedRequest, ParsedRequestFile } from './requestFile';
import { DEFAULT_SNAPSHOT_IGNORE, snapshotName, type LoadedSnapshot } from './snapshotCheck';
import { snapshotPath } from './snapshotFiles';

export type LoadedChecks = { readonly ok: true; readonly checks?: AnswerChecks } | { readonly ok: false; readonly line: number; readonly message: string };

/** The request's checks, read through `files`; `row`: a data row's values, which name its own snapshot. */
export async function loadAnswerChecks(file: ParsedRequestFile, r: ParsedRequest, files: RequestFileAccess, row?: ReadonlyMap<string, string>): Promise<LoadedChecks> {
  const schemas = new Map<number, (body: unknown) => readonly SchemaError[]>();
  let snapshot: LoadedSnapshot | undefined;
  for (const a of r.assertions) {
    if (a.subject === 'schema') {
      const loaded = await files.schema(a.expected ?? '');
      if (!loaded.ok) return { ok: false, line: a.line, message: loaded.message };
      schemas.set(a.line, loaded.validate);
    } else if (a.subject === 'snapshot' && snapshot === undefined) {
      const name = snapshotName(files.requestFileName, file.requests, r.index, row);
      const path = snapshotPath(name);
      const read = await files.readSnapshot(name);
      if (!read.ok) return { ok: false, line: a.line, message: read.message };
      let expected: unknown;
      try {
        expected = read.text === undefined ? undefined : (JSON.parse(read.text) as unknown);
      } catch (err) {
        const fix = 'Delete it and run once to write it again, or run with --update-snapshots.';
        return { ok: false, line: a.line, message: `The snapshot ${path} is not JSON (${(err as Error).message}). ${fix}` };
      }
      snapshot = { name, path, expected, writing: files.snapshots, ignore: [...DEFAULT_SNAPSHOT_IGNORE, ...r.settings.snapshotIgnore] };
    }
  }
  if (schemas.size === 0 && snapshot === undefined) return { ok: true };
  return { ok: true, checks: { schemas, ...(snapshot ? { snapshot } : {}) } };
}
