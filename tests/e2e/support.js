// The harness of the browser tests: cor-server on a free loopback port with a temporary database,
// Debian's Chromium through playwright-core, a TCP proxy that can cut the page's connections, and
// artifacts (screenshots; on failure each page's screenshot, console, WebSocket frames and the
// server's log) under tests/e2e/artifacts/<test>/.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '../..');
export const serverBinary = path.resolve(
  repoRoot,
  process.env.COR_SERVER || 'build/dev/server/cor-server',
);
export const webRoot = path.resolve(repoRoot, process.env.GCOR_WEB_ROOT || 'web');
export const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
export const artifactsRoot = path.resolve(process.env.E2E_ARTIFACTS || path.join(here, 'artifacts'));

// E2E_SEED repeats a run: it seeds the server's deals (--test-seed) and the tests' random clicks.
// The default's full game builds a university, picks the school's deck and keeps a card.
export const seed = Number.parseInt(process.env.E2E_SEED || '', 10) || 2;

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A small seeded generator (mulberry32), so that a failing run's clicks can be repeated.
export function random(seedValue) {
  let a = seedValue >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.pick = (items) => items[Math.floor(next() * items.length)];
  return next;
}

async function waitFor(what, check, { timeoutMs = 10000, everyMs = 50 } = {}) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

async function httpGet(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
  return { status: response.status, text: await response.text() };
}

// cor-server on 127.0.0.1, port chosen by the system (--port 0 --port-file), its own database.
export class Server {
  constructor(dir, child, port, logPath) {
    this.dir = dir;
    this.child = child;
    this.port = port;
    this.logPath = logPath;
    this.url = `http://127.0.0.1:${port}`;
  }

  static async start({ extraArgs = [] } = {}) {
    if (!fs.existsSync(serverBinary))
      throw new Error(`no server binary at ${serverBinary} (set COR_SERVER)`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gcor-e2e-'));
    const portFile = path.join(dir, 'port');
    const logPath = path.join(dir, 'server.log');
    const log = fs.openSync(logPath, 'a');
    const args = [
      '--bind', '127.0.0.1',
      '--port', '0',
      '--port-file', portFile,
      '--database', path.join(dir, 'cor.db'),
      '--web-root', webRoot,
      '--bot-delay-ms', '0',
      '--threads', '1',
      '--test-seed', String(seed),
      ...extraArgs,
    ];
    const child = spawn(serverBinary, args, { stdio: ['ignore', log, log] });
    fs.closeSync(log);
    let exited = null;
    child.on('exit', (code, signal) => (exited = { code, signal }));
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    child.on('exit', () => process.off('exit', killOnExit));
    try {
      const port = await waitFor('the server to write its port file', () => {
        if (exited) throw new Error(`cor-server exited (${JSON.stringify(exited)}): ${tail(logPath)}`);
        const text = fs.existsSync(portFile) ? fs.readFileSync(portFile, 'utf8').trim() : '';
        return /^\d+$/.test(text) && Number(text) > 0 ? Number(text) : null;
      });
      const server = new Server(dir, child, port, logPath);
      await waitFor('GET /healthz', async () => {
        if (exited) throw new Error(`cor-server exited (${JSON.stringify(exited)}): ${tail(logPath)}`);
        return (await httpGet(`${server.url}/healthz`).catch(() => ({}))).status === 200;
      });
      return server;
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
  }

  async json(urlPath) {
    const { status, text } = await httpGet(`${this.url}${urlPath}`);
    if (status !== 200) throw new Error(`GET ${urlPath}: ${status} ${text}`);
    return JSON.parse(text);
  }

  // SIGTERM, then SIGKILL after kStopMs. Returns why the stop was not clean, or null: a graceful
  // stop exits 0 (cor-server closes its connections, writes what is pending and returns from
  // main), and a sanitized server (CI's asan build) that found an error or a leak, at exit or
  // before, says so in its log and exits non-zero.
  async stop() {
    let killed = false;
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exit = once(this.child, 'exit');
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => {
        killed = true;
        this.child.kill('SIGKILL');
      }, kStopMs);
      await exit;
      clearTimeout(timer);
    }
    const { exitCode, signalCode } = this.child;
    const report = sanitizerReport(this.logPath);
    if (report) return `it exited (${exitCode ?? signalCode}) with a sanitizer report:\n${report}`;
    let problem = null;
    if (killed) problem = `it did not exit within ${kStopMs / 1000} s of SIGTERM (killed)`;
    else if (signalCode !== null) problem = `it was ended by ${signalCode}`;
    else if (exitCode !== 0) problem = `it exited with status ${exitCode}`;
    return problem && `${problem}; its log ends:\n${tail(this.logPath)}`;
  }

