// Friends and blocks: a friend added from a profile shows online in the lobby, with their table
// marked; a player blocked from a profile cannot take a seat at the blocker's table.
import assert from 'node:assert/strict';
import test from 'node:test';
import { createTable, register, signIn } from './game.js';
import { Harness } from './support.js';

test('a friend added from a profile is online in the lobby; a blocked player cannot sit', { timeout: 60000 }, async () => {
  const h = new Harness('social');
  await h.run(async () => {
    const server = await h.server();
    const ann = (await register(server, 'Ann')).user;
    const ben = (await register(server, 'Ben')).user;
    const browser = await h.browser();
    const annPage = await h.page(browser, 'ann');
    const benPage = await h.page(browser, 'ben');

    await signIn(benPage, server.url, 'Ben');
    const tableId = await createTable(benPage, { players: 2, seats: ['human'] });
    await signIn(annPage, server.url, 'Ann');

    // Ann makes Ben a friend on his profile.
    await annPage.evaluate((id) => (location.hash = `#/player/${id}`), ben.id);
    await annPage.locator('#profile-friend[data-action="friend"]').click();
    await annPage.locator('#profile-friend[data-action="unfriend"]').waitFor();
    await h.screenshot(annPage, 'profile');

    // The lobby: Ben online, his open table marked.
    await annPage.evaluate(() => (location.hash = '#/'));
    await annPage.locator(`#friends-online li[data-user="${ben.id}"]`).waitFor();
    const row = annPage.locator(`#open-tables li[data-table="${tableId}"]`);
    await row.locator('.badge.friend').waitFor();
    assert.equal(await row.getAttribute('class'), 'friend-table');
    assert.match(await row.locator('.badge.friend').textContent(), /Ben/);
    // The create form offers Ben for its invitations; a click adds him once.
    const offered = annPage.locator(`#create-invite-friends button[data-friend="${ben.id}"]`);
    await offered.click();
    await offered.click();
    assert.equal(await annPage.locator('#create-invite').inputValue(), 'Ben');
    await h.screenshot(annPage, 'lobby');

    // Ben blocks Ann (after the confirmation); her seat at his table is refused.
    benPage.on('dialog', (dialog) => dialog.accept());
    await benPage.evaluate((id) => (location.hash = `#/player/${id}`), ann.id);
    await benPage.locator('#profile-block[data-action="block"]').click();
    await benPage.locator('#profile-block[data-action="unblock"]').waitFor();
    await row.locator('[data-action="sit"]').click();
    await annPage.locator('#error:not([hidden])').waitFor();
    assert.notEqual(await annPage.evaluate(() => location.hash), `#/table/${tableId}`);
    // The seat stays open.
    assert.equal(await row.locator('[data-action="sit"]').count(), 1);

    // Ben's settings list Ann, with Unblock.
    await benPage.evaluate(() => (location.hash = '#/settings'));
    await benPage.locator(`#settings-blocks li[data-user="${ann.id}"] [data-action="unblock"]`).waitFor();
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
  });
});
