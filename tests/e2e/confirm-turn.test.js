// "End my turn only when I press Done" (docs/rules.md, "Taking moves back"), at 1280×800 and on a
// 390×844 phone. On (the default): a build after which nothing is left to do keeps the turn, with
// Done as its only move and Undo offered, for as long as the player does not press Done; Undo
// takes the build back, Done ends the turn. Off (the settings page's box): such a build ends the
// turn at once, and the page never waits for Done.
import assert from 'node:assert/strict';
import test from 'node:test';
import { clickables, clickOne, createTable, signInAsGuest, startTable, tableState, waitForTurnOrEnd } from './game.js';
import { Harness, kPhone, random, seed, sleep } from './support.js';

const kScreens = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 800 } }, tap: false },
  { name: 'phone', options: kPhone, tap: true },
];

// It is this page's turn and the only thing it may click is Done.
async function onlyDone(page) {
  const options = await clickables(page);
  return options.length === 1 && options[0].move === 'end';
}

// The log's lines: their kind and text, oldest first (the phone's log bar need not be open).
function logLines(page) {
  return page.evaluate(() => [...document.querySelectorAll('#log li[data-event]')].map((line) => ({ event: line.dataset.event, text: line.textContent })));
}

// Whether the log has `name`'s build followed at once by `name`'s end of the turn.
function buildThenEnd(lines, name) {
  const mine = lines.filter((line) => line.text.startsWith(name));
  return mine.some((line, i) => line.event === 'build' && mine[i + 1]?.event === 'end');
}

const builtCells = (page) => page.evaluate(() => [...document.querySelectorAll('#my-city .cell.built')].map((cell) => cell.dataset.cell));

async function press(page, selector, tap) {
  const locator = page.locator(selector);
  await (tap ? locator.tap() : locator.click());
}

async function waitVersion(page, version) {
  await page.waitForSelector(`#table[data-version="${version}"]`, { state: 'attached', timeout: 10000 });
}

// Plays (never choosing Done while anything else may be clicked) until `found` says so after a
// move of this page; returns what it returned.
async function playUntil(page, rng, h, tap, found) {
  for (let clicks = 0; clicks < 800; ++clicks) {
    const state = await waitForTurnOrEnd(page);
    assert.equal(state.status, 'playing', 'the game ended first');
    if (await onlyDone(page)) {
      const seen = await found({ kind: 'move', move: 'end' }, state);
      if (seen) return seen;
      await clickOne(page, rng, { tap, record: (option) => h.clicked('player', option) });
      continue;
    }
    const clicked = await clickOne(page, rng, { tap, filter: (option) => option.move !== 'end', record: (option) => h.clicked('player', option) });
    if (clicked.kind !== 'move') continue;
    const seen = await found(clicked, await tableState(page));
    if (seen) return seen;
  }
  assert.fail('not found in 800 clicks');
}

