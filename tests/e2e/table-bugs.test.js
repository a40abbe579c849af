// The table page's small bugs of issue #43, each checked where a player met it: the log's
// "Earlier lines" at a game's start, another player's hand of unknown cards, the ⓘ over a card's
// title, the German final scores at 1280×800, links in the site's colour, bots named by level in
// the replay, replay buttons without rare glyphs, the mail panel when mails are off, headings of
// level one, no id twice, a guest's settings page, the German rules menu and a mail link's page.
import assert from 'node:assert/strict';
import test from 'node:test';
import { createTable, playOverSockets, register, signIn, signInAsGuest, startTable, waitForTurnOrEnd } from './game.js';
import { Harness, seed } from './support.js';

const desktop = { viewport: { width: 1280, height: 800 } };
const kDefaultLinkBlue = 'rgb(0, 0, 238)';

// The boxes of two elements overlap (by more than a rounding pixel).
const overlaps = (a, b) => a.x + a.width > b.x + 1 && b.x + b.width > a.x + 1 && a.y + a.height > b.y + 1 && b.y + b.height > a.y + 1;

test('a game against a bot: the log, hands, card titles, the German final scores and the replay', { timeout: 150000 }, async () => {
  const h = new Harness('table-bugs');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'desk', desktop);
    await signInAsGuest(page, server.url, 'Ann');
    assert.equal(await page.locator('#lobby h1').count(), 1, 'the lobby has a heading of level one');
    const tableId = await createTable(page, { players: 2, seats: ['greedy'] });
    await page.waitForSelector('#table[data-status="waiting"] h1');
    await startTable(page);
    await waitForTurnOrEnd(page);
    await page.waitForSelector('#log li');
    assert.equal(await page.locator('#table h1').count(), 1, 'the table has a heading of level one');

    // At the start the snapshot brings the whole log: nothing earlier to ask for.
    assert.equal(await page.locator('#log-older').isVisible(), false, '"Earlier lines" is hidden when the whole log is shown');

    // The ⓘ of a card that does something sits beside its title, not over it.
    const wraps = await page.$$eval('.card-wrap', (elements) => elements.map((wrap) => {
      const box = (element) => { const r = element.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
      const name = wrap.querySelector('.card-name');
      // A title as long as the longest ("Getreidehof", "Sheep Farm"), whatever this deal shows.
      name.textContent = 'Getreidehof Sheep Farm';
      const range = document.createRange();
      range.selectNodeContents(name);
      return { title: name.textContent, text: box(range), info: box(wrap.querySelector('.card-info')) };
    }));
    assert.ok(wraps.length > 0, 'cards with an ⓘ are shown');
    for (const wrap of wraps) assert.ok(!overlaps(wrap.text, wrap.info), `the ⓘ covers "${wrap.title}": ${JSON.stringify(wrap)}`);

    const token = await page.evaluate(() => localStorage.getItem('gcor.token'));
    await playOverSockets(page, [{ token, table: tableId }], { seedValue: seed });
    await page.waitForSelector('#table[data-status="finished"] #scores');

    // German final scores fit their panel at 1280×800.
    await page.locator('#language').selectOption('de');
    await page.waitForFunction(() => document.documentElement.lang === 'de');
    await page.waitForSelector('#scores');
    const fit = await page.evaluate(() => {
      const panel = document.querySelector('.scores-panel');
      const style = getComputedStyle(panel);
      const inner = panel.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const columns = [...document.querySelectorAll('#scores thead th')].map((th) => `${th.textContent}:${Math.round(th.getBoundingClientRect().width)}`);
      return { table: document.querySelector('#scores').getBoundingClientRect().width, inner, columns };
    });
    assert.ok(fit.table <= fit.inner + 0.5, `the German final scores fit: ${JSON.stringify(fit)}`);
    const scoresText = await page.locator('.scores-panel').textContent();
    assert.doesNotMatch(scoresText, /cor replay/, 'the final screen names no command-line tool');
    for (const link of ['.scores-panel a[href$="/record"]', '#replay-link']) {
      const colour = await page.locator(link).evaluate((a) => getComputedStyle(a).color);
      assert.notEqual(colour, kDefaultLinkBlue, `${link} is in the site's colour`);
    }

    // The replay names the bot by the level the table shows, in the page's language.
    await page.locator('#replay-link').click();
    await page.waitForSelector('#replay[data-move="0"]');
    const replay = await server.json(`/api/tables/${tableId}/replay`);
    await page.evaluate((moves) => (location.hash = `#/replay/${location.hash.split('/')[2]}/${moves}`), replay.moves);
    await page.waitForSelector(`#replay[data-move="${replay.moves}"] #scores`);
    const replayText = await page.locator('#replay').textContent();
    assert.match(replayText, /Bot 2 \(mittel\)/, 'the bot is named by its level');
    assert.doesNotMatch(replayText, /greedy/, 'no internal bot name');
    const buttons = await page.$$eval('.replay-buttons button', (elements) => elements.map((button) => button.textContent).join(' '));
    assert.doesNotMatch(buttons, /[\u23ee\u23ed]/u, `the replay's buttons use common characters: ${buttons}`);
    const repeated = await page.evaluate(() => {
      const seen = new Map();
      for (const element of document.querySelectorAll('[id]')) seen.set(element.id, (seen.get(element.id) ?? 0) + 1);
      return [...seen].filter(([, count]) => count > 1).map(([id]) => id);
    });
    assert.deepEqual(repeated, [], 'no id twice on the replay page reached from the table');
    const heading = await page.locator('#replay h1 a').evaluate((a) => getComputedStyle(a).color);
    assert.notEqual(heading, kDefaultLinkBlue, "the replay heading's table link is in the site's colour");
  });
});

