// The one place a run writes snapshots (`?? snapshot`, core/requests/snapshotCheck.ts): after the
// judge has said which answer to keep, for every host alike. A request that ended in an error keeps
// nothing. A snapshot that cannot be written (a link, a folder outside the request file's) fails
// its assertion, saying why, and so its request.
import type { AssertionOutcome } from '../requests/assertions';
import type { AnswerChecks } from '../requests/answerChecks';
import type { RequestFileAccess } from '../requests/requestFileAccess';
import type { RequestOutcome } from './judge';

/** The outcome once its snapshot is written, without the text it carried to here. */
export async function keepSnapshots(outcome: RequestOutcome, checks: AnswerChecks | undefined, files: Pick<RequestFileAccess, 'writeSnapshot'>): Promise<RequestOutcome> {
  if (!outcome.assertions.some((a) => a.write !== undefined)) return outcome;
  const assertions: AssertionOutcome[] = [];
  for (const a of outcome.assertions) {
    const { write, note, ...rest } = a;
    if (write === undefined) assertions.push(a);
    else if (outcome.verdict === 'error' || !checks?.snapshot) assertions.push(rest);
    else {
      const written = await files.writeSnapshot(checks.snapshot.name, write);
      if (written.ok) assertions.push({ ...rest, ...(note !== undefined ? { note } : {}) });
      else {
        const actual = `(not written: ${written.message})`;
        assertions.push({ ...rest, passed: false, actual, message: `${a.assertion.subject}: expected ${a.expected}, actual ${actual}` });
      }
    }
  }
  const verdict = outcome.verdict === 'passed' && assertions.some((a) => !a.passed) ? 'failed' : outcome.verdict;
  return { ...outcome, verdict, assertions };
}