for (const screen of kScreens) {
  test(`${screen.name}: with the preference on, a build that would end the turn keeps Undo and Done until Done`, { timeout: 240000 }, async () => {
    const h = new Harness(`confirm-turn-on-${screen.name}`);
    await h.run(async () => {
      const server = await h.server();
      const browser = await h.browser();
      const page = await h.page(browser, 'player', screen.options);
      const rng = random(seed);
      await signInAsGuest(page, server.url, 'Dora');
      await createTable(page, { players: 2, seats: ['greedy'] });
      await startTable(page);

      // A build after which nothing is left: the turn waits, with Done and Undo.
      let lastBuild = null;
      const waitingAfterBuild = async (clicked, state) => {
        if (clicked.move !== 'end') lastBuild = clicked.move.startsWith('build ') ? clicked.move : null;
        if (!lastBuild || !state.myTurn || !(await onlyDone(page))) return null;
        return (await page.locator('#undo').isVisible()) ? { build: lastBuild, version: state.version } : null;
      };
      const first = await playUntil(page, rng, h, screen.tap, waitingAfterBuild);
      const done = page.locator('#actions [data-move="end"]');
      assert.equal((await done.textContent()).trim(), 'Done');
      assert.ok(!(await done.getAttribute('class') ?? '').includes('secondary'), 'Done is the turn\'s main button when nothing else is left');
      assert.match(await page.locator('.my-panel .hint').textContent(), /press Done to end it, or Undo/);
      const [, , cell] = first.build.split(' ');
      assert.ok((await builtCells(page)).includes(cell), `the build ${first.build} stands`);
      assert.equal((await logLines(page)).at(-1).event, 'build', 'the log ends with the build: the turn did not end');
      await h.screenshot(page, 'waiting-for-done');
      // Nothing happens while the player thinks: the turn stays, with Done and Undo.
      await sleep(1500);
      const still = await tableState(page);
      assert.equal(still.version, first.version, 'nothing moved while the turn waited');
      assert.ok(still.myTurn);
      assert.ok(await onlyDone(page));
      assert.ok(await page.locator('#undo').isVisible());

      // Undo takes the build back: the turn goes on before it.
      await press(page, '#undo', screen.tap);
      await waitVersion(page, first.version + 1);
      assert.ok(!(await builtCells(page)).includes(cell), `the build ${first.build} was taken back`);
      assert.ok((await tableState(page)).myTurn);
      assert.ok(!(await onlyDone(page)), 'more than Done after the undo');

      // The next such build, then Done: the turn ends.
      lastBuild = null;
      const second = await playUntil(page, rng, h, screen.tap, waitingAfterBuild);
      await press(page, '#actions [data-move="end"]', screen.tap);
      await page.waitForFunction((version) => Number(document.querySelector('#table').dataset.version) > version, second.version);
      const ended = await logLines(page);
      const at = ended.findLastIndex((line) => line.event === 'build' && line.text.startsWith('Dora'));
      assert.equal(ended[at + 1]?.event, 'end', 'Done ended the turn right after the build');
      assert.equal((await tableState(page)).error, '');
      assert.equal(await page.locator('#undo').count(), 0, 'nothing to take back once the turn ended');
    });
  });

  test(`${screen.name}: with the preference off, a build that would end the turn ends it at once`, { timeout: 240000 }, async () => {
    const h = new Harness(`confirm-turn-off-${screen.name}`);
    await h.run(async () => {
      const server = await h.server();
      const browser = await h.browser();
      const page = await h.page(browser, 'player', screen.options);
      const rng = random(seed + 1);
      await signInAsGuest(page, server.url, 'Emil');

      // The settings page's box, on by default, turned off.
      await page.evaluate(() => (location.hash = '#/settings'));
      const box = page.locator('#settings-confirm-turn');
      await box.waitFor();
      assert.ok(await box.isChecked(), 'on by default');
      await press(page, '#settings-confirm-turn', screen.tap);
      await page.waitForFunction(() => document.querySelector('#settings-play-state')?.textContent === 'Saved.');
      assert.ok(!(await box.isChecked()));
      await page.reload();
      await page.locator('#settings-confirm-turn').waitFor();
      assert.ok(!(await page.locator('#settings-confirm-turn').isChecked()), 'kept by the server');
      await h.screenshot(page, 'settings');

      await page.evaluate(() => (location.hash = '#/'));
      await page.locator('#lobby').waitFor({ state: 'visible' });
      await createTable(page, { players: 2, seats: ['greedy'] });
      await startTable(page);
      await playUntil(page, rng, h, screen.tap, async (clicked) => {
        assert.ok(!(await onlyDone(page)), `after "${clicked.move}" the turn never waits for Done`);
        return clicked.move.startsWith('build ') && buildThenEnd(await logLines(page), 'Emil');
      });
      assert.equal((await tableState(page)).error, '');
    });
  });
}
