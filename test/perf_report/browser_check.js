// Loads perf-report's pages in headless Chromium (puppeteer-core) and checks what
// a person would see: no console error, no network request, the table, the plots
// and the flame graph with the numbers of the report they were made from. Saves a
// screenshot of each page.
//   node browser_check.js CHROMIUM REPORT.json SLOW.json FOLDED.txt DIFF.json REPORT.html DIFF.html EXIT.html
//        BARE_REPORT.html BARE_DIFF.html OUT_DIR
// DIFF.json: the diff of REPORT.json (base) and SLOW.json (new).
// EXIT.html: the page the program wrote itself (PERF_REPORT=x.html) for REPORT.json's work.
// BARE_*.html: the same pages with no distribution embedded (--distribution-kb 0).
'use strict';
const fs = require('fs');
const path = require('path');
const puppeteer = require('puppeteer-core');

const [chromium, reportJson, slowJson, folded, diffJson, reportPage, diffPage, exitPage, bareReportPage, bareDiffPage, screenshots] =
  process.argv.slice(2);
// What the pages must show, from the files they were made from.
function shownNs(v) { return v >= 1e6 ? (v / 1e6).toFixed(2) + ' ms' : v >= 1e3 ? (v / 1e3).toFixed(2) + ' us' : v.toFixed(1) + ' ns'; }
const report = JSON.parse(fs.readFileSync(reportJson, 'utf8'));
const slow = JSON.parse(fs.readFileSync(slowJson, 'utf8'));
const diff = JSON.parse(fs.readFileSync(diffJson, 'utf8'));
const expected = {functions: {}, timed: {}, shown: {}, p50: {}, p99: {}, verdict: diff.verdict, first_change: diff.functions[0].name,
  stack_samples: fs.readFileSync(folded, 'utf8').split('\n').filter(l => l).reduce((n, l) => n + Number(l.split(' ').pop()), 0)};
for (const f of report.functions) {
  expected.functions[f.name] = f.calls;
  expected.timed[f.name] = f.timed_calls;  // what the histogram holds: a sampled row's timed calls
  expected.shown[f.name] = f.name + (f.probe_dominated ? ' *' : '');  // the table marks probe-dominated functions
  expected.p50[f.name] = 'p50 ' + shownNs(f.p50_ns);
  expected.p99[f.name] = 'p99 ' + shownNs(f.p99_ns);
}
const failures = [];
function check(condition, what) { if (!condition) failures.push(what); }
check(report.functions.some(f => f.probe_dominated), 'the report has no probe-dominated function to show marked');

// What a distribution plot shows (run in the page).
function plotFigures(svgs) {
  return svgs.map(s => ({name: s.dataset.function, bars: s.querySelectorAll('rect.bar').length,
    calls: [...s.querySelectorAll('rect.bar')].reduce((n, r) => n + Number(r.dataset.calls), 0),
    beyond: Number(s.dataset.beyond),
    p50: [...s.querySelectorAll('text.label-p50')].map(t => t.textContent).join(' | '),
    p99: [...s.querySelectorAll('text.label-p99')].map(t => t.textContent).join(' | '),
    note: (s.querySelector('text.no-distribution') || {}).textContent,
    marks: ['p50', 'p90', 'p99'].every(m => s.querySelector('line.mark-' + m))}));
}

// The function table's cells, row by row, checked: a row per function with its calls
// (and its p50 where `withP50`), named as REPORT.json marks it. A page of another run
// (`otherRun`) may mark it otherwise: being probe-dominated is that run's timing.
async function checkRows(page, what, withP50, otherRun) {
  const rows = await page.$$eval('#functions tbody tr', trs => trs.map(tr => [...tr.cells].map(td => td.textContent)));
  check(rows.length === Object.keys(expected.functions).length, `${what}: ${rows.length} table rows`);
  const unmarked = shown => shown.replace(/ \*$/, '');
  for (const [name, calls] of Object.entries(expected.functions)) {
    const row = rows.find(r => otherRun ? unmarked(r[0]) === name : r[0] === expected.shown[name]);
    check(row && row[1] === String(calls) && (!withP50 || row[7] === expected.p50[name].slice(4)),
      `${what}: ${name} row ${row}, expected calls ${calls}` + (withP50 ? ` and ${expected.p50[name]}` : ''));
  }
  return rows;
}

