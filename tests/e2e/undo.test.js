// A player takes back a build with the Undo button and with Ctrl+Z: the page (and a spectator's)
// shows the city, hand and offer exactly as before the move, the log says so, and Undo is offered
// only while the view allows it.
import assert from 'node:assert/strict';
import test from 'node:test';
import { clickOne, createTable, signInAsGuest, startTable, tableState, waitForTurnOrEnd } from './game.js';
import { Harness, random, seed } from './support.js';

// What a move changes on the player's side of the page, independent of a card's selection.
function board(page) {
  return page.evaluate(() => {
    const cards = (selector) => [...document.querySelectorAll(selector)].map((element) => element.dataset.card);
    return {
      offer: cards('#offer [data-card]'),
      hand: cards('#hand [data-card]'),
      city: [...document.querySelectorAll('#my-city .cell.built')].map((cell) => `${cell.dataset.cell}:${cell.querySelector('[data-card]')?.dataset.card}`),
      stats: document.querySelector('.my-panel .stats')?.textContent,
      done: document.querySelector('#actions .done')?.textContent ?? null,
    };
  });
}

const undoVisible = (page) => page.locator('#undo').isVisible();

// Clicks (seeded) until a build leaves the Undo button offered; returns the board before that
// build and the build. Each move is checked on the way: Undo is offered only on this page's turn.
async function buildUntilUndoable(page, rng, h) {
  for (let clicks = 0; clicks < 400; ++clicks) {
    const state = await waitForTurnOrEnd(page);
    assert.equal(state.status, 'playing', 'the game ended before a move could be taken back');
    const before = await board(page);
    const clicked = await clickOne(page, rng, { record: (option) => h.clicked('player', option) });
    if (clicked.kind !== 'move') continue;
    const after = await tableState(page);
    if (!after.myTurn) {
      assert.equal(await undoVisible(page), false, `no Undo while others play (after "${clicked.move}")`);
      continue;
    }
    if (clicked.move.startsWith('build ') && (await undoVisible(page))) return { before, move: clicked.move, version: after.version };
  }
  assert.fail('no undoable build in 400 clicks');
}

async function waitVersion(page, version) {
  await page.waitForSelector(`#table[data-version="${version}"]`, { state: 'attached', timeout: 10000 });
}

test('a build is taken back with the Undo button and with Ctrl+Z', { timeout: 180000 }, async () => {
  const h = new Harness('undo');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'player');
    const watcher = await h.page(browser, 'spectator');
    const rng = random(seed);

    await signInAsGuest(page, server.url, 'Ursula');
    const id = await createTable(page, { players: 2, seats: ['greedy'] });
    await startTable(page);
    await signInAsGuest(watcher, server.url, 'Viktor');
    await watcher.goto(`${server.url}/#/table/${id}`);

    // The button.
    const first = await buildUntilUndoable(page, rng, h);
    await page.locator('#undo').click();
    await waitVersion(page, first.version + 1);
    assert.deepEqual(await board(page), first.before, `the Undo button took back "${first.move}" exactly`);
    await page.waitForFunction(() => /takes back/.test(document.querySelector('#log li:last-child')?.textContent), null, { timeout: 5000 });
    await waitVersion(watcher, first.version + 1);
    assert.match(await watcher.locator('#log li:last-child').textContent(), /Ursula takes back/);
    assert.equal(await watcher.locator('#undo').count(), 0, 'a spectator is never offered Undo');

    // The keyboard: Ctrl+Z from anywhere on the table page but a text field.
    const second = await buildUntilUndoable(page, rng, h);
    await page.locator('#turn').focus();
    await page.keyboard.press('Control+z');
    await waitVersion(page, second.version + 1);
    assert.deepEqual(await board(page), second.before, `Ctrl+Z took back "${second.move}" exactly`);
    const state = await tableState(page);
    assert.equal(state.error, '', 'no error after the undos');
    assert.ok(state.myTurn, 'still this player\'s turn after taking a move back');
    await h.screenshot(page, 'after-undo');
  });
});
