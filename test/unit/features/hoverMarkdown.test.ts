import * as assert from 'node:assert/strict';
import { describeCode } from '../../../src/core/codes/codes';
import { codeAt } from '../../../src/features/shared/findCodes';
import { hoverMarkdown } from '../../../src/features/hovers/hoverMarkdown';
import { matchResponse } from './codeResponses';

describe('hoverMarkdown', () => {
  it('shows the code, its text, its meaning and the action', () => {
    const text = matchResponse('SC006');
    const f = codeAt(text, text.indexOf('"SC006"') + 1);
    assert.ok(f);
    const md = hoverMarkdown(f);
    const info = describeCode('SC006');
    assert.ok(info);
    for (const part of ['SC006', info.text, info.meaning, info.action]) assert.ok(md.includes(part), part);
  });

  it('explains an unknown SC code without inventing a meaning', () => {
    const text = matchResponse('SC042');
    const f = codeAt(text, text.indexOf('"SC042"') + 1);
    assert.ok(f);
    assert.match(hoverMarkdown(f), /^\*\*SC042\*\*/);
    assert.match(hoverMarkdown(f), /\*\*Not in the catalog:\*\* the text above is the service's own/);
  });

  it('says where a documented code comes from, and shows file text without Markdown effects', () => {
    const documented = '{"TransactionResult": {"ResultID": "CM018", "SeverityText": "Error"}}';
    assert.match(hoverMarkdown(codeAt(documented, documented.indexOf('CM018'))!), /Documented by the service; not in the specification/);
    const hostile = '{"TransactionResult": {"ResultID": "ZZ1", "ResultText": "[click](command:x) <b>*bold*</b> \u001b[2J"}}';
    const md = hoverMarkdown(codeAt(hostile, hostile.indexOf('ZZ1'))!);
    assert.ok(md.includes('\\[click\\](command:x) \\<b\\>\\*bold\\*\\</b\\> \\\\u001B\\[2J'), md);
  });
});
