import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { allCodes } from '../../src/core/codes/codes';
import { activateExtension, closeAllEditors, openJson, positionOf, responseWith } from './helpers';

function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n');
}

describe('hovers on result codes', () => {
  before(activateExtension);
  afterEach(closeAllEditors);

  for (const info of allCodes()) {
    it(`explains ${info.code} from the catalog`, async () => {
      const doc = await openJson(responseWith(info.code));
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, positionOf(doc, info.code));
      const text = hoverText(hovers);
      for (const part of [info.code, info.text, info.meaning, info.action]) {
        assert.ok(text.includes(part), `hover on ${info.code} lacks "${part}":\n${text}`);
      }
    });
  }

  it('says nothing on other values and keys', async () => {
    const doc = await openJson(responseWith('SC001'));
    for (const needle of ['"MatchResponse"', '"Rest"', '"ResultID"']) {
      const position = doc.positionAt(doc.getText().indexOf(needle) + 2);
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, position);
      assert.doesNotMatch(hoverText(hovers), /Interface [AB] (result|error) code/, needle);
    }
  });
});
