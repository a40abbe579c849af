// The running score (issue #43): every player's points as if the game ended now, beside their
// coins and influence, and opened from there the same table as the final scores. A guest plays a
// whole game against bots by clicking, at 1280×800 and on a 390×844 phone: during play each
// player's points figure shows and agrees with the running table, whose categories add up, and
// the table stays open across moves; at the end the running scores are the final scores shown,
// category by category, and the server's record. In German the table keeps its place too.
import assert from 'node:assert/strict';
import test from 'node:test';
import { checkScores, clickOne, createTable, readScores, sideways, signInAsGuest, startTable, tableState, waitForTurnOrEnd } from './game.js';
import { Harness, kPhone, random, seed } from './support.js';

const kMaxSteps = 1500;

// Each seat's points figure (beside its coins and influence) and whether the running table is open.
async function lookRunning(page) {
  return page.evaluate(() => {
    const details = document.querySelector('#running-scores');
    const box = (element) => {
      const rect = element.getBoundingClientRect();
      return { width: rect.width, height: rect.height };
    };
    const table = document.querySelector('#running-scores-table');
    return {
      open: Boolean(details?.open),
      summary: details ? { text: details.querySelector('summary').textContent.trim(), ...box(details.querySelector('summary')) } : null,
      figures: [...document.querySelectorAll('#table .stats .points[data-seat]')]
        .map((element) => ({
          seat: Number(element.dataset.seat),
          text: element.textContent.trim(),
          total: Number(/-?\d+/.exec(element.textContent)?.[0]),
          visible: element.checkVisibility(),
          ...box(element),
        }))
        .sort((a, b) => a.seat - b.seat),
      tableWidth: table && details.open ? table.getBoundingClientRect().width : 0,
      panelWidth: details ? details.clientWidth : 0,
    };
  });
}

// The figures show for every seat and agree with the open running table, whose rows are in order
// of place and whose categories add up to each total.
async function checkRunning(page, players, when) {
  const look = await lookRunning(page);
  assert.ok(look.open, `${when}: the running scores stay open`);
  assert.deepEqual(look.figures.map((f) => f.seat), [...Array(players).keys()], `${when}: a points figure per seat`);
  for (const figure of look.figures) {
    assert.ok(figure.visible, `${when}: seat ${figure.seat}'s points show`);
    assert.match(figure.text, /^\d+ points?$/, `${when}: seat ${figure.seat}'s points read as points`);
  }
  const rows = await readScores(page, '#running-scores-table');
  assert.equal(rows.length, players, `${when}: the running table has a row per seat`);
  for (const row of rows) {
    assert.equal(Number(row.total), look.figures[row.seat].total, `${when}: seat ${row.seat}'s figure is its running total`);
    assert.equal(Object.values(row.points).reduce((a, b) => a + b, 0), Number(row.total), `${when}: seat ${row.seat}'s categories add up`);
  }
  const places = rows.map((r) => r.place);
  assert.deepEqual(places, [...places].sort((a, b) => a - b), `${when}: rows in order of place`);
  assert.ok(look.tableWidth <= look.panelWidth + 0.5, `${when}: the running table (${look.tableWidth} px) fits its panel (${look.panelWidth} px)`);
  return { look, rows };
}

