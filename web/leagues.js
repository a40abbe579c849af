// The league pages, drawn from the HTTP API (docs/protocol.md, "Leagues and ratings"): the list
// of leagues and the form that creates one (#/leagues), a league with its settings, seasons and
// sign-up (#/league/<id>), and a season's divisions with standings and schedules
// (#/league/<id>/season/<n>).
import { h, fill } from './dom.js';
import { describeTimeControl, describeDeadline, describeRules, awayBadge } from './table_text.js';
import { DataPage, seasonStatus, playerLink } from './pages.js';
import { t, ordinal, formatDate } from './i18n.js';

const kDefaultPoints = { 2: [1, 0], 3: [2, 1, 0], 4: [3, 2, 1, 0] };

const leagueHref = (id) => `#/league/${id}`;
const seasonHref = (id, season) => `#/league/${id}/season/${season}`;

const currentSeason = (league) => league.seasons[league.seasons.length - 1] ?? null;

function describePoints(points) {
  return points.map((value, place) => `${ordinal(place + 1)} ${t('count.points', { count: value })}`).join(', ');
}

// --- #/leagues -------------------------------------------------------------------------------------

export class LeaguesPage extends DataPage {
  constructor(app) {
    super(app, 'leagues');
    this.title = 'nav.leagues';
    this.body = document.getElementById('league-list');
    this.bindCreateForm();
  }

  fetch() {
    return this.app.get('/api/leagues');
  }

  // The form is part of the page's HTML (what was typed survives a re-draw); the list is drawn.
  render() {
    if (!this.route) return;
    this.showAccount();
    const list = document.getElementById('league-list');
    if (this.error) return void fill(list, h('p', { class: 'page-error' }, this.app.errorText(this.error)));
    if (!this.data) return;
    const leagues = this.data.leagues;
    const me = this.app.user?.id;
    fill(list, leagues.length
      ? h('table', { class: 'grid', id: 'league-table' },
          h('caption', { class: 'sr-only' }, t('nav.leagues')),
          h('thead', {}, h('tr', {}, ['leagues.col.league', 'leagues.col.organizer', 'leagues.col.players', 'leagues.col.rules', 'leagues.col.season'].map((key) => h('th', { scope: 'col' }, t(key))))),
          h('tbody', {}, leagues.map((league) => {
            const season = currentSeason(league);
            return h('tr', { 'data-league': league.id },
              h('th', { scope: 'row' }, h('a', { href: leagueHref(league.id) }, league.name)),
              h('td', {}, playerLink(league.organizer, me)),
              h('td', {}, String(league.options.players)),
              h('td', {}, describeRules(league.options)),
              h('td', { class: 'season-status', 'data-status': season?.status ?? 'none' },
                season ? h('a', { href: seasonHref(league.id, season.season) }, t('leagues.seasonState', { season: season.season, state: seasonStatus(season.status) })) : h('span', { class: 'muted' }, t('leagues.noSeason'))));
          })))
      : h('p', { class: 'muted' }, t('leagues.none')));
  }

  // The create form for registered players; guests are told to register.
  showAccount() {
    const guest = this.app.guest;
    document.getElementById('league-create-form').hidden = guest !== false;
    document.getElementById('leagues-guest').hidden = guest !== true;
  }

