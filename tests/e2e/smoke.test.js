// cor-server serves the client at `/`: every file it loads is there, it runs without errors and
// offers the sign-in; a guest gets to the lobby (connected), and a reload keeps them signed in.
import assert from 'node:assert/strict';
import test from 'node:test';
import { signInAsGuest } from './game.js';
import { Harness } from './support.js';

test('the client loads from / and a guest reaches the lobby', { timeout: 60000 }, async () => {
  const h = new Harness('smoke');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'guest');
    const bad = [];
    page.on('response', (response) => {
      if (response.status() >= 400) bad.push(`${response.status()} ${response.url()}`);
    });

    const response = await page.goto(`${server.url}/`);
    assert.equal(response.status(), 200);
    assert.match(response.headers()['content-type'] ?? '', /^text\/html/);
    await page.locator('#signin').waitFor({ state: 'visible' });
    await h.screenshot(page, 'signin');

    await signInAsGuest(page, server.url, 'Dee');
    await page.reload();
    await page.locator('#lobby').waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.querySelector('#me')?.textContent.includes('Dee'));
    await page.waitForSelector('#connection[data-state="open"]', { state: 'attached', timeout: 15000 });
    assert.equal(await page.locator('#signin').isVisible(), false, 'a reload keeps the guest signed in');
    await h.screenshot(page, 'lobby');

    assert.deepEqual(bad, [], 'every file the page loads is served');
    assert.deepEqual(h.pageErrors, [], 'no uncaught errors in the page');
  });
});
