import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..', '..');

interface Step {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string };
  completionEvents: string[];
}

describe('Get started walkthrough', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    contributes: { walkthroughs: Array<{ id: string; steps: Step[] }>; commands: Array<{ command: string }> };
  };
  const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
  const walkthrough = manifest.contributes.walkthroughs.find((w) => w.id === 'bizdata.getStarted');

  it('has the five steps in order: connect, look up an IP, open a response, hover a code, send a request file', () => {
    assert.ok(walkthrough);
    assert.deepEqual(walkthrough.steps.map((s) => s.id), ['connect', 'lookUpIp', 'openResponse', 'hoverCode', 'requestFile']);
  });

  it('points at existing pages and texts, and completes on real commands and context keys', () => {
    const commands = new Set(manifest.contributes.commands.map((c) => c.command));
    const contextKeys = readFileSync(join(root, 'src', 'features', 'state', 'contextKeys.ts'), 'utf8');
    for (const step of walkthrough?.steps ?? []) {
      assert.ok(step.media.markdown && existsSync(join(root, step.media.markdown)), `${step.id}: media page`);
      for (const key of [step.title, step.description]) assert.ok(nls[key.replace(/%/g, '')], `${step.id}: ${key}`);
      assert.ok(step.completionEvents.length > 0, `${step.id}: completion events`);
      for (const event of step.completionEvents) {
        const [kind, name] = [event.slice(0, event.indexOf(':')), event.slice(event.indexOf(':') + 1)];
        if (kind === 'onCommand') assert.ok(commands.has(name), `${step.id}: ${event}`);
        else if (kind === 'onContext') assert.ok(contextKeys.includes(`'${name}'`), `${step.id}: ${event}`);
        else assert.equal(kind, 'onView', `${step.id}: ${event}`);
      }
    }
  });
});
