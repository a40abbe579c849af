// A player's own data from the settings page (docs/web.md, "Settings"): Ben downloads his data,
// then deletes his account in two steps; Ann's finished game against him shows him as
// "deleted player N" from then on, with its scores kept.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import test from 'node:test';
import { createTable, playOverSockets, register, signIn, startTable } from './game.js';
import { Harness, seed } from './support.js';

// Takes seat 1 of `table` over a WebSocket of the page's own, with `token`'s session.
async function sitOverSocket(page, token, table) {
  await page.evaluate(({ token, table }) => new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://${location.host}/ws`);
    socket.onopen = () => socket.send(JSON.stringify({ type: 'hello', token, id: 1 }));
    socket.onerror = () => reject(new Error('the WebSocket failed'));
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === 'welcome') socket.send(JSON.stringify({ type: 'sit', table, seat: 1, id: 2 }));
      else if (message.type === 'seated') {
        socket.close();
        resolve();
      } else if (message.type === 'error') reject(new Error(`${message.code}: ${message.message}`));
    };
  }), { token, table });
}

test('a deleted account shows as "deleted player N" in the other player\'s finished game', { timeout: 180000 }, async () => {
  const h = new Harness('account');
  await h.run(async () => {
    const server = await h.server();
    const [ann, ben] = [await register(server, 'Ann'), await register(server, 'Ben')];
    const browser = await h.browser();
    const annPage = await h.page(browser, 'ann');
    await signIn(annPage, server.url, 'Ann');
    const tableId = await createTable(annPage, { players: 2, seats: ['human'] });
    await sitOverSocket(annPage, ben.token, tableId);
    await startTable(annPage);
    await playOverSockets(annPage, [{ token: ann.token, table: tableId }, { token: ben.token, table: tableId }], { seedValue: seed });
    await annPage.waitForSelector('#table[data-status="finished"]', { timeout: 15000 });
    const before = await server.json(`/api/tables/${tableId}/record`);
    assert.deepEqual(before.names, ['Ann', 'Ben']);

    // Ben's data, downloaded from the settings page: his account and the game's record.
    const benPage = await h.page(browser, 'ben');
    await signIn(benPage, server.url, 'Ben');
    await benPage.evaluate(() => (location.hash = '#/settings'));
    await benPage.locator('#settings-export').waitFor();
    const [download] = await Promise.all([benPage.waitForEvent('download'), benPage.locator('#settings-export').click()]);
    assert.equal(download.suggestedFilename(), `gcor-account-${ben.user.id}.json`);
    const data = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
    assert.equal(data.account.name, 'Ben');
    assert.deepEqual(data.games.map((game) => game.table), [tableId]);
    assert.deepEqual(data.games[0].record.scores, before.scores);

    // A wrong password is refused and changes nothing; the right one, confirmed, deletes.
    await benPage.locator('#settings-delete-password').fill('not my password');
    await benPage.locator('#settings-delete').click();
    await benPage.locator('#settings-delete-confirm').click();
    await benPage.waitForFunction(() => /password/i.test(document.querySelector('#settings-account-state')?.textContent ?? ''));
    assert.equal(await benPage.locator('#settings-delete-confirm').isHidden(), true);
    assert.deepEqual((await server.json(`/api/tables/${tableId}/record`)).names, ['Ann', 'Ben']);
    await benPage.locator('#settings-delete-password').fill('secret-Ben');
    await benPage.locator('#settings-delete').click();
    await benPage.locator('#settings-delete-cancel').click(); // a second thought
    assert.equal(await benPage.locator('#settings-delete-confirm').isHidden(), true);
    await benPage.locator('#settings-delete').click();
    await benPage.locator('#settings-delete-confirm').click();
    await benPage.locator('#login-name').waitFor({ state: 'visible' });

    // Ann's finished game: the same moves and scores, Ben's seat under his new name.
    const deleted = `deleted player ${ben.user.id}`;
    const after = await server.json(`/api/tables/${tableId}/record`);
    assert.deepEqual(after.names, ['Ann', deleted]);
    assert.deepEqual(after.scores, before.scores);
    assert.deepEqual(after.moves, before.moves);
    await annPage.reload();
    await annPage.waitForSelector('#table[data-status="finished"]', { timeout: 15000 });
    await annPage.getByText(deleted).first().waitFor({ state: 'visible' });
    assert.equal(await annPage.getByText('Ben', { exact: true }).count(), 0);
    await h.screenshot(annPage, 'finished-game-after-deletion');
  });
});
