// A seat that ran out of time under "the seat forfeits" is played by a bot: its player's page says
// "forfeited" on their own panel and never again offers them a move or says it is their turn.
import assert from 'node:assert/strict';
import test from 'node:test';
import { createTable, signInAsGuest, startTable, waitForTurnOrEnd } from './game.js';
import { Harness } from './support.js';

test('a forfeited player is not told it is their turn', { timeout: 90000 }, async () => {
  const h = new Harness('forfeit');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'forfeit');

    await signInAsGuest(page, server.url, 'Fay');
    await page.locator('#create-time').selectOption('realtime');
    await page.locator('#create-time-amount').fill('10');
    await page.locator('#create-on-timeout').selectOption('forfeit');
    await createTable(page, { players: 2, seats: ['greedy'] });
    await startTable(page);
    assert.equal((await waitForTurnOrEnd(page)).status, 'playing');

    // Let the clock run out without moving; from the forfeit on, no turn may be offered.
    await page.evaluate(() => {
      window.__toldMyTurn = [];
      const check = () => {
        const table = document.querySelector('#table');
        if (!document.body.textContent.includes('ran out of time and forfeits')) return;
        if (table?.dataset.myTurn === 'true' || document.title.startsWith('● Your turn') || document.querySelector('#table [data-move]'))
          window.__toldMyTurn.push(table?.dataset.version);
      };
      new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await page.waitForSelector('#table[data-status="finished"]', { state: 'attached', timeout: 60000 });
    assert.match(await page.locator('.my-panel h2').textContent(), /forfeited/, 'their own panel says forfeited');
    await h.screenshot(page, 'finished');
    assert.deepEqual(await page.evaluate(() => window.__toldMyTurn), [], 'no turn offered to the forfeited seat');
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
  });
});
