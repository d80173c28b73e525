// Fails when the .vsix ships sources, tests, maps or node_modules, or lacks the bundles or what the
// Marketplace shows (a 128x128 PNG icon, categories, keywords); reports the production bundle sizes
// and fails when dist/extension.js, what activation loads, is over 250 KB. Reads the package itself, as
// `npm run package` (vsce, after its production build) wrote it: `npm run check:package` packages first.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { inflateRawSync } from 'node:zlib';

const vsix = resolve(import.meta.dirname, '..', process.argv[2] ?? 'bizdata-explorer.vsix');

/** Every file in a zip archive, from its central directory: name, size, and how to read it. */
function zipEntries(buffer) {
  const end = buffer.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error(`${vsix} is not a zip archive`);
  const count = buffer.readUInt16LE(end + 10);
  let at = buffer.readUInt32LE(end + 16);
  const entries = new Map();
  for (let i = 0; i < count; i++) {
    if (buffer.readUInt32LE(at) !== 0x02014b50) throw new Error(`${vsix}: damaged central directory`);
    const method = buffer.readUInt16LE(at + 10);
    const compressed = buffer.readUInt32LE(at + 20);
    const size = buffer.readUInt32LE(at + 24);
    const nameLength = buffer.readUInt16LE(at + 28);
    const rest = nameLength + buffer.readUInt16LE(at + 30) + buffer.readUInt16LE(at + 32);
    const local = buffer.readUInt32LE(at + 42);
    entries.set(buffer.toString('utf8', at + 46, at + 46 + nameLength), { size, method, compressed, local });
    at += 46 + rest;
  }
  return entries;
}

/** The content of one entry (stored or deflated, the two methods vsce writes). */
function zipRead(buffer, entry) {
  const start = entry.local + 30 + buffer.readUInt16LE(entry.local + 26) + buffer.readUInt16LE(entry.local + 28);
  const data = buffer.subarray(start, start + entry.compressed);
  if (entry.method === 0) return data;
  if (entry.method === 8) return inflateRawSync(data);
  throw new Error(`${vsix}: compression method ${entry.method} is not read here`);
}

/** Width and height of a PNG, or undefined when `data` is not one (signature, then the IHDR chunk). */
function pngSize(data) {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (data.length < 24 || !data.subarray(0, 8).equals(signature) || data.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

const archive = readFileSync(vsix);
const entries = zipEntries(archive);
// vsce puts the extension's files under extension/, beside its own manifest files.
const inside = new Map([...entries].filter(([name]) => name.startsWith('extension/')).map(([name, entry]) => [name.slice('extension/'.length), entry]));
const files = new Map([...inside].map(([name, entry]) => [name, entry.size]));

const problems = [];
// Every bundle, and when it loads (esbuild.mjs builds them; the entries load the others on demand).
const BUNDLES = {
  'dist/extension.js': 'at activation',
  'dist/workbench.js': 'at the first command, view, result document or request file',
  'dist/scanWorker.js': 'on a worker, for large answers',
  'dist/cli.js': 'the command line',
  'dist/cliCodes.js': 'bizdata check, explain',
  'dist/cliService.js': 'the commands that call the service',
  'dist/cliSandbox.js': 'bizdata sandbox',
  'dist/cliImport.js': 'bizdata import',
  'dist/coordinator.js': 'only with a coordinator',
  'dist/lockfile.js': 'at the first sign-in',
  'dist/re2.js': 'at the first ?? matches',
  'dist/jsonSchema.js': 'at the first ?? schema',
  'dist/report.js': 'when a report is written or opened',
  'dist/importer.js': 'at the first Import Requests',
};
const ACTIVATION_GOAL_KB = 250;
for (const required of [...Object.keys(BUNDLES), 'package.json', 'LICENSE.txt']) {
  if (!files.has(required)) problems.push(`missing ${required}`);
}
// What the Marketplace shows: a 128x128 PNG icon (it takes no SVG), categories beyond Other, keywords.
const manifest = inside.has('package.json') ? JSON.parse(zipRead(archive, inside.get('package.json')).toString('utf8')) : {};
const icon = typeof manifest.icon === 'string' ? inside.get(manifest.icon) : undefined;
const iconSize = icon ? pngSize(zipRead(archive, icon)) : undefined;
if (typeof manifest.icon !== 'string') problems.push('package.json names no icon');
else if (!icon) problems.push(`the icon ${manifest.icon} is not in the package`);
else if (!iconSize) problems.push(`the icon ${manifest.icon} is not a PNG`);
else if (iconSize.width !== 128 || iconSize.height !== 128) problems.push(`the icon ${manifest.icon} is ${iconSize.width}x${iconSize.height}, not 128x128`);
if (!Array.isArray(manifest.categories) || manifest.categories.every((c) => c === 'Other')) problems.push('package.json needs categories that say what the extension is, not only Other');
if (!Array.isArray(manifest.keywords) || manifest.keywords.length === 0) problems.push('package.json has no keywords');
for (const f of files.keys()) {
  if (/^(src|test|out|bench|scripts|node_modules)\//.test(f) || /\.(ts|map)$/.test(f) || f.endsWith('.vsix')) problems.push(`must not ship ${f}`);
}
const kb = (name) => ((files.get(name) ?? 0) / 1024).toFixed(1);
if (Number(kb('dist/extension.js')) > ACTIVATION_GOAL_KB) problems.push(`dist/extension.js is ${kb('dist/extension.js')} KB: activation must load at most ${ACTIVATION_GOAL_KB} KB (move what it does not need into a bundle loaded on demand, see esbuild.mjs)`);
console.log(`package: ${files.size} files; production bundles:`);
for (const [name, when] of Object.entries(BUNDLES)) console.log(`  ${name.padEnd(20)} ${kb(name).padStart(7)} KB  ${when}`);
console.log(`dist/extension.js: ${kb('dist/extension.js')} KB (goal <= ${ACTIVATION_GOAL_KB} KB)`);
if (problems.length > 0) {
  console.error(`package check failed:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
