// The page's connection is cut mid-game (a TCP proxy between the browser and the server drops
// every socket); the page says so, reconnects by itself, and the game goes on to its end. A second
// cut drops a move in flight: the page must recover from that too.
import assert from 'node:assert/strict';
import test from 'node:test';
import { checkScores, clickOne, createTable, signInAsGuest, startTable, tableState, waitForTurnOrEnd } from './game.js';
import { Harness, random, seed, sleep } from './support.js';

const kMaxSteps = 800;

// Records every value #connection's data-state takes, so that a short-lived state is not missed.
async function watchConnection(page) {
  await page.evaluate(() => {
    const element = document.querySelector('#connection');
    window.__states = [element.dataset.state];
    new MutationObserver(() => window.__states.push(element.dataset.state)).observe(element, {
      attributes: true,
      attributeFilter: ['data-state'],
    });
  });
}

const statesSince = (page, from) => page.evaluate((n) => window.__states.slice(n), from);
const statesCount = (page) => page.evaluate(() => window.__states.length);

// After a cut: #connection leaves `open` (closed or connecting), then is `open` again through a new
// proxied connection, within the client's backoff.
async function expectReconnect(page, proxy, mark, acceptedBefore, what) {
  await page.waitForFunction(
    (n) => window.__states.slice(n).some((s) => s === 'closed' || s === 'connecting'),
    mark,
    { timeout: 10000, polling: 20 },
  ).catch(async () => {
    throw new Error(`${what}: #connection never left "open" (states: ${await statesSince(page, mark)})`);
  });
  await page.waitForFunction(
    (n) => {
      const after = window.__states.slice(n);
      const left = after.findIndex((s) => s !== 'open');
      return left >= 0 && after.slice(left).includes('open') &&
        document.querySelector('#connection').dataset.state === 'open';
    },
    mark,
    { timeout: 30000, polling: 50 },
  ).catch(async () => {
    throw new Error(`${what}: #connection did not come back to "open" (states: ${await statesSince(page, mark)})`);
  });
  assert.ok(proxy.accepted > acceptedBefore, `${what}: the page opened a new connection through the proxy`);
  return statesSince(page, mark);
}

test('the game goes on after the page\'s connection is cut', { timeout: 240000 }, async () => {
  const h = new Harness('reconnect');
  await h.run(async () => {
    const server = await h.server();
    const proxy = await h.proxy(server.port);
    const browser = await h.browser();
    const page = await h.page(browser, 'guest');
    const rng = random(seed + 2);

    // Everything, the page's files and its WebSocket, goes through the proxy.
    await signInAsGuest(page, proxy.url, 'Cy');
    const tableId = await createTable(page, { players: 2, seats: ['greedy'] });
    await startTable(page);
    await watchConnection(page);

    let steps = 0;
    let cuts = 0;
    let state = await tableState(page);
    const play = async (until) => {
      while (state.status === 'playing' && !until(state)) {
        state = await waitForTurnOrEnd(page);
        if (state.status !== 'playing' || until(state)) break;
        assert.ok(steps < kMaxSteps, `the game did not end within ${kMaxSteps} clicks`);
        await clickOne(page, rng, { record: (o) => h.clicked('guest', o) });
        steps += 1;
        state = await tableState(page);
      }
    };

    // 1. A plain cut, mid-game, while it is the page's turn.
    await play((s) => s.round >= 3 && s.myTurn);
    assert.equal(state.status, 'playing', 'the game is still on at round 3');
    const beforeCut = state.version;
    let mark = await statesCount(page);
    let accepted = proxy.accepted;
    assert.ok(proxy.sever() >= 1, 'the page had a connection through the proxy to cut');
    cuts += 1;
    const states = await expectReconnect(page, proxy, mark, accepted, 'first cut');
    console.log(`# first cut at version ${beforeCut}: #connection went ${states.join(' -> ')}`);
    await h.screenshot(page, 'reconnected');
    state = await waitForTurnOrEnd(page);
    assert.equal(state.version, beforeCut, 'nothing was played while the page was away');
    assert.ok(state.myTurn, 'after the reconnection it is still the page\'s turn');
    await clickOne(page, rng, { filter: (o) => o.kind === 'move', record: (o) => h.clicked('guest', o) });
    steps += 1;
    state = await tableState(page);
    assert.ok(state.version > beforeCut, 'a move after the reconnection was applied');

    // 2. A move lost in the network: the connection swallows it, then is cut.
    await play((s) => s.round >= 5 && s.myTurn);
    assert.equal(state.status, 'playing', 'the game is still on at round 5');
    const lostAt = state.version;
    mark = await statesCount(page);
    accepted = proxy.accepted;
    proxy.blackhole();
    const lost = await clickOne(page, rng, { wait: false, filter: (o) => o.kind === 'move', record: (o) => h.clicked('guest (lost)', o) });
    await sleep(300);
    assert.equal((await tableState(page)).version, lostAt, 'the swallowed move was not applied yet');
    proxy.sever();
    cuts += 1;
    await expectReconnect(page, proxy, mark, accepted, `second cut (move "${lost.move}" lost)`);
    // The page either sends the move again or shows the turn again; both let the game go on.
    state = await waitForTurnOrEnd(page);
    console.log(`# second cut: "${lost.move}" at version ${lostAt}; after reconnecting version ${state.version}`);

    // 3. To the end.
    await play(() => false);
    assert.equal(state.status, 'finished');
    assert.ok(state.version > lostAt);
    console.log(`# ${steps} clicks, ${cuts} cuts, ${proxy.accepted} connections through the proxy, final version ${state.version}`);
    await checkScores(page, server, tableId, 2);
    await h.screenshot(page, 'end');
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
  });
});
