// Invitations in two browsers (docs/web.md, "Invitations"): Ann invites Ben from his profile, Ben
// accepts from My games and the game starts by itself; then Ann invites him by name from the
// create form, and he declines: her table shows the seat open again.
import assert from 'node:assert/strict';
import test from 'node:test';
import { register, signIn, tableState } from './game.js';
import { Harness } from './support.js';

// The create form with `players` seats, all people, submitted; the creator lands on the table.
async function createInviting(page, players) {
  await page.locator('#create-players').selectOption(String(players));
  for (let seat = 1; seat < players; ++seat) await page.locator(`#create-seat-${seat}`).selectOption('human');
  await page.locator('#create-submit').click();
  await page.waitForSelector('#table[data-table^="t"][data-status="waiting"][data-seat="0"]', { state: 'visible' });
  return (await tableState(page)).id;
}

test('an invitation accepted from My games starts the game; another one declined', { timeout: 180000 }, async () => {
  const h = new Harness('invite');
  await h.run(async () => {
    const server = await h.server();
    await register(server, 'Ann');
    const ben = await register(server, 'Ben');
    const ann = await h.page(await h.browser(), 'ann');
    const bens = await h.page(await h.browser(), 'ben');
    await signIn(ann, server.url, 'Ann');
    await signIn(bens, server.url, 'Ben');

    // From Ben's profile, "Invite to a game" opens the create form with his name.
    await ann.evaluate((id) => (location.hash = `#/player/${id}`), ben.user.id);
    await ann.locator('#invite-player').click();
    await ann.locator('#lobby').waitFor({ state: 'visible' });
    assert.equal(await ann.locator('#create-invite').inputValue(), 'Ben');
    const first = await createInviting(ann, 2);
    await ann.waitForSelector('#seats li[data-seat="1"].reserved');

    // Ben sees it in My games and accepts: the game starts without anybody pressing Start.
    const invitation = bens.locator(`#my-games li[data-table="${first}"][data-invitation="true"]`);
    await invitation.waitFor();
    await invitation.locator('[data-action="accept"]').click();
    await bens.waitForSelector(`#table[data-table="${first}"][data-status="playing"][data-seat="1"]`, { state: 'visible' });
    await ann.waitForSelector(`#table[data-table="${first}"][data-status="playing"]`, { state: 'visible' });

    // A second invitation, by name in the create form; Ben declines it.
    await ann.evaluate(() => (location.hash = '#/'));
    await ann.locator('#create-invite').fill('Ben');
    const second = await createInviting(ann, 2);
    await bens.evaluate(() => (location.hash = '#/'));
    const declined = bens.locator(`#my-games li[data-table="${second}"][data-invitation="true"]`);
    await declined.waitFor();
    await declined.locator('[data-action="decline"]').click();
    await declined.waitFor({ state: 'detached' });
    await ann.waitForSelector(`#table[data-table="${second}"] #seats li[data-seat="1"].open`);
    assert.equal((await tableState(ann)).status, 'waiting');
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the pages');
  });
});
