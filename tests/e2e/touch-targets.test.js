// On a phone (390×844, touch) every visible, enabled thing a finger taps is at least 44×44 CSS px
// (WCAG 2.5.5, Target Size, and the platforms' guidance): on the sign-in page with its forgotten
// password form, the reset page, a mail link's page, a guest's registration, the lobby and its
// create form, the leagues, a league, a season, the ratings, the settings, two profiles, a waiting
// table, a 4-player game against bots tapped through to the end (the draft, emissaries, actions, a
// school's draw and keep, a card's details, the chat, the log opened, the final scores), its
// replay and its review by the strong bot. A checkbox's target is the label that holds it (a tap on the label ticks it). Exempt, as
// WCAG's "inline" exception allows: a link inside a line of text (docs/web.md, "Touch targets").
import assert from 'node:assert/strict';
import test from 'node:test';
import { accountPages, clickOne, clickables, createTable, leagueUnderWay, register, signIn, signInAsGuest, startTable, tableState, visit, waitForTurnOrEnd } from './game.js';
import { Harness, kPhone, random, seed } from './support.js';

const kMinTarget = 44;

// The tappable elements on the page that are smaller than kMinTarget in either direction, each
// as "tag#id.class "text" W×H". Hidden, disabled and inline links are left out.
async function smallTargets(page) {
  return page.evaluate((min) => {
    const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [data-move], [data-select], [data-info]';
    // A link in a line of text: inline, beside words of its own block.
    const inlineLink = (element) => {
      if (element.tagName !== 'A' || getComputedStyle(element).display !== 'inline') return false;
      const block = element.parentElement.closest('p, li, dd, td, th, h1, h2, h3, h4');
      return Boolean(block) && block.textContent.trim().length > element.textContent.trim().length;
    };
    // A tick box is tapped through its label.
    const target = (element) =>
      (element.type === 'checkbox' || element.type === 'radio') ? element.closest('label') ?? element.labels?.[0] ?? element : element;
    const seen = new Set();
    const small = [];
    for (const element of document.querySelectorAll(selector)) {
      if (!element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      if (element.disabled || element.closest('[inert]') || inlineLink(element)) continue;
      const tapped = target(element);
      if (seen.has(tapped)) continue;
      seen.add(tapped);
      const box = tapped.getBoundingClientRect();
      if (box.width >= min - 0.5 && box.height >= min - 0.5) continue;
      const name = `${tapped.tagName.toLowerCase()}${tapped.id ? `#${tapped.id}` : ''}${[...tapped.classList].map((c) => `.${c}`).join('')}`;
      const text = (tapped.getAttribute('aria-label') || tapped.textContent || tapped.value || '').trim().replace(/\s+/g, ' ').slice(0, 30);
      small.push(`${name} "${text}" ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
    return small;
  }, kMinTarget);
}

// Collects the small targets of every page checked, by page, so that one run lists them all.
class Offenders {
  constructor() {
    this.byPage = new Map();
  }

  async check(page, what) {
    const small = await smallTargets(page);
    if (small.length === 0) return;
    const known = this.byPage.get(what) ?? new Set();
    for (const line of small) known.add(line);
    this.byPage.set(what, known);
  }

  report() {
    return [...this.byPage].map(([what, lines]) => `${what}:\n  ${[...lines].join('\n  ')}`).join('\n');
  }
}

// The cards of a school or university in view (their titles begin with the building's name).
async function schoolCards(page) {
  return page.evaluate(() => [...document.querySelectorAll('[data-card]')]
    .filter((element) => /^(School|University),/.test(element.title))
    .map((element) => element.dataset.card));
}

test('on a phone every touch target is at least 44×44 px, on every page and in every phase of a game', { timeout: 280000 }, async () => {
  const h = new Harness('touch-targets');
  await h.run(async () => {
    const server = await h.server({ extraArgs: ['--analysis-worlds', '2'] });
    const [ann, bob] = [await register(server, 'Ann'), await register(server, 'Bob')];
    const league = await leagueUnderWay(server, [ann, bob], 'Touch League');
    const offenders = new Offenders();
    const browser = await h.browser();

    // Signed out: the sign-in page, its forgotten password form, the reset page, a mail's page.
    const guest = await h.page(browser, 'guest', kPhone);
    await guest.goto(`${server.url}/`);
    await guest.locator('#signin').waitFor();
    await offenders.check(guest, 'the sign-in page');
    await guest.locator('#forgot-link').tap();
    await guest.locator('#forgot-form').waitFor();
    await offenders.check(guest, 'the forgotten password form');
    await guest.goto(`${server.url}/#/reset?token=${'a'.repeat(64)}`);
    await guest.locator('#reset-form').waitFor();
    await offenders.check(guest, 'the reset page');
    await guest.goto(`${server.url}/api/email/confirm?token=${'0'.repeat(64)}`);
    await offenders.check(guest, "a mail link's page");
    // A guest's registration (the form that keeps a guest's games).
    await signInAsGuest(guest, server.url, 'Gus');
    await guest.evaluate(() => (location.hash = '#/register'));
    await guest.locator('#register-guest-title').waitFor();
    await offenders.check(guest, "a guest's registration");

    const page = await h.page(browser, 'ann', kPhone);
    await signIn(page, server.url, 'Ann');
    await offenders.check(page, 'the lobby');
    await h.screenshot(page, 'lobby');
    for (const [hash, selector, what] of [...accountPages(league, ann.user), [`#/player/${bob.user.id}`, '#profile-friend', "another player's profile"]]) {
      await visit(page, hash, selector);
      await offenders.check(page, what);
    }

    await page.evaluate(() => (location.hash = '#/'));
    // Publisher's rules: seat 0 plays first and confirms the draft's last card itself, so that the
    // draft is tapped whatever the deal.
    const tableId = await createTable(page, { players: 4, seats: ['greedy', 'random', 'greedy'], rules: 'publisher' });
    await offenders.check(page, 'a waiting table');
    await page.evaluate(() => (location.hash = '#/'));
    await page.locator('#my-games li').first().waitFor();
    await offenders.check(page, 'the lobby with a table of hers');
    await page.evaluate((id) => (location.hash = `#/table/${id}`), tableId);
    await startTable(page);

    // The game, tapped through; a school or university is built and drawn from whenever it can be.
    const rng = random(seed);
    const phases = new Set();
    let state = await tableState(page);
    let steps = 0;
    while (state.status === 'playing') {
      state = await waitForTurnOrEnd(page);
      if (state.status !== 'playing') break;
      assert.ok(steps < 1500, 'the game ends within 1500 taps');
      const phase = await page.locator('#phase').textContent();
      const inSchool = await page.locator('#school [data-move], #school [data-select]').count() > 0;
      const what = inSchool ? 'a school' : `the ${phase} phase`;
      phases.add(what);
      await offenders.check(page, what);
      const schools = new Set(await schoolCards(page));
      const options = await clickables(page);
      const toSchool = (option) => schools.has(option.card ?? option.move.split(' ')[1]) || /^school /.test(option.move ?? '');
      const filter = options.some(toSchool) ? toSchool : undefined;
      await clickOne(page, rng, { tap: true, filter, record: (o) => h.clicked('ann', o) });
      steps += 1;
      if (steps === 8) {
        await h.screenshot(page, 'table');
        // A card's details, the chat and the opened log, once.
        await page.locator('[data-info]:visible').first().tap();
        await page.waitForSelector('#card-dialog[open]');
        await offenders.check(page, "a card's details");
        await page.locator('#card-dialog [data-close]').tap();
        await page.locator('#chat-input').fill('Ave');
        await page.locator('#chat-form button[type="submit"]').tap();
        await page.locator('#chat-list li').first().waitFor();
        await page.locator('#log-toggle').tap();
        await page.waitForSelector('.log-panel.open');
        await offenders.check(page, 'the table with the log open and a chat line');
        await page.locator('#log-toggle').tap();
      }
    }
    for (const phase of ['the Draft phase', 'the Emissaries phase', 'the Actions phase', 'a school'])
      assert.ok(phases.has(phase), `the game passed through ${phase}: ${[...phases].join(', ')}`);
    await page.locator('#scores').waitFor();
    await offenders.check(page, 'the final scores');
    await h.screenshot(page, 'scores');
    await page.locator('#replay-link').tap();
    await page.waitForSelector('#replay[data-move="0"]');
    await page.locator('#replay-next').tap();
    await page.waitForSelector('#replay[data-move="1"]');
    await offenders.check(page, 'the replay');
    await page.evaluate((id) => (location.hash = `#/review/${id}`), tableId);
    await page.waitForSelector('#review[data-state="done"]', { state: 'visible', timeout: 90000 });
    await offenders.check(page, "the game's review");

    assert.equal(offenders.byPage.size, 0, `touch targets smaller than ${kMinTarget}×${kMinTarget} px:\n${offenders.report()}`);
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
  });
});
