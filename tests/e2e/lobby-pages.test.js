// The lobby lists the public tables page by page (50 a page, docs/protocol.md "Pages"): with more
// than a page of open tables, every one of them shows in the lobby.
import assert from 'node:assert/strict';
import test from 'node:test';
import { signInAsGuest } from './game.js';
import { Harness } from './support.js';

const kTables = 60;

test('the lobby shows more than a page of open tables', { timeout: 60000 }, async () => {
  const h = new Harness('lobby-pages');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    // Another person creates the tables over WebSockets of its own, 30 on each (within the rate
    // limit's burst of 40).
    const filler = await h.page(browser, 'filler');
    await filler.goto(`${server.url}/`);
    const created = await filler.evaluate(async ({ count }) => {
      const fill = (name, tables) => new Promise((resolve, reject) => {
        const socket = new WebSocket(`ws://${location.host}/ws`);
        let made = 0;
        const create = () => socket.send(JSON.stringify({ type: 'create_table', options: { players: 2 }, sit: false }));
        socket.onopen = () => socket.send(JSON.stringify({ type: 'hello', name }));
        socket.onmessage = (event) => {
          const message = JSON.parse(event.data);
          if (message.type === 'error') reject(new Error(event.data));
          else if (message.type === 'welcome') create();
          else if (message.type === 'table_created') {
            if (++made === tables) { socket.close(); resolve(made); } else create();
          }
        };
      });
      const made = await Promise.all([fill('Filler1', count / 2), fill('Filler2', count / 2)]);
      return made[0] + made[1];
    }, { count: kTables });
    assert.equal(created, kTables);

    const page = await h.page(browser, 'guest');
    await signInAsGuest(page, server.url, 'Dee');
    await page.locator('#lobby').waitFor({ state: 'visible' });
    await page.waitForFunction((count) => document.querySelectorAll('#open-tables li[data-table]').length === count, kTables, { timeout: 15000 });
    await h.screenshot(page, 'lobby');
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
  });
});
