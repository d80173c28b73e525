// Fails when the .vsix would ship sources, tests, maps or node_modules, or lacks the bundles;
// reports the production bundle sizes (goal for dist/extension.js: under 300 KB).
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';

// What `vsce package` runs first (vscode:prepublish): the production bundles and the package README.
execFileSync('node', ['esbuild.mjs', '--production'], { stdio: 'inherit' });
execFileSync('node', ['scripts/package-readme.mjs'], { stdio: 'inherit' });
const listing = execFileSync('npx', ['--no-install', 'vsce', 'ls'], { encoding: 'utf8' });
const files = listing.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('npm warn'));

const problems = [];
for (const required of ['dist/extension.js', 'dist/cli.js', 'package.json', 'LICENSE']) {
  if (!files.includes(required)) problems.push(`missing ${required}`);
}
for (const f of files) {
  if (/^(src|test|out|bench|scripts|node_modules)\//.test(f) || /\.(ts|map)$/.test(f)) problems.push(`must not ship ${f}`);
}
const kb = (p) => (statSync(p).size / 1024).toFixed(1);
console.log(`package: ${files.length} files; dist/extension.js ${kb('dist/extension.js')} KB, dist/cli.js ${kb('dist/cli.js')} KB (production)`);
if (problems.length > 0) {
  console.error(`package check failed:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