test("another player's hand: its size, the known cards, and the unknown ones only beside known ones", { timeout: 60000 }, async () => {
  const h = new Harness('table-bugs-hand');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'desk', desktop);
    await page.goto(`${server.url}/`);
    // As the table page draws a hand (web/table_text.js), with a stand-in for a card's picture.
    const said = await page.evaluate(async () => {
      const { handContents } = await import('/table_text.js');
      const { h } = await import('/dom.js');
      const say = (hand) => h('div', {}, handContents(hand, (card) => h('span', { 'data-card': card }, `#${card}`))).textContent;
      return { oneUnknown: say([null]), twoUnknown: say([null, null]), mixed: say([17, null]), known: say([17, 4]) };
    });
    assert.equal(said.oneUnknown, 'Hand: 1');
    assert.equal(said.twoUnknown, 'Hand: 2');
    assert.equal(said.mixed, 'Hand: 2#17 + 1 unknown');
    assert.equal(said.known, 'Hand: 2#17#4');
  });
});

test("a guest's settings page asks nothing it may not; the German create form's rules fit; a mail link's page is styled", { timeout: 60000 }, async () => {
  const h = new Harness('table-bugs-pages');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'guest', { ...desktop, locale: 'de-DE' });
    const refused = [];
    page.on('response', (response) => { if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`); });
    await signInAsGuest(page, server.url, 'Gast');

    // The rules menu shows its whole German text: the text is narrower than the menu's box.
    const rules = await page.locator('#create-rules').evaluate((select) => {
      const style = getComputedStyle(select);
      const probe = document.createElement('span');
      probe.style.font = style.font;
      probe.style.whiteSpace = 'pre';
      probe.textContent = select.selectedOptions[0].textContent;
      document.body.append(probe);
      const text = probe.getBoundingClientRect().width;
      probe.remove();
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20; // the arrow
      return { text, room, option: select.selectedOptions[0].textContent };
    });
    assert.ok(rules.text <= rules.room, `the rules menu's text fits: ${JSON.stringify(rules)}`);

    await page.evaluate(() => (location.hash = '#/settings'));
    await page.waitForSelector('#settings-vacation-guest');
    assert.deepEqual(refused, [], 'no request of the settings page was refused');

    await page.goto(`${server.url}/api/email/confirm?token=${'0'.repeat(64)}`);
    const look = await page.evaluate(() => ({
      bar: Boolean(document.querySelector('header.top a[href="/"]')),
      heading: getComputedStyle(document.querySelector('h1')).color,
      font: getComputedStyle(document.body).fontFamily,
    }));
    assert.equal(look.bar, true, "the page has the site's top bar");
    assert.notEqual(look.heading, 'rgb(0, 0, 0)', "the heading is in the site's colour");
    assert.doesNotMatch(look.font, /^"?Times/, "the page is in the site's font");
  });
});

test('with turn mails off, the settings page does not say that mails go to the address', { timeout: 60000 }, async () => {
  const h = new Harness('table-bugs-mail');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'ben', desktop);
    await register(server, 'Ben');
    await signIn(page, server.url, 'Ben');
    // A confirmed address with mails off, as the server would answer (confirming needs a mail).
    await page.route('**/api/email', (route) => route.request().method() === 'GET'
      ? route.fulfill({ json: { available: true, email: 'ben@example.org', confirmed: true, frequency: 'off' } })
      : route.continue());
    await page.evaluate(() => (location.hash = '#/settings'));
    await page.waitForSelector('#settings-email-state');
    const state = await page.locator('#settings-email-state').textContent();
    assert.doesNotMatch(state, /Mails go to/, `the state: ${state}`);
    assert.match(state, /ben@example\.org/, 'the kept address is named');
  });
});
