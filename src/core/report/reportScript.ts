// The report's only script: draws the charts (uPlot) from the data block the page carries. Plain
// ES2017 for any browser a CI artifact may be opened in; it reads nothing but the page.
export const REPORT_SCRIPT = `(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var css = getComputedStyle(document.documentElement);
  function color(name) { return css.getPropertyValue(name).trim() || '#888888'; }
  var fg = color('--fg');
  var grid = color('--border');
  var t = data.timeline;
  var xs = t.calls.map(function (_, i) { return i; });
  function axis(label, incrs) { return { stroke: fg, label: label, incrs: incrs, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } }; }
  var SECONDS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200];
  function width(el) { return Math.max(320, el.clientWidth || 800); }
  var dpr = window.devicePixelRatio || 1;
  // The limit across each whole second, dashed; each wait as a red line at its second.
  function marks(u) {
    var ctx = u.ctx;
    ctx.save();
    ctx.strokeStyle = color('--limit');
    ctx.lineWidth = 2 * dpr;
    ctx.setLineDash([6 * dpr, 4 * dpr]);
    t.limit.forEach(function (l, s) {
      if (l === null) return;
      var y = u.valToPos(l, 'y', true);
      ctx.beginPath();
      ctx.moveTo(u.valToPos(s - 0.5, 'x', true), y);
      ctx.lineTo(u.valToPos(s + 0.5, 'x', true), y);
      ctx.stroke();
    });
    ctx.setLineDash([]);
    ctx.strokeStyle = color('--wait');
    t.waits.forEach(function (w) {
      var x = u.valToPos(w.second, 'x', true);
      ctx.beginPath();
      ctx.moveTo(x, u.bbox.top);
      ctx.lineTo(x, u.bbox.top + u.bbox.height);
      ctx.stroke();
    });
    ctx.restore();
  }
  function none() { return null; }
  function chart(id, series, values, yLabel, hooks) {
    var el = document.getElementById(id);
    if (!el || xs.length === 0 || typeof uPlot !== 'function') return;
    var plot = new uPlot({
      width: width(el), height: 240,
      scales: { x: { time: false, auto: false, range: [-0.5, xs.length - 0.5] }, y: { range: function (u, min, max) { return [0, max > 0 ? max * 1.1 : 1]; } } },
      axes: [axis('seconds since the first call', SECONDS), axis(yLabel)],
      series: [{ label: 'second' }].concat(series),
      hooks: hooks || {}
    }, [xs].concat(values), el);
    el.setAttribute('data-drawn', String(plot.data[0].length));
  }
  chart('timeline', [
    { label: 'calls/s', stroke: color('--calls'), fill: color('--calls'), paths: uPlot.paths.bars({ size: [0.7, 120] }), points: { show: false } },
    { label: 'limit', stroke: color('--limit'), width: 2, dash: [6, 4], paths: none, points: { show: false } }
  ], [t.calls, t.limit], 'calls per second', { draw: [marks] });
  chart('durations', [
    { label: 'median ms', stroke: color('--calls'), width: 2 },
    { label: 'slowest ms', stroke: color('--slow'), width: 1, dash: [3, 3] }
  ], [t.medianMs, t.slowestMs], 'ms');
  var rows = document.getElementById('rows');
  if (rows && data.cells.length > 0) {
    var n = data.cells.length;
    var cols = Math.min(n, 100);
    var size = Math.max(4, Math.min(16, Math.floor(width(rows) / cols)));
    rows.width = cols * size;
    rows.height = Math.ceil(n / cols) * size;
    var ctx = rows.getContext('2d');
    var fills = { o: color('--pass'), f: color('--fail'), s: color('--skip'), u: color('--border') };
    for (var i = 0; i < n; i++) {
      ctx.fillStyle = fills[data.cells[i]] || fg;
      ctx.fillRect((i % cols) * size, Math.floor(i / cols) * size, size - 1, size - 1);
    }
    rows.setAttribute('data-drawn', String(n));
  }
})();
`;
