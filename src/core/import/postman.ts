// A Postman collection (format v2.1, or v2.0) and, optionally, a Postman environment, read as an
// import source: requests with the folders they are in, auth inherited from the folders and the
// collection as Postman inherits it, collection variables and then the environment's (which win, as
// in Postman), and the scripts of the collection, folders and requests kept as comments with their
// common checks read as assertions. Nothing is decided here about hosts, credentials or secrets:
// writeImport.ts does that for every format alike.
import type { ImportedAuth, ImportedRequest, ImportSource, ReportLine, SourceVariable } from './importModel';
import { ImportError, isRecord, list, parseJson, record, stringOf, text, type Loose } from './loose';
import { postmanAuth, postmanBody, postmanHeaders, postmanScripts, postmanUrl } from './postmanParts';

const SCHEMA = /schema\.(?:getpostman|postman)\.com\/(?:json\/)?collection\/(?:json\/)?v2\.([01])/;

/** The collection (and environment) as an import source; a file that is neither is an ImportError saying what it is. */
export function readPostman(collectionText: string, environmentText?: string): ImportSource {
  const doc = parseJson(collectionText, 'The collection');
  if (!isRecord(doc))
    throw new ImportError(
      'The collection is not a Postman collection: its JSON is not an object. Export the collection from Postman (Export → Collection v2.1).',
    );
  const info = record(doc.info);
  if (!isRecord(doc.info) || !Array.isArray(doc.item)) {
    const v1 = Array.isArray(doc.requests) || Array.isArray(doc.order);
    throw new ImportError(
      v1
        ? 'This is a Postman collection of format v1, which Postman itself no longer exports. Open it in Postman and export it again as Collection v2.1.'
        : 'The file is not a Postman collection (it has no "info" and "item"). ' +
            'Export the collection from Postman (Export → Collection v2.1); an environment goes with --environment.',
    );
  }
  const schema = stringOf(info.schema) ?? '';
  if (schema !== '' && !SCHEMA.test(schema))
    throw new ImportError(`The collection's format (${schema.slice(0, 100)}) is not v2.0 or v2.1. Export it again from Postman as Collection v2.1.`);
  const name = text(info.name).trim() || 'collection';
  const report: ReportLine[] = [];
  const scripts = postmanScripts(doc.event, 'the collection');
  const reader = new ItemReader(report);
  reader.items(list(doc.item), { path: [], auth: postmanAuth(doc.auth) ?? undefined, assertions: scripts.assertions });
  const variables = [...collectionVariables(doc.variable), ...(environmentText === undefined ? [] : readEnvironment(environmentText))];
  return {
    label: `Postman collection "${name}"`,
    baseName: name,
    comments: scripts.comments,
    groupWord: 'folder',
    groupComments: reader.groupComments,
    requests: reader.requests,
    variables,
    report,
  };
}

function collectionVariables(variable: unknown): SourceVariable[] {
  return list(variable)
    .map(record)
    .filter((v) => v.disabled !== true)
    .flatMap((v) => {
      const key = stringOf(v.key) ?? stringOf(v.id);
      return key ? [{ name: key, value: text(v.value), secret: v.type === 'secret' }] : [];
    });
}

/** A Postman environment's enabled values; `secret` as Postman marks them. */
export function readEnvironment(environmentText: string): SourceVariable[] {
  const env = parseJson(environmentText, 'The environment');
  if (!isRecord(env) || !Array.isArray(env.values)) {
    throw new ImportError('The environment is not a Postman environment (it has no "values"). Export it from Postman (Environments → … → Export).');
  }
  return env.values
    .map(record)
    .filter((v) => v.enabled !== false && stringOf(v.key) !== undefined)
    .map((v) => ({ name: text(v.key), value: text(v.value), secret: v.type === 'secret' }));
}

interface Scope {
  readonly path: readonly string[];
  /** The auth requests inherit here: undefined for none. */
  readonly auth?: ImportedAuth;
  readonly assertions: readonly string[];
}

class ItemReader {
  readonly requests: ImportedRequest[] = [];
  readonly groupComments: Array<{ group: readonly string[]; comments: readonly string[] }> = [];

  constructor(private readonly report: ReportLine[]) {}

  items(items: readonly unknown[], scope: Scope): void {
    items.forEach((raw, i) => {
      const item = record(raw);
      const name = text(item.name).trim() || `Item ${i + 1}`;
      const where = [...scope.path, name].join(' / ');
      if (Array.isArray(item.item) && item.request === undefined) {
        const scripts = postmanScripts(item.event, `folder "${name}"`);
        const path = [...scope.path, name];
        if (scripts.comments.length > 0) this.groupComments.push({ group: path, comments: scripts.comments });
        this.items(item.item, { path, auth: inherited(item.auth, scope.auth), assertions: [...scope.assertions, ...scripts.assertions] });
      } else if (item.request !== undefined) {
        this.request(item, name, where, scope);
      } else {
        this.report.push({ kind: 'left-out', where, message: 'It is neither a request nor a folder (it has no "request" and no "item").' });
      }
    });
  }

  private request(item: Loose, name: string, where: string, scope: Scope): void {
    const r = typeof item.request === 'string' ? { url: item.request } : record(item.request);
    const method = (stringOf(r.method) ?? 'GET').trim().toUpperCase();
    const { url, variables } = postmanUrl(r.url);
    if (url.trim() === '') {
      this.report.push({ kind: 'left-out', where, message: 'It has no URL.' });
      return;
    }
    const body = postmanBody(r.body);
    if (body.unknown !== undefined)
      this.report.push({
        kind: 'changed',
        where,
        message: `Its body of mode "${body.unknown}" is not one Postman documents; it is sent without a body.`,
      });
    const scripts = postmanScripts(item.event, 'this request');
    const auth = inherited(r.auth, scope.auth);
    this.requests.push({
      group: scope.path,
      title: name,
      where,
      method,
      url: url.trim(),
      headers: postmanHeaders(r.header),
      ...(body.body ? { body: body.body } : {}),
      ...(auth ? { auth } : {}),
      comments: scripts.comments,
      assertions: [...new Set([...scope.assertions, ...scripts.assertions])],
      variables,
    });
  }
}

/** An item's own auth, else the one it inherits; Postman's "No Auth" (null) ends the inheritance. */
function inherited(own: unknown, parent: ImportedAuth | undefined): ImportedAuth | undefined {
  const auth = postmanAuth(own);
  return auth === undefined ? parent : (auth ?? undefined);
}
