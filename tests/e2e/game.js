// Playing through the page, only by clicking, with the client's stable DOM hooks ("Hooks for tests
// and automation"): `#table[data-status][data-version][data-my-turn]`, elements with `data-move`
// (a legal move) and `data-select` (a card that reveals more moves).
import assert from 'node:assert/strict';

// An account made over the HTTP API (password `secret-<name>`): {user, token, expires}.
export async function register(server, name) {
  const response = await fetch(`${server.url}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, password: `secret-${name}` }),
  });
  assert.equal(response.status, 201, `registering ${name}`);
  return response.json();
}

// POST to the HTTP API with a session token; the answer's JSON.
export async function post(server, path, token, body = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const reply = await response.json();
  assert.ok(response.ok, `POST ${path}: ${response.status} ${JSON.stringify(reply)}`);
  return reply;
}

// A 2-player league of `accounts` whose first season is under way (a season page with standings).
export async function leagueUnderWay(server, accounts, name = 'Test League') {
  const [organizer] = accounts;
  const league = await post(server, '/api/leagues', organizer.token, {
    name,
    options: { players: 2, rules: 'yucata', shrine: false },
    division_size: 2,
  });
  await post(server, `/api/leagues/${league.id}/seasons`, organizer.token);
  for (const account of accounts) await post(server, `/api/leagues/${league.id}/signup`, account.token);
  await post(server, `/api/leagues/${league.id}/seasons/1/start`, organizer.token);
  return league;
}

// Two tournaments of `accounts` (registered, the first one creates them): `running`, a knockout at
// tables of 2 whose first round (its final) is under way, so its page has standings, a round and the
// bracket; `upcoming`, a Swiss in sign-up that the first account joined, so the list has its buttons.
export async function tournamentsUnderWay(server, accounts, name = 'Test Cup') {
  const [creator] = accounts;
  const settings = { players_per_table: 2, time_control: { kind: 'correspondence', days: 3 } };
  const running = await post(server, '/api/tournaments', creator.token, { name, format: 'knockout', ...settings });
  for (const account of accounts) await post(server, `/api/tournaments/${running.id}/join`, account.token);
  await post(server, `/api/tournaments/${running.id}/start`, creator.token);
  const upcoming = await post(server, '/api/tournaments', creator.token, { name: `${name} II`, format: 'swiss', rounds: 3, ...settings });
  await post(server, `/api/tournaments/${upcoming.id}/join`, creator.token);
  return { running, upcoming };
}

// A signed-in player's pages beside the lobby and the tables, each as [hash, the selector that shows
// it is drawn, what it is]: the leagues, `league` and its first season, the tournaments (with the
// create form) and both of `tournaments` (tournamentsUnderWay), the ratings, the settings and
// `user`'s profile.
export function accountPages(league, user, tournaments) {
  return [
    ['#/leagues', '#league-list tr[data-league]', 'the leagues'],
    [`#/league/${league.id}`, '#league-settings', 'a league'],
    [`#/league/${league.id}/season/1`, '#season .standings tr[data-user]', "a season's standings"],
    ['#/tournaments', '#tournament-upcoming [data-action="leave"]', 'the tournaments'],
    [`#/tournament/${tournaments.upcoming.id}`, '#tournament-signup #tournament-start', "a tournament's sign-up"],
    [`#/tournament/${tournaments.running.id}`, '#tournament[data-status="running"] #bracket', 'a knockout under way'],
    ['#/ratings', '#ratings h1', 'the ratings'],
    ['#/settings', '#settings-webhook-form', 'the settings'],
    [`#/player/${user.id}`, '#profile-name', 'a profile'],
  ];
}

// Goes to `hash` and waits until `selector` shows.
export async function visit(page, hash, selector) {
  await page.evaluate((target) => (location.hash = target), hash);
  await page.locator(selector).first().waitFor();
}

export async function signIn(page, baseUrl, name) {
  await page.goto(`${baseUrl}/`);
  await page.locator('#login-name').fill(name);
  await page.locator('#login-password').fill(`secret-${name}`);
  await page.locator('#login-submit').click();
  await page.locator('#lobby').waitFor({ state: 'visible' });
  await waitConnection(page, 'open');
}

