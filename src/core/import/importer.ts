// The importer as one module, for a host that loads it at its first use: the editor's Import
// Requests command takes it from its own bundle (dist/importer.js, esbuild.mjs), so that the YAML
// parser and the readers of three formats are no part of the workbench until someone imports.
export { guessKind, readImportSource, type ImportKind } from './importSource';
export { ImportError } from './loose';
export { ExistingFilesError, OutputFolderError, writeFilesInFolder } from './outputFolder';
export { writeImport, slug, type ImportResult } from './writeImport';
export type { ReportLine } from './importModel';
