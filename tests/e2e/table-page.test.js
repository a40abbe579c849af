// The table page beyond the moves: the log stays in view and only grows (its live region's lines
// survive updates) and brings back the whole game's on request, card details open by click, tap or Enter everywhere a card is shown, a build
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

// Opens a card's details (`how`: click, Enter or tap) and reads the dialog.
async function openDetails(page, locator, how) {
  await locator.scrollIntoViewIfNeeded();
  if (how === 'enter') {
    await locator.focus();
    await page.keyboard.press('Enter');
  } else if (how === 'tap') await locator.tap();
  else await locator.click();
  await page.waitForSelector('#card-dialog[open]');
  return page.evaluate(() => {
    const dialog = document.querySelector('#card-dialog');
    return {
      title: dialog.querySelector('#card-dialog-title').textContent.trim(),
      text: dialog.querySelector('.card-detail-body').textContent,
      scoring: Boolean(dialog.querySelector('.card-detail-scoring')),
      focusInside: dialog.contains(document.activeElement),
    };
  });
}

async function checkDetails(page, locator, how, where) {
  const name = await locator.evaluate((element) => {
    const card = element.closest('.card-wrap')?.querySelector('.card') ?? element;
    return card.querySelector('.card-name').textContent.trim();
  });
  const details = await openDetails(page, locator, how);
  assert.ok(details.title.startsWith(name), `${where}: the details of "${name}" open by ${how} (title "${details.title}")`);
  assert.ok(details.scoring, `${where}: the details say how "${name}" scores`);
  assert.ok(details.focusInside, `${where}: the focus is in the dialog`);
  return details;
}

test('after a reload the log has the newest lines; "Earlier lines" brings back the whole game', { timeout: 180000 }, async () => {
  const h = new Harness('table-log-earlier');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'desk', desktop);
    const rng = random(seed);
    await signInAsGuest(page, server.url, 'Eli');
    await createTable(page, { players: 2, seats: ['greedy'] });
    await startTable(page);
    const texts = () => page.$$eval('#log li', (items) => items.map((item) => item.textContent));
    // Play until the game's log is longer than what a snapshot carries (its newest lines).
    let lines = [];
    for (let i = 0; i < 80; ++i) {
      const state = await waitForTurnOrEnd(page);
      if (state.status !== 'playing') break;
      lines = await texts();
      if (lines.length > 90) break;
      await clickOne(page, rng);
    }
    await waitForTurnOrEnd(page);
    lines = await texts();
    assert.ok(lines.length > 90, `a long log was played (${lines.length} lines)`);

    await page.reload();
    await page.waitForSelector('#log li');
    const shown = await texts();
    assert.ok(shown.length < lines.length, `a snapshot brings the newest lines only (${shown.length} of ${lines.length})`);
    assert.deepEqual(shown, lines.slice(lines.length - shown.length), 'they are the end of the log');
    assert.equal(await page.locator('#log').getAttribute('class'), 'partial', 'unnumbered while partial');
    await page.evaluate(() => { window.keptLines = [...document.querySelectorAll('#log li')]; });

    await page.locator('#log-older').click();
    await page.waitForSelector('#log-older', { state: 'hidden' });
    assert.deepEqual(await texts(), lines, 'the whole log, each line once, in order');
    const after = await page.evaluate(() => ({
      kept: window.keptLines.filter((item) => item.isConnected).length,
      first: document.querySelector('#log li').value,
      last: document.querySelector('#log li:last-child').value,
      partial: document.querySelector('#log').classList.contains('partial'),
    }));
    assert.equal(after.kept, shown.length, 'the lines shown stay attached');
    assert.deepEqual([after.first, after.last, after.partial], [1, lines.length, false], 'numbered as in the game');
  });
});

test('card details open by click, Enter and tap wherever a card is shown', { timeout: 120000 }, async () => {
  const h = new Harness('card-details');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'desk', desktop);
    const rng = random(seed);
    await signInAsGuest(page, server.url, 'Dee');
    const tableId = await createTable(page, { players: 2, seats: ['greedy'] });
    await startTable(page);

    // The draft's and a school's cards are shown to this player only in some games (a last draft
    // card is taken automatically): they are checked whenever they are shown.
    const always = ['offer', 'hand', 'my city', 'an opponent\'s city'];
    const areas = [
      ['draft', '#draft .card-info', 'click'],
      ['school', '#school .card-info', 'enter'],
      ['offer', '#offer .card-info, #offer [data-info]', 'click'],
      ['hand', '#hand .card-info, #hand [data-info]', 'enter'],
      ['my city', '#my-city [data-info]', 'enter'],
      ['an opponent\'s city', '#opponents .city [data-info]', 'click'],
    ];
    const seen = new Set();
    for (let steps = 0; steps < 200; ++steps) {
      const state = await waitForTurnOrEnd(page);
      assert.equal(state.status, 'playing', `every kind of card was seen before the end (seen: ${[...seen]})`);
      for (const [where, selector, how] of areas) {
        if (seen.has(where) || (await page.locator(selector).count()) === 0) continue;
        const opener = page.locator(selector).first();
        await checkDetails(page, opener, how, where);
        await page.keyboard.press('Escape');
        await page.waitForSelector('#card-dialog:not([open])', { state: 'attached' });
        const back = await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector);
        assert.ok(back, `${where}: Escape closes the details and the focus goes back to the card`);
        seen.add(where);
      }
      if (always.every((where) => seen.has(where)) && state.round >= 2) break;
      await clickOne(page, rng);
    }
    assert.ok(always.every((where) => seen.has(where)), `details opened in every area (seen: ${[...seen]})`);
    console.log(`# card details opened in: ${[...seen].join(', ')}`);

    // A phone: a tap on a card of a city opens its details; the close button closes them.
    const phone = await h.page(browser, 'phone', kPhone);
    await signInAsGuest(phone, server.url, 'Pat');
    await phone.evaluate((id) => (location.hash = `#/table/${id}`), tableId);
    await phone.waitForSelector('#table[data-status="playing"] .city [data-info]');
    await checkDetails(phone, phone.locator('.city [data-info]').first(), 'tap', 'a city on a phone');
    await h.screenshot(phone, 'phone-details');
    await phone.locator('#card-dialog [data-close]').tap();
    await phone.waitForSelector('#card-dialog:not([open])', { state: 'attached' });
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
  });
});

