// The .vsix README: the repository README without its pictures and its notes for the docs test.
// vsce accepts only absolute https images (it rewrites relative ones against a public repository URL,
// which this project does not have), and the screenshots serve the repository page, not the
// installed extension. Links into the repository (the guides in docs/) keep their text only.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const text = readFileSync(join(root, 'README.md'), 'utf8')
  .split('\n')
  .filter((line) => !/^!\[[^\]]*\]\([^)]*\)\s*$/.test(line) && !/^<!--.*-->\s*$/.test(line) && !/^_Not run by the docs test: .*_\s*$/.test(line))
  .join('\n')
  // Links into the repository would be broken inside the package: keep their text.
  .replace(/\[([^\]]+)\]\((?!https?:|#)[^)]+\)/g, '$1')
  .replace(/\n{3,}/g, '\n\n');
mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(join(root, 'dist', 'README.md'), text);
