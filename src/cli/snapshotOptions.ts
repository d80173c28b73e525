// The flags of `bizdata test` for `?? snapshot` assertions, and CI as the command line sees it (the
// `CI` variable every CI service sets, or --ci). The rule of what a run writes is the core's
// (core/requests/snapshotCheck.ts).
import { snapshotWriting, type SnapshotWriting } from '../core/requests/snapshotCheck';

export const SNAPSHOT_OPTIONS = { 'update-snapshots': { type: 'boolean' }, ci: { type: 'boolean' } } as const;

export interface SnapshotValues {
  readonly 'update-snapshots'?: boolean;
  readonly ci?: boolean;
}

export const SNAPSHOT_HELP = `Schema and snapshot assertions check a whole JSON answer:
  ?? schema ./answer.schema.json  the body is valid against a JSON Schema file beside the request
                      file (draft-07, 2019-09, or 2020-12, the default; by its "$schema"); a failure
                      names each value's JSON pointer and the rule it breaks. The file is read only
                      inside the request file's folder, before anything is sent.
  ?? snapshot         the body equals the one kept in __snapshots__/FILE.NAME.json beside the request
                      file (FILE the request file's name, NAME the request's # @name or ### title, or
                      request-N); the first run writes it; a failure names the paths that differ.
                      Transaction ids and timestamps are left out, and what "# @snapshot-ignore
                      $.path" lines above the request name; no credential or token is ever kept.
  --update-snapshots  write every snapshot that is missing or differs (the assertion passes)
  --ci                a missing snapshot fails instead of being written, as when the CI variable is
                      set (true, 1, or any value but false and 0): commit snapshots with the files`;

/** What the run may write of snapshots: its flags, and CI's variable. */
export function cliSnapshotWriting(values: SnapshotValues, env: NodeJS.ProcessEnv): SnapshotWriting {
  const ci = env.CI;
  return snapshotWriting({ update: values['update-snapshots'], ci: values.ci === true || (ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0') });
}
