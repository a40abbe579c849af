// Two people chat at a table in two browsers: before and during the game, with Enter, as text
// only; the unread marker counts lines that arrive out of sight; a mute hides a writer and an
// unmute brings their lines back; a reload keeps the conversation.
import assert from 'node:assert/strict';
import test from 'node:test';
import { createTable, signInAsGuest, startTable } from './game.js';
import { Harness } from './support.js';

async function say(page, text) {
  await page.locator('#chat-input').fill(text);
  await page.locator('#chat-input').press('Enter');
  await page.waitForFunction(() => document.querySelector('#chat-input').value === '', null, { timeout: 5000 });
}

// The chat's lines as the page shows them: [{from, text}].
function lines(page) {
  return page.evaluate(() => [...document.querySelectorAll('#chat-list li')].map((li) => ({
    from: li.querySelector('.chat-from').textContent,
    text: li.querySelector('.chat-text').textContent,
    markup: li.querySelector('.chat-text').children.length,
  })));
}

async function waitForLine(page, text) {
  await page.waitForFunction(
    (wanted) => [...document.querySelectorAll('#chat-list .chat-text')].some((element) => element.textContent === wanted),
    text,
    { timeout: 10000 },
  ).catch(async () => {
    throw new Error(`"${text}" never showed; the chat shows ${JSON.stringify(await lines(page))}`);
  });
}

test('two people chat at a table, mute and unmute, and keep the conversation', { timeout: 180000 }, async () => {
  const h = new Harness('chat');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const ann = await h.page(browser, 'ann');
    // Bo's window is short: the chat below the waiting room starts out of sight.
    const bo = await h.page(browser, 'bo', { viewport: { width: 1000, height: 200 } });

    await signInAsGuest(ann, server.url, 'Ann');
    const tableId = await createTable(ann, { players: 2, seats: ['human'] });
    await signInAsGuest(bo, server.url, 'Bo');
    await bo.locator(`#open-tables li[data-table="${tableId}"] [data-action="sit"]`).click();
    await bo.waitForSelector(`#table[data-table="${tableId}"][data-seat="1"]`, { state: 'visible' });
    await bo.evaluate(() => window.scrollTo(0, 0));
    assert.equal(await bo.locator('#chat-panel').evaluate((panel) => panel.getBoundingClientRect().top > window.innerHeight), true,
      'the chat starts below Bo\'s window');

    // In the waiting room, with Enter; markup arrives as text.
    await say(ann, 'Hello <b>Bo</b> & welcome');
    await waitForLine(bo, 'Hello <b>Bo</b> & welcome');
    const first = (await lines(bo))[0];
    assert.deepEqual(first, { from: 'Ann', text: 'Hello <b>Bo</b> & welcome', markup: 0 });
    // Unread while out of sight; seen once scrolled to.
    await bo.waitForSelector('#chat-unread:not([hidden])');
    assert.match(await bo.locator('#chat-unread').textContent(), /^1 new message$/);
    await bo.locator('#chat-panel').scrollIntoViewIfNeeded();
    await bo.waitForSelector('#chat-unread[hidden]', { state: 'attached' });

    // During the game.
    await ann.locator('#start:enabled').waitFor();
    await startTable(ann);
    await bo.waitForSelector('#table[data-status="playing"]', { state: 'attached' });
    await say(bo, 'gl hf');
    await waitForLine(ann, 'gl hf');
    assert.deepEqual((await lines(ann)).map((line) => line.text), ['Hello <b>Bo</b> & welcome', 'gl hf']);

    // Ann mutes Bo: his lines go, and later ones never come.
    await ann.locator('#chat-list li[data-n="2"] .chat-mute').click();
    await ann.waitForSelector('#chat-muted:not([hidden])');
    assert.deepEqual((await lines(ann)).map((line) => line.text), ['Hello <b>Bo</b> & welcome']);
    await say(bo, 'can you hear me?');
    await say(ann, 'quiet here');
    await waitForLine(bo, 'quiet here');
    assert.deepEqual((await lines(ann)).map((line) => line.text), ['Hello <b>Bo</b> & welcome', 'quiet here']);

    // A reload keeps both the conversation and the mute.
    await ann.reload();
    await ann.waitForSelector('#table[data-status="playing"]', { state: 'attached' });
    await waitForLine(ann, 'quiet here');
    assert.deepEqual((await lines(ann)).map((line) => line.text), ['Hello <b>Bo</b> & welcome', 'quiet here']);

    // Unmuted: every line of Bo's is back, in order.
    await ann.locator('#chat-muted .chat-unmute').click();
    await waitForLine(ann, 'can you hear me?');
    assert.deepEqual((await lines(ann)).map((line) => line.text),
      ['Hello <b>Bo</b> & welcome', 'gl hf', 'can you hear me?', 'quiet here']);
    await h.screenshot(ann, 'chat');
  });
});