export async function connectionState(page) {
  return page.locator('#connection').getAttribute('data-state');
}

export async function waitConnection(page, state, timeout = 15000) {
  await page.waitForSelector(`#connection[data-state="${state}"]`, { state: 'attached', timeout });
}

export async function signInAsGuest(page, baseUrl, name) {
  await page.goto(`${baseUrl}/`);
  await page.locator('#guest-name').fill(name);
  await page.locator('#guest-submit').click();
  await page.locator('#lobby').waitFor({ state: 'visible' });
  await page.waitForFunction(
    (expected) => document.querySelector('#me')?.textContent.includes(expected),
    name,
  );
  await waitConnection(page, 'open');
}

// Creates a table from the lobby's form; `seats` are seats 1.. ('human', 'greedy', 'random').
// The creator sits at seat 0 and lands on the table page; returns the table's id.
export async function createTable(page, { players, seats, rules = 'yucata' }) {
  await page.locator('#create-players').selectOption(String(players));
  await page.locator('#create-rules').selectOption(rules);
  for (const [i, kind] of seats.entries())
    await page.locator(`#create-seat-${i + 1}`).selectOption(kind);
  await page.locator('#create-submit').click();
  await page.waitForSelector('#table[data-table^="t"]', { state: 'visible' });
  // The page may show the table a moment before the server's `seated` reaches it.
  await page.waitForSelector('#table[data-table^="t"][data-status="waiting"][data-seat="0"]', { timeout: 5000 }).catch(async () => {
    throw new Error(`the new table should wait for its start with its creator at seat 0: ${JSON.stringify(await tableState(page))}`);
  });
  return (await tableState(page)).id;
}

export async function startTable(page) {
  await page.locator('#start:enabled').click();
  await page.waitForSelector('#table:not([data-status="waiting"])', { state: 'attached' });
}

export async function tableState(page) {
  return page.evaluate(() => {
    const table = document.querySelector('#table');
    if (!table) return null;
    return {
      id: table.dataset.table,
      status: table.dataset.status,
      version: Number(table.dataset.version),
      seat: table.dataset.seat,
      myTurn: table.dataset.myTurn === 'true',
      round: Number((document.querySelector('#round')?.textContent.match(/\d+/) || [NaN])[0]),
      error: (document.querySelector('#error')?.checkVisibility() &&
        document.querySelector('#error').textContent.trim()) || '',
    };
  });
}

// Waits until it is this page's turn or the game is no longer under way; returns the state.
export async function waitForTurnOrEnd(page, timeout = 20000) {
  await page.waitForFunction(
    () => {
      const table = document.querySelector('#table');
      return table && (table.dataset.status !== 'playing' || table.dataset.myTurn === 'true');
    },
    null,
    { timeout, polling: 50 },
  );
  return tableState(page);
}

