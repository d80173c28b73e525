// The request file language as package.json contributes it: its own id and file ending (so REST
// Client and httpYac can sit beside it), a grammar whose rules all resolve and compile, and a
// language configuration. The grammar's tokens are checked with vscode-textmate in
// requestFileGrammarTokens.test.ts; here, what can break silently when someone edits the JSON.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..', '..');
const read = (path: string): unknown => JSON.parse(readFileSync(join(root, path), 'utf8'));

interface Rule {
  readonly match?: string;
  readonly begin?: string;
  readonly end?: string;
  readonly include?: string;
  readonly patterns?: readonly Rule[];
  readonly captures?: Readonly<Record<string, Rule>>;
}

describe('request file language', () => {
  const manifest = read('package.json') as {
    activationEvents: string[];
    contributes: { languages: Array<{ id: string; extensions: string[]; configuration: string }>; grammars: Array<{ language: string; scopeName: string; path: string }> };
  };
  const language = manifest.contributes.languages.find((l) => l.id === 'bizdata-http');
  const grammarEntry = manifest.contributes.grammars.find((g) => g.language === 'bizdata-http');

  it('is its own language on *.bizdata.http, never on plain *.http, and activates the extension', () => {
    assert.deepEqual(language?.extensions, ['.bizdata.http']);
    assert.ok(!manifest.contributes.languages.some((l) => l.extensions.includes('.http')));
    assert.ok(manifest.activationEvents.includes('onLanguage:bizdata-http'));
  });

  it('has a language configuration with # comments and brackets', () => {
    const config = read(language?.configuration ?? '') as { comments: { lineComment: string }; brackets: string[][] };
    assert.equal(config.comments.lineComment, '#');
    assert.ok(config.brackets.some(([open, close]) => open === '{' && close === '}'));
  });

  it('has a grammar whose includes resolve and whose expressions compile', () => {
    const grammar = read(grammarEntry?.path ?? '') as { scopeName: string; patterns: Rule[]; repository: Record<string, Rule>; injections: Record<string, Rule> };
    assert.equal(grammar.scopeName, grammarEntry?.scopeName);
    const rules: Rule[] = [...grammar.patterns, ...Object.values(grammar.repository), ...Object.values(grammar.injections)];
    let checked = 0;
    while (rules.length > 0) {
      const rule = rules.pop() as Rule;
      if (rule.include?.startsWith('#')) assert.ok(grammar.repository[rule.include.slice(1)], `${rule.include} is in the repository`);
      for (const expression of [rule.match, rule.begin, rule.end]) {
        if (expression === undefined) continue;
        assert.doesNotThrow(() => new RegExp(expression), expression);
        checked++;
      }
      rules.push(...(rule.patterns ?? []), ...Object.values(rule.captures ?? {}));
    }
    assert.ok(checked >= 10, `${checked} expressions`);
    const variable = new RegExp(grammar.repository.variable.match ?? '');
    assert.equal(variable.exec('GET {{ baseUrl }}/v1')?.[2], 'baseUrl');
    const requestLine = new RegExp(grammar.repository.requestLine.match ?? '');
    assert.deepEqual(requestLine.exec('POST {{legacyUrl}}/V4.0/things HTTP/1.1')?.slice(1), ['POST', '{{legacyUrl}}/V4.0/things', 'HTTP/1.1']);
  });
});
