// Fails when the .vsix ships sources, tests, maps or node_modules, or lacks the bundles; reports the
// production bundle sizes (goal for dist/extension.js: under 300 KB). Reads the package itself, as
// `npm run package` (vsce, after its production build) wrote it: `npm run check:package` packages first.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const vsix = resolve(import.meta.dirname, '..', process.argv[2] ?? 'bizdata-explorer.vsix');

/** Name and size of every file in a zip archive, from its central directory. */
function zipEntries(buffer) {
  const end = buffer.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error(`${vsix} is not a zip archive`);
  const count = buffer.readUInt16LE(end + 10);
  let at = buffer.readUInt32LE(end + 16);
  const entries = new Map();
  for (let i = 0; i < count; i++) {
    if (buffer.readUInt32LE(at) !== 0x02014b50) throw new Error(`${vsix}: damaged central directory`);
    const size = buffer.readUInt32LE(at + 24);
    const nameLength = buffer.readUInt16LE(at + 28);
    const rest = nameLength + buffer.readUInt16LE(at + 30) + buffer.readUInt16LE(at + 32);
    entries.set(buffer.toString('utf8', at + 46, at + 46 + nameLength), size);
    at += 46 + rest;
  }
  return entries;
}

const entries = zipEntries(readFileSync(vsix));
// vsce puts the extension's files under extension/, beside its own manifest files.
const files = new Map([...entries].filter(([name]) => name.startsWith('extension/')).map(([name, size]) => [name.slice('extension/'.length), size]));

const problems = [];
for (const required of ['dist/extension.js', 'dist/cli.js', 'dist/coordinator.js', 'dist/lockfile.js', 'dist/scanWorker.js', 'package.json', 'LICENSE.txt']) {
  if (!files.has(required)) problems.push(`missing ${required}`);
}
for (const f of files.keys()) {
  if (/^(src|test|out|bench|scripts|node_modules)\//.test(f) || /\.(ts|map)$/.test(f) || f.endsWith('.vsix')) problems.push(`must not ship ${f}`);
}
const kb = (name) => ((files.get(name) ?? 0) / 1024).toFixed(1);
console.log(`package: ${files.size} files; dist/extension.js ${kb('dist/extension.js')} KB, dist/cli.js ${kb('dist/cli.js')} KB, dist/coordinator.js ${kb('dist/coordinator.js')} KB (only with a coordinator), dist/lockfile.js ${kb('dist/lockfile.js')} KB (at the first sign-in) (production)`);
if (problems.length > 0) {
  console.error(`package check failed:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
