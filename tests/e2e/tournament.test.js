// A Swiss tournament through the pages: its creator makes it from the form (every field) on a
// desktop, and a start with nobody signed up is refused in words; a player signs up from the list on
// a phone (two more through the API, the creator on the tournament's page), the creator starts it,
// the round's tables show their tournament and round in the notice, My games and the table page;
// that player withdraws on the tournament's page while her game goes on; the games are played over
// WebSockets of the page's own, and the standings are read on the page (points, Buchholz, score
// sum: the server's) after round 1 and once the tournament is finished; round 2 has a bye. A German
// browser reads the same pages once. A knockout of four, played through, shows its bracket as a
// tree and in words.
import assert from 'node:assert/strict';
import test from 'node:test';
import { playOverSockets, post, register, sideways, signIn, unnamed, visit } from './game.js';
import { Harness, kPhone, seed } from './support.js';

// The standings as the tournament's page shows them.
async function readStandings(page) {
  return page.$$eval('#tournament-standings tbody tr[data-user]', (rows) =>
    rows.map((row) => ({
      user: Number(row.dataset.user),
      rank: Number(row.dataset.rank),
      points: Number(row.querySelector('td.points')?.textContent),
      buchholz: row.querySelector('td.buchholz') ? Number(row.querySelector('td.buchholz').textContent) : null,
      scoreSum: Number(row.querySelector('td.score_sum')?.textContent),
      games: Number(row.querySelector('td.games')?.textContent),
      me: row.classList.contains('me'),
      state: row.dataset.state ?? null,
    })));
}

// Each round's tables as the page shows them.
async function readRounds(page) {
  return page.$$eval('#tournament .round[data-round]', (rounds) =>
    rounds.map((round) => ({
      number: Number(round.dataset.round),
      title: round.querySelector('h3')?.textContent.trim(),
      tables: [...round.querySelectorAll('.round-tables > li[data-table]')].map((item) => ({
        id: item.dataset.table,
        status: item.dataset.status,
        link: item.querySelector('a[data-action="open"]')?.getAttribute('href'),
        seats: [...item.querySelectorAll('.seat[data-user]')].map((seat) => ({ user: Number(seat.dataset.user), place: seat.dataset.place ? Number(seat.dataset.place) : null })),
      })),
    })));
}

// Plays every table of the tournament's round `number` to its end over WebSockets.
async function playRound(page, server, tournamentId, number, tokenOf) {
  const detail = await server.json(`/api/tournaments/${tournamentId}`);
  const round = detail.rounds.find((item) => item.number === number);
  assert.ok(round, `round ${number} is paired`);
  const seats = round.tables.flatMap((table) => table.seats.map((seat) => ({ token: tokenOf(seat.user), table: table.table })));
  return playOverSockets(page, seats, { seedValue: seed + number, timeout: 120000 });
}

// Accounts for `names`, and each one's user id, name and token.
async function registerAll(server, names) {
  const accounts = {};
  for (const name of names) accounts[name] = await register(server, name);
  const idOf = (name) => accounts[name].user.id;
  const nameOf = (user) => names.find((name) => idOf(name) === user);
  return { accounts, idOf, nameOf, tokenOf: (user) => accounts[nameOf(user)].token };
}

const reload = (page) => page.locator('#tournament-refresh').click();

// Waits until the tournament's detail from the API passes `check` (the scheduler pairs and ends
// rounds on its own), and returns it.
async function until(server, id, what, check) {
  for (let attempt = 0; attempt < 120; ++attempt) {
    const detail = await server.json(`/api/tournaments/${id}`);
    if (check(detail)) return detail;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`tournament ${id}: ${what} did not happen within 30 s`);
}

