// A guest creates a 4-player table with three bots and plays a whole game by clicking, to the
// final scores; screenshots at the start, mid-game and the end are kept as artifacts.
import assert from 'node:assert/strict';
import test from 'node:test';
import { checkScores, clickOne, createTable, signInAsGuest, startTable, tableState, waitForTurnOrEnd } from './game.js';
import { Harness, random, seed } from './support.js';

const kMaxSteps = 1500;

test('a guest plays a whole 4-player game against three bots by clicking', { timeout: 240000 }, async () => {
  const h = new Harness('full-game');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'guest');
    const rng = random(seed);

    await signInAsGuest(page, server.url, 'Ann');
    const tableId = await createTable(page, { players: 4, seats: ['greedy', 'random', 'greedy'] });
    await startTable(page);
    await h.screenshot(page, 'start');

    let steps = 0;
    let moves = 0;
    let builds = 0;
    let midShot = false;
    let state = await tableState(page);
    const started = Date.now();
    while (state.status === 'playing') {
      state = await waitForTurnOrEnd(page);
      if (state.status !== 'playing') break;
      assert.ok(steps < kMaxSteps, `the game did not end within ${kMaxSteps} clicks`);
      const clicked = await clickOne(page, rng, { record: (o) => h.clicked('guest', o) });
      steps += 1;
      if (clicked.kind === 'move') moves += 1;
      if (clicked.move?.startsWith('build ')) builds += 1;
      state = await tableState(page);
      if (!midShot && (state.round >= 7 || steps === 80)) {
        await h.screenshot(page, 'mid');
        midShot = true;
      }
    }
    assert.equal(state.status, 'finished');
    assert.ok(midShot, 'a mid-game screenshot was taken');
    console.log(`# ${moves} moves (${builds} builds) in ${steps} clicks, ${((Date.now() - started) / 1000).toFixed(1)} s, to version ${state.version}`);
    assert.ok(moves >= 14, `a 14-round game took only ${moves} moves of the guest`);

    const rows = await checkScores(page, server, tableId, 4);
    console.log(`# scores: ${rows.map((r) => `${r.seat}:${r.total}${r.winner ? '*' : ''}`).join(' ')}`);
    await h.screenshot(page, 'end');
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
  });
});
