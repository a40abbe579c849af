// A vacation declared on the settings page: the other player's table page shows it on the seat,
// and it goes away when the vacation is ended.
import assert from 'node:assert/strict';
import test from 'node:test';
import { createTable, register, signIn, signInAsGuest, startTable } from './game.js';
import { Harness } from './support.js';

test('a vacation declared in the settings shows on the seat at the other player\'s table', { timeout: 60000 }, async () => {
  const h = new Harness('vacation');
  await h.run(async () => {
    const server = await h.server();
    await register(server, 'Vera');
    const browser = await h.browser();
    const vera = await h.page(browser, 'vera');
    const tom = await h.page(browser, 'tom');

    await signIn(vera, server.url, 'Vera');
    const tableId = await createTable(vera, { players: 2, seats: ['human'] });
    await signInAsGuest(tom, server.url, 'Tom');
    await tom.locator(`#open-tables li[data-table="${tableId}"] [data-action="sit"]`).click();
    await tom.waitForSelector(`#table[data-table="${tableId}"][data-seat="1"]`, { state: 'visible' });
    await startTable(tom);
    await tom.waitForSelector(`#table[data-table="${tableId}"][data-status="playing"]`, { state: 'visible' });
    assert.equal(await tom.locator('#table .badge.away').count(), 0, 'nobody is away yet');

    // Vera is away from today until the day after tomorrow.
    await vera.evaluate(() => (location.hash = '#/settings'));
    await vera.locator('#settings-vacation-form').waitFor();
    await vera.waitForFunction(() => /No vacation planned\. 30 of 30 days left this year\./.test(document.querySelector('#settings-vacation-state').textContent));
    const back = await vera.evaluate(() => {
      const date = new Date(Date.now() + 2 * 86400000);
      return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
    });
    await vera.locator('#settings-vacation-to').fill(back);
    await vera.locator('#settings-vacation-save').click();
    await vera.waitForFunction(() => document.querySelector('#settings-vacation-state').textContent.startsWith('You are on vacation until'));
    await h.screenshot(vera, 'settings');

    const away = tom.locator(`#table[data-table="${tableId}"] .badge.away`).first();
    await away.waitFor({ state: 'visible', timeout: 10000 });
    assert.match(await away.textContent(), /^on vacation until /);
    await h.screenshot(tom, 'table');

    // Ended: the seat is back.
    await vera.locator('#settings-vacation-end').click();
    await vera.waitForFunction(() => document.querySelector('#settings-vacation-state').textContent.startsWith('No vacation planned.'));
    await tom.waitForFunction(() => document.querySelectorAll('#table .badge.away').length === 0, null, { timeout: 10000 });
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
  });
});
