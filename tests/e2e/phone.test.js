// A phone (Chromium's mobile emulation at 390×844, touch; some pages at 360 and 414 px too): no
// page scrolls sideways — the lobby,
// a table being played, its final scores, the leagues, a league, a season's standings, the
// tournaments, a tournament in sign-up, a knockout under way, the ratings and a profile — the top bar spans the screen with the user's name and *Sign out* in
// view, the create form's button can be tapped, and a whole 2-player game is played by tapping.
import assert from 'node:assert/strict';
import test from 'node:test';
import { accountPages, checkScores, clickOne, leagueUnderWay, register, sideways, tableState, tournamentsUnderWay, visit, waitConnection, waitForTurnOrEnd } from './game.js';
import { Harness, kPhone, random, seed } from './support.js';

async function assertNoSideways(page, what, width = 390) {
  const result = await sideways(page);
  assert.equal(result.innerWidth, width, `${what}: the layout viewport is the phone's width`);
  assert.ok(result.scrollWidth <= result.innerWidth,
    `${what} scrolls sideways: scrollWidth ${result.scrollWidth} > ${result.innerWidth}; too wide: ${result.culprits.join(', ')}`);
}

// Touch targets of the table smaller than 24×24 CSS px (WCAG 2.2's minimum target size).
async function smallTargets(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('#table button, #table a, #table [data-move], #table [data-info]')]
      .filter((element) => element.checkVisibility())
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width < 24 || box.height < 24)
      .map(({ element, box }) => `${element.outerHTML.slice(0, 80)} ${Math.round(box.width)}×${Math.round(box.height)}`));
}

// The top bar spans the screen, and the user's name and Sign out are inside it, in view.
async function assertTopBar(page, what) {
  const boxes = await page.evaluate(() => {
    const box = (selector) => {
      const rect = document.querySelector(selector).getBoundingClientRect();
      return { left: rect.left, right: rect.right, width: rect.width, height: rect.height };
    };
    return { top: box('header.top'), me: box('#me'), logout: box('#logout'), width: window.innerWidth };
  });
  assert.ok(boxes.top.width >= boxes.width, `${what}: the top bar spans the screen (${boxes.top.width} of ${boxes.width})`);
  for (const name of ['me', 'logout']) {
    const item = boxes[name];
    assert.ok(item.width > 0 && item.left >= 0 && item.right <= boxes.width, `${what}: #${name} is in view: ${JSON.stringify(item)}`);
  }
}

test('on a phone no page scrolls sideways, and a whole game is played by tapping', { timeout: 240000 }, async () => {
  const h = new Harness('phone');
  await h.run(async () => {
    const server = await h.server();
    const [ann, bob] = [await register(server, 'Ann'), await register(server, 'Bob')];
    // A 2-player league whose first season is under way: a season page with standings.
    const league = await leagueUnderWay(server, [ann, bob], 'Phone League');
    // Two tournaments: a knockout under way (standings, a round, the bracket) and one in sign-up.
    const tournaments = await tournamentsUnderWay(server, [ann, bob], 'Phone Cup');

    const browser = await h.browser();
    const page = await h.page(browser, 'phone', kPhone);
    await page.goto(`${server.url}/`);
    await assertNoSideways(page, 'the sign-in page');
    await page.locator('#login-name').fill('Ann');
    await page.locator('#login-password').fill('secret-Ann');
    await page.locator('#login-submit').tap();
    await page.locator('#lobby').waitFor({ state: 'visible' });
    await waitConnection(page, 'open');
    await assertNoSideways(page, 'the lobby');
    await assertTopBar(page, 'the lobby');

    for (const [hash, selector, what] of accountPages(league, ann.user, tournaments)) {
      await visit(page, hash, selector);
      await assertNoSideways(page, what);
      await assertTopBar(page, what);
      await h.screenshot(page, what.replace(/\W+/g, '-'));
    }

    // The create form's button is tapped (a tap lands on what is on top at its centre).
    await page.evaluate(() => (location.hash = '#/'));
    await page.locator('#create-players').selectOption('2');
    await page.locator('#create-seat-1').selectOption('greedy');
    await page.locator('#create-submit').tap();
    await page.waitForSelector('#table[data-status="waiting"][data-seat="0"]');
    await assertNoSideways(page, 'a waiting table');
    await page.locator('#start:enabled').tap();
    await page.waitForSelector('#table:not([data-status="waiting"])', { state: 'attached' });
    const tableId = (await tableState(page)).id;

    const rng = random(seed);
    let state = await tableState(page);
    let steps = 0;
    while (state.status === 'playing') {
      state = await waitForTurnOrEnd(page);
      if (state.status !== 'playing') break;
      assert.ok(steps < 600, 'the game ends within 600 taps');
      await clickOne(page, rng, { tap: true, record: (o) => h.clicked('phone', o) });
      steps += 1;
      if (steps % 10 === 1) {
        await assertNoSideways(page, `the table at version ${state.version}`);
        assert.deepEqual(await smallTargets(page), [], `the table's touch targets are at least 24 px at version ${state.version}`);
      }
      if (steps === 30) await h.screenshot(page, 'table');
    }
    await assertNoSideways(page, 'the final scores');
    await assertTopBar(page, 'the final scores');
    await checkScores(page, server, tableId, 2);
    await h.screenshot(page, 'scores');

    // The narrowest and widest common phones too.
    for (const width of [360, 414]) {
      await page.setViewportSize({ width, height: 800 });
      for (const [hash, selector] of [
        [`#/table/${tableId}`, '#scores tr[data-seat]'],
        ['#/', '#create-submit'],
        [`#/league/${league.id}/season/1`, '#season .standings tr[data-user]'],
        [`#/tournament/${tournaments.running.id}`, '#tournament[data-status="running"] #bracket'],
        [`#/player/${ann.user.id}`, '#profile-name'],
      ]) {
        await visit(page, hash, selector);
        await assertNoSideways(page, `${hash} at ${width} px`, width);
      }
    }
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
  });
});
