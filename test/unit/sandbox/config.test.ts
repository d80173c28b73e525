import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_BOUNDS, SandboxConfigError, parseConfig, readConfigFile } from '../../../src/sandbox/config';
import { DEFAULT_CONFIG, DEMO_CREDENTIALS } from '../../../src/sandbox/defaults';
import { startSandbox } from '../../../src/sandbox/server';

const user = { user: 'u', password: 'p-secret-1' };

describe('sandbox: config validation', () => {
  const invalid: Array<[string, unknown, string]> = [
    ['not an object', [], '(root)'],
    ['no customers', {}, 'customers'],
    ['customers not an array', { customers: {} }, 'customers'],
    ['an unknown top-level property', { customers: [], colour: 'red' }, 'colour'],
    ['a zero token lifetime', { customers: [], tokenLifetimeSeconds: 0 }, 'tokenLifetimeSeconds'],
    ['an empty admin key', { customers: [], adminKey: '' }, 'adminKey'],
    ['a customer without id', { customers: [{}] }, 'customers[0].id'],
    ['a duplicate customer id', { customers: [{ id: 'a' }, { id: 'a' }] }, 'customers[1].id'],
    ['a negative qps', { customers: [{ id: 'a', qps: -1 }] }, 'customers[0].qps'],
    ['a fractional concurrency', { customers: [{ id: 'a', concurrency: 1.5 }] }, 'customers[0].concurrency'],
    ['a string contractLimit', { customers: [{ id: 'a', contractLimit: '10' }] }, 'customers[0].contractLimit'],
    ['a bad subscriberExpires', { customers: [{ id: 'a', subscriberExpires: 'next year' }] }, 'customers[0].subscriberExpires'],
    ['a subscriberExpires that does not exist', { customers: [{ id: 'a', subscriberExpires: '2030-02-30' }] }, 'customers[0].subscriberExpires'],
    ['a negative responseDelayMs', { customers: [{ id: 'a', responseDelayMs: -5 }] }, 'customers[0].responseDelayMs'],
    ['a user without password', { customers: [{ id: 'a', users: [{ user: 'u' }] }] }, 'customers[0].users[0].password'],
    ['a non-boolean locked', { customers: [{ id: 'a', users: [{ ...user, locked: 'yes' }] }] }, 'customers[0].users[0].locked'],
    ['a duplicate user', { customers: [{ id: 'a', users: [user] }, { id: 'b', users: [user] }] }, 'customers[1].users[0].user'],
    ['a key with a colon', { customers: [{ id: 'a', clients: [{ consumerKey: 'a:b', consumerSecret: 's' }] }] }, 'customers[0].clients[0].consumerKey'],
    ['a secret with a line break', { customers: [{ id: 'a', clients: [{ consumerKey: 'k', consumerSecret: 's\nx' }] }] }, 'customers[0].clients[0].consumerSecret'],
    ['an unknown user property', { customers: [{ id: 'a', users: [{ ...user, role: 'admin' }] }] }, 'customers[0].users[0].role'],
    ['clients not an array', { customers: [{ id: 'a', clients: 'k' }] }, 'customers[0].clients'],
    // Bounds: a limiter, a timer or a date beyond these would break the sandbox rather than emulate.
    ['a qps of 1e9', { customers: [{ id: 'a', qps: 1e9 }] }, 'customers[0].qps'],
    ['a concurrency of a million', { customers: [{ id: 'a', concurrency: 1_000_000 }] }, 'customers[0].concurrency'],
    ['a contractLimit past 1e12', { customers: [{ id: 'a', contractLimit: 1e13 }] }, 'customers[0].contractLimit'],
    ['a responseDelayMs of an hour', { customers: [{ id: 'a', responseDelayMs: 3_600_000 }] }, 'customers[0].responseDelayMs'],
    ['a token lifetime of 1e13 seconds', { customers: [], tokenLifetimeSeconds: 1e13 }, 'tokenLifetimeSeconds'],
  ];
  for (const [name, raw, path] of invalid) {
    it(`refuses ${name}, naming ${path}`, async () => {
      assert.throws(() => parseConfig(raw), (err: unknown) => err instanceof SandboxConfigError && err.path === path && err.message.includes(path));
      await assert.rejects(startSandbox({ config: raw }), (err: Error) => err.message.includes(path));
    });
  }

  it('never repeats a secret in an error message', () => {
    try {
      parseConfig({ customers: [{ id: 'a', users: [{ user: 'u', password: ' CANARY-spaced ' }] }] });
      assert.fail('should throw');
    } catch (err) {
      assert.ok(err instanceof SandboxConfigError);
      assert.ok(!err.message.includes('CANARY'));
    }
  });

  it('accepts the default config and the demo credentials match it', () => {
    const c = parseConfig(DEFAULT_CONFIG);
    assert.equal(c.customers[0]?.clients?.[0]?.consumerKey, DEMO_CREDENTIALS.a.consumerKey);
    assert.equal(c.customers[0]?.users?.[0]?.password, DEMO_CREDENTIALS.b.password);
    assert.equal(c.customers[0]?.qps, 10);
    assert.equal(c.customers[0]?.concurrency, 4);
  });

  it('reads a config file, and names the file and path when it is invalid', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bizdata-config-'));
    try {
      const good = join(dir, 'good.json');
      await writeFile(good, JSON.stringify({ $schema: '../schemas/sandbox-config.schema.json', customers: [{ id: 'x', users: [user] }] }));
      assert.equal((await readConfigFile(good)).customers[0]?.id, 'x');
      const bad = join(dir, 'bad.json');
      await writeFile(bad, JSON.stringify({ customers: [{ id: 'x', qps: 0 }] }));
      await assert.rejects(readConfigFile(bad), (err: Error) => err.message.includes('customers[0].qps') && err.message.includes(bad));
      const broken = join(dir, 'broken.json');
      await writeFile(broken, '{');
      await assert.rejects(readConfigFile(broken), (err: Error) => err.message.includes(broken));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('states the allowed range in the message', () => {
    assert.throws(() => parseConfig({ customers: [{ id: 'a', qps: 1e9 }] }), /customers\[0\]\.qps: must be an integer from 1 to 1000000/);
  });

  it('the JSON Schema has the validator\'s bounds', async () => {
    const schema = JSON.parse(await readFile(join(__dirname, '../../../../schemas/sandbox-config.schema.json'), 'utf8'));
    const customer = schema.$defs.customer.properties;
    const inSchema = {
      tokenLifetimeSeconds: schema.properties.tokenLifetimeSeconds,
      qps: customer.qps, concurrency: customer.concurrency, contractLimit: customer.contractLimit, responseDelayMs: customer.responseDelayMs,
    };
    for (const [name, bounds] of Object.entries(CONFIG_BOUNDS)) {
      const s = inSchema[name as keyof typeof inSchema];
      assert.deepEqual({ min: s.minimum, max: s.maximum }, bounds, name);
    }
  });

  it('the JSON Schema describes exactly the properties the validator accepts', async () => {
    const schema = JSON.parse(await readFile(join(__dirname, '../../../../schemas/sandbox-config.schema.json'), 'utf8'));
    assert.deepEqual(Object.keys(schema.properties).sort(), ['$schema', 'adminKey', 'customers', 'tokenLifetimeSeconds']);
    const customer = schema.$defs.customer;
    assert.deepEqual(Object.keys(customer.properties).sort(),
      ['clients', 'concurrency', 'contractLimit', 'id', 'qps', 'responseDelayMs', 'subscriberExpires', 'users']);
    assert.deepEqual(Object.keys(schema.$defs.user.properties).sort(), ['credentialsExpired', 'locked', 'password', 'user']);
    assert.deepEqual(Object.keys(schema.$defs.client.properties).sort(), ['consumerKey', 'consumerSecret']);
  });
});