  cleanUp() {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

// The time a server has to stop after SIGTERM: its shutdown gives clients 3 s to answer the
// close, then it writes what is pending (a sanitized server also checks for leaks at exit).
const kStopMs = 15000;

// The lines of a server's log from the first sanitizer report on (ASan, LeakSanitizer, UBSan,
// TSan), at most 60 of them; '' when there is none.
function sanitizerReport(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
  const start = text.search(
    /^(==\d+==ERROR: |WARNING: ThreadSanitizer|SUMMARY: \w+Sanitizer)|: runtime error: /m);
  if (start < 0) return '';
  const from = text.lastIndexOf('\n', start) + 1;
  return text.slice(from).trimEnd().split('\n').slice(0, 60).join('\n');
}

function tail(file, lines = 20) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

// A TCP proxy on 127.0.0.1 in front of the server. `sever()` destroys every connection open
// through it (the browser's WebSocket and any kept-alive HTTP socket); new connections still pass.
// `blackhole()` makes the open connections drop whatever they carry until they are severed: a
// message sent then is lost in the network.
export class Proxy {
  constructor(targetPort) {
    this.targetPort = targetPort;
    this.pairs = new Set();
    this.accepted = 0;
    this.holes = false;
    this.server = net.createServer((client) => this.accept(client));
  }

  static async start(targetPort) {
    const proxy = new Proxy(targetPort);
    proxy.server.listen(0, '127.0.0.1');
    await once(proxy.server, 'listening');
    proxy.port = proxy.server.address().port;
    proxy.url = `http://127.0.0.1:${proxy.port}`;
    return proxy;
  }

  accept(client) {
    this.accepted += 1;
    const upstream = net.connect(this.targetPort, '127.0.0.1');
    const pair = { client, upstream, holed: false };
    this.pairs.add(pair);
    const forward = (from, to) =>
      from.on('data', (chunk) => {
        if (!pair.holed && !to.destroyed) to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    const close = () => {
      client.destroy();
      upstream.destroy();
      this.pairs.delete(pair);
    };
    client.on('close', close);
    upstream.on('close', close);
    client.on('error', close);
    upstream.on('error', close);
  }

  get open() {
    return this.pairs.size;
  }

  blackhole() {
    for (const pair of this.pairs) pair.holed = true;
  }

  // Cuts every connection at once (a reset, as a network loss or a dropped NAT entry would).
  sever() {
    const count = this.pairs.size;
    for (const { client, upstream } of [...this.pairs]) {
      client.resetAndDestroy();
      upstream.destroy();
    }
    this.pairs.clear();
    return count;
  }

  async close() {
    this.sever();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

// Chromium's mobile emulation of a 390×844 phone (an iPhone 12-14's CSS size): touch, a mobile
// viewport (the page's <meta name="viewport"> applies) and a device scale of 2.
export const kPhone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

export async function launchBrowser() {
  if (!fs.existsSync(chromiumPath))
    throw new Error(`no Chromium at ${chromiumPath} (scripts/bootstrap --browser installs it)`);
  const args = [];
  // Chromium refuses its sandbox to root (CI containers run as root).
  if (process.getuid && process.getuid() === 0) args.push('--no-sandbox');
  return chromium.launch({ executablePath: chromiumPath, headless: true, args, timeout: 30000 });
}

// One test's resources and artifacts. `run(fn)` runs the test body; whatever it throws, every
// page's screenshot, console and WebSocket frames and the server's log are saved, then all is
// closed, and the error goes on to the test runner.
export class Harness {
  constructor(name) {
    this.name = name;
    this.dir = path.join(artifactsRoot, name);
    fs.rmSync(this.dir, { recursive: true, force: true });
    fs.mkdirSync(this.dir, { recursive: true });
    this.servers = [];
    this.proxies = [];
    this.browsers = [];
    this.pages = []; // {label, page, lines}
    this.clicks = []; // what the test clicked, in order: clicks.txt, to repeat a run by hand
  }

  // Notes a click (from game.js's clickOne) for clicks.txt.
  clicked(label, option) {
    const what = option.kind === 'move' ? option.move : `select card ${option.card}`;
    this.clicks.push(`${label} v${option.versionBefore}: ${what}`);
  }

  async server(options) {
    const server = await Server.start(options);
    this.servers.push(server);
    return server;
  }

  async proxy(port) {
    const proxy = await Proxy.start(port);
    this.proxies.push(proxy);
    return proxy;
  }

  async browser() {
    const browser = await launchBrowser();
    this.browsers.push(browser);
    return browser;
  }

  // A page in a fresh context (its own cookies and localStorage: another person), recording its
  // console, page errors and WebSocket frames. `contextOptions` go to Playwright's newContext
  // (kPhone: a 390×844 touch screen). The browser prefers English (`locale: 'en-US'`), so the page is
  // English unless a test asks for another locale (`locale: 'de-DE'`: German).
  async page(browser, label, contextOptions = {}) {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-US', ...contextOptions });
    context.setDefaultTimeout(10000);
    // Every page runs under the server's Content-Security-Policy; a violation fails the test.
    await context.addInitScript(() => document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`csp-violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`)));
    const page = await context.newPage();
    const lines = [];
    const stamp = () => new Date().toISOString().slice(11, 23);
    const note = (line) => {
      lines.push(`${stamp()} ${line}`);
      if (lines.length > 20000) lines.splice(0, 5000);
    };
    page.on('console', (message) => {
      note(`console.${message.type()}: ${message.text()}`);
      if (message.text().startsWith('csp-violation:')) this.cspViolations.push(`${label}: ${message.text()}`);
    });
    page.on('pageerror', (error) => {
      note(`pageerror: ${error.stack || error}`);
      this.pageErrors.push(`${label}: ${error.message}`);
    });
    page.on('requestfailed', (request) =>
      note(`requestfailed: ${request.url()} ${request.failure()?.errorText}`));
    page.on('websocket', (socket) => {
      note(`websocket open ${socket.url()}`);
      socket.on('framesent', (frame) => note(`ws> ${String(frame.payload).slice(0, 2000)}`));
      socket.on('framereceived', (frame) => note(`ws< ${String(frame.payload).slice(0, 2000)}`));
      socket.on('close', () => note('websocket closed'));
    });
    this.pages.push({ label, page, lines });
    return page;
  }

  pageErrors = [];
  cspViolations = [];

  async screenshot(page, name) {
    const file = path.join(this.dir, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true, timeout: 15000 });
    return file;
  }

  // A server that stops badly fails the test too: one that exits non-zero or is killed at the
  // end, or that reports a sanitizer error or a leak (CI runs these tests against the asan build).
  async run(body) {
    let failure = null;
    try {
      await body();
      if (this.cspViolations.length) throw new Error(`Content-Security-Policy violations:\n${this.cspViolations.join('\n')}`);
      for (const server of this.servers)
        if (server.child.exitCode !== null || server.child.signalCode !== null)
          throw new Error(`cor-server stopped during the test (${server.child.exitCode ?? server.child.signalCode}): ${tail(server.logPath)}`);
    } catch (error) {
      failure = error;
    }
    if (failure) await this.saveFailure(failure);
    const badStops = await this.close(Boolean(failure));
    if (badStops.length) {
      const message = badStops.join('\n');
      if (failure) {
        fs.appendFileSync(path.join(this.dir, 'error.txt'), `\nand at the end:\n${message}\n`);
        console.log(`# ${this.name}: ${message}`);
      } else {
        failure = new Error(message);
        fs.writeFileSync(path.join(this.dir, 'error.txt'), `${message}\n`);
        console.log(`# ${this.name} failed: artifacts in ${this.dir}`);
      }
    }
    if (failure) throw failure;
  }

  async saveFailure(error) {
    fs.writeFileSync(path.join(this.dir, 'error.txt'), `${error.stack || error}\n`);
    for (const { label, page, lines } of this.pages) {
      fs.writeFileSync(path.join(this.dir, `console-${label}.log`), `${lines.join('\n')}\n`);
      if (page.isClosed()) continue;
      await page
        .screenshot({ path: path.join(this.dir, `failure-${label}.png`), fullPage: true, timeout: 10000 })
        .catch((e) => fs.writeFileSync(path.join(this.dir, `failure-${label}.txt`), String(e)));
      await page
        .content()
        .then((html) => fs.writeFileSync(path.join(this.dir, `failure-${label}.html`), html))
        .catch(() => {});
    }
    console.log(`# ${this.name} failed: artifacts in ${this.dir}`);
  }

  // Closes everything; returns what went wrong when the servers stopped (a line for each).
  async close(failed) {
    if (this.clicks.length)
      fs.writeFileSync(path.join(this.dir, 'clicks.txt'), `${this.clicks.join('\n')}\n`);
    for (const browser of this.browsers) await browser.close().catch(() => {});
    for (const proxy of this.proxies) await proxy.close().catch(() => {});
    const badStops = [];
    for (const [i, server] of this.servers.entries()) {
      const log = `server${i ? i + 1 : ''}.log`;
      const problem = await server.stop();
      if (problem) badStops.push(`cor-server (${log} in ${this.dir}) did not stop cleanly: ${problem}`);
      if (failed || problem) fs.copyFileSync(server.logPath, path.join(this.dir, log));
      server.cleanUp();
    }
    return badStops;
  }
}
