// Two people (two browser contexts) at one 2-player table: each page shows its own hand, the
// other's hand size, the other's cards it knows, and never the id of a card it may not know.
//
// What a seat may know of the other's hand (docs/rules.md, "What each seat sees"): cards taken from
// the offer (public), and the last draft card, which its passer saw in its own packet. The test
// keeps its own account of both from what the pages showed publicly (the offer) or to that seat
// (its draft packet), and checks every page against it after every click.
import assert from 'node:assert/strict';
import test from 'node:test';
import { checkScores, clickOne, createTable, signInAsGuest, startTable, tableState } from './game.js';
import { Harness, random, seed } from './support.js';

const kMaxSteps = 800;

// What one page shows: its own hand, every card id anywhere, the offer and its draft packet, and
// for the other seat its hand size and the cards of its hand shown.
async function look(page, otherSeat) {
  return page.evaluate((other) => {
    const ids = (selector) => [...document.querySelectorAll(selector)].map((e) => Number(e.dataset.card));
    const moveIds = (selector, verb) =>
      [...document.querySelectorAll(selector)]
        .map((e) => e.dataset.move)
        .filter((m) => m.startsWith(`${verb} `))
        .map((m) => Number(m.split(' ')[1]));
    const player = document.querySelector(`#opponents .player[data-seat="${other}"]`);
    const size = player?.querySelector('.hand [data-hand-size]')?.dataset.handSize.match(/^\d+$/);
    const table = document.querySelector('#table');
    return {
      version: Number(table.dataset.version),
      status: table.dataset.status,
      hand: ids('#hand .card[data-card]'),
      everywhere: ids('[data-card]'),
      offer: [...ids('#offer [data-card]'), ...moveIds('#offer [data-move]', 'take')],
      draft: [...ids('#draft [data-card]'), ...moveIds('#draft [data-move]', 'draft')],
      otherFound: Boolean(player),
      otherHand: player ? [...player.querySelectorAll('.hand .card[data-card]')].map((e) => Number(e.dataset.card)) : [],
      otherHandSize: size ? Number(size[0]) : null,
    };
  }, otherSeat);
}

const sorted = (list) => [...list].sort((a, b) => a - b);

test('two people at one table each see their own hand and never the other\'s', { timeout: 240000 }, async () => {
  const h = new Harness('hidden-hands');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const ann = await h.page(browser, 'ann');
    const bo = await h.page(browser, 'bo');
    const rng = random(seed + 1);

    await signInAsGuest(ann, server.url, 'Ann');
    const tableId = await createTable(ann, { players: 2, seats: ['human'] });
    await signInAsGuest(bo, server.url, 'Bo');
    await bo.locator(`#open-tables li[data-table="${tableId}"] [data-action="sit"]`).click();
    await bo.waitForSelector(`#table[data-table="${tableId}"][data-seat="1"]`, { state: 'visible' });
    await ann.locator('#start:enabled').waitFor();
    await startTable(ann);
    await bo.waitForSelector('#table[data-status="playing"]', { state: 'attached' });

    const people = [
      { name: 'Ann', page: ann, seat: 0, draftSeen: new Set() },
      { name: 'Bo', page: bo, seat: 1, draftSeen: new Set() },
    ];
    const offerSeen = new Set(); // every card that was ever in the offer: public
    let hiddenChecked = 0; // cards checked absent from the other page
    let checks = 0;

    // Both pages at the same version, then every rule above, both ways.
    const checkAll = async (when) => {
      const versions = await Promise.all(people.map(async (p) => (await tableState(p.page)).version));
      const latest = Math.max(...versions);
      await Promise.all(people.map((p) => p.page.waitForFunction(
        (v) => Number(document.querySelector('#table').dataset.version) >= v,
        latest,
        { timeout: 10000, polling: 20 },
      )));
      const seen = await Promise.all(people.map((p) => look(p.page, 1 - p.seat)));
      assert.equal(seen[0].version, seen[1].version, `${when}: both pages show one version`);
      for (const [i, s] of seen.entries()) {
        s.offer.forEach((card) => offerSeen.add(card));
        s.draft.forEach((card) => people[i].draftSeen.add(card));
      }
      for (const [i, viewer] of people.entries()) {
        const owner = people[1 - i];
        const mine = seen[i];
        const theirs = seen[1 - i];
        assert.ok(mine.otherFound, `${when}: ${viewer.name}'s page shows #opponents .player[data-seat="${owner.seat}"]`);
        assert.equal(
          mine.otherHandSize,
          theirs.hand.length,
          `${when}: ${viewer.name}'s page gives ${owner.name}'s hand size as ${mine.otherHandSize}; ${owner.name}'s hand holds ${theirs.hand.length} cards`,
        );
        const mayKnow = (card) => offerSeen.has(card) || viewer.draftSeen.has(card);
        const hidden = theirs.hand.filter((card) => !mayKnow(card));
        const leaked = hidden.filter((card) => mine.everywhere.includes(card));
        assert.deepEqual(
          leaked,
          [],
          `${when}: ${viewer.name}'s page shows card(s) ${leaked} of ${owner.name}'s hand that ${viewer.name} may not know`,
        );
        hiddenChecked += hidden.length;
        assert.deepEqual(
          sorted(mine.otherHand),
          sorted(theirs.hand.filter(mayKnow)),
          `${when}: ${viewer.name}'s page shows exactly the cards of ${owner.name}'s hand it knows`,
        );
      }
      checks += 1;
      return seen;
    };

    let seen = await checkAll('at the start');
    let steps = 0;
    let draftDone = false;
    let state = await tableState(ann);
    while (state.status === 'playing') {
      assert.ok(steps < kMaxSteps, `the game did not end within ${kMaxSteps} clicks`);
      // Whoever is to act clicks; the other page waits.
      const turn = await Promise.race(people.map((p) =>
        p.page.waitForFunction(
          () => {
            const table = document.querySelector('#table');
            return table.dataset.status !== 'playing' || table.dataset.myTurn === 'true';
          },
          null,
          { timeout: 20000, polling: 50 },
        ).then(() => p)));
      state = await tableState(turn.page);
      if (state.status !== 'playing') break;
      await clickOne(turn.page, rng, { record: (o) => h.clicked(turn.name, o) });
      steps += 1;
      seen = await checkAll(`after click ${steps} (${turn.name})`);
      if (!draftDone && seen.every((s) => s.hand.length > 0) && seen.every((s) => s.draft.length === 0)) {
        draftDone = true;
        // Each page shows the card it drafted; the passer's card is hidden from the first player.
        assert.ok(hiddenChecked > 0, 'after the draft one hand holds a card the other may not know');
      }
      state = await tableState(ann);
    }
    assert.ok(draftDone, 'the draft ended with a card in each hand');
    assert.equal(state.status, 'finished');
    console.log(`# ${steps} clicks, ${checks} checks of both pages, ${hiddenChecked} hidden cards checked absent`);
    await checkScores(ann, server, tableId, 2);
    await checkScores(bo, server, tableId, 2);
    await h.screenshot(ann, 'end-ann');
    await h.screenshot(bo, 'end-bo');
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the pages');
  });
});