  bindCreateForm() {
    const form = document.getElementById('league-create-form');
    const field = (name) => document.getElementById(`league-${name}`);
    let sizeEdited = false;
    const fit = () => {
      const players = Number(field('players').value);
      const size = field('division-size');
      size.min = String(players);
      if (!sizeEdited) size.value = String(Math.min(12, 2 * players));
      const half = Math.max(0, Math.floor(Number(size.value) / 2));
      for (const name of ['promote', 'relegate']) field(name).max = String(half);
      field('points').placeholder = kDefaultPoints[players].join(', ');
    };
    field('players').addEventListener('change', fit);
    field('division-size').addEventListener('input', () => {
      sizeEdited = true;
      fit();
    });
    fit();
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const players = Number(field('players').value);
      const body = {
        name: field('name').value.trim(),
        options: { players, rules: field('rules').value, shrine: field('shrine').checked },
        days: Number(field('days').value),
        division_size: Number(field('division-size').value),
        games_per_pairing: Number(field('games-per-pairing').value),
        promote: Number(field('promote').value),
        relegate: Number(field('relegate').value),
        undo: field('undo').checked,
        chat: field('chat').value,
      };
      const pointsText = field('points').value.trim();
      if (pointsText) {
        const points = pointsText.split(/[\s,;]+/).filter(Boolean).map(Number);
        if (points.some((value) => !Number.isInteger(value)))
          return this.app.showError({ message: t('leagues.create.pointsWhole') });
        if (points.length !== players)
          return this.app.showError({ message: t('leagues.create.pointsCount', { count: players }) });
        body.points = points;
      }
      const league = await this.act(document.getElementById('league-create-submit'), () => this.app.send('/api/leagues', body));
      if (!league) return;
      form.reset();
      sizeEdited = false;
      fit();
      location.hash = leagueHref(league.id);
    });
  }
}

// --- Sign-up and the organizer's buttons (the league page and the season page) -------------------

// The season open for sign-up: who signed up, and Sign up / Withdraw for registered players.
function signupPanel(page, league, season) {
  const app = page.app;
  const me = app.user?.id;
  const signedUp = season.signups.some((user) => user.id === me);
  let action = null;
  if (app.guest === true)
    action = h('p', { id: 'signup-guest', class: 'muted' }, t('signup.guest'));
  else if (app.guest === false)
    action = signedUp
      ? h('button', { id: 'withdraw', type: 'button', class: 'secondary', onclick: (event) => page.signup(event.currentTarget, false) }, t('signup.withdraw', { season: season.season }))
      : h('button', { id: 'signup', type: 'button', onclick: (event) => page.signup(event.currentTarget, true) }, t('signup.signup', { season: season.season }));
  return h('section', { id: 'signup-panel', class: 'panel', 'data-season': season.season },
    h('h2', {}, t('signup.title', { season: season.season })),
    h('p', {}, t('signup.openSince', { date: formatDate(season.opened) }),
      signedUp ? h('strong', {}, t('signup.signedUp')) : null,
      t('signup.soFar', { players: t('count.players', { count: season.signups.length }), seats: league.options.players })),
    season.signups.length
      ? h('ol', { id: 'signups' }, season.signups.map((user) => h('li', { 'data-user': user.id }, playerLink(user, me))))
      : h('p', { class: 'muted' }, t('signup.nobody')),
    h('div', { class: 'buttons' }, action));
}

// The organizer's (and admins') buttons for the league's current season (`season` may be null: no
// season yet).
function organizerPanel(page, league, season) {
  if (league.organizer.id !== page.app.user?.id && !page.app.user?.admin) return null;
  const button = (id, text, request, after) =>
    h('button', { id, type: 'button', onclick: (event) => page.manage(event.currentTarget, request, after) }, text);
  let buttons;
  let hint = null;
  if (!season) {
    buttons = button('open-signup', t('organizer.open'), `/api/leagues/${league.id}/seasons`);
  } else if (season.status === 'signup') {
    buttons = button('start-season', t('organizer.start', { season: season.season }), `/api/leagues/${league.id}/seasons/${season.season}/start`, 'season');
    hint = t('organizer.startHint');
  } else if (season.status === 'playing') {
    buttons = button('close-season', t('organizer.close', { season: season.season }), `/api/leagues/${league.id}/seasons/${season.season}/close`, 'season');
    hint = t('organizer.closeHint');
  } else {
    return null;
  }
  return h('section', { id: 'league-admin', class: 'panel', 'aria-label': t('organizer.title') },
    h('h2', {}, t('organizer.title')),
    h('div', { class: 'buttons' }, buttons),
    hint ? h('p', { class: 'muted small' }, hint) : null);
}

