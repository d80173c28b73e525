// Fails when package.json declares a command that src/ never registers, or src/ registers a
// command package.json does not declare; also checks that menus, welcome links and %nls% keys
// point at things that exist. Run by `npm test` (npm run check:commands).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8'));
const problems = [];

const declared = new Map((pkg.contributes?.commands ?? []).map((c) => [c.command, c]));

// register('bizdata.x', …), registerCommand(context, log, 'bizdata.x', …), vscode.commands.registerCommand('bizdata.x', …)
const registration = /\bregister(?:Command|TextEditorCommand)?\s*\(\s*(?:[\w.]+\s*,\s*){0,3}['"`](bizdata\.[A-Za-z0-9_.]+)['"`]/g;
const registered = new Map();
function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.name.endsWith('.ts')) {
      const text = readFileSync(path, 'utf8');
      for (const m of text.matchAll(registration)) registered.set(m[1], path.slice(root.length));
    }
  }
}
walk(join(root, 'src'));

for (const id of declared.keys()) {
  if (!registered.has(id)) problems.push(`package.json declares ${id}, but no file under src/ registers it`);
}
for (const [id, file] of registered) {
  if (!declared.has(id)) problems.push(`${file} registers ${id}, but package.json contributes.commands does not declare it`);
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
for (const m of JSON.stringify(pkg.contributes ?? {}).matchAll(/"%([^%"]+)%"/g)) {
  if (!(m[1] in nls)) problems.push(`package.json uses %${m[1]}% but package.nls.json has no such key`);
}

if (problems.length > 0) {
  for (const p of problems) console.error(`check-commands: ${p}`);
  process.exit(1);
}
console.log(`check-commands: ${declared.size} commands declared and registered; menus, welcome links and nls keys match`);
