// No source file over 300 lines: a file that grows past it is split at its seam (docs/architecture.md,
// issue 26), each part with a first comment that says what it holds. The few files still over it are
// named below, each with why, so the list can only shrink.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..', '..');
const MOST_LINES = 300;

/** Files allowed over the limit for now: none (src/core/batch.ts went into the rows runner, core/run/). */
const STILL_OVER: ReadonlySet<string> = new Set<string>([]);

/** Every file under `dir`, as a path from the repository's root with forward slashes. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    return e.isDirectory() ? filesUnder(path) : e.isFile() ? [path] : [];
  });
}

/** Lines as `wc -l` and an editor count them: a last line without a line break counts too. */
function lineCount(text: string): number {
  const breaks = text.split('\n').length - 1;
  return text === '' || text.endsWith('\n') ? breaks : breaks + 1;
}

describe('architecture: file sizes', () => {
  const sizes = new Map(filesUnder('src').map((file) => [file, lineCount(readFileSync(join(ROOT, file), 'utf8'))]));

  it(`no file under src/ is over ${MOST_LINES} lines`, () => {
    assert.ok(sizes.size > 100, `expected the source files under ${join(ROOT, 'src')}, found ${sizes.size}`);
    const over = [...sizes].filter(([file, lines]) => lines > MOST_LINES && !STILL_OVER.has(file));
    assert.deepEqual(
      over.map(([file, lines]) => `${file}: ${lines} lines`),
      [],
      `split each at its seam into files of at most ${MOST_LINES} lines, each with a first comment that says what it holds`,
    );
  });

  it('every file allowed over the limit is still there and still over it', () => {
    const stale = [...STILL_OVER].filter((file) => (sizes.get(file) ?? 0) <= MOST_LINES);
    assert.deepEqual(stale, [], `remove these from STILL_OVER in test/unit/architecture/fileSizes.test.ts: they are gone or no longer over ${MOST_LINES} lines`);
  });
});
