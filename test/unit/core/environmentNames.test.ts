// The client's own environment variables (core/connections/environmentNames.ts) are every BIZDATA_
// variable its code reads, and no connection may be named so that its credential variables
// (BIZDATA_<NAME>_USER …) are one of them: the connections file, the setting's schema and the
// editor's Add Connection (one check, connectionNameProblem) refuse it.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Ajv from 'ajv';
import { connectionNameProblem } from '../../../src/core/connections/connectionsFile';
import { CREDENTIAL_SUFFIXES, OWN_VARIABLES, variableClash } from '../../../src/core/connections/environmentNames';

const ROOT = resolve(__dirname, '../../../..');
const SCHEMA = JSON.parse(readFileSync(join(ROOT, 'schemas/connections.schema.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: true, strictRequired: false }).compile(SCHEMA);

/** Names that look like variables but are none the client reads: the build's version constant, and the help's example of a connection's own credentials. */
const NOT_READ = new Set(['BIZDATA_VERSION', 'BIZDATA_EU_PROD_CONSUMER_KEY', 'BIZDATA_EU_PROD_CONSUMER_SECRET', 'BIZDATA_EU_PROD_USER', 'BIZDATA_EU_PROD_PASSWORD']);
const DEFINED_IN = 'src/core/connections/environmentNames.ts';

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : []));
}

describe("the client's own environment variables", () => {
  const named = new Map<string, Set<string>>();
  for (const file of sources('src')) {
    for (const [name] of readFileSync(join(ROOT, file), 'utf8').matchAll(/\bBIZDATA_[A-Z0-9_]*[A-Z0-9]\b/g)) {
      if (!named.has(name)) named.set(name, new Set());
      named.get(name)?.add(file);
    }
  }

  it('are every BIZDATA_ variable the code names, and each of them is named outside the list', () => {
    assert.ok(named.size > 20, `expected the variables of ${join(ROOT, 'src')}`);
    const unlisted = [...named.keys()].filter((n) => !Object.hasOwn(OWN_VARIABLES, n) && !NOT_READ.has(n)).sort();
    assert.deepEqual(unlisted, [], `add them to OWN_VARIABLES in ${DEFINED_IN}`);
    const unused = Object.keys(OWN_VARIABLES).filter((n) => [...(named.get(n) ?? [])].every((f) => f === DEFINED_IN));
    assert.deepEqual(unused, [], 'listed, but read nowhere');
  });

  it('refuse every connection name whose credential variables are one of them, in any case, and the schema does too', () => {
    const suffixes = Object.values(CREDENTIAL_SUFFIXES).flat();
    const clashing = Object.keys(OWN_VARIABLES).flatMap((v) => suffixes.filter((s) => v.endsWith(`_${s}`) && v !== `BIZDATA_${s}`).map((s) => v.slice('BIZDATA_'.length, -s.length - 1)));
    assert.deepEqual(clashing, ['COORDINATOR', 'COORDINATOR'], 'the coordinator is the one today; a new one belongs in this test and the schema');
    for (const name of ['coordinator', 'Coordinator', 'COORDINATOR']) {
      assert.match(connectionNameProblem(name) ?? '', /BIZDATA_COORDINATOR_USER \(the Redis coordinator's user\) and BIZDATA_COORDINATOR_PASSWORD/, name);
      assert.equal(validate({ connections: { [name]: { baseUrl: 'https://a.example' } } }), false, `the schema accepts ${name}`);
    }
    for (const name of ['coordinator-api', 'coordinators', 'eu-prod', 'sandbox-2', 'user', 'password', 'consumer']) {
      assert.equal(variableClash(name), undefined, name);
      assert.equal(connectionNameProblem(name), undefined, name);
      assert.equal(validate({ connections: { [name]: { baseUrl: 'https://a.example' } } }), true, `the schema refuses ${name}`);
    }
  });
});
