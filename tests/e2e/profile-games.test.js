// Table names and a player's finished games (docs/web.md, "Profiles"): a table created with a name
// shows it in the lobby, on its page and in the tab's title; once its game is over it is on the
// player's profile with the opponent linked, the filters choose among the games, and the figures
// count it.
import assert from 'node:assert/strict';
import test from 'node:test';
import { createTable, playOverSockets, signInAsGuest, startTable } from './game.js';
import { Harness, seed } from './support.js';

const kName = "Friday at Ann's";

test('a named table in the lobby and the title; its finished game on the profile with its opponent', { timeout: 120000 }, async () => {
  const h = new Harness('profile-games');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const ann = await h.page(browser, 'ann');
    const bo = await h.page(browser, 'bo');

    await signInAsGuest(ann, server.url, 'Ann');
    await ann.locator('#create-name').fill(`  ${kName} `);
    const tableId = await createTable(ann, { players: 2, seats: ['human'] });
    await ann.waitForFunction((name) => document.querySelector('#table-name')?.textContent.startsWith(name), kName);
    await ann.waitForFunction((name) => document.title === `${name} — The Great City of Rome`, kName);
    assert.ok((await ann.evaluate(() => location.hash)).endsWith(tableId), 'the id stays in the address');

    await signInAsGuest(bo, server.url, 'Bo');
    const row = bo.locator(`#open-tables li[data-table="${tableId}"]`);
    await row.locator('.table-name', { hasText: kName }).waitFor();
    await h.screenshot(bo, 'lobby');
    await row.locator('[data-action="sit"]').click();
    await bo.waitForSelector(`#table[data-table="${tableId}"][data-seat="1"]`, { state: 'visible' });
    await startTable(ann);
    const tokens = await Promise.all([ann, bo].map((page) => page.evaluate(() => localStorage.getItem('gcor.token'))));
    await playOverSockets(ann, tokens.map((token) => ({ token, table: tableId })), { seedValue: seed });
    await ann.waitForSelector('#table[data-status="finished"]', { timeout: 15000 });

    // Ann's profile: the game by its name, Bo linked to his profile, the figures counting it.
    await ann.locator('#me').click();
    const game = ann.locator(`#profile-games-list li[data-table="${tableId}"]`);
    await game.waitFor({ timeout: 10000 });
    assert.equal(await game.locator('.table-name').textContent(), kName);
    const opponent = game.locator('.opponents a[data-user]');
    assert.equal(await opponent.textContent(), 'Bo');
    const boId = await bo.evaluate(() => document.querySelector('#me').getAttribute('href').split('/').pop());
    assert.equal(await opponent.getAttribute('data-user'), boId);
    assert.equal(await ann.locator('#profile-figures tr[data-rules="yucata"] td').first().textContent(), '1');
    await h.screenshot(ann, 'profile');

    // The filters ask the server: no publisher game, then all games again.
    await ann.locator('#games-filter-rules').selectOption('publisher');
    await ann.locator('#profile-games-list').waitFor({ state: 'detached' });
    await ann.locator('#games-filter-rules').selectOption('');
    await game.waitFor();

    // Bo's profile, as Ann sees it: the same game with Ann as the opponent.
    await opponent.click();
    const bosGame = ann.locator(`#profile-games-list li[data-table="${tableId}"]`);
    await ann.waitForFunction((id) => document.querySelector('#profile')?.dataset.user === id, boId);
    await bosGame.waitFor({ timeout: 10000 });
    assert.equal(await bosGame.locator('.opponents a[data-user]').textContent(), 'Ann (you)');
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the pages');
  });
});
