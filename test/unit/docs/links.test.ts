// Every relative link and picture in README.md and docs/*.md points at a file of the repository and,
// with a `#fragment`, at a heading of that Markdown file (anchors as GitHub makes them); every guide
// in docs/ is reachable from the README; the README stays a landing page.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { anchors, links, readGuides, repoPath, ROOT, type Guide } from './guides';

describe('docs: links and pictures', () => {
  let guides: Guide[];
  let byFile: Map<string, Guide>;

  before(() => {
    guides = readGuides();
    byFile = new Map(guides.map((g) => [g.file, g]));
  });

  it('every relative link and image resolves to a file, and every #fragment to a heading', async () => {
    const broken: string[] = [];
    let checked = 0;
    for (const g of guides) {
      for (const l of links(g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(l.target)) continue; // https:, mailto: …
        checked++;
        const [path, fragment] = l.target.split('#', 2) as [string, string | undefined];
        const target = path === '' ? g.file : repoPath(resolve(join(ROOT, dirname(g.file)), decodeURIComponent(path)));
        if (!existsSync(join(ROOT, target))) {
          broken.push(`${l.file}:${l.line}: ${l.target}: no file ${target}`);
          continue;
        }
        if (fragment === undefined) continue;
        const md = byFile.get(target);
        if (!md) {
          broken.push(`${l.file}:${l.line}: ${l.target}: a #fragment into ${target}, which is not a guide`);
        } else if (!(await anchors(md)).has(fragment)) {
          broken.push(`${l.file}:${l.line}: ${l.target}: ${target} has no heading #${fragment}`);
        }
      }
    }
    assert.ok(checked > 50, `only ${checked} relative links found`);
    assert.deepEqual(broken, []);
  });

  it('every guide in docs/ is linked from the README, which stays under 300 lines', () => {
    const readme = byFile.get('README.md');
    assert.ok(readme);
    const linked = new Set(links(readme).map((l) => l.target.split('#')[0]));
    const missing = guides.filter((g) => g.file.startsWith('docs/') && !linked.has(g.file)).map((g) => g.file);
    assert.deepEqual(missing, [], 'guides the README does not link');
    const lines = readme.text.split('\n').length;
    assert.ok(lines <= 300, `README.md has ${lines} lines`);
  });
});
