// Bundles the extension and the command line; `vscode` stays external (the host provides it).
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

// The Redis client is needed only when a coordinator is configured (bizdata.coordination.redisUrl,
// --coordinator): it goes into dist/coordinator.js, which both bundles load on demand, so neither the
// extension nor a command line without a coordinator loads or carries it.
const coordinatorApart = {
  name: 'coordinator-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/redisCoordinator(\.js)?$/ }, () => ({ path: './coordinator.js', external: true }));
    // The file lock (proper-lockfile and its graceful-fs) is needed at the first sign-in, not at activation.
    build.onResolve({ filter: /^proper-lockfile$/ }, () => ({ path: './lockfile.js', external: true }));
    // RE2 (re2js) is needed when a `?? … matches /re/` assertion is compiled, not at activation.
    build.onResolve({ filter: /^re2js$/ }, () => ({ path: './re2.js', external: true }));
    // A run's report (and its charts library) is needed when a report is written or opened (core/report/loadReport.ts).
    build.onResolve({ filter: /^\.\/runReport(\.js)?$/ }, () => ({ path: './report.js', external: true }));
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
  format: 'cjs',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  // Prefer ES module builds: jsonc-parser's UMD build requires its parts at run time, which a bundle cannot resolve.
  mainFields: ['module', 'main'],
};

const apart = { ...common, plugins: [...common.plugins, coordinatorApart] };
const builds = [
  { ...apart, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  // `bizdata --version` prints package.json's version, written in at build time.
  { ...apart, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' }, define: { BIZDATA_VERSION: JSON.stringify(version) } },
  { ...common, entryPoints: ['src/core/coordination/redisCoordinator.ts'], outfile: 'dist/coordinator.js' },
  { ...common, entryPoints: { lockfile: 'node_modules/proper-lockfile/index.js' }, outdir: 'dist' },
  { ...common, entryPoints: { re2: 'node_modules/re2js/build/index.cjs' }, outdir: 'dist' },
  { ...common, plugins: [...common.plugins, chartInline], entryPoints: { report: 'src/core/report/runReport.ts' }, outdir: 'dist' },
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
