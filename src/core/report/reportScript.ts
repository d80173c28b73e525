// The report's only script: draws the charts (uPlot) and the outcome grid from the data block the
// page carries, at the scale the model chose (timeline.ts: the run's own rates, not a far limit).
// Plain ES2017 for any browser a CI artifact may be opened in; it reads nothing but the page. The
// figures are in the page's words already: the legends here are the static ones beside the charts.
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
  var COUNTS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000];
  function width(el) { return Math.max(320, el.clientWidth || 800); }
  var dpr = window.devicePixelRatio || 1;
  // The limit as one dashed line across the run; each wait as a red line at its second.
  function marks(u) {
    var ctx = u.ctx;
    ctx.save();
    ctx.lineWidth = 2 * dpr;
    if (t.limit !== null) {
      ctx.strokeStyle = color('--limit');
      ctx.setLineDash([6 * dpr, 4 * dpr]);
      var y = u.valToPos(t.limit, 'y', true);
      ctx.beginPath();
      ctx.moveTo(u.bbox.left, y);
      ctx.lineTo(u.bbox.left + u.bbox.width, y);
      ctx.stroke();
      ctx.setLineDash([]);
    }
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
  function chart(id, series, values, yLabel, yMax, yIncrs, marks) {
    var el = document.getElementById(id);
    if (!el || t.mode !== 'chart' || typeof uPlot !== 'function') return;
    // Once drawn, the page says so and at what scale (the end-to-end tests read it).
    function drawn(u) {
      el.setAttribute('data-drawn', String(u.data[0].length));
      el.setAttribute('data-y-max', String(u.scales.y.max));
    }
    new uPlot({
      width: width(el), height: 240,
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false, auto: false, range: [-0.5, xs.length - 0.5] }, y: { auto: false, range: [0, yMax] } },
      axes: [axis('seconds since the first call', SECONDS), axis(yLabel, yIncrs)],
      series: [{ label: 'second' }].concat(series),
      hooks: { draw: (marks ? [marks] : []).concat([drawn]) }
    }, [xs].concat(values), el);
  }
  chart('timeline', [
    { label: 'calls/s', stroke: color('--calls'), fill: color('--calls'), paths: uPlot.paths.bars({ size: [0.7, 80] }), points: { show: false } }
  ], [t.calls], 'calls per second', t.yMax, COUNTS, marks);
  var slowest = t.slowestMs.reduce(function (m, v) { return v !== null && v > m ? v : m; }, 0);
  chart('durations', [
    { label: 'median ms', stroke: color('--calls'), width: 2, spanGaps: true },
    { label: 'slowest ms', stroke: color('--slow'), width: 1, dash: [3, 3], spanGaps: true }
  ], [t.medianMs, t.slowestMs], 'ms', Math.max(1, Math.ceil(slowest * 1.15)));
  var rows = document.getElementById('rows');
  if (rows && data.cells.length > 0) {
    var n = data.cells.length;
    // A cell a pointer could find on a few rows, small enough that thousands fit on a screen.
    var size = n <= 200 ? 14 : n <= 2000 ? 8 : n <= 20000 ? 4 : 2;
    var room = rows.parentElement ? rows.parentElement.clientWidth : 800;
    var cols = Math.max(1, Math.min(n, Math.floor(Math.max(room, 100) / size)));
    rows.width = cols * size;
    rows.height = Math.ceil(n / cols) * size;
    var ctx = rows.getContext('2d');
    var gap = size > 4 ? 1 : 0;
    // A row an earlier run finished: its outcome's colour, paler (the keys' colours in reportStyle.ts).
    var fills = {
      o: [color('--pass'), 1], O: [color('--pass'), 0.45], f: [color('--fail'), 1], F: [color('--fail'), 0.45],
      a: [color('--again'), 1], d: [color('--skip'), 0.6], r: [color('--skip'), 1], u: [color('--border'), 1]
    };
    for (var i = 0; i < n; i++) {
      var fill = fills[data.cells[i]] || [fg, 1];
      ctx.fillStyle = fill[0];
      ctx.globalAlpha = fill[1];
      ctx.fillRect((i % cols) * size, Math.floor(i / cols) * size, size - gap, size - gap);
    }
    ctx.globalAlpha = 1;
    rows.setAttribute('data-drawn', String(n));
  }
})();
`;
