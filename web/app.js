// The browser client: signing in, the lobby, and the table page, over one WebSocket
// (docs/protocol.md); leagues, ratings and profiles from the HTTP API. Routes: #/ the lobby,
// #/table/<id> a table, #/leagues, #/league/<id>, #/league/<id>/season/<n>, #/ratings,
// #/player/<id>, #/replay/<id>[/<move>], #/review/<id>, #/register (a guest's registration), #/reset?token=<hex>
// (a forgotten password's mailed link).
import { Connection } from './connection.js';
import { applyPatch } from './patch.js';
import { Catalogue, CardDialog } from './cards.js';
import { TablePage } from './table.js';
import { describeDeadline, tableName } from './table_text.js';
import { LobbyPage } from './lobby.js';
import { LeaguesPage, LeaguePage, SeasonPage } from './leagues.js';
import { RatingsPage, ProfilePage } from './ratings.js';
import { ReplayPage } from './replay.js';
import { SettingsPage, notificationsOn } from './settings.js';
import { PasswordPages } from './password.js';
import { t, language, setLanguage, onLanguage, translateStatic } from './i18n.js';

const kTokenKey = 'gcor.token';

// Every error code of the server (docs/protocol.md, "Errors") has the client's own words
// (`error.<code>`). In English the server's message follows where it says more; the server speaks
// only English, so another language shows its own words instead (for a refused move, the words
// of the engine's `reason`).
const kWithMessage = new Set(['illegal_move', 'wrong_state']);
// Codes whose English words are the server's message itself, which says what is wrong.
const kMessageOnly = new Set(['bad_json', 'too_deep', 'unknown_type', 'bad_field', 'hello_first', 'not_seated', 'not_started',
  'too_many_connections', 'cannot_undo', 'chat_not_allowed', 'limit_reached', 'mail_unavailable']);
// Codes that mean the same wherever they come from; for the others, an answer of the HTTP API
// (leagues, ratings) is shown in the server's own words, which name what is missing or wrong.
const kGeneral = new Set(['offline', 'rate_limited', 'storage_failed', 'internal', 'bad_token']);
const kErrorCodes = new Set(['bad_json', 'too_deep', 'unknown_type', 'bad_field', 'hello_first', 'bad_token', 'not_found', 'table_full',
  'seat_taken', 'already_seated', 'not_seated', 'not_started', 'already_started', 'not_full', 'spectators_not_allowed',
  'not_your_turn', 'illegal_move', 'stale_version', 'game_over', 'rate_limited', 'too_many_connections', 'internal',
  'bad_credentials', 'name_taken', 'storage_failed', 'forbidden', 'registered_only', 'wrong_state', 'cannot_undo',
  'chat_not_allowed', 'limit_reached', 'mail_unavailable', 'token_expired', 'seat_reserved', 'cannot_invite',
  'not_finished', 'analysis_busy', 'offline']);
const kMoveReasons = new Set(['malformed_move', 'game_over', 'not_your_turn', 'wrong_phase', 'card_not_available', 'bad_space',
  'space_taken', 'unreasonable_space', 'already_built', 'already_produced', 'bad_cell', 'cell_occupied', 'not_adjacent',
  'city_too_large', 'aqueduct_conflict', 'not_enough_coins', 'pointless_produce', 'bad_deck', 'bad_keep', 'bad_order']);

const sentence = (text) => {
  const trimmed = String(text).trim();
  if (!trimmed) return trimmed;
  return `${trimmed[0].toUpperCase()}${trimmed.slice(1)}${/[.!?]$/.test(trimmed) ? '' : '.'}`;
};

export function errorText(error) {
  const english = language() === 'en';
  if (!kErrorCodes.has(error.code)) return error.message || String(error); // the client's own words
  if (english && error.message && (kMessageOnly.has(error.code) || (error.api && !kGeneral.has(error.code)))) return sentence(error.message);
  const words = t(`error.${error.code}`);
  if (error.code === 'illegal_move' && !english) return kMoveReasons.has(error.reason) ? `${words} ${t(`reason.${error.reason}`)}` : words;
  if (kWithMessage.has(error.code) && error.message && english) return `${words} ${sentence(error.message)}`;
  return words;
}