// Sign-up and management, shared by the league and season pages.
class LeagueDataPage extends DataPage {
  async signup(button, join) {
    const league = this.data.league;
    const reply = await this.act(button, () => this.app.send(`/api/leagues/${league.id}/${join ? 'signup' : 'withdraw'}`));
    if (reply) await this.refresh();
  }

  // `after` 'season': show the season's page (its divisions once started).
  async manage(button, path, after) {
    const reply = await this.act(button, () => this.app.send(path));
    if (!reply) return;
    const target = seasonHref(this.data.league.id, reply.season);
    if (after === 'season' && location.hash !== target) location.hash = target;
    else await this.refresh();
  }
}

// --- #/league/<id> ---------------------------------------------------------------------------------

export class LeaguePage extends LeagueDataPage {
  constructor(app) {
    super(app, 'league');
    this.title = 'league.label';
  }

  async fetch({ id }) {
    const league = await this.app.get(`/api/leagues/${id}`);
    const last = currentSeason(league);
    const season = last ? await this.app.get(`/api/leagues/${id}/seasons/${last.season}`) : null;
    return { league, season };
  }

  draw({ league, season }) {
    const me = this.app.user?.id;
    this.root.dataset.league = league.id;
    this.root.dataset.organizer = String(league.organizer.id === me);
    const options = league.options;
    const settings = [
      [t('league.playersPerTable'), String(options.players)],
      [t('create.rules'), describeRules(options)],
      [t('create.timePerMove'), describeTimeControl(league.time_control)],
      [t('league.undo'), t(league.undo === false ? 'league.undoOff' : 'league.undoOn')],
      [t('chat.title'), t(`chat.setting.${['all', 'players', 'off'].includes(league.chat) ? league.chat : 'all'}`)],
      [t('league.divisionSize'), t('league.upTo', { players: t('count.players', { count: league.division_size }) })],
      [t('league.gamesPerPairing'), t('league.meet', { count: league.games_per_pairing })],
      [t('league.points'), describePoints(league.points)],
      [t('league.promotion'), t(league.promote ? 'league.promoted' : 'league.nobodyUp', { count: league.promote })],
      [t('league.relegation'), t(league.relegate ? 'league.relegated' : 'league.nobodyDown', { count: league.relegate })],
    ];
    return [
      h('header', { class: 'page-head' },
        h('h1', {}, league.name),
        h('p', { class: 'muted' }, t('league.organizedBy'), playerLink(league.organizer, me), t('league.created', { date: formatDate(league.created) }),
          h('a', { href: '#/leagues' }, t('league.all')))),
      h('div', { class: 'league-grid' },
        h('div', {},
          organizerPanel(this, league, season),
          season?.status === 'signup' ? signupPanel(this, league, season) : null,
          h('section', { class: 'panel' },
            h('h2', {}, t('league.seasons')),
            league.seasons.length
              ? h('ol', { id: 'seasons', class: 'table-list' }, [...league.seasons].reverse().map((item) =>
                  h('li', { 'data-season': item.season, 'data-status': item.status },
                    h('div', {}, h('a', { href: seasonHref(league.id, item.season) }, t('season.title', { season: item.season })), ` · ${seasonStatus(item.status)}`),
                    h('span', { class: 'muted' }, seasonDates(item)))))
              : h('p', { class: 'muted' }, t('league.noSeason')),
            h('button', { id: 'league-refresh', type: 'button', class: 'secondary', onclick: () => this.refresh() }, t('common.refresh')))),
        h('section', { class: 'panel', 'aria-labelledby': 'league-settings-title' },
          h('h2', { id: 'league-settings-title' }, t('league.settings')),
          h('dl', { id: 'league-settings', class: 'facts' }, settings.map(([term, text]) => [h('dt', {}, term), h('dd', {}, text)])))),
    ];
  }
}

