// cor-server serves the client at `/`: every file it loads is there, it runs without errors and
// offers the sign-in; a guest gets to the lobby (connected), and a reload keeps them signed in.
// index.html preloads the modules the page imports.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { signInAsGuest } from './game.js';
import { Harness, repoRoot } from './support.js';

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

// index.html asks for every module at once (modulepreload) instead of one level of imports after
// another: its list is the modules app.js imports, directly or not, no more and no fewer.
test('index.html preloads exactly the modules app.js imports', () => {
  const web = path.join(repoRoot, 'web');
  const imported = new Set();
  const visit = (file) => {
    for (const [, target] of fs.readFileSync(path.join(web, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const module = path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
      if (imported.has(module)) continue;
      imported.add(module);
      visit(module);
    }
  };
  visit('app.js');
  const page = fs.readFileSync(path.join(web, 'index.html'), 'utf8');
  const preloaded = [...page.matchAll(/<link rel="modulepreload" href="\/([^"]+)"/g)].map(([, file]) => file);
  assert.deepEqual([...preloaded].sort(), [...imported].sort());
  assert.equal(new Set(preloaded).size, preloaded.length, 'no module twice');
});
