// Takes the screenshots of docs/web.md: the table at 1280×800 and at 390×844 (a phone), a
// 3-player game against two bots a few rounds in, with a hand card picked to show where it can be
// built and what it costs. Run: node tests/e2e/docs-screenshots.js (after building cor-server).
import fs from 'node:fs';
import path from 'node:path';
import { clickOne, createTable, signInAsGuest, startTable, tableState, waitForTurnOrEnd } from './game.js';
import { Harness, kPhone, random, repoRoot } from './support.js';

const out = path.join(repoRoot, 'docs', 'images');
fs.mkdirSync(out, { recursive: true });

const h = new Harness('docs-screenshots');
await h.run(async () => {
  const server = await h.server();
  const browser = await h.browser();
  const rng = random(7);
  const shots = [
    ['table-desktop.png', { viewport: { width: 1280, height: 800 } }],
    ['table-phone.png', { ...kPhone, deviceScaleFactor: 1 }],
  ];
  const page = await h.page(browser, 'desk', shots[0][1]);
  await signInAsGuest(page, server.url, 'Ann');
  const tableId = await createTable(page, { players: 3, seats: ['greedy', 'greedy'] });
  await startTable(page);
  // Play until round 4's actions with a buildable hand card, then pick it.
  for (let steps = 0; steps < 400; ++steps) {
    const state = await waitForTurnOrEnd(page);
    if (state.status !== 'playing') throw new Error('the game ended before the picture');
    const ready = state.round >= 4 && (await page.locator('#hand [data-select]').count()) > 0;
    if (ready) break;
    await clickOne(page, rng, { filter: (option) => option.kind === 'move' });
  }
  // The costliest card, so that the cells show a price when it needs coins.
  await page.locator('#hand [data-select]:has(.card-note)').or(page.locator('#hand [data-select]')).first().click();
  await page.evaluate(() => window.scrollTo(0, document.querySelector('.offer-panel').getBoundingClientRect().top + window.scrollY - 8));
  await page.screenshot({ path: path.join(out, shots[0][0]) });

  // The same player on a phone (the same session token), the same card picked.
  const token = await page.evaluate(() => localStorage.getItem('gcor.token'));
  const phone = await h.page(browser, 'phone', shots[1][1]);
  await phone.goto(server.url);
  await phone.evaluate(({ value, id }) => {
    localStorage.setItem('gcor.token', value);
    location.hash = `#/table/${id}`;
  }, { value: token, id: tableId });
  await phone.reload();
  await phone.waitForSelector('#table[data-status="playing"][data-my-turn="true"] #hand [data-select]');
  await phone.locator('#hand [data-select]:has(.card-note)').or(phone.locator('#hand [data-select]')).first().tap();
  await phone.evaluate(() => window.scrollTo(0, document.querySelector('.my-panel').getBoundingClientRect().top + window.scrollY - 4));
  await phone.screenshot({ path: path.join(out, shots[1][0]) });
  console.log(`table ${tableId}, version ${(await tableState(page)).version}: ${shots.map(([name]) => path.join('docs/images', name)).join(', ')}`);
});
