// VS Code's own proxy settings in the real VS Code, through a real proxy (tinyproxy): http.proxy
// applies when bizdata.network.proxy is empty, and http.noProxy hosts are reached directly.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startTinyproxy, type Proxy } from '../unit/core/network';
import { canaries, sleep, useTestSandbox } from './helpers';

describe("VS Code's proxy settings", function () {
  this.timeout(60_000);
  const c = canaries();
  const sandbox = useTestSandbox(c);
  let proxy: Proxy | undefined;
  const http = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('http');

  before(async () => {
    proxy = await startTinyproxy();
  });

  after(async () => {
    await http().update('proxy', undefined, vscode.ConfigurationTarget.Global);
    await http().update('noProxy', undefined, vscode.ConfigurationTarget.Global);
    await proxy?.close();
  });

  it('sends the calls through http.proxy when bizdata.network.proxy is empty, and not to http.noProxy hosts', async () => {
    if (!proxy) throw new Error('no proxy');
    await http().update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
    await sleep(200); // the client is rebuilt on the configuration event
    assert.equal(await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', consumerKey: c.key, consumerSecret: c.secret }), 'valid');
    assert.ok(await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.7' }));
    const seen = await proxy.requests();
    assert.ok(seen.some((l) => l.startsWith(`GET ${sandbox().url}/v1/duns-search/ip/203.0.113.7`)), seen.join(' | '));

    await http().update('noProxy', ['127.0.0.1'], vscode.ConfigurationTarget.Global);
    await sleep(200);
    assert.ok(await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '198.51.100.9' }));
    assert.ok(!(await proxy.requests()).some((l) => l.includes('198.51.100.9')), 'the noProxy host was reached directly');
  });
});
