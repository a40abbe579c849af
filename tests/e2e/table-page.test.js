// The table page beyond the moves: the log stays in view and only grows (its live region's lines
// survive updates), card details open by click, tap or Enter everywhere a card is shown, a build
// that buys bricks shows its coins before the click, and the keyboard focus stays where play
// continues.
import assert from 'node:assert/strict';
import test from 'node:test';
import { clickOne, createTable, signInAsGuest, startTable, tableState, waitForTurnOrEnd } from './game.js';
import { Harness, kPhone, random, seed } from './support.js';

const desktop = { viewport: { width: 1280, height: 800 } };

// Clicks a move of this page (random, seeded) and waits for its version to change.
async function playOne(page, rng, options = {}) {
  await waitForTurnOrEnd(page);
  return clickOne(page, rng, options);
}

test('the log stays in view and its lines survive updates (desktop and phone)', { timeout: 120000 }, async () => {
  const h = new Harness('table-log');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'desk', desktop);
    const rng = random(seed);
    await signInAsGuest(page, server.url, 'Lou');
    const tableId = await createTable(page, { players: 2, seats: ['greedy'] });
    await startTable(page);
    await waitForTurnOrEnd(page);
    await page.waitForSelector('#log li');

    // Keep the log's elements, play on, and find the same elements still attached, with more lines.
    const before = await page.evaluate(() => {
      window.keptLog = { list: document.querySelector('#log'), items: [...document.querySelectorAll('#log li')] };
      return window.keptLog.items.length;
    });
    for (let i = 0; i < 4; ++i) {
      const state = await waitForTurnOrEnd(page);
      if (state.status !== 'playing') break;
      await clickOne(page, rng);
    }
    const after = await page.evaluate(() => ({
      sameList: document.querySelector('#log') === window.keptLog.list,
      attached: window.keptLog.items.filter((item) => item.isConnected).length,
      count: document.querySelectorAll('#log li').length,
      live: document.querySelector('#log').getAttribute('aria-live'),
    }));
    assert.equal(after.sameList, true, 'the #log element is the same after updates');
    assert.equal(after.attached, before, 'every line shown before is still attached (appended to, not rebuilt)');
    assert.ok(after.count > before, `lines were appended (${before} -> ${after.count})`);
    assert.equal(after.live, 'polite');

    // Desktop: the log column is in view at the bottom of the page as at its top.
    for (const where of ['top', 'bottom']) {
      await page.evaluate((end) => window.scrollTo(0, end === 'top' ? 0 : document.documentElement.scrollHeight), where);
      const box = await page.locator('#log-panel').boundingBox();
      assert.ok(box && box.y >= 0 && box.y + box.height <= 800 && box.height > 150, `the log column is in view at the ${where}: ${JSON.stringify(box)}`);
    }

    // Phone: a spectator's log is a bar at the bottom of the screen, wherever the page is scrolled,
    // and opens by a tap on its toggle.
    const phone = await h.page(browser, 'phone', kPhone);
    await signInAsGuest(phone, server.url, 'Pia');
    await phone.evaluate((id) => (location.hash = `#/table/${id}`), tableId);
    await phone.waitForSelector('#table[data-status="playing"] #log li');
    for (const where of ['top', 'bottom']) {
      await phone.evaluate((end) => window.scrollTo(0, end === 'top' ? 0 : document.documentElement.scrollHeight), where);
      const box = await phone.locator('#log-toggle').boundingBox();
      assert.ok(box && box.y >= 0 && box.y + box.height <= 844, `the log's toggle is in view at the ${where}: ${JSON.stringify(box)}`);
    }
    const lastShown = await phone.evaluate(() => {
      const list = document.querySelector('#log').getBoundingClientRect();
      const last = document.querySelector('#log li:last-child').getBoundingClientRect();
      return last.top >= list.top - 1 && last.top < list.bottom;
    });
    assert.ok(lastShown, 'the closed log bar shows the last line');
    await phone.locator('#log-toggle').tap();
    await phone.waitForSelector('#log-toggle[aria-expanded="true"]');
    const open = await phone.evaluate(() => {
      const list = document.querySelector('#log').getBoundingClientRect();
      const last = document.querySelector('#log li:last-child').getBoundingClientRect();
      return { height: list.height, lastVisible: last.bottom <= list.bottom + 1 && last.top >= list.top - 1 && last.bottom <= window.innerHeight };
    });
    assert.ok(open.height > 150, `the open log is tall enough to read (${open.height} px)`);
    assert.ok(open.lastVisible, 'the open log shows its last line');
    await h.screenshot(phone, 'phone-log-open');
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
  });
});