async function playWithRunningScore(h, { label, contextOptions, players, seats, rules, phone }) {
  const server = await h.server();
  const browser = await h.browser();
  const page = await h.page(browser, label, contextOptions);
  const rng = random(seed + players);
  const press = (locator) => (phone ? locator.tap() : locator.click());

  await signInAsGuest(page, server.url, 'Ann');
  const tableId = await createTable(page, { players, seats, rules });
  await startTable(page);
  await page.locator('#table .stats .points[data-seat="0"]').waitFor({ state: 'visible' });

  // Folded at first; my points figure opens it and takes the focus there.
  let look = await lookRunning(page);
  assert.equal(look.open, false, 'the running scores start folded');
  assert.equal(look.summary.text, 'Running score');
  await press(page.locator('#table .stats .points[data-seat="0"]'));
  await page.waitForFunction(() => document.querySelector('#running-scores')?.open === true);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'running-scores-summary', 'the focus went to the running scores');
  await checkRunning(page, players, 'at the start');
  if (phone) {
    look = await lookRunning(page);
    for (const figure of look.figures)
      assert.ok(figure.height >= 44 && figure.width >= 44, `seat ${figure.seat}'s points figure is a 44 px touch target: ${figure.width}×${figure.height}`);
    assert.ok(look.summary.height >= 44, `the running scores' title is a 44 px touch target: ${look.summary.height}`);
  }

  let steps = 0;
  let checks = 0;
  const totalsSeen = new Set();
  let state = await tableState(page);
  while (state.status === 'playing') {
    state = await waitForTurnOrEnd(page);
    if (state.status !== 'playing') break;
    assert.ok(steps < kMaxSteps, `the game did not end within ${kMaxSteps} clicks`);
    // Every few turns: the figures and the table during play, and nothing wider than a phone.
    if (steps % 10 === 0) {
      const { look: now } = await checkRunning(page, players, `at version ${state.version}`);
      totalsSeen.add(now.figures.map((f) => f.total).join(','));
      if (phone) assert.equal((await sideways(page)).over, 0, `at version ${state.version}: the page does not scroll sideways`);
      checks += 1;
    }
    await clickOne(page, rng, { tap: phone, record: (o) => h.clicked(label, o) });
    steps += 1;
    state = await tableState(page);
  }
  assert.equal(state.status, 'finished');
  assert.ok(checks >= 5, `the running scores were checked during play (${checks} times)`);
  assert.ok(totalsSeen.size >= 3, `the running scores changed during play: ${[...totalsSeen].join(' | ')}`);
  await h.screenshot(page, 'end');

  // At the end: the running scores are the final scores shown, which are the server's record.
  const final = await checkScores(page, server, tableId, players);
  const { look: end, rows: running } = await checkRunning(page, players, 'at the end');
  for (const row of final) {
    const same = running.find((r) => r.seat === row.seat);
    assert.equal(same.total, row.total, `seat ${row.seat}: the running total is the final total`);
    assert.deepEqual(same.points, row.points, `seat ${row.seat}: the running breakdown is the final one`);
    assert.equal(same.place, row.place, `seat ${row.seat}: the running place is the final place`);
    assert.equal(end.figures[row.seat].total, Number(row.total), `seat ${row.seat}'s points figure is its final total`);
  }
  assert.ok(final.some((row) => Number(row.total) > row.points.coins), 'cities scored, not only coins');

  // In German the same table, in place.
  await page.locator('#language').selectOption('de');
  await page.waitForFunction(() => document.querySelector('#running-scores summary')?.textContent.trim() === 'Zwischenstand');
  look = await lookRunning(page);
  assert.ok(look.open, 'the running scores stay open across the language switch');
  assert.match(look.figures[0].text, /^\d+ Siegpunkte?$/);
  assert.ok(look.tableWidth <= look.panelWidth + 0.5, `German: the running table (${look.tableWidth} px) fits its panel (${look.panelWidth} px)`);
  if (phone) assert.equal((await sideways(page)).over, 0, 'German: the page does not scroll sideways');
  await h.screenshot(page, 'end-de');
  assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
}

test('the running score at 1280×800: shown during a whole 4-player game, the final scores at its end', { timeout: 300000 }, async () => {
  const h = new Harness('running-score-desktop');
  await h.run(() => playWithRunningScore(h, {
    label: 'desktop',
    contextOptions: { viewport: { width: 1280, height: 800 } },
    players: 4,
    seats: ['greedy', 'random', 'greedy'],
    rules: 'yucata',
    phone: false,
  }));
});

test('the running score on a 390×844 phone: shown during a whole 2-player game, the final scores at its end', { timeout: 300000 }, async () => {
  const h = new Harness('running-score-phone');
  await h.run(() => playWithRunningScore(h, {
    label: 'phone',
    contextOptions: kPhone,
    players: 2,
    seats: ['greedy'],
    rules: 'publisher',
    phone: true,
  }));
});
