// What the page says about the connection and the player's turns outside the table: nothing about
// the connection before one is tried, the round's first player is marked, the tab title counts the
// turns waiting, and a player who allowed it gets a system notification that opens the table.
import assert from 'node:assert/strict';
import test from 'node:test';
import { createTable, register, signIn, signInAsGuest, startTable, waitForTurnOrEnd } from './game.js';
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
    await page.waitForFunction(() => document.title.startsWith('(1) Your turn — '));
    assert.equal(await page.locator('#table .badge.first-player').count(), 1, 'one first-player marker');

    await page.evaluate(() => (location.hash = '#/'));
    await page.locator('#lobby').waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.title.startsWith('(1) Your turn — '), null, { timeout: 10000 });
    await h.screenshot(page, 'lobby-title');
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
  });
});

test('a turn elsewhere is counted in the title and, once allowed, notified by the system', { timeout: 90000 }, async () => {
  const h = new Harness('notify');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const ann = await h.page(browser, 'ann');
    const bo = await h.page(browser, 'bo');
    await ann.context().grantPermissions(['notifications'], { origin: server.url });
    // The system's notifications, recorded: headless Chromium shows none.
    await ann.addInitScript(() => {
      window.__notifications = [];
      class Recorded {
        static permission = 'granted';
        static requestPermission() {
          return Promise.resolve('granted');
        }
        constructor(title, options) {
          this.title = title;
          this.options = options;
          window.__notifications.push(this);
        }
        close() {}
      }
      window.Notification = Recorded;
    });

    await signInAsGuest(ann, server.url, 'Ann');
    // The settings page turns them on (and shows the account's webhook, none yet).
    await ann.evaluate(() => (location.hash = '#/settings'));
    await ann.locator('#settings-webhook-form').waitFor();
    assert.equal(await ann.locator('#settings-webhook').inputValue(), '');
    assert.equal(await ann.locator('#nav-settings').getAttribute('aria-current'), 'page');
    assert.equal(await ann.locator('#settings-email-form, #settings-email-guest').count(), 0, 'no mail relay: no mail offered');
    await ann.locator('#settings-notify').check();
    await ann.waitForFunction(() => document.querySelector('#settings-notify-state').textContent === 'Notifications are on.');
    await ann.locator('#settings-webhook').fill('ftp://nowhere');
    await ann.locator('#settings-webhook-save').click();
    await ann.waitForFunction(() => /http:\/\//.test(document.querySelector('#settings-webhook-state').textContent));
    await ann.locator('#settings-webhook').fill('http://127.0.0.1:9/turns');
    await ann.locator('#settings-webhook-save').click();
    await ann.waitForFunction(() => document.querySelector('#settings-webhook-state').textContent === 'Saved: the webhook is set.');

    // A table with Bo, who starts it while Ann is on another page, and plays until it is her turn.
    await ann.evaluate(() => (location.hash = '#/'));
    const tableId = await createTable(ann, { players: 2, seats: ['human'] });
    await signInAsGuest(bo, server.url, 'Bo');
    await bo.locator(`#open-tables li[data-table="${tableId}"] [data-action="sit"]`).click();
    await bo.waitForSelector(`#table[data-table="${tableId}"][data-seat="1"]`, { state: 'visible' });
    await ann.evaluate(() => (location.hash = '#/settings'));
    await startTable(bo);
    await ann.locator('#settings-webhook-form').waitFor();
    assert.equal(await ann.locator('#settings-webhook').inputValue(), 'http://127.0.0.1:9/turns', 'the webhook reads back');
    // Whoever is to act moves until it is Ann's turn while she is away from the table.
    for (let i = 0; i < 20 && (await ann.evaluate(() => window.__notifications.length)) === 0; ++i) {
      const state = await waitForTurnOrEnd(bo, 5000).catch(() => null);
      if (state?.myTurn) await bo.locator('#table [data-move]:visible').first().click();
      await ann.waitForTimeout(300);
    }
    const notes = await ann.evaluate(() => window.__notifications.map((n) => ({ title: n.title, body: n.options.body, tag: n.options.tag })));
    assert.ok(notes.length >= 1, 'a notification came');
    // The table has no name of its own: its players name it (its id, if the page knows nothing of it).
    assert.deepEqual({ ...notes[0], body: undefined }, { title: 'Your turn — The Great City of Rome', body: undefined, tag: `turn-${tableId}` });
    assert.ok([`It is your turn: Ann and Bo.`, `It is your turn: ${tableId}.`].includes(notes[0].body), notes[0].body);
    await ann.waitForFunction(() => document.title.startsWith('(1) Your turn — '), null, { timeout: 10000 });
    // A click on it opens the table.
    await ann.evaluate(() => window.__notifications[0].onclick());
    await ann.waitForSelector(`#table[data-table="${tableId}"][data-status="playing"]`, { state: 'visible' });
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
  });
});

test('with a mail relay the settings page takes an address, says it waits for confirmation, and sets how often', { timeout: 60000 }, async () => {
  const h = new Harness('email-settings');
  await h.run(async () => {
    // Nothing listens on port 9: mails wait in the queue, which is all this page needs.
    const server = await h.server({ extraArgs: ['--smtp-url', 'smtp://127.0.0.1:9'] });
    const browser = await h.browser();
    const page = await h.page(browser, 'ann');
    await register(server, 'Ann');
    await signIn(page, server.url, 'Ann');
    await page.evaluate(() => (location.hash = '#/settings'));
    await page.locator('#settings-email-form').waitFor();
    await page.waitForFunction(() => document.querySelector('#settings-email-state').textContent === 'No address: no mail is sent.');
    assert.equal(await page.locator('#settings-email-frequency').isDisabled(), true, 'no frequency without an address');

    await page.locator('#settings-email').fill('not an address');
    await page.locator('#settings-email-save').click();
    await page.waitForFunction(() => /address such as/.test(document.querySelector('#settings-email-state').textContent));
    await page.locator('#settings-email').fill('ann@example.org');
    await page.locator('#settings-email-save').click();
    await page.waitForFunction(() => /^Saved\. A link was mailed to ann@example\.org/.test(document.querySelector('#settings-email-state').textContent));
    await page.locator('#settings-email-frequency').selectOption('daily');
    await page.waitForFunction(() => /^Saved\./.test(document.querySelector('#settings-email-state').textContent) && document.querySelector('#settings-email-state').textContent.includes('link was mailed'));
    await h.screenshot(page, 'email-settings');

    // A reload reads it all back from the server.
    await page.reload();
    await page.locator('#settings-email-form').waitFor();
    await page.waitForFunction(() => document.querySelector('#settings-email').value === 'ann@example.org');
    assert.equal(await page.locator('#settings-email-frequency').inputValue(), 'daily');

    // Mails are written in the language of the page that saved: English, then German.
    const mailLanguage = () => page.evaluate(async () => {
      const reply = await fetch('/api/email', { headers: { Authorization: `Bearer ${localStorage.getItem('gcor.token')}` } });
      return (await reply.json()).language;
    });
    assert.equal(await mailLanguage(), 'en');
    await page.locator('#language').selectOption('de');
    await page.locator('#settings-email-frequency').selectOption('each_turn');
    await page.waitForFunction(() => /^Gespeichert/.test(document.querySelector('#settings-email-state').textContent));
    assert.equal(await mailLanguage(), 'de');
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
  });
});