test('a build that buys bricks shows its cost in coins before the click, and costs that', { timeout: 120000 }, async () => {
  const h = new Harness('build-cost');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'desk', desktop);
    const rng = random(seed);
    await signInAsGuest(page, server.url, 'Cy');
    await createTable(page, { players: 2, seats: ['greedy'] });
    await startTable(page);
    const coins = async () => Number(/\d+/.exec(await page.locator('.my-panel .stats .coins').textContent())[0]);

    for (let steps = 0; ; ++steps) {
      const state = await waitForTurnOrEnd(page);
      assert.ok(state.status === 'playing' && steps < 300, 'a build that buys bricks came up before the end');
      // A hand card that would buy bricks says so on the card (not a market or forum: they pay back).
      const card = page.locator('#hand button[data-select]:has(.card-note):not(:has-text("Market")):not(:has-text("Forum"))').first();
      if ((await card.count()) > 0) {
        const note = await card.locator('.card-note').textContent();
        const price = Number(/(\d+) coins/.exec(note)?.[1]);
        assert.ok(price > 0, `the hand card's note gives a price: "${note}"`);
        await card.click();
        const cells = page.locator('#my-city .cell.target[data-move]');
        await cells.first().waitFor();
        const shown = await cells.evaluateAll((elements) => elements.map((e) => ({
          coins: Number(e.dataset.coins),
          badge: e.querySelector('.coin-cost')?.textContent.trim(),
          label: e.getAttribute('aria-label'),
        })));
        for (const cell of shown) {
          assert.equal(cell.coins, price, 'every target cell has the same price as the card');
          assert.equal(cell.badge, `${price} coins`, 'the cell shows its price');
          assert.match(cell.label, new RegExp(`for ${price} coins`), 'the cell says its price to screen readers');
        }
        assert.match(await page.locator('.my-panel .hint').textContent(), new RegExp(`${price} coins for ${price / 2} bricks?`));
        const before = await coins();
        const version = state.version;
        await cells.first().click();
        await page.waitForFunction((v) => Number(document.querySelector('#table').dataset.version) > v, version);
        assert.equal(await coins(), before - price, `the build cost the ${price} coins shown`);
        await h.screenshot(page, 'paid');
        break;
      }
      // Emissaries go anywhere on the strip; no other build is made, so that costly cards gather.
      const place = (await page.locator('#strip [data-move]').count()) > 0;
      await clickOne(page, rng, {
        filter: (option) => option.kind === 'move' && !option.move.startsWith('build') && (!place || option.move.startsWith('place')),
      });
    }
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
  });
});

test('final places: points, then influence tokens, then coins; full ties share a place; forfeited seats last', { timeout: 60000 }, async () => {
  const h = new Harness('final-places');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'places');
    await page.goto(`${server.url}/`);
    const places = await page.evaluate(async () => {
      const { finalPlaces } = await import('/final_scores.js');
      const scores = (...totals) => totals.map((total) => ({ total }));
      const players = (...held) => held.map(([influence, coins]) => ({ influence, coins }));
      return {
        byPoints: finalPlaces({ scores: scores(50, 70, 60) }, players([0, 0], [0, 0], [0, 0]), null),
        byTokens: finalPlaces({ scores: scores(60, 60) }, players([3, 9], [5, 0]), null),
        byCoins: finalPlaces({ scores: scores(60, 60) }, players([4, 9], [4, 2]), null),
        shared: finalPlaces({ scores: scores(60, 60, 70, 40) }, players([4, 2], [4, 2], [0, 0], [9, 9]), null),
        forfeited: finalPlaces({ scores: scores(90, 60), forfeited: [0] }, players([0, 0], [0, 0]), null),
        theServers: finalPlaces({ scores: scores(1, 2) }, players([0, 0], [0, 0]), { result: { places: [1, 2] } }),
      };
    });
    assert.deepEqual(places, {
      byPoints: [3, 1, 2],
      byTokens: [2, 1],
      byCoins: [1, 2],
      shared: [2, 2, 1, 4],
      forfeited: [2, 1],
      theServers: [1, 2],
    });
  });
});

// The view's school.deck is an index (0: deck I); the panel once read 1 as "deck I" (issue 20).
test("the school panel names the deck drawn from by the view's index", { timeout: 60000 }, async () => {
  const h = new Harness('school-deck');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'school');
    await page.goto(`${server.url}/`);
    const texts = await page.evaluate(async () => {
      const { TablePage } = await import('/table.js');
      const panel = (deck, drawn) => TablePage.prototype.schoolPanel.call(
        { view: { school: { deck, drawn, cards: [] } }, selected: null, app: {} },
        { school: [], keep: new Map() }).textContent;
      return [panel(0, 1), panel(1, 2), panel(2, 3)];
    });
    assert.deepEqual(texts.map((text) => text.match(/\d cards? drawn from deck [IV]+\./)?.[0]), [
      '1 card drawn from deck I.', '2 cards drawn from deck II.', '3 cards drawn from deck III.',
    ]);
  });
});
