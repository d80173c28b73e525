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

  it("puts the service's own words first, then the catalog's text, meaning and action", () => {
    const said = 'You are not currently authorised to access this product';
    const text = JSON.stringify({ error: { errorCode: '00041', errorMessage: said } });
    const md = hoverMarkdown(codeAt(text, text.indexOf('00041'))!);
    const info = describeCode('00041')!;
    const order = [`*${said}*`, `**The service's documented text:** ${info.text}`, `**What it means:** ${info.meaning}`, `**What to do:** ${info.action}`].map((part) => md.indexOf(part));
    assert.ok(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1])), md);
    const silent = '{"TransactionResult": {"ResultID": "CM004", "SeverityText": "Error"}}';
    const catalogOnly = hoverMarkdown(codeAt(silent, silent.indexOf('CM004'))!);
    assert.ok(catalogOnly.includes('*Internal error*') && !catalogOnly.includes('documented text:'), catalogOnly);
  });

  it("keeps a spec code's text first and shows the service's other words beside it", () => {
    const text = JSON.stringify({ error: { errorCode: '00040', errorMessage: 'Unauthorized' } });
    const md = hoverMarkdown(codeAt(text, text.indexOf('00040'))!);
    const info = describeCode('00040')!;
    const order = [`*${info.text}*`, '**The service said:** Unauthorized', `**What it means:** ${info.meaning}`, `**What to do:** ${info.action}`].map((part) => md.indexOf(part));
    assert.ok(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1])), md);
    assert.ok(!md.includes("The specification's text"), 'the spec text is not repeated');
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
