// The fixtures folder (--fixtures DIR): your own answers, read once at start. DIR/ip/<ip>.json and
// DIR/org/<name>.json stand in for the synthetic records; DIR/routes.json answers other paths.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '../core/errors';
import { SandboxSetupError } from './config';
import { type Route, loadRoutes } from './routes';

export interface Fixtures {
  /** Whole response bodies of Interface A, by ipSlug. */
  readonly ip: ReadonlyMap<string, Record<string, unknown>>;
  /** Data parts merged into MatchResponse of Interface B, by nameSlug. */
  readonly org: ReadonlyMap<string, Record<string, unknown>>;
  /** Answers for other paths, from routes.json. */
  readonly routes: readonly Route[];
}

export const NO_FIXTURES: Fixtures = { ip: new Map(), org: new Map(), routes: [] };

async function loadFolder(dir: string): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw new SandboxSetupError(`Cannot read the fixtures folder ${dir}: ${errorMessage(err)}`, { cause: err });
  }
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const file = join(dir, name);
    let value: unknown;
    try {
      value = JSON.parse(await readFile(file, 'utf8'));
    } catch (err) {
      throw new SandboxSetupError(`Fixture ${file} is not valid JSON: ${errorMessage(err)}`, { cause: err });
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new SandboxSetupError(`Fixture ${file} must hold a JSON object.`);
    }
    out.set(name.slice(0, -'.json'.length).toLowerCase(), value as Record<string, unknown>);
  }
  return out;
}

/** Reads DIR/ip/<ip>.json, DIR/org/<name-slug>.json and DIR/routes.json once at start. */
export async function loadFixtures(dir: string): Promise<Fixtures> {
  const [ip, org, routes] = await Promise.all([loadFolder(join(dir, 'ip')), loadFolder(join(dir, 'org')), loadRoutes(dir)]);
  return { ip, org, routes };
}
