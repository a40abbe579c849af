// A finished 2-player game (a guest against a greedy bot, its moves made over the page's own
// WebSocket) stepped through on the replay page: from the table's link, first/next, a jump to a
// round and the slider, to the final scores, which are the server's. The seat's whole log is read
// through web/log_pages.js.
import assert from 'node:assert/strict';
import test from 'node:test';
import { createTable, playOverSockets, signInAsGuest, startTable } from './game.js';
import { Harness, seed } from './support.js';

async function replayMove(page) {
  await page.waitForSelector('#replay[data-move]', { state: 'visible' });
  return Number(await page.locator('#replay').getAttribute('data-move'));
}

async function waitMove(page, move) {
  await page.waitForSelector(`#replay[data-move="${move}"]`, { state: 'visible', timeout: 10000 });
}

test('a finished game is stepped through on the replay page to its final scores', { timeout: 120000 }, async () => {
  const h = new Harness('replay');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'guest');

    await signInAsGuest(page, server.url, 'Ann');
    const tableId = await createTable(page, { players: 2, seats: ['greedy'] });
    await startTable(page);
    const token = await page.evaluate(() => localStorage.getItem('gcor.token'));
    await playOverSockets(page, [{ token, table: tableId }], { seedValue: seed });
    await page.waitForSelector('#table[data-status="finished"]', { timeout: 15000 });

    // The whole log, as this seat may read it, through web/log_pages.js: as many lines as the
    // replay's log at the end, and a page in the middle where it should be.
    const log = await page.evaluate(async ({ table, token }) => {
      const { Connection } = await import('/connection.js');
      const { fetchLogPage, fetchWholeLog } = await import('/log_pages.js');
      const connection = await new Promise((resolve) => {
        const made = new Connection({
          url: `ws://${location.host}/ws`,
          hello: () => ({ type: 'hello', token }),
          onWelcome: () => resolve(made),
          onMessage: () => {},
          onState: () => {},
        });
        made.start();
      });
      const whole = await fetchWholeLog(connection, table);
      const page = await fetchLogPage(connection, table, { before: 10, limit: 4 });
      connection.stop();
      return { whole, page };
    }, { table: tableId, token });
    const replay = await server.json(`/api/tables/${tableId}/replay`);
    assert.ok(replay.moves > 10, `a whole game has moves: ${replay.moves}`);
    const end = await server.json(`/api/tables/${tableId}/replay?move=${replay.moves}`);
    assert.equal(log.whole.length, end.log.length);
    assert.equal(log.page.first, 6);
    assert.deepEqual(log.page.lines, log.whole.slice(6, 10));

    // From the finished table's page.
    await page.locator('#replay-link').click();
    assert.equal(await replayMove(page), 0);
    assert.equal(await page.locator('#replay-first').isDisabled(), true);

    await page.locator('#replay-next').click();
    await waitMove(page, 1);
    await page.locator('#replay-next').click();
    await waitMove(page, 2);
    await page.locator('#replay-prev').click();
    await waitMove(page, 1);
    await h.screenshot(page, 'move-1');

    // A jump to round 3: the board says so.
    await page.locator('#replay-round').selectOption({ label: 'Round 3' });
    await waitMove(page, replay.rounds[2]);
    assert.match(await page.locator('#replay #round').textContent(), /^Round 3 of/);
    assert.ok((await page.locator('#replay #log li').count()) > 0, 'the log up to the move is shown');

    await page.locator('#replay-slider').evaluate((slider, value) => {
      slider.value = value;
      slider.dispatchEvent(new Event('change', { bubbles: true }));
    }, String(replay.moves - 1));
    await waitMove(page, replay.moves - 1);
    assert.equal(await page.locator('#replay #scores').count(), 0, 'no scores before the end');

    await page.locator('#replay-last').click();
    await waitMove(page, replay.moves);
    assert.equal(await page.locator('#replay-next').isDisabled(), true);
    await h.screenshot(page, 'end');
    // The final scores, as the server's record has them.
    const totals = await page.$$eval('#replay #scores tr[data-seat]', (rows) =>
      rows.map((row) => [Number(row.dataset.seat), Number(row.querySelector('td.total').textContent)]));
    const record = await server.json(`/api/tables/${tableId}/record`);
    assert.equal(totals.length, 2);
    for (const [seat, total] of totals) assert.equal(total, record.scores[seat].total, `seat ${seat}'s total`);
  });
});