// What can be clicked now: visible, enabled `data-move` and `data-select` elements.
export async function clickables(page) {
  return page.evaluate(() => {
    const out = [];
    const seen = new Set();
    for (const element of document.querySelectorAll('[data-move], [data-select]')) {
      if (!element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      if (element.disabled || element.getAttribute('aria-disabled') === 'true') continue;
      if (element.hasAttribute('data-move')) {
        const move = element.dataset.move;
        if (seen.has(`m ${move}`)) continue;
        seen.add(`m ${move}`);
        out.push({ kind: 'move', move });
      } else {
        const card = element.dataset.card;
        if (seen.has(`s ${card}`)) continue;
        seen.add(`s ${card}`);
        out.push({ kind: 'select', card, pressed: element.getAttribute('aria-pressed') === 'true' });
      }
    }
    return out;
  });
}

// Random, seeded, but not uniform: moves a selection revealed (build, keep) are favoured, ending
// a turn or unselecting a card is rarer, so that games build cities rather than pass.
export function choose(rng, options) {
  const weight = (option) => {
    if (option.kind === 'select') return option.pressed ? 0.3 : 1;
    if (option.move === 'end') return options.length > 1 ? 0.3 : 1;
    if (/^(build|keep) /.test(option.move)) return 3;
    return 1;
  };
  const total = options.reduce((sum, option) => sum + weight(option), 0);
  let r = rng() * total;
  for (const option of options) {
    r -= weight(option);
    if (r < 0) return option;
  }
  return options[options.length - 1];
}

const moveLocator = (page, move) => page.locator(`[data-move="${move}"]:visible`).first();
const cardLocator = (page, card) => page.locator(`[data-select][data-card="${card}"]:visible`).first();

// Clicks one move or card (the page must be on its turn) and waits for it to take effect: a new
// version (or the end) for a move, the card's aria-pressed turned for a selection. Returns what
// was clicked, after passing it to `record` (before the click). `wait: false` only clicks; `tap`
// taps instead (a touch screen's page: kPhone).
export async function clickOne(page, rng, { wait = true, timeout = 15000, filter, record, tap = false } = {}) {
  const press = (locator) => (tap ? locator.tap({ timeout }) : locator.click({ timeout }));
  let options = [];
  // The page may still be drawing the turn it was just given.
  for (let tries = 0; tries < 40 && options.length === 0; tries += 1) {
    options = await clickables(page);
    if (filter) options = options.filter(filter);
    if (options.length === 0) await page.waitForTimeout(50);
  }
  const before = await tableState(page);
  if (options.length === 0) {
    const where = await page.evaluate(() =>
      ['#round', '#phase', '#turn'].map((id) => document.querySelector(id)?.textContent.trim()).join(', '));
    assert.fail(
      `it is this page's turn (#table[data-my-turn="true"], version ${before.version}: ${where}) but no visible [data-move] or [data-select] can be clicked`,
    );
  }
  const option = choose(rng, options);
  option.versionBefore = before.version;
  record?.(option);
  if (option.kind === 'move') {
    await press(moveLocator(page, option.move));
    if (wait) {
      await page.waitForFunction(
        (version) => {
          const table = document.querySelector('#table');
          const error = document.querySelector('#error');
          return (
            Number(table.dataset.version) !== version ||
            table.dataset.status !== 'playing' ||
            (error && error.checkVisibility() && error.textContent.trim() !== '')
          );
        },
        before.version,
        { timeout, polling: 20 },
      ).catch((error) => {
        throw new Error(
          `clicked [data-move="${option.move}"] at version ${before.version}: #table's data-version did not change within ${timeout} ms (${error.message})`,
        );
      });
      const after = await tableState(page);
      assert.equal(after.error, '', `the server refused "${option.move}" at version ${before.version}`);
      assert.ok(
        after.version > before.version || after.status !== 'playing',
        `version did not increase after "${option.move}" (${before.version} -> ${after.version})`,
      );
      option.version = after.version;
    }
  } else {
    await press(cardLocator(page, option.card));
    if (wait) {
      const pressed = option.pressed ? 'false' : 'true';
      await page.waitForFunction(
        ({ card, pressed }) =>
          [...document.querySelectorAll(`[data-select][data-card="${card}"]`)].some(
            (element) => (element.getAttribute('aria-pressed') || 'false') === pressed,
          ),
        { card: option.card, pressed },
        { timeout: 5000, polling: 20 },
      ).catch((error) => {
        throw new Error(
          `clicked card [data-select][data-card="${option.card}"] at version ${before.version}: its aria-pressed did not become "${pressed}" (${error.message})`,
        );
      });
      if (!option.pressed) {
        // A selected card reveals its targets.
        const revealed = (await clickables(page)).filter(
          (o) => o.kind === 'move' && /^(build|keep) /.test(o.move) && o.move.split(' ')[1] === option.card,
        );
        assert.ok(revealed.length > 0, `selecting card ${option.card} revealed no build or keep move`);
        // Build targets are highlighted cells of my city; a replacement (on a built cell) is marked.
        const cells = await page.evaluate((card) =>
          [...document.querySelectorAll(`[data-move^="build ${card} "]`)]
            .filter((e) => e.checkVisibility())
            .map((e) => ({
              move: e.dataset.move,
              inMyCity: Boolean(e.closest('#my-city')) && e.matches('.cell.target'),
              built: e.matches('.built') || Boolean(e.querySelector('[data-card]')),
              replace: e.matches('.replace'),
            })), option.card);
        for (const cell of cells) {
          assert.ok(cell.inMyCity, `"${cell.move}" is a #my-city .cell.target`);
          assert.equal(cell.replace, cell.built, `"${cell.move}" has class replace exactly when the cell is built`);
        }
      }
    }
  }
  return option;
}

// A scores table (the final scores', or `table`: the running scores'): one row per seat, its
// total, and whether it is a winner's.
export async function readScores(page, table = '#scores') {
  await page.locator(table).waitFor({ state: 'visible', timeout: 15000 });
  return page.$$eval(`${table} tr[data-seat]`, (rows) =>
    rows.map((row) => ({
      seat: Number(row.dataset.seat),
      place: Number(row.dataset.place),
      placeText: row.querySelector('td.place')?.textContent.trim(),
      winner: row.classList.contains('winner'),
      total: row.querySelector('td.total')?.textContent.trim(),
      // Each category's points (td.<category> .points), as the record's breakdown names them.
      points: Object.fromEntries([...row.querySelectorAll('td .points')].map((cell) => [cell.closest('td').classList[0], Number(cell.textContent)])),
      tokens: row.querySelector('td.influence_tokens .held')?.textContent.trim(),
    })),
  );
}

// Asserts the scores table is whole and agrees with the server's record of the game.
export async function checkScores(page, server, tableId, players) {
  const rows = await readScores(page);
  assert.equal(rows.length, players, `#scores has one row per seat: ${JSON.stringify(rows)}`);
  assert.deepEqual(rows.map((r) => r.seat).sort(), [...Array(players).keys()]);
  for (const row of rows) assert.match(row.total ?? '', /^-?\d+$/, `seat ${row.seat}'s total is a number`);
  const winners = rows.filter((r) => r.winner);
  assert.ok(winners.length >= 1, 'at least one row is marked .winner');
  const best = Math.max(...rows.map((r) => Number(r.total)));
  for (const w of winners) assert.equal(Number(w.total), best, 'winners have the highest total');

  const record = await server.json(`/api/tables/${tableId}/record`);
  assert.ok(Array.isArray(record.scores), `the record of a finished game has scores: ${JSON.stringify(record)}`);
  for (const row of rows) {
    const score = record.scores[row.seat];
    assert.equal(Number(row.total), score.total, `seat ${row.seat}'s total is the server's`);
    // The breakdown is the server's, category by category, and adds up to the total.
    for (const [key, points] of Object.entries(row.points))
      assert.equal(points, score[key], `seat ${row.seat}'s ${key} is the server's`);
    for (const key of ['residential_2', 'residential_3', 'residential_4', 'aqueducts', 'temples', 'coins', 'influence_tokens', 'influence_cards'])
      assert.ok(key in row.points, `seat ${row.seat}'s row shows ${key}`);
    assert.equal(Object.values(row.points).reduce((a, b) => a + b, 0), score.total, `seat ${row.seat}'s categories add up to the total`);
    // Influence tokens: points, and the tokens held behind them (1 point per 2).
    const held = Number(/\d+/.exec(row.tokens ?? '')?.[0]);
    assert.match(row.tokens ?? '', /^\(\d+ tokens?\)$/, `seat ${row.seat}'s influence tokens held are shown`);
    assert.equal(Math.floor(held / 2), score.influence_tokens, `seat ${row.seat}: ${held} tokens make ${score.influence_tokens} points`);
  }
  // Rows by place, 1st first; a shared place is marked "=".
  const places = rows.map((r) => r.place);
  assert.deepEqual(places, [...places].sort((a, b) => a - b), `rows are in order of place: ${places}`);
  assert.equal(places[0], 1, 'the first row is 1st');
  for (const row of rows) {
    assert.equal(row.winner, row.place === 1, `seat ${row.seat}: marked winner exactly when 1st`);
    const sharing = rows.filter((r) => r.place === row.place).length > 1;
    assert.match(row.placeText, new RegExp(`^${sharing ? '= ' : ''}${row.place}(st|nd|rd|th)$`), `seat ${row.seat}'s place in words`);
  }
  assert.deepEqual(
    winners.map((w) => w.seat).sort(),
    [...record.winners].sort(),
    'the rows marked .winner are the server\'s winners',
  );
  return rows;
}

// Plays tables to the end quickly, without their pages: the page opens a WebSocket of its own for
// each seat (`seats`: [{token, table}]), says hello with the seat's token, follows the table, and
// makes a random legal move from the view's `moves` whenever it is that seat's turn (seeded; a
// little pause between moves keeps under the server's rate limit). Resolves with each seat's
// table, seat, move count and the game's result.
export async function playOverSockets(page, seats, { seedValue = 1, timeout = 60000 } = {}) {
  return page.evaluate(async ({ seats, seedValue, timeout }) => {
    const { applyPatch } = await import('/patch.js');
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const play = ({ token, table }, index) => new Promise((resolve, reject) => {
      let a = (seedValue + index * 7919) >>> 0;
      const rng = () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
      const socket = new WebSocket(`${scheme}//${location.host}/ws`);
      const timer = setTimeout(() => fail(new Error(`table ${table}: not over within ${timeout} ms`)), timeout);
      let view = null;
      let version = null;
      let seat = null;
      let pending = false;
      let requests = 0;
      let moves = 0;
      const send = (message) => socket.send(JSON.stringify({ ...message, id: ++requests }));
      const fail = (error) => {
        clearTimeout(timer);
        socket.close();
        reject(error);
      };
      const act = () => {
        if (!view || pending) return;
        if (view.result) {
          clearTimeout(timer);
          socket.close();
          resolve({ table, seat, moves, result: view.result });
          return;
        }
        if (view.to_act !== seat || view.moves.length === 0) return;
        pending = true;
        moves += 1;
        const move = view.moves[Math.floor(rng() * view.moves.length)];
        const at = version;
        setTimeout(() => send({ type: 'move', table, version: at, move_id: `e2e-${moves}`, move }), 25);
      };
      socket.onopen = () => send({ type: 'hello', token });
      socket.onerror = () => fail(new Error(`table ${table}: the WebSocket failed`));
      socket.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.type === 'welcome') send({ type: 'watch', table });
        else if (message.type === 'snapshot' && message.table === table) {
          view = message.view;
          version = message.version;
          seat = message.seat;
          pending = false;
          act();
        } else if (message.type === 'patch' && message.table === table && view) {
          if (message.from !== version) {
            if (message.from > version) send({ type: 'sync', table });
            return;
          }
          view = applyPatch(view, message.ops);
          version = message.to;
          if (message.move_id) pending = false; // the patch of this seat's move acknowledges it
          act();
        } else if (message.type === 'error') {
          if (message.code === 'stale_version') return; // a snapshot follows
          if (message.code === 'rate_limited') {
            setTimeout(() => ((pending = false), act()), 500);
            return;
          }
          fail(new Error(`table ${table}: ${message.code}: ${message.message}`));
        }
      };
    });
    return Promise.all(seats.map(play));
  }, { seats, seedValue, timeout });
}

// How far the page scrolls sideways (0: not at all), and the visible elements that stick out on
// the right, to say what is too wide.
export async function sideways(page) {
  return page.evaluate(() => {
    const width = Math.min(window.innerWidth, window.screen.width); // a phone's page may widen its viewport
    const over = document.documentElement.scrollWidth - width;
    const culprits = [...document.querySelectorAll('body *')]
      .filter((element) => element.checkVisibility() && element.getBoundingClientRect().right > width + 0.5)
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${[...element.classList].join('.')} right=${Math.round(element.getBoundingClientRect().right)}`);
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, over: Math.max(0, over), culprits };
  });
}

// Links, buttons, fields and pictures without a name a screen reader can say.
export async function unnamed(page) {
  return page.evaluate(() => {
    const name = (element) =>
      (element.getAttribute('aria-label') || element.textContent || element.getAttribute('title') || '').trim() ||
      (element.id && document.querySelector(`label[for="${element.id}"]`)?.textContent.trim()) ||
      element.closest('label')?.textContent.trim() ||
      '';
    return [...document.querySelectorAll('a, button, input, select, [role="img"], img')]
      .filter((element) => element.checkVisibility() && !name(element))
      .map((element) => element.outerHTML.slice(0, 120));
  });
}
