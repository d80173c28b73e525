// The request file grammar run by the tokenizer VS Code runs it with (vscode-textmate on Oniguruma),
// so what a line shows as is checked rather than guessed from the JSON: here the `??` assertion lines,
// whose `?` the query-continuation rule would otherwise take.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import { INITIAL, Registry, parseRawGrammar, type IGrammar } from 'vscode-textmate';

const root = join(__dirname, '..', '..', '..', '..');
const SCOPE = 'source.bizdata-http';

async function loadGrammar(): Promise<IGrammar> {
  const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new Registry({
    onigLib: Promise.resolve({ createOnigScanner: (s) => new oniguruma.OnigScanner(s), createOnigString: (s) => new oniguruma.OnigString(s) }),
    // Only our grammar: the embedded source.json is VS Code's, and is left out here.
    loadGrammar: async (scope) => (scope === SCOPE ? parseRawGrammar(readFileSync(join(root, 'syntaxes', 'bizdata-http.tmLanguage.json'), 'utf8'), 'grammar.json') : null),
  });
  const grammar = await registry.loadGrammar(SCOPE);
  assert.ok(grammar);
  return grammar;
}

/** Each token of a line as [its text, its innermost scope without the language suffix]. */
function tokens(grammar: IGrammar, line: string): Array<[string, string]> {
  return grammar
    .tokenizeLine(line, INITIAL)
    .tokens.map((t): [string, string] => [line.slice(t.startIndex, t.endIndex), t.scopes[t.scopes.length - 1].replace(/\.bizdata-http$/, '')])
    .filter(([text]) => text.trim() !== '');
}

describe('request file grammar: tokens', () => {
  let grammar: IGrammar;
  before(async () => {
    grammar = await loadGrammar();
  });

  it('scopes an assertion line: ??, the subject, the header or JSONPath, the operator and the value', () => {
    assert.deepEqual(tokens(grammar, '?? status == 200'), [
      ['??', 'keyword.control.assertion'],
      ['status', 'keyword.other.assertion-subject'],
      ['==', 'keyword.operator.comparison'],
      ['200', 'string.unquoted.assertion-value'],
    ]);
    assert.deepEqual(tokens(grammar, '?? header content-type includes json'), [
      ['??', 'keyword.control.assertion'],
      ['header', 'keyword.other.assertion-subject'],
      ['content-type', 'support.type.property-name.header'],
      ['includes', 'keyword.operator.word'],
      ['json', 'string.unquoted.assertion-value'],
    ]);
    assert.deepEqual(tokens(grammar, '  ?? body $.items[?@.n > 1] length >= 3'), [
      ['??', 'keyword.control.assertion'],
      ['body', 'keyword.other.assertion-subject'],
      ['$.items[?@.n > 1]', 'string.unquoted.jsonpath'],
      ['length', 'keyword.other.length'],
      ['>=', 'keyword.operator.comparison'],
      ['3', 'string.unquoted.assertion-value'],
    ]);
    assert.deepEqual(tokens(grammar, '?? body $.matchCandidates[0].organization.duns exists'), [
      ['??', 'keyword.control.assertion'],
      ['body', 'keyword.other.assertion-subject'],
      ['$.matchCandidates[0].organization.duns', 'string.unquoted.jsonpath'],
      ['exists', 'keyword.operator.word'],
    ]);
    assert.deepEqual(tokens(grammar, '?? code matches /^CM0 == x/i'), [
      ['??', 'keyword.control.assertion'],
      ['code', 'keyword.other.assertion-subject'],
      ['matches', 'keyword.operator.word'],
      ['/^CM0 == x/i', 'string.regexp'],
    ]);
    assert.deepEqual(tokens(grammar, '?? schema ./answer.schema.json'), [
      ['??', 'keyword.control.assertion'],
      ['schema', 'keyword.other.assertion-subject'],
      ['./answer.schema.json', 'string.unquoted.path'],
    ]);
    assert.deepEqual(tokens(grammar, '?? snapshot'), [
      ['??', 'keyword.control.assertion'],
      ['snapshot', 'keyword.other.assertion-subject'],
    ]);
    // httpYac's `?? js …` is refused at its line (assertions.ts); the editor marks it too.
    assert.deepEqual(tokens(grammar, '?? js response.ok')[1], ['js', 'invalid.illegal.assertion-subject']);
  });

  it('leaves query continuation lines and the rest of a request as they were', () => {
    assert.deepEqual(tokens(grammar, '?page=2'), [
      ['?', 'punctuation.separator.query'],
      ['page', 'variable.parameter.query'],
      ['=', 'keyword.operator.assignment'],
      ['2', 'string.unquoted.query-value'],
    ]);
    assert.deepEqual(tokens(grammar, 'Content-Type: application/json')[0], ['Content-Type', 'support.type.property-name.header']);
    assert.deepEqual(tokens(grammar, 'GET {{baseUrl}}/v1/x')[0], ['GET', 'keyword.control.http-method']);
  });
});
