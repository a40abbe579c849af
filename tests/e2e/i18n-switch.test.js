// The language switch mid-game: the table is drawn again in place in German (the board, the
// buttons, the log's lines in their same elements, the chat kept), the game goes on in German,
// and the choice is remembered across a reload; back to English, the same again.
import assert from 'node:assert/strict';
import test from 'node:test';
import { clickOne, createTable, signInAsGuest, startTable, tableState, waitForTurnOrEnd } from './game.js';
import { Harness, random, seed } from './support.js';

// What the test compares across a switch: the table's state and its words.
async function snapshot(page) {
  return page.evaluate(() => ({
    version: document.querySelector('#table').dataset.version,
    lang: document.documentElement.lang,
    round: document.querySelector('#round').textContent,
    strip: document.querySelector('.strip-panel h2').textContent,
    myArea: document.querySelector('.my-panel')?.getAttribute('aria-label'),
    logTitle: document.querySelector('#log-title').textContent,
    log: [...document.querySelectorAll('#log li')].map((li) => ({ event: li.dataset.event ?? null, text: li.textContent, kept: li.dataset.mark === 'kept' })),
    chat: [...document.querySelectorAll('#chat-list .chat-text')].map((line) => line.textContent),
    send: document.querySelector('#chat-send').textContent,
    nav: document.querySelector('#nav-leagues').textContent,
    title: document.title,
  }));
}

async function playUntil(page, rng, h, done) {
  for (let steps = 0; steps < 300; ++steps) {
    const state = await waitForTurnOrEnd(page);
    if (state.status !== 'playing' || (await done())) return state;
    await clickOne(page, rng, { record: (o) => h.clicked('ann', o) });
  }
  throw new Error('the game did not get there within 300 clicks');
}

test('switching the language mid-game redraws the table in place and the game goes on', { timeout: 180000 }, async () => {
  const h = new Harness('i18n-switch');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'ann');
    const rng = random(seed);

    await signInAsGuest(page, server.url, 'Ann');
    await createTable(page, { players: 2, seats: ['greedy'] });
    await page.locator('#chat-input').fill('good luck');
    await page.locator('#chat-input').press('Enter');
    await page.locator('#chat-list li').first().waitFor();
    await startTable(page);
    await playUntil(page, rng, h, async () => (await tableState(page)).round >= 2 && (await page.locator('#log li').count()) >= 8);
    await waitForTurnOrEnd(page);

    const before = await snapshot(page);
    assert.equal(before.lang, 'en');
    assert.match(before.round, /^Round \d+ of \d+$/);
    assert.equal(before.strip, 'Action strip');
    // Mark the log's elements: they must be the same ones after the switch.
    await page.evaluate(() => document.querySelectorAll('#log li').forEach((li) => { li.dataset.mark = 'kept'; }));

    await page.locator('#language').selectOption('de');
    await page.waitForFunction(() => document.documentElement.lang === 'de');
    const after = await snapshot(page);
    assert.equal(after.version, before.version, 'the switch sends no move and keeps the game state');
    assert.match(after.round, /^Runde \d+ von \d+$/);
    assert.equal(after.strip, 'Aktionsstreifen');
    assert.equal(after.myArea, 'Deine Stadt und deine Handkarten');
    assert.equal(after.logTitle, 'Spielprotokoll');
    assert.equal(after.send, 'Senden');
    assert.equal(after.nav, 'Ligen');
    assert.deepEqual(after.chat, before.chat, 'the chat keeps its lines');
    assert.equal(after.log.length, before.log.length, 'the log keeps its lines');
    assert.ok(after.log.every((line) => line.kept), 'the log\'s lines are the same elements, relabelled in place');
    // Protocol 2: every line is an event, said again in German.
    for (const [i, line] of after.log.entries()) {
      assert.ok(line.event, `log line ${i} is an event: ${line.text}`);
      assert.notEqual(line.text, before.log[i].text, `log line ${i} (${line.event}) is said in German: ${line.text}`);
    }
    const buttons = await page.$$eval('#actions button, #table button[data-move="end"]', (list) => list.map((button) => button.textContent));
    assert.ok(!buttons.includes('Done'), `the buttons are German: ${buttons}`);

    // The game goes on, in German: a few more moves, the new lines German too.
    const version = Number(after.version);
    await playUntil(page, rng, h, async () => (await tableState(page)).version >= version + 6);
    const later = await snapshot(page);
    assert.match(later.round, /^Runde /);
    assert.ok(later.log.length > after.log.length, 'the log goes on');
    const turns = later.log.filter((line) => line.event === 'turn').map((line) => line.text);
    assert.match(turns[turns.length - 1], / ist am Zug: /, 'new lines are German');

    // Remembered: a reload comes back in German.
    await page.reload();
    await page.waitForSelector('#table[data-status]:not([data-status="waiting"])');
    await page.waitForFunction(() => /^Runde|^Vor Runde|Die Partie ist vorbei/.test(document.querySelector('#round')?.textContent ?? document.querySelector('#turn')?.textContent ?? ''));
    assert.equal(await page.evaluate(() => localStorage.getItem('gcor.lang')), 'de');
    assert.equal(await page.locator('#language').inputValue(), 'de');

    // And back to English.
    await page.locator('#language').selectOption('en');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    assert.match(await page.locator('#log-title').innerText(), /Game log/);
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
  });
});
