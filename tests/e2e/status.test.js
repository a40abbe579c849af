// What the page says about the connection and the player's turns outside the table: nothing about
// the connection before one is tried, the round's first player is marked, and the lobby's tab title
// tells of a turn waiting at a table.
import assert from 'node:assert/strict';
import test from 'node:test';
import { createTable, signInAsGuest, startTable, waitForTurnOrEnd } from './game.js';
import { Harness } from './support.js';

test('no "Not connected" before a try; the lobby title tells of a turn elsewhere', { timeout: 60000 }, async () => {
  const h = new Harness('status');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'status');

    await page.goto(`${server.url}/`);
    await page.locator('#signin').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#connection').isVisible(), false, 'a newcomer sees no connection state');
    assert.equal(await page.locator('#connection').getAttribute('data-state'), 'idle');

    await signInAsGuest(page, server.url, 'Tia');
    await createTable(page, { players: 2, seats: ['greedy'] });
    await startTable(page);
    const state = await waitForTurnOrEnd(page);
    assert.equal(state.status, 'playing');
    await page.waitForFunction(() => document.title.startsWith('● Your turn · '));
    assert.equal(await page.locator('#table .badge.first-player').count(), 1, 'one first-player marker');

    await page.evaluate(() => (location.hash = '#/'));
    await page.locator('#lobby').waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.title.startsWith('● Your turn elsewhere · '), null, { timeout: 10000 });
    await h.screenshot(page, 'lobby-title');
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
  });
});
