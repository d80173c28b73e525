// Bundles the extension and the command line, each as a small entry and the bundles it loads on demand;
// `vscode` stays external (the host provides it).
import { readFileSync } from 'node:fs';
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const watch = process.argv.includes('--watch');

// Trims two parts of undici that this client never runs. Both stay in undici's own control flow:
// - its HTTP parser comes twice, as SIMD and as portable WebAssembly, and undici falls back to the
//   portable one when the SIMD module does not compile (as with UNDICI_NO_WASM_SIMD=1): 72 KB saved;
// - fetch's body module is loaded only to encode FormData request bodies; we send JSON strings or
//   nothing: 42 KB saved. Reaching it anyway fails with a plain error instead of a wrong request.
const undiciTrim = {
  name: 'undici-trim',
  setup(build) {
    const stubs = {
      'llhttp_simd-wasm.js': 'module.exports = Buffer.alloc(0);',
      'fetch/body.js': "exports.extractBody = () => { throw new Error('FormData request bodies are not supported by this build.'); };",
    };
    build.onResolve({ filter: /(llhttp_simd-wasm|fetch\/body)\.js$/ }, (args) => {
      if (!args.importer.includes(`${'node_modules'}/undici/`)) return undefined;
      const key = Object.keys(stubs).find((k) => args.path.endsWith(k));
      return { path: key, namespace: 'undici-trim' };
    });
    build.onLoad({ filter: /.*/, namespace: 'undici-trim' }, (args) => ({ contents: stubs[args.path], loader: 'js' }));
  },
};

// Bundles apart: each rule turns an import into a require of another bundle in dist/, loaded the
// first time it runs (the importing code uses `await import(…)` there), so that the moment that needs
// little loads little. `from` limits a rule to one importing file.
const APART = [
  // The Redis client, only when a coordinator is configured (bizdata.coordination.redisUrl, --coordinator).
  { filter: /^\.\/redisCoordinator(\.js)?$/, bundle: './coordinator.js' },
  // The file lock (proper-lockfile and its graceful-fs), at the first sign-in.
  { filter: /^proper-lockfile$/, bundle: './lockfile.js' },
  // RE2 (re2js), when a `?? … matches /re/` assertion is compiled.
  { filter: /^re2js$/, bundle: './re2.js' },
  // JSON Schema (ajv and ajv-formats), at the first `?? schema` assertion (core/requests/schemaCheck.ts).
  { filter: /^\.\/jsonSchema(\.js)?$/, bundle: './jsonSchema.js' },
  // A run's report and its charts library, when a report is written or opened (core/report/loadReport.ts).
  { filter: /^\.\/runReport(\.js)?$/, bundle: './report.js' },
  // The extension's activation holds what finds result codes and shows diagnostics, hovers and quick
  // fixes; connections, the client and undici, commands, views, the status bar, request files, the
  // Test Explorer and the sandbox come with the workbench, at their first use (src/extension.ts).
  { from: 'src/extension.ts', filter: /^\.\/workbench(\.js)?$/, bundle: './workbench.js' },
  // The command line loads the bundle of the command it runs (src/cli/main.ts).
  { from: 'src/cli/main.ts', filter: /^\.\/codeCommands(\.js)?$/, bundle: './cliCodes.js' },
  { from: 'src/cli/main.ts', filter: /^\.\/serviceCommands(\.js)?$/, bundle: './cliService.js' },
  { from: 'src/cli/main.ts', filter: /^\.\/sandbox(\.js)?$/, bundle: './cliSandbox.js' },
  // The editor's Import Requests: the readers of three formats and the YAML parser, at the first import.
  { from: 'src/commands/importRequests.ts', filter: /^\.\.\/core\/import\/importer(\.js)?$/, bundle: './importer.js' },
  // bizdata import: the readers of Postman, HAR and OpenAPI files and the YAML parser, nothing of the client.
  { from: 'src/cli/main.ts', filter: /^\.\/import(\.js)?$/, bundle: './cliImport.js' },
];
const bundlesApart = {
  name: 'bundles-apart',
  setup(build) {
    for (const rule of APART) {
      build.onResolve({ filter: rule.filter }, (args) =>
        rule.from === undefined || args.importer.endsWith(rule.from) ? { path: rule.bundle, external: true } : undefined,
      );
    }
  },
};

// The report inlines its charts library, uPlot: this puts the library's text into the bundle in
// place of core/report/chartLibrary.ts, which reads it from node_modules when run unbundled.
const chartInline = {
  name: 'chart-inline',
  setup(build) {
    build.onLoad({ filter: /[\\/]core[\\/]report[\\/]chartLibrary\.ts$/ }, () => {
      const read = (name) => readFileSync(new URL(`./node_modules/uplot/dist/${name}`, import.meta.url), 'utf8');
      const library = { script: read('uPlot.iife.min.js'), style: read('uPlot.min.css') };
      return { contents: `export function chartLibrary() { return ${JSON.stringify(library)}; }`, loader: 'js' };
    });
  },
};

const common = {
  plugins: [undiciTrim],
  bundle: true,
  platform: 'node',
  target: 'node20',
  // `await import('./x.js')` of a bundle apart becomes require(): Node's ESM loader, which a native
  // import() goes through, costs more to start than the bundle it loads.
  supported: { 'dynamic-import': false },
  format: 'cjs',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  // Prefer ES module builds: jsonc-parser's UMD build requires its parts at run time, which a bundle cannot resolve.
  mainFields: ['module', 'main'],
};

const apart = { ...common, plugins: [...common.plugins, bundlesApart] };
const builds = [
  { ...apart, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { ...apart, entryPoints: ['src/workbench.ts'], outfile: 'dist/workbench.js', external: ['vscode'] },
  // `bizdata --version` prints package.json's version, written in at build time.
  { ...apart, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' }, define: { BIZDATA_VERSION: JSON.stringify(version) } },
  { ...apart, entryPoints: { cliCodes: 'src/cli/codeCommands.ts', cliService: 'src/cli/serviceCommands.ts', cliSandbox: 'src/cli/sandbox.ts', cliImport: 'src/cli/import.ts' }, outdir: 'dist' },
  { ...common, entryPoints: ['src/core/coordination/redisCoordinator.ts'], outfile: 'dist/coordinator.js' },
  { ...common, entryPoints: { lockfile: 'node_modules/proper-lockfile/index.js' }, outdir: 'dist' },
  { ...common, entryPoints: { re2: 'node_modules/re2js/build/index.cjs' }, outdir: 'dist' },
  // Apart too: its patterns run on RE2, which stays in dist/re2.js.
  { ...apart, entryPoints: { jsonSchema: 'src/core/requests/jsonSchema.ts' }, outdir: 'dist' },
  { ...common, plugins: [...common.plugins, chartInline], entryPoints: { report: 'src/core/report/runReport.ts' }, outdir: 'dist' },
  { ...apart, entryPoints: { importer: 'src/core/import/importer.ts' }, outdir: 'dist' },
  // The extension's code scanner runs this on a worker thread (src/features/shared/codeScanner.ts).
  { ...common, entryPoints: ['src/features/shared/scanWorker.ts'], outfile: 'dist/scanWorker.js' },
  // For the .mjs scripts (scripts/built.mjs), which cannot import TypeScript; not shipped in the .vsix.
  { ...common, entryPoints: { childProcess: 'src/core/childProcess.ts', errors: 'src/core/errors.ts' }, outdir: 'dist' },
];

if (watch) {
  for (const options of builds) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  }
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
