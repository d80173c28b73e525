// What the scripts share with the extension, as `npm run build` emits it: the process helper
// (src/core/childProcess.ts) and errorMessage (src/core/errors.ts). The scripts are plain ES modules
// and cannot import TypeScript, so they load esbuild's CommonJS output from dist/; every script
// that reaches this file runs after a build (npm start, npm test and each test:* script build first).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = join(resolve(import.meta.dirname, '..'), 'dist');

async function load(name) {
  const file = join(dist, `${name}.js`);
  if (!existsSync(file)) throw new Error(`${file} is missing: run "npm run build" first.`);
  return (await import(pathToFileURL(file).href)).default;
}

export const { describeExit, spawnProcessGroup } = await load('childProcess');
export const { errorMessage } = await load('errors');
