// Checks the command ids, context keys and nls keys that package.json and src/ must agree on.
// The ids live in one typed module (src/features/shared/commandIds.ts), and registerCommands.ts
// must map each to a handler (the compiler checks that, through `satisfies`); this script checks
// that module against package.json, that no other file spells an id, that every registration goes
// through registerCommand.ts, and that menus, welcome links, `when` clauses and %nls% keys point at
// things that exist. Run by `npm test` (npm run check:commands).
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8'));
const COMMAND_IDS = 'src/features/shared/commandIds.ts';
const CONTEXT_KEYS = 'src/features/state/contextKeys.ts';
const REGISTER_COMMAND = 'src/commands/registerCommand.ts';
const problems = [];

const declared = new Map((pkg.contributes?.commands ?? []).map((c) => [c.command, c]));

/** The string values of the `Commands = { … }` object literal. */
function typedIds() {
  const text = readFileSync(join(root, COMMAND_IDS), 'utf8');
  const body = /export const Commands = \{([^}]*)\}/.exec(text)?.[1];
  if (!body) {
    problems.push(`${COMMAND_IDS} has no "export const Commands = { … }"`);
    return new Set();
  }
  return new Set([...body.matchAll(/:\s*'(bizdata\.[A-Za-z0-9_.]+)'/g)].map((m) => m[1]));
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

const typed = typedIds();
for (const id of declared.keys()) {
  if (!typed.has(id)) problems.push(`package.json declares ${id}, but ${COMMAND_IDS} does not list it (so nothing registers it)`);
}
for (const id of typed) {
  if (!declared.has(id)) problems.push(`${COMMAND_IDS} lists ${id}, but package.json contributes.commands does not declare it`);
}
for (const file of sourceFiles(join(root, 'src'))) {
  const text = readFileSync(join(root, file), 'utf8');
  if (file !== COMMAND_IDS) {
    // Comments may name a command; code must say Commands.x.
    const code = text.split('\n').filter((line) => !/^\s*(\/\/|\/?\*)/.test(line)).join('\n');
    for (const m of code.matchAll(/['"`](bizdata\.[A-Za-z0-9_.]+)['"`]/g)) {
      if (typed.has(m[1])) problems.push(`${file} spells the command id ${m[1]}: use Commands from ${COMMAND_IDS}`);
    }
  }
  if (file !== REGISTER_COMMAND && /\bcommands\.register(Text Editor)?Command\s*\(/.test(text)) {
    problems.push(`${file} registers a command itself: go through ${REGISTER_COMMAND} (registerCommands.ts)`);
  }
}
for (const [id, c] of declared) {
  if (!c.category) problems.push(`${id} has no category (expected "Business Data")`);
}
for (const [menu, items] of Object.entries(pkg.contributes?.menus ?? {})) {
  for (const item of items) {
    if (item.command && !declared.has(item.command)) problems.push(`menus.${menu} refers to undeclared command ${item.command}`);
  }
}
for (const w of pkg.contributes?.viewsWelcome ?? []) {
  const text = String(w.contents).replace(/^%(.+)%$/, (_, k) => nls[k] ?? '');
  for (const m of text.matchAll(/\(command:([\w.]+)/g)) {
    if (m[1].startsWith('bizdata.') && !declared.has(m[1])) problems.push(`viewsWelcome of ${w.view} links to undeclared command ${m[1]}`);
  }
}
// `when` clauses and completion events may only name context keys the extension sets.
const contextKeys = new Set([...readFileSync(join(root, CONTEXT_KEYS), 'utf8').matchAll(/'(bizdata:[A-Za-z]+)'/g)].map((m) => m[1]));
for (const m of JSON.stringify(pkg.contributes ?? {}).matchAll(/bizdata:[A-Za-z]+/g)) {
  if (!contextKeys.has(m[0])) problems.push(`package.json uses the context key ${m[0]}, which ${CONTEXT_KEYS} does not define`);
}
for (const m of JSON.stringify(pkg.contributes ?? {}).matchAll(/"%([^%"]+)%"/g)) {
  if (!(m[1] in nls)) problems.push(`package.json uses %${m[1]}% but package.nls.json has no such key`);
}

if (problems.length > 0) {
  for (const p of problems) console.error(`check-commands: ${p}`);
  process.exit(1);
}
console.log(`check-commands: ${declared.size} commands declared and typed in ${COMMAND_IDS}; menus, welcome links, context keys and nls keys match`);