function seasonDates(season) {
  if (season.finished) return `${formatDate(season.started)} – ${formatDate(season.finished)}`;
  if (season.started) return t('season.started', { date: formatDate(season.started) });
  return t('season.signupSince', { date: formatDate(season.opened) });
}

// --- #/league/<id>/season/<n> ----------------------------------------------------------------------

// Each column's key; `standings.<key>` is its title, `standings.<key>.short` the abbreviation a
// phone shows instead (the title stays for screen readers).
const kStandingsColumns = ['played', 'wins', 'forfeits', 'points', 'score', 'influence', 'coins'];

export class SeasonPage extends LeagueDataPage {
  constructor(app) {
    super(app, 'season');
    this.title = 'season.label';
  }

  async fetch({ id, season }) {
    const [league, data] = await Promise.all([this.app.get(`/api/leagues/${id}`), this.app.get(`/api/leagues/${id}/seasons/${season}`)]);
    return { league, season: data };
  }

  // A league game of this season was created or changed: refresh.
  concerns(league) {
    return this.route && league && String(league.id) === String(this.route.id) && String(league.season) === String(this.route.season);
  }

  draw({ league, season }) {
    const me = this.app.user?.id;
    this.root.dataset.league = league.id;
    this.root.dataset.season = season.season;
    this.root.dataset.status = season.status;
    const current = currentSeason(league);
    const next = current && current.season > season.season ? current : null;
    const finishedGames = season.divisions.reduce((sum, division) => sum + division.tables.filter((table) => table.status === 'finished').length, 0);
    const allGames = season.divisions.reduce((sum, division) => sum + division.tables.length, 0);
    return [
      h('header', { class: 'page-head' },
        h('h1', {}, h('a', { href: leagueHref(league.id) }, league.name), ` · ${t('season.title', { season: season.season })}`),
        h('p', { class: 'muted' },
          h('span', { id: 'season-status' }, seasonStatus(season.status)),
          ` · ${seasonDates(season)}`,
          allGames ? ` · ${t('season.finishedGames', { finished: finishedGames, games: t('count.games', { count: allGames }) })}` : '',
          ' ', h('button', { id: 'season-refresh', type: 'button', class: 'secondary', onclick: () => this.refresh() }, t('common.refresh')))),
      next ? h('p', { id: 'next-season', class: 'panel notice-panel' },
        h('a', { href: leagueHref(league.id) }, t('season.next', { season: next.season, state: seasonStatus(next.status) })), '.') : null,
      current?.season === season.season ? organizerPanel(this, league, season) : null,
      season.status === 'signup' ? signupPanel(this, league, season) : null,
      season.divisions.length
        ? h('div', { class: 'divisions' }, season.divisions.map((division) => this.division(league, season, division)))
        : season.status !== 'signup' ? h('p', { class: 'muted' }, t('season.noDivision')) : null,
      season.status === 'finished' ? h('p', { class: 'muted small' }, t('season.legend')) : null,
    ];
  }

