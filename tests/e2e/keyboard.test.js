// The table can be played with the keyboard alone (Tab to a move, Enter to make it; a hand card
// picked with Enter reveals its build cells), and everything that can be pressed or read as a
// picture has a name for screen readers.
import assert from 'node:assert/strict';
import test from 'node:test';
import { createTable, signInAsGuest, startTable, tableState, unnamed, waitForTurnOrEnd } from './game.js';
import { Harness } from './support.js';

const focused = (page, selector) => page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector);

// Tabs until the focused element matches `selector` (no Tab if it already does); false after
// `limit` presses.
async function tabTo(page, selector, limit = 400) {
  if (await focused(page, selector)) return true;
  for (let i = 0; i < limit; ++i) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return true;
  }
  return false;
}

test('a table is played with the keyboard, and every control has a name', { timeout: 120000 }, async () => {
  const h = new Harness('keyboard');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'keys');

    await signInAsGuest(page, server.url, 'Kay');
    assert.deepEqual(await unnamed(page), [], 'lobby controls have names');
    await createTable(page, { players: 2, seats: ['greedy'] });
    await startTable(page);

    let keyboardMoves = 0;
    let builtByKeyboard = false;
    for (let turn = 0; turn < 60 && keyboardMoves < 12; ++turn) {
      const state = await waitForTurnOrEnd(page);
      if (state.status !== 'playing') break;
      assert.deepEqual(await unnamed(page), [], `table controls have names at version ${state.version}`);
      // Play continues where the focus is: after a move, on this player's turn, the focus is on
      // something to do (never on <body>).
      if (keyboardMoves > 0) {
        await page.waitForFunction(() => document.activeElement?.matches('[data-move], [data-select]'), null, { timeout: 5000 }).catch(async () => {
          assert.fail(`after a move the focus should be on a move at version ${state.version}, not on ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120))}`);
        });
      }
      const buildable = await page.locator('#hand [data-select]').count();
      if (!builtByKeyboard && buildable > 0) {
        assert.ok(await tabTo(page, '#hand [data-select]'), 'Tab reaches a hand card');
        const card = await page.evaluate(() => document.activeElement?.dataset.card);
        await page.keyboard.press('Enter');
        await page.waitForSelector('#hand [data-select][aria-pressed="true"]');
        // Picking a card puts the focus on its first build cell.
        assert.ok(await focused(page, `#my-city .cell[data-move^="build ${card} "]`),
          `after picking card ${card} the focus is on a build cell, not on ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120))}`);
        builtByKeyboard = true;
      } else {
        assert.ok(await tabTo(page, '#table [data-move]'), `Tab reaches a move at version ${state.version}`);
      }
      const move = await page.evaluate(() => document.activeElement.dataset.move);
      await page.keyboard.press('Enter');
      await page.waitForFunction((v) => Number(document.querySelector('#table').dataset.version) > v, state.version);
      assert.equal((await tableState(page)).error, '', `"${move}" by keyboard is accepted`);
      keyboardMoves += 1;
    }
    assert.ok(keyboardMoves >= 12, `12 moves made by keyboard (made ${keyboardMoves})`);
    assert.ok(builtByKeyboard, 'a building was built by keyboard');
    await h.screenshot(page, 'keyboard');
  });
});
