// An automated accessibility check (axe-core, WCAG 2.x A and AA rules) of the lobby, a table being
// played (with a card's details open), its final scores and the strong bot's review of it, a season's
// standings, the ratings and a profile, at 1280×800 and on a phone: no serious or critical violation.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import test from 'node:test';
import { accountPages, clickOne, createTable, leagueUnderWay, playOverSockets, register, signIn, startTable, visit, waitForTurnOrEnd } from './game.js';
import { Harness, kPhone, random, seed } from './support.js';

// Evaluated through the DevTools protocol: the page's Content-Security-Policy refuses inline scripts.
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// The serious and critical violations on the page as it is now, and headings out of order, one
// line each.
async function violations(page) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(axeSource);
  const results = await page.evaluate(() =>
    window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }, resultTypes: ['violations'] }));
  return results.violations
    // Headings out of order are only moderate to axe, but they are how screen-reader users move
    // through a page (Lighthouse counts them): kept out too.
    .filter((violation) => ['serious', 'critical'].includes(violation.impact) || violation.id === 'heading-order')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help}; ${violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(', ')}`);
}

async function check(page, what) {
  const found = await violations(page);
  assert.deepEqual(found, [], `${what}: no serious or critical accessibility violation`);
}

for (const [size, contextOptions] of [['desktop', { viewport: { width: 1280, height: 800 } }], ['phone', kPhone]]) {
  test(`no serious accessibility violation on the lobby, table, season and profile pages (${size})`, { timeout: 180000 }, async () => {
    const h = new Harness(`a11y-${size}`);
    await h.run(async () => {
      // A small world budget: the review is checked, not its quality.
      const server = await h.server({ extraArgs: ['--analysis-worlds', '2'] });
      const [ann, bob] = [await register(server, 'Ann'), await register(server, 'Bob')];
      const league = await leagueUnderWay(server, [ann, bob], 'Access League');
      const browser = await h.browser();
      const page = await h.page(browser, size, contextOptions);
      await signIn(page, server.url, 'Ann');
      await check(page, 'the lobby');

      for (const [hash, selector, what] of accountPages(league, ann.user)) {
        await visit(page, hash, selector);
        await check(page, what);
      }

      await page.evaluate(() => (location.hash = '#/'));
      const tableId = await createTable(page, { players: 2, seats: ['greedy'] });
      await check(page, 'a waiting table');
      await startTable(page);
      const rng = random(seed);
      for (let steps = 0; steps < 12; ++steps) {
        await waitForTurnOrEnd(page);
        await clickOne(page, rng);
      }
      await waitForTurnOrEnd(page);
      await check(page, 'a table being played');
      await page.locator('.city [data-info]').first().click();
      await page.waitForSelector('#card-dialog[open]');
      await check(page, 'a card\'s details');
      await page.keyboard.press('Escape');
      // The rest of the game over a WebSocket of Ann's own, then the final scores.
      await playOverSockets(page, [{ token: ann.token, table: tableId }], { seedValue: seed });
      await page.waitForSelector('#table[data-status="finished"] #scores');
      await check(page, 'the final scores');
      await page.locator('#review-link').click();
      await page.waitForSelector('#review[data-state="done"]', { state: 'visible', timeout: 90000 });
      await check(page, "the game's review");
      assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
    });
  });
}
