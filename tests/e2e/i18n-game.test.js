// A browser that prefers German gets the whole client in German: a guest plays a 2-player game
// against a bot to the final scores, and no English phrase of the dictionaries is left on the
// table (waiting room, strip, offer, hand, city, opponents, log, chat, a card's details, the
// scores), the lobby, the leagues, the tournaments and a knockout under way, the ratings, a profile or
// the settings.
import assert from 'node:assert/strict';
import test from 'node:test';
import { clickOne, createTable, readScores, register, signInAsGuest, startTable, tableState, tournamentsUnderWay, visit, waitForTurnOrEnd } from './game.js';
import { englishPhrases, pageWords, phrasesIn } from './i18n.js';
import { Harness, random, seed } from './support.js';

const kMaxSteps = 800;

test('a German browser plays a whole game in German, with no English left on the page', { timeout: 240000 }, async () => {
  const h = new Harness('i18n-game');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'anna', { locale: 'de-DE' });
    const rng = random(seed);
    const phrases = englishPhrases();
    const english = new Map(); // where -> English phrases found there
    const check = async (where) => {
      const found = phrasesIn(await pageWords(page), phrases);
      if (found.length) english.set(where, found);
    };

    await page.goto(`${server.url}/`);
    await page.locator('#signin').waitFor({ state: 'visible' });
    assert.equal(await page.getAttribute('html', 'lang'), 'de');
    assert.equal(await page.locator('#language').inputValue(), 'de');
    await check('sign-in');
    await signInAsGuest(page, server.url, 'Anna');
    await check('lobby');

    const tableId = await createTable(page, { players: 2, seats: ['greedy'] });
    await check('waiting room');
    await page.locator('#chat-input').fill('Viel Glück!');
    await page.locator('#chat-input').press('Enter');
    await page.locator('#chat-list li').first().waitFor();
    await startTable(page);

    let steps = 0;
    let checkedMidGame = false;
    let state = await tableState(page);
    while (state.status === 'playing') {
      state = await waitForTurnOrEnd(page);
      if (state.status !== 'playing') break;
      assert.ok(steps < kMaxSteps, `the game did not end within ${kMaxSteps} clicks`);
      await clickOne(page, rng, { record: (o) => h.clicked('anna', o) });
      steps += 1;
      // A turn under way, a card picked: the hint, the prices, the city's targets.
      if (!checkedMidGame && steps >= 30 && (await page.locator('#hand [aria-pressed="true"]').count())) {
        await check(`table, move ${steps}`);
        await h.screenshot(page, 'mid');
        await page.locator('#hand .card-info').first().click();
        await page.locator('#card-dialog[open]').waitFor();
        await check('card details');
        assert.match(await page.locator('#card-dialog [data-close]').innerText(), /Schließen/);
        await page.locator('#card-dialog [data-close]').click();
        checkedMidGame = true;
      }
      state = await tableState(page);
    }
    assert.equal(state.status, 'finished');
    assert.ok(checkedMidGame, 'the table was checked while a card was picked');
    const rows = await readScores(page);
    assert.equal(rows.length, 2);
    for (const row of rows) assert.match(row.placeText, /^(= )?\d\.$/, `a place in German: ${row.placeText}`);
    for (const row of rows) assert.match(row.tokens, /^\(\d+ Marker\)$/, `the tokens held in German: ${row.tokens}`);
    assert.match(await page.locator('#scores caption').innerText(), /Schlusswertung/);
    await check('final scores');
    await h.screenshot(page, 'scores');

    await page.locator('#replay-link').click();
    await page.locator('#replay[data-table]').waitFor();
    await page.locator('#replay-last').click();
    await page.waitForSelector('#replay #scores');
    await check('replay');

    for (const [where, link] of [['leagues', '#nav-leagues'], ['tournaments', '#nav-tournaments'], ['ratings', '#nav-ratings'], ['settings', '#nav-settings']]) {
      await page.locator(link).click();
      await page.locator(`#${where}:not([hidden]) h1`).first().waitFor();
      await page.waitForFunction(() => !document.querySelector('main section:not([hidden]) .loading'));
      await check(where);
    }
    await page.locator('#me').click();
    await page.locator('#profile-name').waitFor();
    await check('profile');

    // A tournament under way, as the guest sees it: standings, a round, the bracket.
    const { running } = await tournamentsUnderWay(server, [await register(server, 'Berta'), await register(server, 'Carl')], 'Herbstpokal');
    await visit(page, `#/tournament/${running.id}`, '#tournament[data-status="running"] #bracket');
    await check('tournament');

    assert.deepEqual(Object.fromEntries(english), {}, 'no English phrase on a German page');
    assert.ok(tableId);
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
  });
});
