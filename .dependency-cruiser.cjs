// The layers of src, checked by `npm run lint` (docs/architecture.md draws them). Type-only imports
// count: a cycle of types is still a cycle for a reader. That src/core, src/sandbox and src/cli never
// import vscode is eslint's rule (eslint.config.mjs): it sees the import even where nothing resolves it.
const CORE_ROOMS = ['files', 'codes', 'http', 'limits', 'storage', 'coordination', 'protocol', 'contract', 'connections', 'exchange', 'accounts', 'requests', 'import', 'data', 'report', 'run'];
// The files at the top of the core, above every room; every other file at the core's root is a leaf.
const CORE_TOP = ['client', 'clientOptions'];
const FEATURE_UI = ['batch', 'diagnostics', 'explorer', 'hovers', 'quickFixes', 'reports', 'requestFiles', 'results', 'statusBar', 'testing'];
// UI folders that stand on others: the Test Explorer sends requests exactly as the editor's Send does.
const STANDS_ON = { testing: ['requestFiles', 'results'] };
const FEATURE_SERVICES = ['connection', 'sandbox', 'log'];

const room = (name) => `^src/core/${name}/`;
const top = `^src/core/(${CORE_TOP.join('|')})\\.ts$`;

/** A rule: files matching `from` must not import files matching `to`. */
const never = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to } });
// The extension: above the core, the sandbox and the command line.
const EXTENSION = 'features|commands|extension\\.ts|workbench\\.ts';
const roomRules = CORE_ROOMS.map((name, i) => never(
  `core-${name}-looks-down`,
  `src/core/${name}/ imports only rooms below it (${CORE_ROOMS.slice(0, i).join(', ') || 'none'}) and the core's leaves.`,
  room(name),
  [...CORE_ROOMS.slice(i + 1).map(room), top],
));

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'No import cycle anywhere in src.', severity: 'error', from: { path: '^src/' }, to: { circular: true } },
    never('core-is-the-bottom', 'src/core uses none of the products built on it.', '^src/core/', `^src/(sandbox|cli|${EXTENSION})`),
    {
      name: 'core-leaves',
      comment: "A file at the core's root other than client.ts and clientOptions.ts is a leaf: it imports only other leaves.",
      severity: 'error',
      from: { path: '^src/core/[^/]+\\.ts$', pathNot: top },
      to: { path: ['^src/core/[^/]+/', top] },
    },
    ...roomRules,
    never('sandbox-stands-alone', 'The sandbox uses only the core.', '^src/sandbox/', `^src/(cli|${EXTENSION})`),
    never('cli-not-extension', 'The command line never loads the extension.', '^src/cli/', `^src/(${EXTENSION})`),
    never('features-not-commands', 'Commands use features; features never use commands: move what both need into features/shared or features/state.', '^src/features/', '^src/commands/'),
    ...FEATURE_UI.map((folder) => never(
      `features-${folder}-alone`,
      'A UI feature folder does not reach into another one: move what both need into features/shared or features/state.',
      `^src/features/${folder}/`,
      `^src/features/(${FEATURE_UI.filter((f) => f !== folder && !(STANDS_ON[folder] ?? []).includes(f)).join('|')})/`,
    )),
    never(
      'features-bottom',
      'features/state and features/shared are the bottom of the extension: they import only src/core and each other.',
      '^src/features/(state|shared)/',
      `^src/features/(${[...FEATURE_UI, ...FEATURE_SERVICES].join('|')})/`,
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(node_modules|dist|out)/' },
  },
};
