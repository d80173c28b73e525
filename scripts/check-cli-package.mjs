// Fails when the command line's npm package (what `npm pack` makes) carries anything but what
// `bizdata` runs: the CLI's bundles (each one dist/cli.js loads, and those they load), the JSON
// schemas of the files it reads, package.json, README.md and LICENSE; or when it declares
// dependencies (every library is inside the bundles, so an install fetches nothing), or its `bin`
// names a file it does not carry. Prints the files and sizes. Reads what npm would pack (its dry run,
// without running prepack), so build first: `npm run build:production` (or `npm run package`).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const [packed] = JSON.parse(execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }));
const files = new Map(packed.files.map((f) => [f.path, f.size]));
const manifest = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));

// Each bundle the command line loads, and when (esbuild.mjs builds them; src/cli/main.ts loads them).
const BUNDLES = {
  'dist/cli.js': 'every command: help, --version, then the command\'s own bundle',
  'dist/cliCodes.js': 'bizdata check, explain',
  'dist/cliService.js': 'the commands that call the service',
  'dist/cliSandbox.js': 'bizdata sandbox',
  'dist/cliImport.js': 'bizdata import',
  'dist/coordinator.js': 'only with a coordinator (Redis)',
  'dist/lockfile.js': 'at the first sign-in',
  'dist/re2.js': 'at the first ?? matches',
  'dist/report.js': 'when a report is written',
  'dist/jsonSchema.js': 'at the first ?? schema',
};
const ALSO = /^(package\.json|README\.md|LICENSE|schemas\/[\w.-]+\.schema\.json)$/;

const problems = [];
for (const bundle of Object.keys(BUNDLES)) if (!files.has(bundle)) problems.push(`missing ${bundle} (build first: npm run build:production)`);
for (const f of files.keys()) if (!(f in BUNDLES) && !ALSO.test(f)) problems.push(`must not ship ${f}`);
for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies']) {
  if (manifest[field] && Object.keys(manifest[field]).length > 0) {
    problems.push(`package.json declares ${field}: every library is inside the bundles, so the package must install nothing more`);
  }
}
const bin = manifest.bin?.bizdata?.replace(/^\.\//, '');
if (bin === undefined || !files.has(bin)) problems.push(`package.json's bin.bizdata (${bin}) is not in the package`);
else if (!readFileSync(resolve(root, bin), 'utf8').startsWith('#!/usr/bin/env node\n')) problems.push(`${bin} does not start with #!/usr/bin/env node`);
for (const bundle of Object.keys(BUNDLES)) {
  if (!existsSync(resolve(root, bundle))) continue;
  // Everything a bundle requires is Node's own or another shipped bundle: nothing comes from node_modules.
  // A require that opens a string is code Ajv writes for its standalone mode, never run here.
  const text = readFileSync(resolve(root, bundle), 'utf8');
  for (const [, name] of text.matchAll(/(?<![`'"])\brequire\("([^"]+)"\)/g)) {
    const carried = name.startsWith('./') ? files.has(`dist/${name.slice(2)}`) : isBuiltin(name);
    if (!carried) problems.push(`${bundle} requires ${name}, which the package does not carry`);
  }
}

console.log(`${packed.filename}: ${packed.files.length} files, ${kb(packed.size)} packed, ${kb(packed.unpackedSize)} unpacked`);
for (const [name, when] of Object.entries(BUNDLES)) console.log(`  ${name.padEnd(20)} ${kb(files.get(name) ?? 0).padStart(9)}  ${when}`);
if (problems.length > 0) {
  console.error(`CLI package check failed:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function isBuiltin(name) {
  return name.startsWith('node:') || builtinModules.includes(name);
}
