// The report's chart library, uPlot (MIT, github.com/leeoniya/uPlot), as the text the report inlines.
// esbuild.mjs replaces this module with the text itself at build time, so the bundles carry it and
// the .vsix needs no node_modules; unbundled (the TypeScript compiled for tests) it is read from there.
import { readFileSync } from 'node:fs';

export interface ChartLibrary {
  readonly script: string;
  readonly style: string;
}

export function chartLibrary(): ChartLibrary {
  const read = (name: string): string => readFileSync(require.resolve(`uplot/dist/${name}`), 'utf8');
  return { script: read('uPlot.iife.min.js'), style: read('uPlot.min.css') };
}
