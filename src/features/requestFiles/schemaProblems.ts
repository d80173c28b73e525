// The schema files of a request file's `?? schema ./FILE` assertions, checked as a run would check
// them before sending (core/requests/schemaCheck.ts, through one request file's access): a file
// that is missing, outside the folder, not JSON or not a usable JSON Schema is an error at its
// assertion's line. Plain TypeScript (Node-tested); requestDiagnostics.ts shows the problems.
import type { RequestFileAccess } from '../../core/requests/requestFileAccess';
import type { ParsedRequestFile } from '../../core/requests/requestFile';
import type { RequestProblem } from '../../core/run/fileChecks';

/** The problems of the file's schema assertions, read through `files` (which keeps what it compiled). */
export async function schemaProblems(parsed: ParsedRequestFile, files: Pick<RequestFileAccess, 'schema'>): Promise<RequestProblem[]> {
  const out: RequestProblem[] = [];
  for (const r of parsed.requests) {
    for (const a of r.assertions) {
      if (a.subject !== 'schema') continue;
      const loaded = await files.schema(a.expected ?? '');
      if (!loaded.ok) out.push({ span: a.span, message: loaded.message, severity: 'error', code: 'assertion' });
    }
  }
  return out;
}

/** Whether the file has a schema assertion at all (nothing to read otherwise). */
export function hasSchemaAssertion(parsed: ParsedRequestFile): boolean {
  return parsed.requests.some((r) => r.assertions.some((a) => a.subject === 'schema'));
}
