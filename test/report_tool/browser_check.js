// Loads perf-report's pages in headless Chromium (puppeteer-core) and checks what
// a person would see: no console error, no network request, the table, the plots
// and the flame graph with the numbers of the report they were made from. Saves a
// screenshot of each page.
//   node browser_check.js CHROMIUM REPORT.json FOLDED.txt DIFF.json REPORT.html DIFF.html EXIT.html OUT_DIR
// EXIT.html: the page the program wrote itself (PERF_REPORT=x.html) for REPORT.json's work.
'use strict';
const fs = require('fs');
const path = require('path');
const puppeteer = require('puppeteer-core');

const [chromium, reportJson, folded, diffJson, reportPage, diffPage, exitPage, screenshots] = process.argv.slice(2);
// What the pages must show, from the files they were made from.
function shownNs(v) { return v >= 1e6 ? (v / 1e6).toFixed(2) + ' ms' : v >= 1e3 ? (v / 1e3).toFixed(2) + ' us' : v.toFixed(1) + ' ns'; }
const report = JSON.parse(fs.readFileSync(reportJson, 'utf8'));
const diff = JSON.parse(fs.readFileSync(diffJson, 'utf8'));
const expected = {functions: {}, p50: {}, verdict: diff.verdict, first_change: diff.functions[0].name,
  stack_samples: fs.readFileSync(folded, 'utf8').split('\n').filter(l => l).reduce((n, l) => n + Number(l.split(' ').pop()), 0)};
for (const f of report.functions) {
  expected.functions[f.name] = f.calls;
  expected.p50[f.name] = 'p50 ' + shownNs(f.p50_ns);
}
const failures = [];
function check(condition, what) { if (!condition) failures.push(what); }

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
  const rows = await page.$$eval('#functions tbody tr', trs => trs.map(tr => [...tr.cells].map(td => td.textContent)));
  check(rows.length === Object.keys(expected.functions).length, `report: ${rows.length} table rows`);
  for (const [name, calls] of Object.entries(expected.functions)) {
    const row = rows.find(r => r[0] === name);
    check(row && row[1] === String(calls), `report: ${name} calls ${row && row[1]}, expected ${calls}`);
  }
  const plots = await page.$$eval('#distributions svg.dist-plot', svgs => svgs.map(s => ({
    name: s.dataset.function, bars: s.querySelectorAll('rect.bar').length,
    p50: (s.querySelector('text.label-p50') || {}).textContent,
    marks: ['p50', 'p90', 'p99'].every(m => s.querySelector('line.mark-' + m))})));
  check(plots.length === rows.length, `report: ${plots.length} distribution plots`);
  for (const plot of plots) {
    check(plot.bars > 0 && plot.marks, `report: plot of ${plot.name} has ${plot.bars} bars, marks ${plot.marks}`);
    if (expected.p50[plot.name]) check(plot.p50 === expected.p50[plot.name], `report: ${plot.name} ${plot.p50}, expected ${expected.p50[plot.name]}`);
  }
  const root = await page.$eval('#flamegraph rect', r => Number(r.dataset.samples)).catch(() => -1);
  check(root === expected.stack_samples, `report: flame graph root ${root} samples, expected ${expected.stack_samples}`);
  const frames = await page.$$eval('#flamegraph rect', r => r.length).catch(() => 0);
  check(frames > 3, `report: flame graph of ${frames} frames`);
  check(await page.$('#alloc-bars rect.bar') !== null, 'report: allocation bars');
  check(await page.$('#thread-bars rect.bar') !== null, 'report: thread bars');
  const header = await page.$eval('#header', h => h.textContent);
  check(header.includes('clock ') && header.includes(' GHz'), `report: header "${header}"`);
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
  await page.screenshot({path: path.join(screenshots, 'diff.png'), fullPage: true});
  check(errors.length === 0, `diff: console: ${errors.join(' | ')}`);
}

async function checkExitPage(browser) {
  const {page, errors} = await open(browser, exitPage);
  const rows = await page.$$eval('#functions tbody tr', trs => trs.map(tr => [...tr.cells].map(td => td.textContent)));
  check(rows.length === Object.keys(expected.functions).length, `exit page: ${rows.length} table rows`);
  for (const [name, calls] of Object.entries(expected.functions)) {
    const row = rows.find(r => r[0] === name);
    check(row && row[1] === String(calls), `exit page: ${name} calls ${row && row[1]}, expected ${calls}`);
  }
  const bars = await page.$$eval('#distributions svg.dist-plot rect.bar', r => r.length);
  check(bars > 0, `exit page: ${bars} histogram bars`);
  check(errors.length === 0, `exit page: console: ${errors.join(' | ')}`);
}

(async () => {
  const browser = await puppeteer.launch({executablePath: chromium, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], timeout: 30000});
  try {
    await checkReport(browser);
    await checkDiff(browser);
    await checkExitPage(browser);
  } finally {
    await browser.close();
  }
  if (failures.length) {
    console.error(failures.join('\n'));
    process.exit(1);
  }
  console.log('browser check passed');
})().catch(e => { console.error(e); process.exit(1); });