async function open(browser, file) {
  const page = await browser.newPage();
  const errors = [];
  page.on('console', m => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text()); });
  page.on('pageerror', e => errors.push(e.message));
  page.on('requestfailed', r => errors.push('request failed: ' + r.url()));
  page.on('request', r => { if (!r.url().startsWith('file:')) errors.push('network request: ' + r.url()); });
  await page.setViewport({width: 1280, height: 900});
  await page.goto('file://' + path.resolve(file), {waitUntil: 'load'});
  return {page, errors};
}

async function checkReport(browser) {
  const {page, errors} = await open(browser, reportPage);
  const rows = await checkRows(page, 'report');
  const plots = await page.$$eval('#distributions svg.dist-plot', plotFigures);
  check(plots.length === rows.length, `report: ${plots.length} distribution plots`);
  for (const plot of plots) {
    check(plot.bars > 0 && plot.marks, `report: plot of ${plot.name} has ${plot.bars} bars, marks ${plot.marks}`);
    if (expected.p50[plot.name]) check(plot.p50 === expected.p50[plot.name], `report: ${plot.name} ${plot.p50}, expected ${expected.p50[plot.name]}`);
    // The histogram as the page decoded it: every timed call in a bar or beyond the axis.
    check(plot.calls + plot.beyond === expected.timed[plot.name],
      `report: plot of ${plot.name} shows ${plot.calls} + ${plot.beyond} calls, expected ${expected.timed[plot.name]}`);
  }
  const root = await page.$eval('#flamegraph rect', r => Number(r.dataset.samples)).catch(() => -1);
  check(root === expected.stack_samples, `report: flame graph root ${root} samples, expected ${expected.stack_samples}`);
  const frames = await page.$$eval('#flamegraph rect', r => r.length).catch(() => 0);
  check(frames > 3, `report: flame graph of ${frames} frames`);
  check(await page.$('#alloc-bars rect.bar') !== null, 'report: allocation bars');
  check(await page.$('#thread-bars rect.bar') !== null, 'report: thread bars');
  const header = await page.$eval('#header', h => h.textContent);
  check(header.includes('clock ') && header.includes(' GHz'), `report: header "${header}"`);
  // The tiny probe-dominated function is timed on a sample of its calls: its row is estimated.
  const sampled = report.functions.filter(f => f.timed_calls < f.calls).length;
  check(sampled > 0 && header.includes(`~ estimated: timed on a random sample of the calls (${sampled} functions)`),
    `report: ${sampled} sampled functions, header "${header}"`);
  // Sorting by calls, ascending on the second click; a row click shows its plot.
  const callsHeader = (await page.$$('#functions thead th'))[1];
  await callsHeader.click();
  await callsHeader.click();
  const sorted = await page.$$eval('#functions tbody tr', trs => trs.map(tr => Number(tr.cells[1].textContent)));
  check(sorted.every((v, i) => i === 0 || sorted[i - 1] <= v), `report: calls not ascending after two clicks: ${sorted}`);
  await page.click('#functions tbody tr');
  check(await page.$('#detail svg.dist-plot') !== null, 'report: a row click shows no distribution');
  await page.screenshot({path: path.join(screenshots, 'report.png'), fullPage: true});
  check(errors.length === 0, `report: console: ${errors.join(' | ')}`);
}

