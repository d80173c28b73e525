// End to end, as a person would: the browser workbench of the offline VS Code server with this
// extension loaded, driven through the command palette, the editor and the mouse (the run report's
// webview included). Also takes the README's screenshots: into test-results/ on every run, into media/screenshots/ (committed) only with
// BIZDATA_UPDATE_SCREENSHOTS=1 (`npm run screenshots`), so a test run never changes tracked files.
import * as assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import { launchChromium, startVsCodeServer, workbenchUrl } from '../../scripts/vscode-host.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const screenshots = process.env.BIZDATA_UPDATE_SCREENSHOTS === '1' ? join(root, 'media', 'screenshots') : join(root, 'test-results', 'screenshots');
const UI_TIMEOUT = 30_000;

/**
 * The user's two connections, as the machine settings of the VS Code server hold them (the setting is
 * machine-scoped). Nothing is sent to these hosts: the run only switches between them and the sandbox.
 */
const CONNECTIONS = {
  connections: {
    test: { authUrl: 'https://auth.test.example.com', baseUrl: 'https://api.test.example.com', legacyUrl: 'https://legacy.test.example.com', origin: 'https://app.example.com' },
    production: { authUrl: 'https://auth.example.com', baseUrl: 'https://api.example.com', legacyUrl: 'https://legacy.example.com', origin: 'https://app.example.com', production: true },
  },
};

/** Opens the command palette, picks the command by its full title and runs it. */
async function runCommand(page, title) {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input.input');
  const row = widget.locator('.monaco-list-row', { hasText: title }).first();
  // Right after start the palette may not list the extension's commands yet: reopen until it does.
  for (let attempt = 1; ; attempt++) {
    if (await widget.isVisible()) await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await input.fill(`>${title}`);
    try {
      await row.waitFor({ timeout: 5000 });
      break;
    } catch (err) {
      if (attempt >= 6) throw err;
    }
  }
  await row.click();
}

/** Types into the quick input the running command opened and accepts it. */
async function answerInput(page, value) {
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await input.fill(value);
  await page.keyboard.press('Enter');
}

/** Presses the keys one after the other, as a person types them. */
async function press(page, ...keys) {
  for (const key of keys) await page.keyboard.press(key);
}

/** The hover widget that shows `text`, once visible and done fading in (for the screenshots). */
async function hoverWith(page, text) {
  const hover = page.locator('.monaco-hover, .workbench-hover', { hasText: text }).first();
  await hover.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await page.waitForTimeout(600);
  return hover;
}

