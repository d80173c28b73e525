// The report's own styles (uPlot's come with it): VS Code's theme variables in a webview, the
// system's light or dark colours in a browser. No style attributes anywhere: the CSP allows only this.
export const REPORT_STYLE = `
:root {
  color-scheme: light dark;
  --fg: var(--vscode-foreground, CanvasText);
  --bg: var(--vscode-editor-background, Canvas);
  --muted: var(--vscode-descriptionForeground, GrayText);
  --border: var(--vscode-panel-border, rgba(128, 128, 128, 0.35));
  --pass: var(--vscode-testing-iconPassed, #388a34);
  --fail: var(--vscode-testing-iconFailed, #e51400);
  --error: var(--vscode-testing-iconErrored, #c72e0f);
  --skip: var(--vscode-testing-iconSkipped, #848484);
  --calls: var(--vscode-charts-blue, #1a85ff);
  --limit: var(--vscode-charts-orange, #d18616);
  --wait: var(--vscode-charts-red, #e51400);
  --slow: var(--vscode-charts-purple, #8b3dbd);
  --again: var(--vscode-charts-yellow, #bf8803);
  /* Paler: a row an earlier run finished (reportScript.ts draws the grid's cells with the same alphas). */
  --pass-earlier: color-mix(in srgb, var(--pass) 45%, transparent);
  --fail-earlier: color-mix(in srgb, var(--fail) 45%, transparent);
  --done: color-mix(in srgb, var(--skip) 60%, transparent);
}
body { margin: 1.5rem auto; max-width: 72rem; padding: 0 1rem; color: var(--fg); background: var(--bg);
  font-family: var(--vscode-font-family, system-ui, -apple-system, "Segoe UI", sans-serif); font-size: var(--vscode-font-size, 14px); line-height: 1.45; }
h1 { font-size: 1.4rem; margin: 0 0 1rem; word-break: break-all; }
h2 { font-size: 1.1rem; margin: 1.6rem 0 0.5rem; border-bottom: 1px solid var(--border); padding-bottom: 0.2rem; }
h4 { margin: 0.6rem 0 0.2rem; font-size: 0.9rem; }
code, pre { font-family: var(--vscode-editor-font-family, ui-monospace, Menlo, Consolas, monospace); font-size: 0.9em; }
pre { white-space: pre-wrap; word-break: break-all; border: 1px solid var(--border); padding: 0.5rem; margin: 0; max-height: 20rem; overflow: auto; }
table { border-collapse: collapse; margin: 0.3rem 0; max-width: 100%; }
td code { word-break: break-all; }
th, td { text-align: left; vertical-align: top; padding: 0.2rem 0.8rem 0.2rem 0; border-bottom: 1px solid var(--border); }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
#codes td:first-child, #codes th, #slowest th { white-space: nowrap; }
.muted { color: var(--muted); }
.counts { display: flex; flex-wrap: wrap; gap: 0.6rem; margin-bottom: 0.8rem; }
.count { border: 1px solid var(--border); border-left-width: 4px; padding: 0.4rem 0.8rem; min-width: 6rem; }
.count .sub { display: block; color: var(--muted); font-size: 0.85em; }
.count .n { display: block; font-size: 1.6rem; font-weight: 600; font-variant-numeric: tabular-nums; }
.count.passed { border-left-color: var(--pass); }
.count.failed { border-left-color: var(--fail); }
.count.errors { border-left-color: var(--error); }
.count.skipped { border-left-color: var(--skip); }
.facts th { color: var(--muted); font-weight: normal; }
.stopped { border-left: 4px solid var(--error); padding-left: 0.6rem; }
.chart { min-height: 240px; }
.words { margin: 0.3rem 0; }
.note { border-left: 4px solid var(--limit); padding-left: 0.6rem; }
.legend { margin: 0.3rem 0; display: flex; flex-wrap: wrap; gap: 0.4rem 1.2rem; }
.rows { display: block; max-width: 100%; image-rendering: pixelated; }
.key::before { content: ""; display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.25em; vertical-align: -0.1em; }
.key.ok::before { background: var(--pass); }
.key.ok.earlier::before { background: var(--pass-earlier); }
.key.failed::before { background: var(--fail); }
.key.failed.earlier::before { background: var(--fail-earlier); }
.key.again::before { background: var(--again); }
.key.done::before { background: var(--done); }
.key.repeated::before { background: var(--skip); }
.key.unsent::before { background: var(--border); }
.key.calls::before { background: var(--calls); }
.key.limit::before { height: 0; border-top: 2px dashed var(--limit); vertical-align: 0.25em; }
.key.wait::before { width: 2px; background: var(--wait); }
.key.slow::before { height: 0; border-top: 2px dotted var(--slow); vertical-align: 0.25em; }
.count.notdone { border-left-color: var(--border); }
.count.unjudged { border-left-color: var(--done); }
.count.repeated { border-left-color: var(--skip); }
details.failure { border: 1px solid var(--border); border-left: 4px solid var(--fail); padding: 0.4rem 0.6rem; margin: 0.5rem 0; }
details.failure.error { border-left-color: var(--error); }
details.failure summary { cursor: pointer; }
.verdict { color: var(--muted); text-transform: uppercase; font-size: 0.8em; margin-left: 0.4em; }
`;
