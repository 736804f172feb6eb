'use strict';
let D = JSON.parse(document.getElementById('data').textContent);
const NS = 'http://www.w3.org/2000/svg';
function el(tag, attrs, text) {
  const e = tag.startsWith('svg:') ? document.createElementNS(NS, tag.slice(4)) : document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}
function add(parent, tag, attrs, text) { const e = el(tag, attrs, text); parent.appendChild(e); return e; }
function fmtNs(v) {
  if (v >= 1e9) return (v / 1e9).toFixed(2) + ' s';
  if (v >= 1e6) return (v / 1e6).toFixed(2) + ' ms';
  if (v >= 1e3) return (v / 1e3).toFixed(2) + ' us';
  return v.toFixed(1) + ' ns';
}
function fmtBytes(v) { return v >= 1048576 ? (v / 1048576).toFixed(1) + ' MiB' : v >= 1024 ? (v / 1024).toFixed(1) + ' KiB' : v.toFixed(0) + ' B'; }
// The runtime's log-linear buckets (perf/detail/histogram_index.hpp).
function bucketLower(i) { if (i < 128) return i; const s = (i >> 6) - 1; return (i - (s << 6)) * Math.pow(2, s); }
function bucketWidth(i) { return i < 128 ? 1 : Math.pow(2, (i >> 6) - 1); }
// perf-report's compact counts (tool/perf_report/page_histogram.hpp): base64url digits of
// 5 bits, 32 added to all but a number's last; 2n is a count n, 2r - 1 a run of r empty buckets.
const DIGIT = {}; [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'].forEach((c, k) => DIGIT[c] = k);
function counts(text) {
  const out = []; let v = 0, scale = 1;
  for (const c of text) {
    const d = DIGIT[c]; v += (d & 31) * scale;
    if (d & 32) { scale *= 32; continue; }
    if (v % 2) for (let r = (v + 1) / 2; r > 0; --r) out.push(0); else out.push(v / 2);
    v = 0; scale = 1;
  }
  return out;
}
// [ghz, first bucket, counts from it on (an array, or perf-report's text)] -> [{lo, hi, n}] in ns;
// [] when the page holds no distribution (null).
function buckets(h) {
  const out = []; if (!h || h.length < 3) return out;
  const ghz = h[0], n = typeof h[2] === 'string' ? counts(h[2]) : h[2];
  for (let k = 0, b = h[1]; k < n.length; ++k, ++b)
    if (n[k]) out.push({lo: bucketLower(b) / ghz, hi: (bucketLower(b) + bucketWidth(b)) / ghz, n: n[k]});
  return out;
}
function quantile(bs, q) {
  let total = 0; for (const b of bs) total += b.n;
  const rank = Math.max(1, Math.ceil(q * total)); let seen = 0;
  for (const b of bs) { seen += b.n; if (seen >= rank) return (b.lo + b.hi) / 2; }
  return 0;
}
// A distribution plot: density per log-width bucket, log x axis, p50/p90/p99 marked.
// Series without buckets (the page holds no distribution for them) show the marks alone.
function distributionPlot(title, series) {
  const W = 460, H = 170, L = 40, B = 30, T = 8;
  const box = el('div', {class: 'plot'}); add(box, 'div', {class: 't', title: title}, title);
  const svg = add(box, 'svg:svg', {width: W, height: H, class: 'dist-plot', 'data-function': title});
  // The axis spans the lowest bucket to 4 x the highest p99: a few preempted calls
  // far out would squeeze the distribution into one pixel. They are counted aside.
  let lo = Infinity, hi = 0, beyond = 0;
  for (const s of series) for (const b of s.bs) lo = Math.min(lo, Math.max(b.lo, 0.1));
  if (lo === Infinity) for (const s of series) for (const v of s.marks) if (v > 0) lo = Math.min(lo, v / 2);
  for (const s of series) hi = Math.max(hi, 4 * (s.marks[2] || 0));
  if (!(hi > lo)) { lo = 1; hi = 10; }
  series = series.map(s => ({...s, bs: s.bs.filter(b => { if (b.lo > hi) { beyond += b.n; return false; } return true; })}));
  const x0 = Math.log10(lo), x1 = Math.log10(hi) + 1e-9;
  const X = v => L + (Math.log10(Math.max(v, lo)) - x0) / (x1 - x0) * (W - L - 8);
  let top = 0; const dens = series.map(s => {
    let total = 0; for (const b of s.bs) total += b.n;
    return s.bs.map(b => { const d = b.n / total / Math.max(Math.log10(b.hi) - Math.log10(Math.max(b.lo, 0.1)), 1e-3); top = Math.max(top, d); return d; });
  });
  const Y = d => H - B - d / top * (H - B - T);
  add(svg, 'svg:line', {x1: L, y1: H - B, x2: W - 8, y2: H - B, stroke: '#888'});
  for (let p = Math.ceil(x0); p <= x1; ++p) {
    add(svg, 'svg:line', {x1: X(Math.pow(10, p)), y1: H - B, x2: X(Math.pow(10, p)), y2: H - B + 4, stroke: '#888'});
    add(svg, 'svg:text', {x: X(Math.pow(10, p)), y: H - B + 14, 'text-anchor': 'middle'}, fmtNs(Math.pow(10, p)));
  }
  series.forEach((s, k) => {
    s.bs.forEach((b, j) => add(svg, 'svg:rect', {x: X(b.lo), y: Y(dens[k][j]), width: Math.max(X(b.hi) - X(b.lo), 1),
      height: H - B - Y(dens[k][j]), fill: s.color, 'fill-opacity': series.length > 1 ? 0.45 : 0.8, class: 'bar', 'data-calls': b.n}));
    ['p50', 'p90', 'p99'].forEach((name, m) => {
      const v = s.marks[m]; if (!(v > 0)) return;
      add(svg, 'svg:line', {x1: X(v), y1: T, x2: X(v), y2: H - B, stroke: s.color, 'stroke-dasharray': '3,2', class: 'mark-' + name});
      add(svg, 'svg:text', {x: X(v) + 2, y: T + 10 + 11 * m + 33 * k, fill: s.color, class: 'label-' + name}, name + ' ' + fmtNs(v));
    });
  });
  add(svg, 'svg:text', {x: L, y: H - 4}, 'latency (log scale); ' + series.map(s => s.label).join(' vs ') +
    (beyond ? '; ' + beyond + ' calls beyond the axis' : ''));
  svg.setAttribute('data-beyond', beyond);
  if (series.every(s => !s.bs.length)) {  // under the labels, mid-plot
    const note = add(svg, 'svg:text', {class: 'no-distribution', 'text-anchor': 'middle'});
    add(note, 'svg:tspan', {x: (L + W) / 2, y: H - B - 40}, 'quantiles only: this page holds the distributions');
    add(note, 'svg:tspan', {x: (L + W) / 2, y: H - B - 27}, 'of the ' + D.distributions +
      (D.kind === 'diff' ? ' largest changes' : ' functions with the most time'));
  }
  return box;
}
// A table sorted by clicking a column header (numbers descending first).
function sortableTable(parent, id, columns, rows) {
  const wrap = add(parent, 'div', {class: 'scroll'});
  const table = add(wrap, 'table', {id: id});
  const head = add(add(table, 'thead'), 'tr'); const body = add(table, 'tbody');
  let key = null, descending = true;
  function fill() {
    body.textContent = '';
    for (const r of rows) {
      const tr = add(body, 'tr', {'data-key': r.key});
      for (const c of columns) {
        const td = add(tr, 'td', {class: c.cls || ''}, c.show(r));
        if (c.style) td.className += ' ' + c.style(r);
      }
      if (columns.onclick) tr.addEventListener('click', () => columns.onclick(r, tr));
    }
  }
  columns.forEach(c => {
    const th = add(head, 'th', {class: c.cls || ''}, c.title);
    th.addEventListener('click', () => {
      descending = key === c ? !descending : typeof c.value(rows[0] || {}) === 'number';
      key = c;
      rows.sort((a, b) => { const x = c.value(a), y = c.value(b); return (x < y ? -1 : x > y ? 1 : 0) * (descending ? -1 : 1); });
      fill();
    });
  });
  fill();
  return table;
}
function bars(parent, id, items, show) {
  const W = 620, row = 16, svg = add(parent, 'svg:svg', {id: id, width: W, height: row * items.length + 4});
  const top = Math.max(...items.map(i => i.v), 1e-9);
  items.forEach((it, k) => {
    add(svg, 'svg:rect', {x: 260, y: k * row + 2, width: Math.max(1, it.v / top * (W - 360)), height: row - 4, fill: '#4a7bd0', class: 'bar'});
    add(svg, 'svg:text', {x: 254, y: k * row + 12, 'text-anchor': 'end'}, it.label.length > 40 ? it.label.slice(0, 38) + '..' : it.label);
    add(svg, 'svg:text', {x: 264 + it.v / top * (W - 360), y: k * row + 12}, show(it.v));
  });
}
function flameGraph(parent, tree) {
  const W = 1000, row = 17; let depth = 0;
  (function measure(n, d) { depth = Math.max(depth, d); n.c.forEach(c => measure(c, d + 1)); })(tree, 1);
  const svg = add(parent, 'svg:svg', {id: 'flamegraph', width: W, height: depth * row});
  (function draw(n, x, w, d) {
    const y = (depth - d) * row;
    const g = add(svg, 'svg:g', {class: 'frame'});
    add(g, 'svg:title', {}, n.n + ' (' + n.v + ' samples, ' + (100 * n.v / tree.v).toFixed(1) + '%)');
    const hue = 20 + (n.n.length * 37) % 40;
    add(g, 'svg:rect', {x: x, y: y, width: Math.max(w, 0.5), height: row - 1, fill: 'hsl(' + hue + ',90%,60%)', 'data-samples': n.v});
    if (w > 40) add(g, 'svg:text', {x: x + 3, y: y + 12}, n.n.length * 6 > w - 6 ? n.n.slice(0, Math.floor((w - 6) / 6)) : n.n);
    let cx = x;
    for (const c of n.c) { const cw = w * c.v / n.v; draw(c, cx, cw, d + 1); cx += cw; }
  })(tree, 0, W, 1);
}
// A JSON report as the runtime writes it (PERF_REPORT=x.html) in the page's column form.
function fromReport(r) {
  const cols = {name: 'name', file: 'file', line: 'line', calls: 'calls', total: 'total_ns', self: 'self_ns', mean: 'mean_ns',
    sd: 'stddev_ns', min: 'min_ns', max: 'max_ns', p50: 'p50_ns', p90: 'p90_ns', p99: 'p99_ns', ac: 'alloc_count', ab: 'alloc_bytes'};
  const F = {share: [], h: []};
  for (const k in cols) F[k] = r.functions.map(f => f[cols[k]]);
  F.probe = r.functions.map(f => f.probe_dominated ? 1 : 0);
  F.timed = r.functions.map(f => f.timed_calls === undefined ? f.calls : f.timed_calls);
  const measured = {}; ((r.samples || {}).measured || []).forEach(m => measured[m.name] = m.share);
  for (const f of r.functions) {
    F.share.push(measured[f.name] || 0);
    const h = f.histogram || [], n = [];
    for (let k = 0, next = h.length ? h[0][0] : 0; k < h.length; ++k, ++next) {
      for (; next < h[k][0]; ++next) n.push(0);
      n.push(h[k][1]);
    }
    F.h.push(h.length ? [r.clock.ghz, h[0][0], n] : [r.clock.ghz]);
  }
  return Object.assign({}, r, {kind: 'report', title: 'perf-instrument report, pid ' + r.pid, functions: F,
    distributions: r.functions.length});
}
function section(title) { add(document.body, 'h2', {}, title); return add(document.body, 'div', {}); }
function reportPage() {
  const F = D.functions, n = F.name.length, c = D.clock || {};
  if (D.files) F.file = F.file.map(k => D.files[k]);
  add(document.body, 'h1', {}, D.title);
  const header = add(document.body, 'div', {class: 'header', id: 'header'});
  const facts = ['pid ' + (D.pid || 0), 'clock ' + c.source + ' at ' + Number(c.ghz).toFixed(3) + ' GHz (' + c.frequency + ')',
    'resolution ' + fmtNs(c.resolution_ns || 0), n + ' functions', (D.threads || []).length + ' threads'];
  if (c.probe_ns !== undefined) facts.push('probe cost ' + fmtNs(c.probe_ns) + (c.compensated ? ', compensated' : ', not compensated'));
  if (D.merged_pids) facts.push('merged from ' + D.merged_pids.length + ' reports');
  if (D.samples) facts.push(D.samples.total + ' samples at ' + D.samples.hz + ' Hz');
  if (D.distributions < n) facts.push('distributions of the ' + D.distributions + ' functions with the most time');
  const probe = F.probe || [];
  if (probe.some(p => p)) facts.push('* probe-dominated: the probe costs a third or more of the time (' + probe.filter(p => p).length + ' functions)');
  // Rows timed on a sample of their calls (adaptive timing): total, self and mean estimated.
  const timed = F.timed || F.calls, estimated = i => timed[i] < F.calls[i];
  const estimatedRows = F.calls.filter((_, i) => estimated(i)).length;
  if (estimatedRows) facts.push('~ estimated: timed on a random sample of the calls (' + estimatedRows + ' functions)');
  facts.forEach(t => add(header, 'span', {}, t));
  const rows = []; for (let i = 0; i < n; ++i) rows.push({key: i, i: i});
  const num = (title, col, show) => ({title: title, value: r => F[col][r.i], show: r => show(F[col][r.i])});
  const estimate = (title, col) => ({title: title, value: r => F[col][r.i],
    show: r => (estimated(r.i) ? '~' : '') + fmtNs(F[col][r.i])});
  const columns = [{title: 'function', cls: 'name', value: r => F.name[r.i], show: r => F.name[r.i] + (probe[r.i] ? ' *' : '')},
    num('calls', 'calls', v => String(v)), estimate('total', 'total'), estimate('self', 'self'), estimate('mean', 'mean'),
    num('stddev', 'sd', fmtNs), num('min', 'min', fmtNs), num('p50', 'p50', fmtNs), num('p90', 'p90', fmtNs),
    num('p99', 'p99', fmtNs), num('max', 'max', fmtNs), num('allocs/call', 'ac', v => v.toFixed(2)),
    num('bytes/call', 'ab', fmtBytes), num('samples', 'share', v => (100 * v).toFixed(1) + '%'),
    {title: 'where', cls: 'name', value: r => F.file[r.i] + ':' + F.line[r.i], show: r => F.file[r.i] + ':' + F.line[r.i]}];
  const detail = el('div', {id: 'detail', class: 'plots'});
  const plotOf = i => distributionPlot(F.name[i], [{bs: buckets(F.h[i]), color: '#2060c0', label: F.calls[i] + ' calls',
    marks: [F.p50[i], F.p90[i], F.p99[i]]}]);
  columns.onclick = (r, tr) => { detail.textContent = ''; detail.appendChild(plotOf(r.i));
    document.querySelectorAll('tr.sel').forEach(t => t.classList.remove('sel')); tr.classList.add('sel'); };
  sortableTable(section('Functions (click a header to sort, a row for its distribution)'), 'functions', columns, rows);
  document.body.appendChild(detail);
  const dist = section('Latency distributions of the ' + Math.min(n, 6) + ' functions with the most time');
  dist.className = 'plots'; dist.id = 'distributions';
  for (let i = 0; i < Math.min(n, 6); ++i) dist.appendChild(plotOf(i));
  if (D.stacks) flameGraph(section('Flame graph of the sampled stacks (' + D.stacks.v + ' samples)'), D.stacks);
  const alloc = []; for (let i = 0; i < n; ++i) if (F.ab[i] > 0) alloc.push({label: F.name[i], v: F.ab[i] * F.calls[i]});
  alloc.sort((a, b) => b.v - a.v);
  if (alloc.length) bars(section('Bytes allocated per function (callees included), top ' + Math.min(alloc.length, 20)), 'alloc-bars', alloc.slice(0, 20), fmtBytes);
  const threads = (D.threads || []).slice().sort((a, b) => b.calls - a.calls);
  if (threads.length) {
    const s = section('Threads');
    bars(s, 'thread-bars', threads.slice(0, 32).map(t => ({label: (t.name || 'thread') + ' ' + t.tid, v: t.calls})), v => v + ' calls');
    const at = (D.allocations && D.allocations.threads) || []; const byTid = {}; at.forEach(a => byTid[a.tid] = a);
    sortableTable(s, 'threads', [{title: 'tid', value: t => t.tid, show: t => String(t.tid)},
      {title: 'name', cls: 'name', value: t => t.name, show: t => t.name},
      {title: 'calls', value: t => t.calls, show: t => String(t.calls)},
      {title: 'exited', value: t => String(t.exited), show: t => String(t.exited)},
      {title: 'allocations', value: t => (byTid[t.tid] || {}).allocations || 0, show: t => String((byTid[t.tid] || {}).allocations || 0)},
      {title: 'bytes', value: t => (byTid[t.tid] || {}).bytes || 0, show: t => fmtBytes((byTid[t.tid] || {}).bytes || 0)},
      {title: 'tick events', value: t => t.tick_events, show: t => String(t.tick_events)}], threads.map(t => Object.assign({key: t.tid}, t)));
  }
}
function diffPage() {
  add(document.body, 'h1', {}, D.title);
  add(document.body, 'div', {id: 'verdict', class: D.broken.length ? 'beyond slower' : 'beyond'}, D.verdict);
  add(document.body, 'div', {class: 'header'}, D.base_runs + ' base report(s), ' + D.new_runs + ' new report(s); ratios new/base, bold: beyond noise; ' +
    '(probe): probe-dominated, the probe costs a third or more of its time, a change may be the probe\'s');
  const figs = ['calls', 'mean', 'p50', 'p99', 'self', 'alloc', 'share'];
  const show = (f, v) => f === 'calls' ? String(v) : f === 'alloc' ? v.toFixed(2) : f === 'share' ? (100 * v).toFixed(1) + '%' : fmtNs(v);
  const columns = [{title: 'function', cls: 'name', value: r => r.name, show: r => r.name},
    {title: 'status', value: r => r.status, show: r => r.status + (r.probe ? ' (probe)' : '')},
    {title: 'impact', value: r => Math.abs(r.impact), show: r => (r.impact < 0 ? '-' : '+') + fmtNs(Math.abs(r.impact))}];
  for (const f of figs) {
    columns.push({title: f, value: r => r.fig[f][1], show: r => show(f, r.status === 'removed' ? r.fig[f][0] : r.fig[f][1])});
    columns.push({title: f + ' ratio', value: r => r.fig[f][0] ? r.fig[f][1] / r.fig[f][0] : 0,
      show: r => r.status === 'added' || r.status === 'removed' ? '' : r.fig[f][0] ? 'x' + (r.fig[f][1] / r.fig[f][0]).toFixed(3) : '-',
      style: r => r.fig[f][2] ? 'beyond ' + (r.fig[f][1] > r.fig[f][0] ? 'slower' : 'faster') : ''});
  }
  const C = D.rows;  // columns: a row each
  const rows = C.name.map((name, k) => ({key: k, name: name, file: D.files[C.file[k]], line: C.line[k],
    status: C.status[k], probe: C.probe[k] === 1, impact: C.impact[k], hb: C.hb[k], hn: C.hn[k],
    fig: Object.fromEntries(Object.keys(C.fig).map(f => [f, [C.fig[f].b[k], C.fig[f].n[k], C.fig[f].x[k] === 1]]))}));
  const detail = el('div', {id: 'detail', class: 'plots'});
  // Without the distributions, the marks are the sides' p50 and p99 as compared.
  const side = (r, k, color, label) => { const bs = buckets(k ? r.hn : r.hb);
    return {bs: bs, color: color, label: label, marks: bs.length ? [quantile(bs, .5), quantile(bs, .9), quantile(bs, .99)] : [r.fig.p50[k], 0, r.fig.p99[k]]}; };
  const plotOf = r => distributionPlot(r.name, [side(r, 0, '#2060c0', 'base'), side(r, 1, '#d03020', 'new')]);
  columns.onclick = r => { detail.textContent = ''; detail.appendChild(plotOf(r)); };
  sortableTable(section('Changes, by impact (click a row for its distributions)'), 'functions', columns, rows);
  document.body.appendChild(detail);
  const ranked = section('Distributions of the ' + Math.min(rows.length, 6) + ' largest changes, base (blue) and new (red)');
  ranked.className = 'plots'; ranked.id = 'distributions';
  rows.slice(0, 6).forEach(r => ranked.appendChild(plotOf(r)));
}
if (D.kind === 'diff') diffPage(); else { if (D.schema_version) D = fromReport(D); reportPage(); }