describe('Business Data in the browser workbench', function () {
  let server;
  let browser;
  let page;
  let workspace;

  before(async function () {
    workspace = mkdtempSync(join(tmpdir(), 'bizdata-e2e-'));
    cpSync(join(root, 'test', 'e2e', 'fixtures', 'workspace'), workspace, { recursive: true });
    mkdirSync(screenshots, { recursive: true });
    server = await startVsCodeServer({ log: () => undefined });
    const machine = join(server.dataDir, 'user', 'Machine');
    mkdirSync(machine, { recursive: true });
    writeFileSync(join(machine, 'settings.json'), JSON.stringify({ 'bizdata.connections': CONNECTIONS }, null, 2));
    browser = await launchChromium({ log: () => undefined });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(workbenchUrl(server, { folder: workspace, extensionPath: root }), { timeout: 60_000 });
    // The workbench restores the explorer; wait until it lists the fixture files.
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'sc001.response.json' }).waitFor({ timeout: 60_000 });
    // The extension activates on demand: open its view as a person would, then come back to the explorer.
    await page.locator('.activitybar .action-item a[aria-label^="Business Data"]').first().click();
    await page.locator('.statusbar-item', { hasText: 'Business Data' }).first().waitFor({ timeout: 60_000 });
    await page.locator('.activitybar .action-item a[aria-label^="Explorer"]').first().click();
    // An empty secondary side bar would take a third of every screenshot.
    if (await page.locator('.part.auxiliarybar').isVisible()) await runCommand(page, 'View: Hide Secondary Side Bar');
  });

  afterEach(async function () {
    // A picture of the moment a step failed (test-results/ is not committed).
    if (this.currentTest?.state === 'failed' && page) {
      mkdirSync(join(root, 'test-results'), { recursive: true });
      const name = this.currentTest.title.replace(/[^\w]+/g, '-').slice(0, 60);
      await page.screenshot({ path: join(root, 'test-results', `e2e-${name}.png`) }).catch(() => undefined);
    }
  });

  after(async function () {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it('starts the local sandbox from the command palette', async function () {
    await runCommand(page, 'Business Data: Start Local Sandbox');
    // The status bar item turns from "signed out" to the sandbox connection.
    const item = page.locator('.statusbar-item', { hasText: /sandbox/i }).first();
    await item.waitFor({ timeout: UI_TIMEOUT });
  });

  it('looks up an IP address and shows the result in a JSON editor', async function () {
    await runCommand(page, 'Business Data: Look Up IP Address');
    await answerInput(page, '8.8.8.8');
    const tab = page.locator('.tabs-container .tab.active', { hasText: '.json' });
    await tab.waitFor({ timeout: UI_TIMEOUT });
    const editor = page.locator('.editor-group-container.active .monaco-editor .view-lines');
    await editor.waitFor({ timeout: UI_TIMEOUT });
    // The result body echoes the address looked up.
    await editor.filter({ hasText: '8.8.8.8' }).waitFor({ timeout: UI_TIMEOUT });
    assert.match((await editor.textContent()) ?? '', /\{/);
  });

  it('shows the sidebar with the connection and the lookup history', async function () {
    await page.locator('.activitybar .action-item a[aria-label^="Business Data"]').first().click();
    const sidebar = page.locator('.part.sidebar');
    await sidebar.locator('.pane-header', { hasText: /Connections/i }).waitFor({ timeout: UI_TIMEOUT });
    await sidebar.locator('.monaco-list-row', { hasText: '8.8.8.8' }).first().waitFor({ timeout: UI_TIMEOUT });
    await page.screenshot({ path: join(screenshots, 'sidebar.png') });
  });

  it('shows the token status in the status bar tooltip', async function () {
    const item = page.locator('.statusbar-item', { hasText: /sandbox/i }).first();
    await item.hover();
    const tooltip = await hoverWith(page, 'Interface');
    assert.match((await tooltip.textContent()) ?? '', /expires|valid|token/i);
    await page.screenshot({ path: join(screenshots, 'status-bar-tooltip.png') });
    await page.mouse.move(640, 400);
  });

  it('switches connections through the status bar: production in the warning colour, then back to the sandbox', async function () {
    /** Clicks the status bar item and picks the connection by name from the list it opens. */
    const switchTo = async (name, screenshot) => {
      await page.locator('.statusbar-item', { hasText: 'Business Data' }).first().click();
      const widget = page.locator('.quick-input-widget');
      await widget.locator('.monaco-list-row', { hasText: 'production' }).first().waitFor({ timeout: UI_TIMEOUT });
      await widget.locator('.monaco-list-row', { hasText: 'test' }).first().waitFor({ timeout: UI_TIMEOUT });
      if (screenshot) {
        await page.waitForTimeout(400);
        await page.screenshot({ path: join(screenshots, screenshot) });
      }
      await widget.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${name}$`) }) }).first().click();
    };
    await switchTo('production', 'connections.png');
    const production = page.locator('.statusbar-item', { hasText: 'production · Business Data' }).first();
    await production.waitFor({ timeout: UI_TIMEOUT });
    // A production account shows in the warning colour.
    await page.locator('.statusbar-item.warning-kind', { hasText: 'production' }).first().waitFor({ timeout: UI_TIMEOUT });
    await switchTo('sandbox');
    await page.locator('.statusbar-item', { hasText: 'Business Data A (sandbox)' }).first().waitFor({ timeout: UI_TIMEOUT });
    assert.equal(await page.locator('.statusbar-item', { hasText: 'production · Business Data' }).count(), 0);
  });

  it('underlines SC001 in a saved response and explains it on hover', async function () {
    await page.locator('.activitybar .action-item a[aria-label^="Explorer"]').first().click();
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'sc001.response.json' }).dblclick();
    await page.locator('.tabs-container .tab.active', { hasText: 'sc001.response.json' }).waitFor({ timeout: UI_TIMEOUT });
    const code = page.locator('.editor-group-container.active .view-line span', { hasText: /^"SC001"$/ }).first();
    await code.waitFor({ timeout: UI_TIMEOUT });
    // The diagnostic appears in the status bar's problem counter.
    await page.locator('.statusbar-item', { hasText: /1/ }).locator('.codicon-error').first().waitFor({ timeout: UI_TIMEOUT });
    await code.hover();
    const hover = await hoverWith(page, 'Your user credentials are invalid.');
    const text = (await hover.textContent()) ?? '';
    assert.match(text, /SC001/);
    assert.match(text, /Generate a new token once/);
    await page.screenshot({ path: join(screenshots, 'hover.png') });
  });

  it('writes a request file, sends it, and explains the code in the answer on hover', async function () {
    await runCommand(page, 'Business Data: New Request File');
    const file = page.locator('.editor-group-container.active .monaco-editor');
    await file.locator('.view-lines', { hasText: 'ipLookup' }).waitFor({ timeout: UI_TIMEOUT });
    // Start from an empty file, as a person writing their own request would.
    await file.locator('.view-lines').click();
    await press(page, 'ControlOrMeta+A', 'Delete');
    await page.keyboard.insertText('# Organizations of our customers\n\n### Find an organization\n# @name orgSearch\n');
    // Completion offers the operations the specification shows; pick the organization search.
    await page.keyboard.press('Control+Space');
    const suggestion = page.locator('.suggest-widget .monaco-list-row', { hasText: 'organizations' }).first();
    await suggestion.waitFor({ timeout: UI_TIMEOUT });
    await suggestion.click();
    await page.keyboard.press('Escape');
    await file.locator('.view-lines', { hasText: 'CountryISOAlpha2Code=GB' }).waitFor({ timeout: UI_TIMEOUT });
    await press(page, 'ControlOrMeta+End', 'Enter');
    await page.keyboard.insertText('Accept: application/json');
    await press(page, 'Escape');
    const send = page.locator('.codelens-decoration a', { hasText: 'Send (Interface B)' }).first();
    await send.waitFor({ timeout: UI_TIMEOUT });
    await send.click();
    // The answer opens beside the file; its result code explains itself on hover.
    const code = page.locator('.editor-group-container .view-line span', { hasText: /^"CM000"$/ }).first();
    await code.waitFor({ timeout: UI_TIMEOUT });
    // The file and its answer side by side need the whole width.
    if (await page.locator('.part.sidebar').isVisible()) await runCommand(page, 'View: Close Primary Side Bar');
    await code.hover();
    const hover = await hoverWith(page, 'The call succeeded.');
    assert.match((await hover.textContent()) ?? '', /CM000/);
    await page.screenshot({ path: join(screenshots, 'request-file.png') });
  });

  it('runs a request file from the Testing view: passes, and a failed check at its line with expected and actual', async function () {
    await runCommand(page, 'View: Close All Editors');
    // The request file written above was never saved: leave it unsaved.
    const dontSave = page.locator('.monaco-dialog-box .monaco-button', { hasText: "Don't Save" });
    await dontSave.waitFor({ timeout: 3000 }).then(
      () => dontSave.click(),
      () => undefined,
    );
    await runCommand(page, 'Go to File...');
    await page.locator('.quick-input-widget input.input').fill('checks.bizdata.http');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'checks.bizdata.http' }).first().click();
    await page.locator('.tabs-container .tab.active', { hasText: 'checks.bizdata.http' }).waitFor({ timeout: UI_TIMEOUT });
    await runCommand(page, 'Testing: Focus on Test Explorer View');
    const tree = page.locator('.test-explorer');
    await tree.locator('.monaco-list-row', { hasText: 'checks.bizdata.http' }).waitFor({ timeout: UI_TIMEOUT });
    await runCommand(page, 'Test: Run All Tests');
    // The file fails (one check does not hold); open it and the failed request in the tree.
    const fileRow = tree.locator('.monaco-list-row', { hasText: 'checks.bizdata.http' });
    await fileRow.locator('.codicon-testing-failed-icon').waitFor({ timeout: UI_TIMEOUT });
    await fileRow.click();
    await page.keyboard.press('ArrowRight');
    await tree.locator('.monaco-list-row', { hasText: 'ipLookup' }).locator('.codicon-testing-passed-icon').waitFor({ timeout: UI_TIMEOUT });
    const failedRow = tree.locator('.monaco-list-row', { hasText: 'A check that does not hold' });
    await failedRow.locator('.codicon-testing-failed-icon').waitFor({ timeout: UI_TIMEOUT });
    await failedRow.click();
    await page.keyboard.press('ArrowRight');
    await tree.locator('.monaco-list-row', { hasText: '?? body $.inquiryDetail.ipAddress == 8.8.4.4' }).locator('.codicon-testing-failed-icon').waitFor({ timeout: UI_TIMEOUT });
    // Each request's answer line is in the Test Results output.
    await page.locator('.part.panel', { hasText: 'A check that does not hold: the address looked up is another one: HTTP 200' }).first().waitFor({ timeout: UI_TIMEOUT });
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(screenshots, 'test-explorer.png') });
  });

  it('opens the report of that run in a webview: its counts, and its calls drawn or, for a run of a moment, said in words', async function () {
    await runCommand(page, 'Business Data: Open Report');
    // A webview is an iframe in an iframe: the page itself is in the inner one.
    const report = page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');
    await report.locator('#timeline-words').waitFor({ timeout: UI_TIMEOUT });
    assert.equal(await report.locator('[data-count="passed"]').textContent(), '2');
    assert.equal(await report.locator('[data-count="failed"]').textContent(), '1');
    // Three requests go out within a second or two: too short to chart, which the page says.
    const charted = (await report.locator('#timeline').count()) > 0;
    if (charted) await report.locator('#timeline[data-drawn]').waitFor({ timeout: UI_TIMEOUT });
    else assert.match(await report.locator('#timeline-words').textContent(), /too short a run to chart per second/);
    // The report takes the editor area's height: the panel below would hide its charts.
    await runCommand(page, 'View: Hide Panel');
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(screenshots, 'report-webview.png') });
  });
});
