// A request document is parsed once per version of its text, whoever asks (lenses, diagnostics,
// completion, the test tree, commands): a document reads its text only when the cache parses it.
import * as assert from 'node:assert/strict';
import { parseRequestFile } from '../../../src/core/requests/requestFile';
import { ParsedDocuments, type VersionedDocument } from '../../../src/features/requestFiles/parsedDocuments';

/** A document as the editor holds it, counting how often its text is read. */
class Document implements VersionedDocument {
  reads = 0;
  version = 1;
  isClosed = false;
  constructor(
    readonly uri: string,
    private text: string,
  ) {}
  getText(): string {
    this.reads++;
    return this.text;
  }
  edit(text: string): void {
    this.text = text;
    this.version++;
  }
}

const ONE = 'GET {{baseUrl}}/v1/one';
const TWO = ['GET {{baseUrl}}/v1/one', '###', '# @name second', 'GET {{baseUrl}}/v1/two'].join('\n');

describe('ParsedDocuments', () => {
  it('parses a version once, however many ask, and gives what the parser gives', () => {
    const documents = new ParsedDocuments();
    const d = new Document('file:///a.bizdata.http', ONE);
    const first = documents.get(d);
    for (let i = 0; i < 5; i++) assert.equal(documents.get(d), first);
    assert.equal(d.reads, 1);
    assert.deepEqual(first, parseRequestFile(ONE));
  });

  it('parses again after an edit, and only the new text', () => {
    const documents = new ParsedDocuments();
    const d = new Document('file:///a.bizdata.http', ONE);
    const before = documents.get(d);
    d.edit(TWO);
    const after = documents.get(d);
    assert.notEqual(after, before);
    assert.deepEqual(after.requests.map((r) => r.name), [undefined, 'second']);
    assert.equal(documents.get(d), after);
    assert.equal(d.reads, 2);
  });

  it('keeps each document apart', () => {
    const documents = new ParsedDocuments();
    const a = new Document('file:///a.bizdata.http', ONE);
    const b = new Document('file:///b.bizdata.http', TWO);
    assert.equal(documents.get(a).requests.length, 1);
    assert.equal(documents.get(b).requests.length, 2);
    assert.equal(documents.get(a).requests.length, 1);
    assert.deepEqual([a.reads, b.reads], [1, 1]);
  });

  it('forgets a closed document: reopened at the same version with other text, it is read again', () => {
    const documents = new ParsedDocuments();
    const d = new Document('file:///a.bizdata.http', ONE);
    documents.get(d);
    documents.forget(d.uri);
    // VS Code numbers a reopened document's versions from 1 again.
    const reopened = new Document('file:///a.bizdata.http', TWO);
    assert.equal(documents.get(reopened).requests.length, 2);
    assert.equal(reopened.reads, 1);
  });

  it('does not keep a document that is already closed', () => {
    const documents = new ParsedDocuments();
    const closed = new Document('file:///a.bizdata.http', ONE);
    closed.isClosed = true;
    assert.equal(documents.get(closed).requests.length, 1);
    // A reopened document with the same uri and version is read, not answered from the closed one.
    const reopened = new Document('file:///a.bizdata.http', TWO);
    assert.equal(documents.get(reopened).requests.length, 2);
    assert.deepEqual([closed.reads, reopened.reads], [1, 1]);
  });
});
