// A JUnit report checked the way CI reads it: well-formed XML, valid against the Jenkins JUnit schema
// (test/fixtures/junit/jenkins-junit-10.xsd) by libxml2's own validator (xmllint-wasm), then read back
// with an XML parser so tests can look at each suite and case.
import * as assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { validateXML } from 'xmllint-wasm';

const XSD = join(__dirname, '../../../../test/fixtures/junit/jenkins-junit-10.xsd');

export interface JunitCase {
  readonly name: string;
  readonly classname: string;
  readonly time: string;
  readonly failure?: { readonly message: string; readonly text: string };
  readonly error?: { readonly message: string; readonly type: string; readonly text: string };
  readonly systemOut: string;
}

export interface JunitSuite {
  readonly name: string;
  readonly tests: number;
  readonly failures: number;
  readonly errors: number;
  readonly properties: ReadonlyMap<string, string>;
  readonly cases: readonly JunitCase[];
}

/** The schema's errors for a report (empty when it is valid). */
export async function junitSchemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: await readFile(XSD, 'utf8') }] });
  return result.errors.map((e) => e.rawMessage);
}

/** A report's suites, after asserting that it is valid against the schema. */
export async function readJunit(xml: string): Promise<JunitSuite[]> {
  assert.deepEqual(await junitSchemaErrors(xml), [], 'the JUnit report is valid against the Jenkins JUnit schema');
  const list = (v: unknown): Record<string, unknown>[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]) as Record<string, unknown>[];
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', textNodeName: '#text', parseAttributeValue: false, parseTagValue: false, trimValues: false });
  const doc = parser.parse(xml, true) as { testsuites: { testsuite?: unknown } };
  return list(doc.testsuites.testsuite).map((s) => ({
    name: String(s.name),
    tests: Number(s.tests),
    failures: Number(s.failures),
    errors: Number(s.errors),
    properties: new Map(list((s.properties as { property?: unknown } | undefined)?.property).map((p) => [String(p.name), String(p.value)])),
    cases: list(s.testcase).map((c) => {
      const failure = c.failure as Record<string, string> | undefined;
      const error = c.error as Record<string, string> | undefined;
      return {
        name: String(c.name),
        classname: String(c.classname),
        time: String(c.time),
        ...(failure ? { failure: { message: failure.message, text: failure['#text'] ?? '' } } : {}),
        ...(error ? { error: { message: error.message, type: error.type, text: error['#text'] ?? '' } } : {}),
        systemOut: String(c['system-out'] ?? ''),
      };
    }),
  }));
}