async function checkDiff(browser) {
  const {page, errors} = await open(browser, diffPage);
  const verdict = await page.$eval('#verdict', v => v.textContent);
  check(verdict === expected.verdict, `diff: verdict "${verdict}", expected "${expected.verdict}"`);
  const first = await page.$eval('#functions tbody tr', tr => [...tr.cells].map(td => td.textContent));
  check(first[0] === expected.first_change, `diff: first row ${first[0]}, expected ${expected.first_change}`);
  const overlaid = await page.$$eval('#distributions svg.dist-plot', svgs => svgs.map(s =>
    new Set([...s.querySelectorAll('rect.bar')].map(r => r.getAttribute('fill'))).size));
  check(overlaid.length > 0 && overlaid.every(n => n === 2), `diff: overlaid series per plot ${overlaid}`);
  const calls = {};  // the two runs' timed calls: what their overlaid histograms hold
  for (const f of report.functions.concat(slow.functions)) calls[f.name] = (calls[f.name] || 0) + f.timed_calls;
  for (const plot of await page.$$eval('#distributions svg.dist-plot', plotFigures))
    check(plot.calls + plot.beyond === calls[plot.name],
      `diff: plot of ${plot.name} shows ${plot.calls} + ${plot.beyond} calls, expected ${calls[plot.name]}`);
  await page.screenshot({path: path.join(screenshots, 'diff.png'), fullPage: true});
  check(errors.length === 0, `diff: console: ${errors.join(' | ')}`);
}

async function checkExitPage(browser) {
  const {page, errors} = await open(browser, exitPage);
  await checkRows(page, 'exit page', false, true);
  const bars = await page.$$eval('#distributions svg.dist-plot rect.bar', r => r.length);
  check(bars > 0, `exit page: ${bars} histogram bars`);
  check(errors.length === 0, `exit page: console: ${errors.join(' | ')}`);
}

// A page without distributions: every row with its figures, the plots with the
// quantiles as marks, a row's plot on a click, no bars.
async function checkBareReport(browser) {
  const {page, errors} = await open(browser, bareReportPage);
  const rows = await checkRows(page, 'bare report', true);
  const header = await page.$eval('#header', h => h.textContent);
  check(header.includes('distributions of the 0 functions with the most time'), `bare report: header "${header}"`);
  const last = (await page.$$('#functions tbody tr')).pop();
  await last.click();
  const [plot] = await page.$$eval('#detail svg.dist-plot', plotFigures);
  const name = Object.keys(expected.shown).find(n => expected.shown[n] === rows[rows.length - 1][0]);
  check(plot && plot.name === name && plot.bars === 0 && plot.marks && plot.p50 === expected.p50[name] &&
    plot.p99 === expected.p99[name] && /quantiles only/.test(plot.note),
    `bare report: the plot of ${name} on a click: ${JSON.stringify(plot)}`);
  check(errors.length === 0, `bare report: console: ${errors.join(' | ')}`);
}

async function checkBareDiff(browser) {
  const {page, errors} = await open(browser, bareDiffPage);
  const first = diff.functions[0];
  const row = await page.$eval('#functions tbody tr', tr => [...tr.cells].map(td => td.textContent));
  check(row[0] === first.name, `bare diff: first row ${row[0]}, expected ${first.name}`);
  await page.click('#functions tbody tr');
  const [plot] = await page.$$eval('#detail svg.dist-plot', plotFigures);
  // The page's figures have 6 significant digits.
  const p50 = ['base', 'new'].map(s => 'p50 ' + shownNs(Number(first.figures.p50[s].toPrecision(6)))).join(' | ');
  check(plot && plot.bars === 0 && plot.p50 === p50 && /quantiles only/.test(plot.note),
    `bare diff: the plot of ${first.name} on a click: ${JSON.stringify(plot)}, expected ${p50}`);
  check(errors.length === 0, `bare diff: console: ${errors.join(' | ')}`);
}

(async () => {
  const browser = await puppeteer.launch({executablePath: chromium, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], timeout: 30000});
  try {
    await checkReport(browser);
    await checkDiff(browser);
    await checkExitPage(browser);
    await checkBareReport(browser);
    await checkBareDiff(browser);
  } finally {
    await browser.close();
  }
  if (failures.length) {
    console.error(failures.join('\n'));
    process.exit(1);
  }
  console.log('browser check passed');
})().catch(e => { console.error(e); process.exit(1); });
