// The strong bot's review of a finished game in the browser (docs/web.md, "Game review"): a
// registered player plays random moves against the greedy bot to the end, asks for the review
// from the final scores, sees its progress, then the chart, the summary per player and a marked
// mistake, steps to that mistake's position and finds what the bot would have played. Then the
// same review on a phone in German, served from the store at once. A small world budget keeps
// it quick; random moves against the greedy bot make a mistake certain.
import assert from 'node:assert/strict';
import test from 'node:test';
import { createTable, playOverSockets, register, sideways, signIn, startTable, unnamed } from './game.js';
import { Harness, kPhone, seed } from './support.js';

async function reviewDone(page) {
  await page.waitForSelector('#review[data-state="done"]', { state: 'visible', timeout: 90000 });
}

test('a finished game is reviewed: progress, chart, summary and a marked mistake, also on a German phone', { timeout: 240000 }, async () => {
  const h = new Harness('analysis');
  await h.run(async () => {
    const server = await h.server({ extraArgs: ['--analysis-worlds', '6'] });
    const browser = await h.browser();
    const page = await h.page(browser, 'ann');

    await register(server, 'Ann');
    await signIn(page, server.url, 'Ann');
    const tableId = await createTable(page, { players: 2, seats: ['greedy'] });
    await startTable(page);
    const token = await page.evaluate(() => localStorage.getItem('gcor.token'));
    await playOverSockets(page, [{ token, table: tableId }], { seedValue: seed });
    await page.waitForSelector('#table[data-status="finished"]', { timeout: 15000 });

    // From the final scores: the replay at the deal, the review asked for at once.
    await page.locator('#review-link').click();
    await page.waitForSelector(`#replay[data-table="${tableId}"][data-move="0"]`, { state: 'visible' });
    await page.waitForSelector('#review[data-state="running"], #review[data-state="done"]', { timeout: 10000 });
    if ((await page.locator('#review').getAttribute('data-state')) === 'running') {
      assert.equal(await page.locator('#review-progress').count(), 1, 'a progress bar while it runs');
      await h.screenshot(page, 'running');
    }
    await reviewDone(page);

    // The chart, one line per seat, with its text alternative; the summary per player.
    assert.equal(await page.locator('#review-chart g.review-seat').count(), 2);
    assert.match(await page.locator('#review-chart').getAttribute('aria-label'), /chance to win/);
    assert.equal(await page.locator('#review-summary tbody tr').count(), 2);
    const review = await (await fetch(`${server.url}/api/tables/${tableId}/analysis`, { headers: { Authorization: `Bearer ${token}` } })).json();
    const mistakes = review.analysis.decisions.filter((decision) => decision.mistake);
    assert.ok(mistakes.length > 0, 'random moves make mistakes');
    assert.equal(await page.locator('#review-decisions tr.mistake').count(), mistakes.length, 'every mistake marked');
    assert.equal(await page.locator('#review-chart circle.review-mistake').count(), mistakes.length);
    assert.deepEqual(await unnamed(page), [], 'every control of the review has a name');
    await h.screenshot(page, 'done');

    // At a mistake's position: what was played, and what the bot would have played.
    const mistake = mistakes.find((decision) => decision.preferred.startsWith('build ')) ?? mistakes[0];
    await page.locator(`#review-decisions tr[data-move="${mistake.move}"] a`).click();
    const at = review.changes[mistake.move];
    await page.waitForSelector(`#replay[data-move="${at}"]`, { state: 'visible' });
    const hint = page.locator(`.review-hint.mistake[data-move="${mistake.move}"]`);
    await hint.waitFor();
    assert.match(await hint.textContent(), /The bot would have /);
    assert.equal(await page.locator(`#review-decisions tr[data-move="${mistake.move}"]`).getAttribute('aria-current'), 'step');
    if (mistake.preferred.startsWith('build ')) {
      const [, card, cell] = mistake.preferred.split(' ');
      assert.match(await hint.textContent(), new RegExp(`would have built .+ at \\(${cell.replace(/[-,]/g, '\\$&')}\\)`));
      const marked = page.locator(`#replay .player[data-seat="${mistake.seat}"] .cell.review-preferred[data-cell="${cell}"]`);
      assert.equal(await marked.count(), 1, `the bot's cell ${cell} for card ${card} marked on the board`);
    }
    await h.screenshot(page, 'mistake');

    // A phone in German: the stored review at once, nothing sticking out sideways.
    const phone = await h.page(browser, 'phone', { ...kPhone, locale: 'de-DE' });
    await signIn(phone, server.url, 'Ann');
    await phone.evaluate((table) => (location.hash = `#/review/${table}`), tableId);
    await reviewDone(phone);
    assert.equal(await phone.locator('#review-title').textContent(), 'Analyse durch den starken Bot');
    assert.equal(await phone.locator('#review-decisions tr.mistake').count(), mistakes.length);
    assert.match(await phone.locator('#review-summary caption').textContent(), /Je Spieler/);
    const wide = await sideways(phone);
    assert.equal(wide.over, 0, `the review fits a phone: ${JSON.stringify(wide)}`);
    await h.screenshot(phone, 'phone-de');
  });
});
