// A league from creation to the second season's sign-up, through the pages: the organizer creates a
// 2-player league from the form and opens sign-up, a player signs up on the page (three more
// through the API), the organizer starts the season (two divisions of two, one table each), the
// games are played over WebSockets of the page's own, the standings count them, the organizer
// closes the season (promotion ↑ and relegation ↓ marked, season 2 open), and the leaderboard and
// a profile show the new ratings. A player sees no organizer button; a guest is told to register.
import assert from 'node:assert/strict';
import test from 'node:test';
import { playOverSockets, signIn, signInAsGuest, unnamed } from './game.js';
import { Harness, seed } from './support.js';

async function register(server, name) {
  const response = await fetch(`${server.url}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, password: `secret-${name}` }),
  });
  assert.equal(response.status, 201, `registering ${name}`);
  return response.json(); // {user, token, expires}
}

async function post(server, path, token) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: '{}',
  });
  const body = await response.json();
  assert.ok(response.ok, `POST ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

// Each division's standings rows and games, as the season page shows them.
async function readSeason(page) {
  return page.$$eval('#season .division[data-division]', (divisions) =>
    divisions.map((division) => ({
      division: Number(division.dataset.division),
      title: division.querySelector('h2')?.textContent.trim(),
      rows: [...division.querySelectorAll('.standings tbody tr[data-user]')].map((row) => ({
        user: Number(row.dataset.user),
        rank: Number(row.dataset.rank),
        played: Number(row.querySelector('td.played')?.textContent),
        change: row.dataset.change ?? null,
        mark: row.querySelector('.mark')?.textContent.trim() ?? '',
        me: row.classList.contains('me'),
      })),
      tables: [...division.querySelectorAll('.schedule li[data-table]')].map((item) => ({
        id: item.dataset.table,
        status: item.dataset.status,
        link: item.querySelector('a[data-action="open"]')?.getAttribute('href'),
      })),
    })),
  );
}

test('a league season from sign-up to promotion, standings and ratings', { timeout: 150000 }, async () => {
  const h = new Harness('league');
  await h.run(async () => {
    const started = Date.now();
    const server = await h.server();
    const names = ['Olga', 'Ann', 'Bob', 'Cat', 'Dan'];
    const accounts = {};
    for (const name of names) accounts[name] = await register(server, name);
    const idOf = (name) => accounts[name].user.id;
    const nameOf = (id) => names.find((name) => idOf(name) === id);
    const browser = await h.browser();

    // A guest sees the leagues but no create form, and cannot make a rated table.
    const guest = await h.page(browser, 'guest');
    await signInAsGuest(guest, server.url, 'Gus');
    await guest.waitForFunction(() => document.querySelector('#create-rated-hint')?.textContent.includes('register to keep your games'));
    assert.equal(await guest.locator('#create-rated').isDisabled(), true, 'a guest cannot create a rated table');
    await guest.locator('#nav-leagues').click();
    await guest.locator('#leagues-guest').waitFor({ state: 'visible' });
    assert.equal(await guest.locator('#league-create-form').isVisible(), false, 'a guest sees no create form');

    // The organizer creates the league from the form and opens sign-up.
    const olga = await h.page(browser, 'organizer');
    await signIn(olga, server.url, 'Olga');
    assert.equal(await olga.locator('#create-rated').isDisabled(), false, 'a registered player may create a rated table');
    await olga.locator('#nav-leagues').click();
    await olga.locator('#league-create-form').waitFor({ state: 'visible' });
    assert.deepEqual(await unnamed(olga), [], 'the leagues page\'s controls have names');
    await olga.locator('#league-name').fill('Rome League');
    await olga.locator('#league-players').selectOption('2');
    await olga.locator('#league-division-size').fill('2');
    await olga.locator('#league-promote').fill('1');
    await olga.locator('#league-relegate').fill('1');
    await olga.locator('#league-create-submit').click();
    await olga.waitForSelector('#league[data-league]:not([hidden])');
    const leagueId = Number(await olga.locator('#league').getAttribute('data-league'));
    assert.equal(await olga.evaluate(() => location.hash), `#/league/${leagueId}`);
    const league = await server.json(`/api/leagues/${leagueId}`);
    assert.equal(league.organizer.id, idOf('Olga'));
    assert.deepEqual([league.options.players, league.division_size, league.promote, league.relegate], [2, 2, 1, 1]);
    await olga.locator('#league-settings').waitFor();
    assert.match(await olga.locator('#league-settings').textContent(), /1st 1 point, 2nd 0 points/);
    await olga.locator('#open-signup').click();
    await olga.locator('#signup-panel[data-season="1"]').waitFor();
    assert.equal(await olga.locator('#start-season').textContent(), 'Start season 1');
    await h.screenshot(olga, 'league');

    // Ann finds it in the list and signs up on the page (and withdraws and comes back); she has no
    // organizer's button. Bob, Cat and Dan sign up through the API.
    const ann = await h.page(browser, 'player');
    await signIn(ann, server.url, 'Ann');
    await ann.locator('#nav-leagues').click();
    await ann.locator(`#league-list tr[data-league="${leagueId}"]`).waitFor();
    await h.screenshot(ann, 'leagues');
    await ann.locator(`#league-list tr[data-league="${leagueId}"] a[href="#/league/${leagueId}"]`).click();
    await ann.locator('#signup').click();
    await ann.locator(`#signups li[data-user="${idOf('Ann')}"]`).waitFor();
    await ann.locator('#withdraw').click();
    await ann.locator('#signup').waitFor();
    assert.equal(await ann.locator('#signups li').count(), 0, 'a withdrawal leaves the list');
    await ann.locator('#signup').click();
    await ann.locator('#withdraw').waitFor();
    assert.equal(await ann.locator('#start-season, #open-signup, #close-season, #league-admin').count(), 0, 'a player sees no organizer button');
    assert.deepEqual(await unnamed(ann), [], 'the league page\'s controls have names');
    for (const name of ['Bob', 'Cat', 'Dan']) await post(server, `/api/leagues/${leagueId}/signup`, accounts[name].token);

    // The organizer starts the season from the page: two divisions of two, a table each.
    await olga.locator('#league-refresh').click();
    await olga.waitForFunction(() => document.querySelectorAll('#signups li[data-user]').length === 4);
    await olga.locator('#start-season').click();
    await olga.waitForSelector('#season[data-status="playing"]:not([hidden])');
    assert.equal(await olga.evaluate(() => location.hash), `#/league/${leagueId}/season/1`);
    let divisions = await readSeason(olga);
    assert.deepEqual(divisions.map((d) => d.title), ['Division 1', 'Division 2']);
    for (const division of divisions) {
      assert.equal(division.rows.length, 2, `division ${division.division} has 2 players`);
      assert.equal(division.tables.length, 1, `division ${division.division} has 1 table`);
      assert.equal(division.tables[0].link, `#/table/${division.tables[0].id}`);
    }
    // Newcomers are placed in sign-up order: Ann and Bob at the top.
    assert.deepEqual(divisions[0].rows.map((r) => r.user).sort(), [idOf('Ann'), idOf('Bob')].sort());
    assert.equal(await olga.locator('#close-season').count(), 1);
    assert.deepEqual(await unnamed(olga), [], 'the season page\'s controls have names');
    await h.screenshot(olga, 'season-playing');

    // Ann is told about her league game and sees it in her games.
    const annTable = divisions[0].tables[0].id;
    await ann.locator(`#notice a[href="#/table/${annTable}"]`).waitFor({ timeout: 5000 });
    assert.match(await ann.locator('#notice').textContent(), /A league game was created for you/);
    await ann.locator('#nav-lobby').click();
    await ann.waitForFunction(
      (id) => document.querySelector(`#my-games li[data-table="${id}"] .badge.league`)?.textContent === 'Rome League · S1 · D1',
      annTable,
    );

    // Closing with games under way is refused, in the server's words.
    await olga.locator('#close-season').click();
    await olga.locator('#error').waitFor({ state: 'visible' });
    const refusal = (await olga.locator('#error').textContent()).trim();
    assert.ok(refusal.length > 0 && !/HTTP \d/.test(refusal), `the refusal is said in words: ${refusal}`);
    console.log(`# closing too early: ${refusal}`);
    assert.equal(await olga.locator('#season').getAttribute('data-status'), 'playing');

    // The games are played to the end over WebSockets (random legal moves).
    const season = await server.json(`/api/leagues/${leagueId}/seasons/1`);
    const seats = season.divisions.flatMap((division) =>
      division.tables.flatMap((table) => table.players.map((user) => ({ token: accounts[nameOf(user.id)].token, table: table.id }))));
    const playStart = Date.now();
    const played = await playOverSockets(olga, seats, { seedValue: seed });
    console.log(`# games played in ${((Date.now() - playStart) / 1000).toFixed(1)} s: ${played.map((p) => `${p.table} seat ${p.seat} ${p.moves} moves`).join(', ')}`);
    // Places per user, from each table's result and its players in seat order.
    const places = new Map();
    for (const division of season.divisions) {
      for (const table of division.tables) {
        const result = played.find((p) => p.table === table.id).result;
        const best = Math.max(...result.scores.map((s) => s.total));
        table.players.forEach((user, seatIndex) => places.set(user.id, result.winners.includes(seatIndex) ? 1 : 2));
        assert.ok(result.scores.some((s) => s.total === best));
      }
    }
    const winners = [...places].filter(([, place]) => place === 1).map(([id]) => id);
    const losers = [...places].filter(([, place]) => place === 2).map(([id]) => id);
    assert.equal(winners.length, 2, `one winner per table with E2E_SEED=${seed} (a shared win would move no rating)`);

    // The standings count the games, the winner first.
    await olga.locator('#season-refresh').click();
    await olga.waitForFunction(() => {
      const rows = document.querySelectorAll('#season .standings tr[data-user]');
      return rows.length === 4 && [...rows].every((row) => row.querySelector('td.played')?.textContent === '1');
    });
    divisions = await readSeason(olga);
    for (const division of divisions) {
      const [first, second] = division.rows;
      assert.ok(winners.includes(first.user), `division ${division.division}: the winner ranks first`);
      assert.deepEqual([first.rank, second.rank], [1, 2]);
      assert.equal(division.tables[0].status, 'finished');
    }

    // The organizer closes the season: promotion and relegation marked, season 2 open.
    await olga.locator('#close-season').click();
    await olga.waitForSelector('#season[data-status="finished"]');
    divisions = await readSeason(olga);
    const [top, bottom] = divisions;
    assert.deepEqual(top.rows.map((r) => [r.change, r.mark]), [[null, ''], ['relegated', '↓ (relegated)']], 'division 1: its last goes down');
    assert.deepEqual(bottom.rows.map((r) => [r.change, r.mark]), [['promoted', '↑ (promoted)'], [null, '']], 'division 2: its first goes up');
    await olga.locator('#next-season').waitFor();
    assert.match(await olga.locator('#next-season').textContent(), /Season 2 is open for sign-up/);
    await h.screenshot(olga, 'season-finished');
    await olga.locator('#next-season a').click();
    await olga.locator('#seasons li[data-season="2"][data-status="signup"]').waitFor();
    await olga.locator('#signup-panel[data-season="2"]').waitFor();
    assert.equal(await olga.locator('#start-season').textContent(), 'Start season 2');

    // A guest on the league page is told to register instead of a sign-up button.
    await guest.goto(`${server.url}/#/league/${leagueId}`);
    await guest.locator('#signup-guest').waitFor();
    assert.equal(await guest.locator('#signup').count(), 0);

    // The leaderboard: the four players (not the organizer, who played no game), winners above 1500.
    await olga.locator('#nav-ratings').click();
    await olga.waitForFunction(() => document.querySelectorAll('#leaderboard tbody tr[data-user]').length === 4);
    const board = await olga.$$eval('#leaderboard tbody tr[data-user]', (rows) =>
      rows.map((row) => ({
        user: Number(row.dataset.user),
        rating: Number(row.querySelector('td.rating').dataset.rating),
        provisional: Boolean(row.querySelector('.provisional')),
      })));
    assert.deepEqual(board.map((r) => r.user).sort(), [...winners, ...losers].sort());
    for (const row of board) {
      if (winners.includes(row.user)) assert.ok(row.rating > 1500, `${nameOf(row.user)} won: ${row.rating} > 1500`);
      else assert.ok(row.rating < 1500, `${nameOf(row.user)} lost: ${row.rating} < 1500`);
      assert.ok(row.provisional, 'one game: still provisional');
    }
    assert.deepEqual(board.slice(0, 2).map((r) => r.user).sort(), [...winners].sort(), 'winners first');
    assert.deepEqual(await unnamed(olga), [], 'the leaderboard\'s controls have names');
    await h.screenshot(olga, 'ratings');

    // A winner's profile: one rated game, its table, and the season.
    const winner = winners[0];
    await olga.locator(`#leaderboard tr[data-user="${winner}"] a[href="#/player/${winner}"]`).click();
    await olga.waitForSelector(`#profile[data-user="${winner}"]:not([hidden])`);
    await olga.locator('#history').waitFor();
    const history = await olga.$$eval('#history tbody tr[data-table]', (rows) =>
      rows.map((row) => ({ table: row.dataset.table, place: row.querySelector('.place').textContent, change: row.querySelector('.change').textContent })));
    assert.equal(history.length, 1, 'one history entry');
    assert.ok(season.divisions.some((d) => d.tables[0].id === history[0].table), 'the entry is a league table');
    assert.equal(history[0].place, '1st of 2');
    assert.match(history[0].change, /^\+\d+$/);
    assert.equal(await olga.locator('#rating-chart').count(), 1);
    assert.equal(await olga.locator(`#profile-leagues li[data-league="${leagueId}"][data-season="1"] a`).count(), 1);
    assert.deepEqual(await unnamed(olga), [], 'the profile\'s controls have names');
    await h.screenshot(olga, 'profile');

    // My own name leads to my profile.
    await olga.locator('#me').click();
    await olga.waitForSelector(`#profile[data-user="${idOf('Olga')}"]:not([hidden])`);

    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the pages');
    console.log(`# league test: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
});