  division(league, season, division) {
    const me = this.app.user?.id;
    const promoted = new Set(division.promoted ?? []);
    const relegated = new Set(division.relegated ?? []);
    const titleId = `division-${division.division}-title`;
    return h('section', { class: 'panel division', 'data-division': division.division, 'aria-labelledby': titleId },
      h('h2', { id: titleId }, t('season.division', { division: division.division })),
      h('table', { class: 'grid standings' },
        h('caption', {}, t('season.standings')),
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col', class: 'num' }, t('standings.rank')), h('th', { scope: 'col' }, t('scores.player')),
          kStandingsColumns.map((key) => h('th', { scope: 'col', class: 'num', title: t(`standings.${key}`) },
            h('span', { class: 'long' }, t(`standings.${key}`)), h('span', { class: 'short', 'aria-hidden': 'true' }, t(`standings.${key}.short`)))))),
        h('tbody', {}, division.standings.map((row) => {
          const away = division.players?.find((player) => player.id === row.user.id)?.away_until;
          const change = promoted.has(row.user.id) ? 'promoted' : relegated.has(row.user.id) ? 'relegated' : null;
          const classes = [row.user.id === me ? 'me' : '', change ?? ''].filter(Boolean).join(' ');
          return h('tr', { 'data-user': row.user.id, 'data-rank': row.rank, 'data-change': change ?? undefined, class: classes || undefined },
            h('td', { class: 'rank' }, String(row.rank)),
            h('th', { scope: 'row' }, playerLink(row.user, me),
              change ? h('span', { class: `mark ${change}`, title: t(`season.${change}`) },
                h('span', { 'aria-hidden': 'true' }, change === 'promoted' ? ' ↑' : ' ↓'),
                h('span', { class: 'sr-only' }, ` (${t(`season.${change}`)})`)) : null,
              awayBadge(away)),
            kStandingsColumns.map((key) => h('td', { class: key }, String(row[key]))));
        }))),
      h('h3', {}, t('season.games')),
      division.tables.length
        ? h('ol', { class: 'schedule table-list' }, division.tables.map((table) => this.game(table)))
        : h('p', { class: 'muted' }, t('season.noGame')));
  }

  game(table) {
    const me = this.app.user?.id;
    const seat = table.players.findIndex((user) => user.id === me);
    const myTurn = table.status === 'playing' && seat >= 0 && table.to_act === seat;
    let state;
    if (table.status === 'finished') {
      const order = table.players.map((user, index) => index).sort((a, b) => (table.places?.[a] ?? 9) - (table.places?.[b] ?? 9));
      state = h('span', { class: 'places' }, order.map((index, i) =>
        h('span', { class: 'place', 'data-user': table.players[index].id, 'data-place': table.places?.[index] ?? '' },
          i ? ' · ' : '',
          `${ordinal(table.places?.[index] ?? 0)} ${table.players[index].name}`,
          table.scores ? ` (${table.scores[index]})` : '')));
    } else if (table.status === 'playing') {
      const toAct = table.players[table.to_act];
      state = h('span', {},
        myTurn ? h('strong', { class: 'turn-mark' }, t('table.yourTurn')) : toAct ? t('table.toPlay', { name: toAct.name }) : t('season.playing'),
        table.deadline ? [' · ', h('span', { 'data-deadline': table.deadline }, describeDeadline(table.deadline))] : null);
    } else {
      state = h('span', {}, table.status === 'waiting' ? t('lobby.state.waiting') : table.status);
    }
    const link = t(table.status === 'finished' ? 'lobby.scores' : seat >= 0 ? (myTurn ? 'season.play' : 'lobby.open') : 'lobby.watch');
    return h('li', { 'data-table': table.id, 'data-status': table.status, class: myTurn ? 'your-turn' : undefined },
      h('div', {},
        h('div', { class: 'seating' }, table.players.map((user, index) =>
          h('span', { class: 'seated' }, index ? t('season.versus') : '', h('span', { class: `emissary seat-${index}`, 'aria-hidden': 'true' }, String(index + 1)),
            ` ${user.name}${user.id === me ? t('common.you') : ''}`, awayBadge(user.away_until)))),
        h('div', { class: 'muted' }, state)),
      h('a', { class: 'button-link', href: `#/table/${table.id}`, 'data-action': 'open', 'aria-label': t('season.linkLabel', { link, table: table.id }) }, link),
      table.status === 'finished' ? h('a', { class: 'button-link secondary', href: `#/replay/${table.id}`, 'data-action': 'replay', 'aria-label': t('season.linkLabel', { link: t('replay.label'), table: table.id }) }, t('replay.label')) : null);
  }
}
