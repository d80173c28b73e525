// A batch job's lines as its report and summary read them after a run (core/run/batchRows.ts), from
// the results file as a stream: the lines before the run's start an earlier run's (of this connection,
// the latest of each input, finished), the others this run's, each without its answer.
import * as assert from 'node:assert/strict';
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { batchJobLines, batchRows, resultsSizeBefore } from '../../../src/core/run/batchRows';
import { tempDirs } from '../tempDirs';

const ip = (address: string) => ({ kind: 'ip', ip: address }) as const;
const line = (address: string, ok: boolean, final: boolean, connection?: string): string =>
  `${JSON.stringify({ input: ip(address), ok, status: ok ? 200 : 401, code: ok ? 'CM000' : 'SC006', body: { big: 'x'.repeat(100) }, final, at: '2026-01-01T00:00:00.000Z', ...(connection ? { connection } : {}) })}\n`;

describe("a batch job's lines, read back after a run (batchJobLines)", () => {
  const dirs = tempDirs();

  it('tells an earlier run\'s finished lines from this run\'s by where the run started, without the answers', async () => {
    const out = join(await dirs.make('bizdata-batch-lines-'), 'out.jsonl');
    await writeFile(out, line('10.0.0.1', true, true, 'prod') + line('10.0.0.2', false, false, 'prod') + line('10.0.0.3', true, true, 'other') + line('10.0.0.4', true, true, 'prod') + line('10.0.0.4', false, false, 'prod') + '{"input":{"kind":"ip","ip":"10.0');
    const start = await resultsSizeBefore(out);
    // This run: a fresh line after the cut one, then its own results.
    await appendFile(out, `\n${line('10.0.0.2', true, true, 'prod')}${line('10.0.0.5', false, false, 'prod')}`);
    const lines = await batchJobLines(out, start, 'prod');
    assert.deepEqual([...lines.finishedBefore.keys()].length, 1, 'only 10.0.0.1: 10.0.0.2 and 10.0.0.4 were left to try again, 10.0.0.3 is another connection\'s');
    assert.deepEqual([...lines.now.values()].map((l) => [l.input, l.ok, l.final]), [[ip('10.0.0.2'), true, true], [ip('10.0.0.5'), false, false]]);
    for (const l of [...lines.finishedBefore.values(), ...lines.now.values()]) assert.equal('body' in l && l.body !== undefined, false, 'no answer is kept');
    const rows = batchRows(['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.5', '10.0.0.1'].map(ip), lines);
    assert.deepEqual(rows.map((r) => [r.label, r.outcome, r.earlier === true, r.again === true]), [
      ['10.0.0.1', 'ok', true, false],
      ['10.0.0.2', 'ok', false, false],
      ['10.0.0.3', 'unsent', false, false],
      ['10.0.0.5', 'failed', false, true],
      ['10.0.0.1', 'repeated', false, false],
    ]);
  });

  it('a results file that is not there yet: nothing before, nothing now', async () => {
    const out = join(await dirs.make('bizdata-batch-lines-'), 'none.jsonl');
    assert.equal(await resultsSizeBefore(out), 0);
    const lines = await batchJobLines(out, 0, undefined);
    assert.equal(lines.finishedBefore.size + lines.now.size, 0);
  });
});