test('a Swiss tournament: created, joined, started, a round played, the standings read (desktop, phone, German)', { timeout: 280000 }, async () => {
  const h = new Harness('tournament');
  await h.run(async () => {
    const started = Date.now();
    const server = await h.server();
    const names = ['Olga', 'Ann', 'Bob', 'Cat'];
    const { accounts, idOf, tokenOf } = await registerAll(server, names);
    const browser = await h.browser();

    // The creator fills every field of the form on a desktop.
    const olga = await h.page(browser, 'creator', { viewport: { width: 1280, height: 800 } });
    await signIn(olga, server.url, 'Olga');
    await olga.locator('#nav-tournaments').click();
    await olga.locator('#tournament-create-form').waitFor({ state: 'visible' });
    assert.equal(await olga.locator('#nav-tournaments').getAttribute('aria-current'), 'page');
    await olga.locator('#tournament-name').fill('Autumn Swiss');
    await olga.locator('#tournament-format').selectOption('knockout');
    assert.equal(await olga.locator('#tournament-rounds').isVisible(), false, 'a knockout has no rounds to choose');
    assert.equal(await olga.locator('#tournament-advance').isVisible(), true);
    await olga.locator('#tournament-format').selectOption('swiss');
    assert.equal(await olga.locator('#tournament-advance').isVisible(), false, 'the Swiss system has nobody to advance');
    await olga.locator('#tournament-players').selectOption('2');
    await olga.locator('#tournament-rounds').fill('2');
    await olga.locator('#tournament-rules').selectOption('yucata');
    await olga.locator('#tournament-shrine').check();
    await olga.locator('#tournament-time').selectOption('correspondence');
    await olga.locator('#tournament-time-amount').fill('2');
    await olga.locator('#tournament-deadline-hours').fill('72');
    const startsAt = Date.now() + 3 * 86400 * 1000;
    const local = new Date(startsAt);
    const pad = (n) => String(n).padStart(2, '0');
    await olga.locator('#tournament-starts').fill(`${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}T${pad(local.getHours())}:${pad(local.getMinutes())}`);
    await olga.locator('#tournament-max-players').fill('8');
    await olga.locator('#tournament-rated').check();
    assert.deepEqual(await unnamed(olga), [], 'the tournaments page\'s controls have names');
    await olga.locator('#tournament-create-submit').click();
    await olga.waitForSelector('#tournament[data-tournament][data-status="signup"]:not([hidden])');
    const id = Number(await olga.locator('#tournament').getAttribute('data-tournament'));
    assert.equal(await olga.evaluate(() => location.hash), `#/tournament/${id}`);
    const created = await server.json(`/api/tournaments/${id}`);
    assert.deepEqual(
      [created.name, created.format, created.players_per_table, created.rules, created.shrine, created.max_players, created.rated, created.creator.user],
      ['Autumn Swiss', 'swiss', 2, 'yucata', true, 8, true, idOf('Olga')]);
    assert.deepEqual(created.time_control, { kind: 'correspondence', days: 2, on_timeout: 'forfeit' });
    assert.ok(Math.abs(created.starts_at - startsAt) < 60000, 'the start is the one given, to the minute');
    assert.match(await olga.locator('#tournament-settings').textContent(), /Swiss system/);
    assert.equal(await olga.locator('#tournament-start').count(), 1, 'the creator may start it');
    // Nobody has signed up yet: the server refuses the start, and the page says why in its words.
    await olga.locator('#tournament-start').click();
    await olga.locator('#error:not([hidden])').waitFor();
    assert.match(await olga.locator('#error').textContent(), /needs at least 2 players/);
    assert.equal((await server.json(`/api/tournaments/${id}`)).status, 'signup', 'a refused start changes nothing');

    // Ann finds it on her phone under Upcoming and signs up there; Bob and Cat through the API;
    // Olga on the tournament's page.
    const ann = await h.page(browser, 'player', kPhone);
    await signIn(ann, server.url, 'Ann');
    await ann.locator('#nav-tournaments').click();
    const row = ann.locator(`#tournament-upcoming li[data-tournament="${id}"]`);
    await row.waitFor();
    assert.equal(await row.locator('[data-action="start"]').count(), 0, 'a player sees no start button');
    await row.locator('[data-action="join"]').click();
    await ann.locator(`#tournament-upcoming li.joined[data-tournament="${id}"] [data-action="leave"]`).waitFor();
    assert.match(await ann.locator(`#tournament-upcoming li[data-tournament="${id}"] .count`).textContent(), /^1 of 8 players$/);
    assert.equal((await sideways(ann)).over, 0, 'the list fits a phone');
    assert.deepEqual(await unnamed(ann), [], 'the list\'s controls have names');
    await h.screenshot(ann, 'tournaments-phone');
    for (const name of ['Bob', 'Cat']) await post(server, `/api/tournaments/${id}/join`, accounts[name].token);
    await olga.locator('#tournament-join').click();
    await olga.locator('#tournament-leave').waitFor();
    await olga.waitForFunction(() => document.querySelectorAll('#tournament-players li[data-user]').length === 4);
    await h.screenshot(olga, 'tournament-signup');

    // Olga starts it: round 1 pairs the four at two tables, which start by themselves.
    await olga.locator('#tournament-start').click();
    await olga.waitForSelector('#tournament[data-status="running"]');
    let rounds = await readRounds(olga);
    assert.deepEqual(rounds.map((round) => round.title), ['Round 1']);
    assert.equal(rounds[0].tables.length, 2, 'two tables of two');
    for (const table of rounds[0].tables) {
      assert.equal(table.link, `#/table/${table.id}`);
      assert.equal(table.seats.length, 2);
    }
    assert.deepEqual(rounds[0].tables.flatMap((table) => table.seats.map((seat) => seat.user)).sort(), names.map(idOf).sort());
    assert.equal(await olga.locator('#tournament-start').count(), 0, 'started: no start button');
    assert.equal(await olga.locator('#tournament-status').textContent(), 'round 1 of 2 under way');
    assert.equal(await olga.locator('#tournament-withdraw').count(), 1, 'a player may withdraw while it runs');

    // Ann is told of her table; her game names the tournament and round in My games and on the
    // table's page.
    const annTable = rounds[0].tables.find((table) => table.seats.some((seat) => seat.user === idOf('Ann'))).id;
    await ann.locator(`#notice a[href="#/table/${annTable}"]`).waitFor();
    assert.match(await ann.locator('#notice').textContent(), /Your table for round 1 of Autumn Swiss is ready/);
    await ann.locator('#nav-lobby').click();
    const tag = ann.locator(`#my-games li[data-table="${annTable}"] .badge.tournament`);
    await tag.waitFor();
    assert.equal(await tag.textContent(), 'Autumn Swiss · R1');
    assert.equal(await tag.getAttribute('href'), `#/tournament/${id}`);
    await ann.locator(`#my-games li[data-table="${annTable}"] [data-action="open"]`).click();
    await ann.locator(`#table[data-table="${annTable}"] .badge.tournament`).first().waitFor();
    assert.equal(await ann.locator('#table .badge.tournament').first().textContent(), 'Autumn Swiss · R1');

    // Ann withdraws on the tournament's page (asked once more) while her game of round 1 goes on.
    const asked = [];
    ann.on('dialog', (dialog) => {
      asked.push(dialog.message());
      dialog.accept();
    });
    await visit(ann, `#/tournament/${id}`, '#tournament-withdraw');
    await ann.locator('#tournament-withdraw').click();
    await ann.locator(`#tournament-players li[data-user="${idOf('Ann')}"][data-state="withdrawn"]`).waitFor();
    assert.match(asked.join(), /^Withdraw from Autumn Swiss\?/);
    assert.equal(await ann.locator('#tournament-withdraw').count(), 0, 'withdrawn: no button');
    assert.equal((await server.json(`/api/tournaments/${id}`)).players.find((player) => player.user === idOf('Ann')).withdrawn, true);

    // Round 1 is played; the standings count it, winners first.
    const first = await playRound(olga, server, id, 1, tokenOf);
    const winners = first.filter((game) => game.result.winners.includes(game.seat)).map((game) => rounds[0].tables.find((table) => table.id === game.table).seats[game.seat].user);
    await until(server, id, 'round 2', (detail) => detail.rounds.length === 2);
    await reload(olga);
    await olga.waitForFunction(() => [...document.querySelectorAll('#tournament-standings td.games')].filter((cell) => cell.textContent === '1').length === 4);
    let standings = await readStandings(olga);
    assert.equal(standings.length, 4);
    assert.equal(standings[0].rank, 1);
    assert.ok(standings.every((item, index) => index === 0 || item.rank >= standings[index - 1].rank), 'ranks in order');
    // A winner has a point from round 1; a loser has one only from a bye in round 2 (paired now).
    const afterOne = await server.json(`/api/tournaments/${id}`);
    const byeOfTwo = afterOne.rounds[1].byes.map((bye) => bye.user);
    for (const item of standings) assert.equal(item.points, winners.includes(item.user) || byeOfTwo.includes(item.user) ? 1 : 0, `${JSON.stringify(item)}: the point of a win or a bye`);
    assert.deepEqual(standings.map((item) => [item.user, item.rank, item.points, item.buchholz, item.scoreSum]),
      afterOne.standings.map((item) => [item.user, item.rank, item.points, item.buchholz, item.score_sum]), 'the page shows the server\'s standings');
    for (const item of standings) assert.ok(item.buchholz !== null && Number.isFinite(item.buchholz) && Number.isFinite(item.scoreSum), 'Buchholz and score sum are shown');
    assert.ok(standings.find((item) => item.user === idOf('Olga')).me, 'the viewer\'s row is marked');
    rounds = await readRounds(olga);
    const one = rounds.find((round) => round.number === 1);
    assert.ok(one.tables.every((table) => table.status === 'finished' && table.seats.every((seat) => seat.place >= 1)), 'round 1 is over, with places');
    // Round 2 pairs the three still in: one table and a bye, Ann in neither.
    const two = rounds.find((round) => round.number === 2);
    assert.equal(two.tables.length, 1);
    const byes = await olga.$$eval('#tournament .round[data-round="2"] .bye[data-user]', (items) => items.map((item) => Number(item.dataset.user)));
    assert.equal(byes.length, 1, 'one bye');
    assert.deepEqual([...two.tables[0].seats.map((seat) => seat.user), ...byes].sort(), ['Olga', 'Bob', 'Cat'].map(idOf).sort());
    await h.screenshot(olga, 'tournament-round1');

    // Round 2 pairs by points; it is played, and the tournament ends.
    await playRound(olga, server, id, 2, tokenOf);
    const detail = await until(server, id, 'the end', (item) => item.status === 'finished');
    await reload(olga);
    await olga.waitForSelector('#tournament[data-status="finished"]');
    standings = await readStandings(olga);
    assert.deepEqual(standings.map((item) => [item.user, item.rank, item.points, item.games]),
      detail.standings.map((item) => [item.user, item.rank, item.points, item.games]), 'the page shows the server\'s standings');
    // Two games for the pair of round 2, one for the bye and for Ann, who withdrew.
    assert.deepEqual(standings.map((item) => item.games).sort(), [1, 1, 2, 2]);
    assert.equal(standings.find((item) => item.user === idOf('Ann')).state, 'withdrawn');
    await h.screenshot(olga, 'tournament-finished');

    // On the phone: the tournament page fits, and its controls have names.
    await visit(ann, `#/tournament/${id}`, '#tournament-standings tr[data-user]');
    assert.equal((await sideways(ann)).over, 0, 'the tournament page fits a phone');
    assert.deepEqual(await unnamed(ann), [], 'the tournament page\'s controls have names');
    await h.screenshot(ann, 'tournament-phone');
    await visit(ann, '#/tournaments', `#tournament-finished li[data-tournament="${id}"]`);

    // A German browser: the same pages in German.
    const cat = await h.page(browser, 'german', { locale: 'de-DE' });
    await signIn(cat, server.url, 'Cat');
    await cat.locator('#nav-tournaments').click();
    await cat.locator(`#tournament-finished li[data-tournament="${id}"]`).waitFor();
    assert.equal((await cat.locator('#nav-tournaments').textContent()).trim(), 'Turniere');
    assert.equal((await cat.locator('#tournaments-finished-title').textContent()).trim(), 'Beendet');
    assert.match(await cat.locator(`#tournament-finished li[data-tournament="${id}"]`).textContent(), /Schweizer System, 2 Runden/);
    await visit(cat, `#/tournament/${id}`, '#tournament-standings tr[data-user]');
    assert.equal((await cat.locator('#tournament-standings-title').textContent()).trim(), 'Tabelle');
    assert.deepEqual((await readRounds(cat)).map((round) => round.title), ['Runde 2', 'Runde 1']);
    assert.match(await cat.locator('#tournament-standings thead').textContent(), /Buchholz/);
    await h.screenshot(cat, 'tournament-de');

    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the pages');
    console.log(`# tournament test: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
});

test('a knockout of four: its bracket as a tree and in words', { timeout: 200000 }, async () => {
  const h = new Harness('tournament-knockout');
  await h.run(async () => {
    const server = await h.server();
    const names = ['Ann', 'Bob', 'Cat', 'Dan'];
    const { accounts, nameOf, tokenOf } = await registerAll(server, names);
    const tournament = await post(server, '/api/tournaments', accounts.Ann.token, {
      name: 'Winter Knockout', format: 'knockout', players_per_table: 2, advance: 1, rules: 'yucata', shrine: false,
      time_control: { kind: 'realtime', seconds: 600 }, starts_at: Date.now() + 3600 * 1000, max_players: 4, rated: false,
    });
    for (const name of names) await post(server, `/api/tournaments/${tournament.id}/join`, accounts[name].token);
    await post(server, `/api/tournaments/${tournament.id}/start`, accounts.Ann.token);
    const browser = await h.browser();
    const page = await h.page(browser, 'phone', kPhone);
    await signIn(page, server.url, 'Ann');
    await visit(page, `#/tournament/${tournament.id}`, '#bracket');

    // Round 1 played, the final is paired from its winners; the final played.
    const first = await playRound(page, server, tournament.id, 1, tokenOf);
    await until(server, tournament.id, 'the final', (item) => item.rounds.length === 2);
    await playRound(page, server, tournament.id, 2, tokenOf);
    const detail = await until(server, tournament.id, 'the end', (item) => item.status === 'finished');
    await reload(page);
    await page.waitForSelector('#tournament[data-status="finished"] #bracket');
    const finalists = detail.rounds[1].tables[0].seats.map((seat) => seat.user).sort();
    assert.equal(first.length, 4, 'two tables of two in round 1');

    // The tree: three boxes in two columns, two lines into the final; the finalists marked as
    // going on in round 1's boxes.
    const picture = await page.$eval('#bracket', (bracket) => ({
      role: bracket.getAttribute('role'),
      label: bracket.getAttribute('aria-label'),
      boxes: [...bracket.querySelectorAll('g.match')].map((box) => box.getAttribute('transform')),
      lines: bracket.querySelectorAll('path.link').length,
      on: [...bracket.querySelectorAll('text.on')].map((text) => text.textContent),
    }));
    assert.equal(picture.role, 'img');
    assert.ok(picture.label.length > 20, 'the picture has a label');
    assert.equal(picture.boxes.length, 3);
    assert.equal(new Set(picture.boxes.map((transform) => transform.split(' ')[0])).size, 2, 'two columns');
    assert.equal(picture.lines, 2, 'a line from each first-round table to the final');
    for (const user of finalists) assert.ok(picture.on.some((text) => text.includes(nameOf(user))), `${nameOf(user)} goes on`);
    await page.locator('#bracket-text summary').click();
    const words = await page.$$eval('#bracket-text li[data-round]', (items) => items.map((item) => item.textContent));
    assert.equal(words.length, 2);
    for (const user of finalists) assert.match(words[0], new RegExp(`${nameOf(user)}.*on|on.*${nameOf(user)}`));
    assert.equal((await sideways(page)).over, 0, 'the bracket scrolls in its panel, not the page');
    assert.deepEqual(await unnamed(page), [], 'the page\'s controls have names');
    const standings = await readStandings(page);
    assert.equal(standings.length, 4);
    assert.ok(standings.every((row) => row.buchholz === null), 'a knockout ranks without Buchholz');
    await h.screenshot(page, 'knockout-phone');
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
  });
});
