// The three kinds of file an import reads, one entry for each, and what kind a file is when the user
// did not say (the editor's file picker): a Postman collection or environment, a HAR file, an
// OpenAPI document.
import { parse as parseYaml } from 'yaml';
import { readHar } from './har';
import type { ImportSource } from './importModel';
import { isRecord, ImportError } from './loose';
import { readOpenApi } from './openApi';
import { readPostman } from './postman';

export type ImportKind = 'postman' | 'har' | 'openapi';
export const IMPORT_KINDS: readonly ImportKind[] = ['postman', 'har', 'openapi'];

/** A source of `kind` from its text; `fileName` names its requests' file when it has no name of its own. */
export function readImportSource(kind: ImportKind, text: string, fileName: string, environmentText?: string): ImportSource {
  if (environmentText !== undefined && kind !== 'postman') throw new ImportError('An environment goes with a Postman collection only.');
  const base = fileName.replace(/^.*[\\/]/, '').replace(/\.(?:postman_collection\.json|json|har|ya?ml)$/i, '') || 'requests';
  if (kind === 'postman') return readPostman(text, environmentText);
  if (kind === 'har') return readHar(text, base);
  return readOpenApi(text, base);
}

/** What a file is, by its content: one of the kinds, a Postman environment, or undefined for none of them. */
export function guessKind(text: string): ImportKind | 'environment' | undefined {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  let doc: unknown;
  try {
    doc = trimmed.startsWith('{') ? JSON.parse(trimmed) : parseYaml(trimmed, { maxAliasCount: 1000 });
  } catch {
    return undefined;
  }
  if (!isRecord(doc)) return undefined;
  if (isRecord(doc.log) && Array.isArray(doc.log.entries)) return 'har';
  if (typeof doc.openapi === 'string' || doc.swagger === '2.0') return 'openapi';
  if (isRecord(doc.info) && Array.isArray(doc.item)) return 'postman';
  if (Array.isArray(doc.values) && (doc._postman_variable_scope === 'environment' || typeof doc.name === 'string')) return 'environment';
  return undefined;
}