// What a panel says under its input when the server refused (the chat, the settings): in English
// the server's message, which says exactly why; in another language the client's words.
export function refusalText(error) {
  if (error.code === 'offline' || language() !== 'en' || !error.message) return errorText(error);
  return sentence(error.message);
}

const kRoutes = [
  [/^#\/table\/(t[0-9a-f]{16})$/, (m) => ({ page: 'table', id: m[1] })],
  [/^#\/leagues$/, () => ({ page: 'leagues' })],
  [/^#\/league\/(\d+)$/, (m) => ({ page: 'league', id: m[1] })],
  [/^#\/league\/(\d+)\/season\/(\d+)$/, (m) => ({ page: 'season', id: m[1], season: m[2] })],
  [/^#\/ratings$/, () => ({ page: 'ratings' })],
  [/^#\/settings$/, () => ({ page: 'settings' })],
  [/^#\/player\/(\d+)$/, (m) => ({ page: 'profile', id: m[1] })],
  [/^#\/replay\/(t[0-9a-f]{16})(?:\/(\d+))?$/, (m) => ({ page: 'replay', id: m[1], move: Number(m[2] ?? 0) })],
  [/^#\/review\/(t[0-9a-f]{16})$/, (m) => ({ page: 'replay', id: m[1], move: 0, review: true })],
  [/^#\/register$/, () => ({ page: 'register' })],
  [/^#\/reset\?token=([0-9a-f]{64})$/, (m) => ({ page: 'reset', token: m[1] })],
];

function parseRoute() {
  for (const [pattern, route] of kRoutes) {
    const match = pattern.exec(location.hash);
    if (match) return route(match);
  }
  return { page: 'lobby' };
}

const kSections = ['signin', 'reset', 'lobby', 'table', 'leagues', 'league', 'season', 'ratings', 'profile', 'replay', 'settings'];
const kNavLinks = { lobby: 'nav-lobby', leagues: 'nav-leagues', league: 'nav-leagues', season: 'nav-leagues', ratings: 'nav-ratings', settings: 'nav-settings' };

class App {
  constructor() {
    this.token = localStorage.getItem(kTokenKey);
    this.guestName = null;
    this.user = null;
    this.guest = null; // from the welcome: guests may not join leagues or rated tables
    this.muted = new Set();
    this.catalogue = null;
    this.connection = null;
    this.route = null;
    this.syncing = new Set(); // tables asked for a snapshot, until it comes
    this.tablePage = new TablePage(this);
    this.lobby = new LobbyPage(this);
    this.passwordPages = new PasswordPages(this);
    this.pages = {
      leagues: new LeaguesPage(this),
      league: new LeaguePage(this),
      season: new SeasonPage(this),
      ratings: new RatingsPage(this),
      profile: new ProfilePage(this),
      replay: new ReplayPage(this),
      settings: new SettingsPage(this),
    };
    this.leagueTables = []; // league games announced in the notice shown
    this.applyPatch = applyPatch;
    this.errorText = errorText;
    this.refusalText = refusalText;
  }

  async init() {
    translateStatic(document);
    this.bindLanguageSwitch();
    this.bindSignIn();
    this.passwordPages.bind();
    document.getElementById('logout').addEventListener('click', () => this.signOut());
    window.addEventListener('hashchange', () => this.navigate());
    window.addEventListener('online', () => this.connection?.retryNow());
    setInterval(() => this.tick(), 1000);
    // League pages are not pushed: they read again now and then while they are shown.
    setInterval(() => this.refreshPage(), 20000);
    document.addEventListener('visibilitychange', () => this.refreshPage());
    try {
      this.catalogue = await Catalogue.load();
      this.cardDialog = new CardDialog(this.catalogue);
    } catch (error) {
      this.showError(error);
      setTimeout(() => location.reload(), 5000);
      return;
    }
    // A forgotten password's link works signed in or not: it ends every session anyway.
    const route = parseRoute();
    if (route.page === 'reset') this.passwordPages.showReset(route.token);
    else if (this.token) this.connect();
    else this.show('signin');
  }

  // The switch in the top bar; every page draws itself again in the new language, in place.
  bindLanguageSwitch() {
    const select = document.getElementById('language');
    select.value = language();
    select.addEventListener('change', () => setLanguage(select.value));
    onLanguage(() => {
      select.value = language();
      this.redraw();
    });
  }

  redraw() {
    this.showConnection(document.getElementById('connection').dataset.state, { retryAt: this.retryAt });
    this.lobby.showAccount();
    this.tablePage.relabel();
    const page = this.route?.page;
    if (page === 'table') this.tablePage.render();
    else if (page === 'lobby' || (this.user && !this.pages[page])) this.lobby.render();
    else if (page === 'settings') this.pages.settings.load();
    else if (this.pages[page]) this.pages[page].render();
    if (this.cardDialog?.dialog.open) this.cardDialog.open(Number(this.cardDialog.dialog.dataset.shows), this.cardDialog.opener);
    this.updateTitle();
  }

  // --- Session ---------------------------------------------------------------------------------

  bindSignIn() {
    document.getElementById('guest-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const name = document.getElementById('guest-name').value.trim();
      if (!name) return this.showError({ message: t('signin.guest.empty') });
      this.guestName = name;
      this.connect();
    });
    const account = (form, path) =>
      document.getElementById(form).addEventListener('submit', async (event) => {
        event.preventDefault();
        const fields = event.target.elements;
        const body = { name: fields.name.value.trim(), password: fields.password.value };
        try {
          const reply = await this.post(path, body, path === '/api/register' ? this.passwordPages.registerToken() : undefined);
          fields.password.value = '';
          this.saveToken(reply.token);
          this.connect();
        } catch (error) {
          this.showError(error);
        }
      });
    account('login-form', '/api/login');
    account('register-form', '/api/register');
  }

  async post(path, body, token) {
    const headers = { 'Content-Type': 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    let response;
    try {
      response = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
    } catch {
      throw { code: 'offline', message: 'the server cannot be reached' };
    }
    const reply = await response.json().catch(() => ({}));
    if (!response.ok) throw { code: reply.code, message: reply.message || `HTTP ${response.status}` };
    return reply;
  }

  // The HTTP API of leagues, ratings and settings: GET or POST, with the session token. Errors are
  // thrown as {code, message, status, api: true}.
  async api(method, path, body) {
    const headers = {};
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (method !== 'GET') headers['Content-Type'] = 'application/json';
    let response;
    try {
      response = await fetch(path, { method, headers, cache: 'no-store', body: method === 'GET' ? undefined : JSON.stringify(body ?? {}) });
    } catch {
      throw { code: 'offline', message: 'the server cannot be reached', api: true };
    }
    const reply = await response.json().catch(() => ({}));
    if (!response.ok) {
      if (reply.code === 'bad_token' && method !== 'GET') this.sessionExpired();
      throw { code: reply.code, message: reply.message || `HTTP ${response.status}`, status: response.status, api: true };
    }
    return reply;
  }

  get(path) {
    return this.api('GET', path);
  }

  send(path, body) {
    return this.api('POST', path, body);
  }

  saveToken(token) {
    this.token = token;
    localStorage.setItem(kTokenKey, token);
  }

  connect() {
    this.connection?.stop();
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    this.connection = new Connection({
      url: `${scheme}//${location.host}/ws`,
      hello: () => (this.token ? { type: 'hello', token: this.token } : { type: 'hello', name: this.guestName }),
      onWelcome: (welcome) => this.welcome(welcome),
      onMessage: (message) => this.receive(message),
      onState: (state, detail) => this.showConnection(state, detail),
    });
    this.connection.start();
  }

  welcome(welcome) {
    this.user = welcome.user;
    this.guest = welcome.user.guest === true;
    this.muted = new Set(welcome.muted ?? []); // users whose chat lines this user does not want
    this.saveToken(welcome.token);
    const me = document.getElementById('me');
    me.textContent = this.user.name;
    me.href = `#/player/${this.user.id}`;
    document.getElementById('nav').hidden = false;
    document.getElementById('logout').hidden = false;
    this.lobby.showAccount();
    this.passwordPages.showAccount();
    this.hideError();
    this.syncing.clear();
    this.lobby.connected();
    this.route = null; // enter the page again: follow its table on this new connection
    this.navigate();
  }

  async signOut() {
    const token = this.token;
    this.forgetSession();
    this.show('signin');
    if (token) await this.post('/api/logout', {}, token).catch(() => {});
  }

  // No session in this browser any more (signed out, or ended by a password's reset).
  forgetSession() {
    this.connection?.stop();
    this.connection = null;
    this.token = null;
    this.user = null;
    this.guest = null;
    localStorage.removeItem(kTokenKey);
    const me = document.getElementById('me');
    me.textContent = '';
    me.removeAttribute('href');
    document.getElementById('nav').hidden = true;
    document.getElementById('logout').hidden = true;
    this.passwordPages.showAccount();
    this.showConnection('idle'); // signed out: no connection is wanted, so none is missing
  }

  // --- Messages the server sends on its own ----------------------------------------------------

  receive(message) {
    switch (message.type) {
      case 'tables':
      case 'lobby_update':
        return this.lobby.receive(message);
      case 'my_games':
        this.lobby.receive(message);
        this.dropStaleTurnNotice();
        return this.updateTitle();
      case 'table':
        this.lobby.receive(message);
        return this.tablePage.onSummary(message.table);
      case 'snapshot':
        this.syncing.delete(message.table);
        if (message.table !== this.tablePage.id) return this.startedElsewhere(message);
        return this.tablePage.onSnapshot(message);
      case 'patch':
        return this.tablePage.onPatch(message);
      case 'forfeited':
        return this.tablePage.onForfeited(message);
      case 'chat':
        return this.tablePage.onChat(message);
      case 'chat_deleted':
        return this.tablePage.onChatDeleted(message);
      case 'your_turn':
        return this.yourTurn(message);
      // Invitations: to me (new or withdrawn), or mine answered (declined, expired): My games.
      case 'invitation':
      case 'invitation_withdrawn':
      case 'invitation_declined':
      case 'invitation_expired':
        return this.lobby.refreshMyGames();
      case 'league_table':
        return this.leagueTable(message.table);
      case 'error':
        if (message.hello && message.code === 'bad_token') return this.sessionExpired();
        return this.showError(message);
      default:
        return undefined; // replies that their requests handle (welcome, ack of a retry, seated, …)
    }
  }

  sessionExpired() {
    this.connection?.stop();
    this.token = null;
    localStorage.removeItem(kTokenKey);
    this.showError({ code: 'bad_token' });
    this.show('signin');
  }

  yourTurn(message) {
    this.lobby.refreshMyGames();
    this.notifyTurn(message.table);
    if (this.route?.page === 'table' && this.route.id === message.table) return;
    // The notice of a new league game already leads there.
    if (!document.getElementById('notice').hidden && this.leagueTables.some((table) => table.id === message.table)) return;
    this.notice(t('notice.yourTurn', { table: this.tableLabel(message.table) }), `#/table/${message.table}`);
    this.turnNoticeTable = message.table;
  }

  // A table this page sat down at and then left before its start has started: the page stops
  // following it (the seat stays), so that its turns come as `your_turn`; it may be one already.
  startedElsewhere(message) {
    this.connection?.request({ type: 'leave', table: message.table }).catch(() => {});
    if (message.seat !== null && message.view?.to_act === message.seat) this.yourTurn({ table: message.table });
  }

  // A system notification (settings.js), unless the player is looking at that very table.
  notifyTurn(table) {
    if (!notificationsOn()) return;
    if (!document.hidden && this.route?.page === 'table' && this.route.id === table) return;
    const notification = new Notification(t('notification.title'), { body: t('notice.yourTurn', { table: this.tableLabel(table) }), tag: `turn-${table}` });
    notification.onclick = () => {
      window.focus();
      location.hash = `#/table/${table}`;
      notification.close();
    };
  }

  // A "your turn" notice goes once that game has ended or the turn has passed.
  dropStaleTurnNotice() {
    if (this.turnNoticeTable === undefined) return;
    const game = this.lobby.myGames.find((entry) => entry.id === this.turnNoticeTable);
    if (!game || (game.status === 'playing' && game.your_turn)) return;
    document.getElementById('notice').hidden = true;
    this.turnNoticeTable = undefined;
  }

  // A season started: the server created league games for this player (one message each).
  leagueTable(summary) {
    this.lobby.refreshMyGames();
    if (document.getElementById('notice').hidden) this.leagueTables = [];
    if (!this.leagueTables.some((table) => table.id === summary.id)) this.leagueTables.push(summary);
    const league = summary.league;
    const where = league ? t('notice.leagueWhere', { league: league.name, season: league.season, division: league.division }) : '';
    if (this.leagueTables.length === 1) this.notice(t('notice.leagueGame', { where }), `#/table/${summary.id}`, { keep: this.leagueTables });
    else
      this.notice(t('notice.leagueGames', { count: this.leagueTables.length, where }),
        league ? `#/league/${league.id}/season/${league.season}` : '#/', { keep: this.leagueTables });
    if (this.route?.page === 'season' && this.pages.season.concerns(league)) this.pages.season.refresh();
  }

  refreshPage() {
    if (document.visibilityState !== 'visible' || !this.user) return;
    const page = this.route?.page;
    if (page === 'league' || page === 'season') this.pages[page].refresh();
  }

  // --- Navigation ------------------------------------------------------------------------------

  navigate() {
    const route = parseRoute();
    if (route.page === 'reset') {
      this.route = route; // leaving it for any page enters that page
      return this.passwordPages.showReset(route.token);
    }
    if (!this.user) {
      // Signed out, or connecting: a page that needs an account waits for the sign-in.
      if (!this.connection) {
        if (this.token) this.connect();
        else this.show('signin');
      }
      return;
    }
    // The register form is a guest's way to keep their games; others have an account already.
    if (route.page === 'register' && !this.guest) {
      location.hash = '#/';
      return;
    }
    const previous = this.route;
    if (previous && JSON.stringify(previous) === JSON.stringify(route)) return;
    if (previous?.page === 'table' && (route.page !== 'table' || previous.id !== route.id)) this.stopFollowing(previous.id);
    this.route = route;
    for (const link of new Set(Object.values(kNavLinks))) {
      if (link === kNavLinks[route.page]) document.getElementById(link).setAttribute('aria-current', 'page');
      else document.getElementById(link).removeAttribute('aria-current');
    }
    if (route.page === 'register') {
      this.tablePage.reset(null);
      this.show('signin');
    } else if (route.page === 'table') {
      if (this.tablePage.id !== route.id) this.tablePage.reset(route.id);
      this.show('table');
      this.tablePage.render();
      this.watch(route.id);
    } else if (this.pages[route.page]) {
      this.tablePage.reset(null);
      this.show(route.page);
      this.pages[route.page].load(route);
    } else {
      this.tablePage.reset(null);
      this.show('lobby');
      this.lobby.render();
      this.lobby.refreshMyGames();
      this.lobby.loadFriends();
    }
    this.updateTitle();
  }

  // Leaving a table's page stops following it, except a seat before the start, which `leave`
  // would give up.
  stopFollowing(id) {
    const page = this.tablePage;
    if (page.id === id && page.seat !== null && !page.view) return;
    this.connection?.request({ type: 'leave', table: id }).catch(() => {});
  }

  show(page) {
    for (const name of kSections) document.getElementById(name).hidden = name !== page;
    if (page === 'signin') this.passwordPages.showSignIn();
  }

  // --- Requests --------------------------------------------------------------------------------

  async call(request) {
    try {
      return await this.connection.request(request);
    } catch (error) {
      this.showError(error);
      return null;
    }
  }

  async watch(id) {
    try {
      await this.connection.request({ type: 'watch', table: id });
    } catch (error) {
      if (error.code === 'offline') return; // watched again after the reconnection
      this.showError(error);
      if (error.code === 'not_found' || error.code === 'spectators_not_allowed') location.hash = '#/';
    }
  }

  sync(id) {
    if (this.syncing.has(id)) return;
    this.syncing.add(id);
    this.connection?.request({ type: 'sync', table: id }).catch(() => this.syncing.delete(id));
  }

  async createTable(request) {
    const reply = await this.call(request);
    if (reply) location.hash = `#/table/${reply.table.id}`;
    return reply;
  }

  async sit(id) {
    if (await this.call({ type: 'sit', table: id })) {
      if (this.route?.page === 'table' && this.route.id === id) await this.watch(id);
      else location.hash = `#/table/${id}`;
    }
  }

  async start(id) {
    await this.call({ type: 'start', table: id });
  }

  async leaveSeat(id) {
    if (await this.call({ type: 'leave', table: id })) location.hash = '#/';
  }

  // --- Status ----------------------------------------------------------------------------------

  showConnection(state, detail = {}) {
    const element = document.getElementById('connection');
    element.dataset.state = state;
    this.retryAt = detail.retryAt ?? null;
    element.replaceChildren(this.connectionText(state));
    if (state === 'closed' && this.connection && !this.connection.stopped) {
      const retry = document.createElement('button');
      retry.type = 'button';
      retry.className = 'link';
      retry.textContent = t('connection.retry');
      retry.addEventListener('click', () => this.connection?.retryNow());
      element.append(' ', retry);
    }
  }

  connectionText(state) {
    if (state === 'idle') return '';
    if (state === 'open') return t('connection.open');
    if (state === 'connecting') return t('connection.connecting');
    if (this.retryAt) return t('connection.retrying', { seconds: Math.max(0, Math.ceil((this.retryAt - Date.now()) / 1000)) });
    return t('connection.closed');
  }

  tick() {
    const element = document.getElementById('connection');
    if (element.dataset.state === 'closed' && this.retryAt) element.firstChild.textContent = this.connectionText('closed');
    for (const deadline of document.querySelectorAll('[data-deadline]'))
      deadline.textContent = describeDeadline(Number(deadline.dataset.deadline));
  }

  // What a table is called where only its id is at hand: its name if its summary is known here.
  tableLabel(id) {
    const summary = this.lobby.myGames.find((game) => game.id === id) ?? this.lobby.tables.get(id) ?? (this.tablePage.id === id ? this.tablePage.summary : null);
    return summary ? tableName(summary) : id;
  }

  // The tab counts the games waiting for this player, the table shown included: "(2) Your turn".
  // Otherwise it names the table shown.
  updateTitle() {
    const waiting = new Set(this.lobby.myGames.filter((game) => game.status === 'playing' && game.your_turn).map((game) => game.id));
    const shown = this.route?.page === 'table' ? this.route.id : null;
    if (shown && this.tablePage.id === shown) {
      if (this.tablePage.myTurn) waiting.add(shown);
      else if (this.tablePage.view) waiting.delete(shown); // the table's view is newer than my games
    }
    const named = shown && this.tablePage.id === shown && this.tablePage.summary ? t('title.table', { name: tableName(this.tablePage.summary) }) : t('app.name');
    document.title = waiting.size ? t('title.yourTurn', { count: waiting.size }) : named;
  }

  showError(error) {
    const element = document.getElementById('error');
    element.textContent = errorText(error);
    element.hidden = false;
    clearTimeout(this.errorTimer);
    this.errorTimer = setTimeout(() => this.hideError(), 8000);
  }

  hideError() {
    const element = document.getElementById('error');
    element.hidden = true;
    element.textContent = '';
  }

  // `keep`: the league games this notice announces (any other notice forgets them).
  notice(text, link, { keep } = {}) {
    if (!keep) this.leagueTables = [];
    this.turnNoticeTable = undefined;
    const element = document.getElementById('notice');
    element.replaceChildren(text);
    if (link) {
      const anchor = document.createElement('a');
      anchor.href = link;
      anchor.textContent = t('notice.go');
      element.append(' ', anchor);
    }
    element.hidden = false;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => (element.hidden = true), 10000);
  }
}

new App().init();
