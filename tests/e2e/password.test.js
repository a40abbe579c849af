// Account life in the browser: a forgotten password set again from the sign-in form's "Forgot your
// password?" link, the link read from the mail a real SMTP relay received (python3-aiosmtpd, which
// keeps each mail as a file of a Maildir); a guest who registers from the top bar's "Register to
// keep your games" and finds their game in My games; and the settings page's password change.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { createTable, post, register, signIn, signInAsGuest, waitConnection } from './game.js';
import { Harness, sleep } from './support.js';

const kSite = 'http://rome.example.org';

async function freePort() {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

// aiosmtpd on a loopback port, keeping mails in a Maildir; stopped by stop().
async function startRelay() {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gcor-e2e-smtp-'));
  // Debian's python3 with python3-aiosmtpd, as the server tests use (GCOR_PYTHON: another one).
  const child = spawn(process.env.GCOR_PYTHON || '/usr/bin/python3', ['-m', 'aiosmtpd', '-n', '-l', `127.0.0.1:${port}`, '-c', 'aiosmtpd.handlers.Mailbox', path.join(dir, 'box')],
    { stdio: 'ignore' });
  for (let i = 0; ; ++i) {
    const up = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(socket.end() && true));
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    if (i > 400) throw new Error('the SMTP relay did not start');
    await sleep(25);
  }
  return {
    url: `smtp://127.0.0.1:${port}`,
    // The mails received so far, as their raw text.
    mails() {
      const box = path.join(dir, 'box', 'new');
      return fs.existsSync(box) ? fs.readdirSync(box).map((name) => fs.readFileSync(path.join(box, name), 'utf8')) : [];
    },
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit').catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// The link of the first mail whose text holds `prefix`, quoted-printable soft breaks undone.
async function linkInMail(relay, prefix) {
  for (let i = 0; i < 400; ++i) {
    for (const raw of relay.mails()) {
      const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      const at = text.indexOf(prefix);
      if (at >= 0) return text.slice(at).match(/^[^\s"<>]+/)[0];
    }
    await sleep(25);
  }
  throw new Error(`no mail with ${prefix}`);
}

test('a forgotten password is set again from the sign-in form\'s link and the mail', { timeout: 90000 }, async () => {
  const h = new Harness('password-reset');
  const relay = await startRelay();
  try {
    await h.run(async () => {
      const server = await h.server({ extraArgs: ['--smtp-url', relay.url, '--public-url', kSite, '--mail-delay', '0'] });
      const ann = await register(server, 'Ann');
      await post(server, '/api/email', ann.token, { email: 'ann@example.org' });
      const confirm = await linkInMail(relay, `${kSite}/api/email/confirm?token=`);
      assert.equal((await fetch(`${server.url}${confirm.slice(kSite.length)}`)).status, 200);

      const browser = await h.browser();
      const page = await h.page(browser, 'ann');
      await page.goto(`${server.url}/`);
      await page.locator('#signin').waitFor({ state: 'visible' });
      assert.equal(await page.locator('#forgot-form').isVisible(), false);
      await page.getByRole('button', { name: 'Forgot your password?' }).click();
      await page.locator('#forgot-email').fill('ann@example.org');
      await page.locator('#forgot-submit').click();
      await page.waitForFunction(() => /^If the address is known, a mail is on its way/.test(document.querySelector('#forgot-status').textContent));
      await h.screenshot(page, 'forgot');

      // The mail's link opens the reset page (the site's address is the server's here).
      const link = await linkInMail(relay, `${kSite}/#/reset?token=`);
      await page.goto(`${server.url}${link.slice(kSite.length)}`);
      await page.locator('#reset').waitFor({ state: 'visible' });
      await page.locator('#reset-password').fill('a new secret');
      await page.locator('#reset-submit').click();
      // The page signs in with the new password, and says what happened.
      await page.locator('#lobby').waitFor({ state: 'visible' });
      await waitConnection(page, 'open');
      assert.equal(await page.locator('#me').textContent(), 'Ann');
      await page.waitForFunction(() => /Your new password is set/.test(document.querySelector('#notice').textContent));
      // The old password no longer signs in; the new one does.
      const login = (password) => page.evaluate(async (body) => (await fetch('/api/login', {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
      })).status, { name: 'Ann', password });
      assert.equal(await login('secret-Ann'), 401);
      assert.equal(await login('a new secret'), 200);

      // The link works once: opened again, it says so.
      await page.goto(`${server.url}${link.slice(kSite.length)}`);
      await page.locator('#reset').waitFor({ state: 'visible' });
      await page.locator('#reset-password').fill('a third secret');
      await page.locator('#reset-submit').click();
      await page.waitForFunction(() => /This link does not work/.test(document.querySelector('#reset-status').textContent));
      assert.deepEqual(h.pageErrors, []);
    });
  } finally {
    await relay.stop();
  }
});

test('a guest registers to keep their games and finds the game in My games', { timeout: 60000 }, async () => {
  const h = new Harness('password-guest');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'gaius');
    await signInAsGuest(page, server.url, 'Gaius');
    const table = await createTable(page, { players: 2, seats: ['human'] });

    await page.getByRole('link', { name: 'Register to keep your games' }).click();
    await page.locator('#register-form').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#guest-form').isVisible(), false, 'a guest is not offered to be a guest again');
    assert.equal(await page.locator('#register-guest-title').isVisible(), true);
    await page.locator('#register-name').fill('Gaius');
    await page.locator('#register-password').fill('secret-Gaius');
    await page.locator('#register-submit').click();
    await page.locator('#lobby').waitFor({ state: 'visible' });
    await waitConnection(page, 'open');
    await page.waitForFunction(() => document.querySelector('#nav-register').hidden);
    await page.locator(`#my-games li[data-table="${table}"]`).waitFor();
    await h.screenshot(page, 'registered-guest');

    // The account signs in elsewhere with its password and has the same game.
    const other = await h.page(browser, 'gaius-elsewhere');
    await signIn(other, server.url, 'Gaius');
    await other.locator(`#my-games li[data-table="${table}"]`).waitFor();

    // The settings page changes the password; the other browser's session ends.
    await other.goto(`${server.url}/#/settings`);
    await other.locator('#settings-password-form').waitFor();
    await other.locator('#settings-password-old').fill('wrong password');
    await other.locator('#settings-password-new').fill('another secret');
    await other.locator('#settings-password-save').click();
    await other.waitForFunction(() => /wrong name or password/i.test(document.querySelector('#settings-password-state').textContent));
    await other.locator('#settings-password-old').fill('secret-Gaius');
    await other.locator('#settings-password-save').click();
    await other.waitForFunction(() => /^Your password is changed/.test(document.querySelector('#settings-password-state').textContent));
    await page.locator('#signin').waitFor({ state: 'visible', timeout: 20000 });
    assert.deepEqual(h.pageErrors, []);
  });
});
