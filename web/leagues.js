// The league pages, drawn from the HTTP API (docs/protocol.md, "Leagues and ratings"): the list
// of leagues and the form that creates one (#/leagues), a league with its settings, seasons and
// sign-up (#/league/<id>), and a season's divisions with standings and schedules
// (#/league/<id>/season/<n>).
import { h, fill, plural } from './dom.js';
import { describeTimeControl, describeDeadline, awayBadge } from './table.js';
import { DataPage, formatDate, kSeasonStatus, ordinal, playerLink } from './pages.js';

const kDefaultPoints = { 2: [1, 0], 3: [2, 1, 0], 4: [3, 2, 1, 0] };

const leagueHref = (id) => `#/league/${id}`;
const seasonHref = (id, season) => `#/league/${id}/season/${season}`;

function describeRules(options) {
  return `${options.rules === 'publisher' ? 'Publisher' : 'Yucata'} rules${options.shrine ? ', with the Shrine' : ''}`;
}

const currentSeason = (league) => league.seasons[league.seasons.length - 1] ?? null;

function describePoints(points) {
  return points.map((value, place) => `${ordinal(place + 1)} ${plural(value, 'point')}`).join(', ');
}

// --- #/leagues -------------------------------------------------------------------------------------

export class LeaguesPage extends DataPage {
  constructor(app) {
    super(app, 'leagues');
    this.title = 'Leagues';
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
          h('caption', { class: 'sr-only' }, 'Leagues'),
          h('thead', {}, h('tr', {}, ['League', 'Organizer', 'Players', 'Rules', 'Season'].map((title) => h('th', { scope: 'col' }, title)))),
          h('tbody', {}, leagues.map((league) => {
            const season = currentSeason(league);
            return h('tr', { 'data-league': league.id },
              h('th', { scope: 'row' }, h('a', { href: leagueHref(league.id) }, league.name)),
              h('td', {}, playerLink(league.organizer, me)),
              h('td', {}, String(league.options.players)),
              h('td', {}, describeRules(league.options)),
              h('td', { class: 'season-status', 'data-status': season?.status ?? 'none' },
                season ? h('a', { href: seasonHref(league.id, season.season) }, `Season ${season.season}: ${kSeasonStatus[season.status] ?? season.status}`) : h('span', { class: 'muted' }, 'no season yet')));
          })))
      : h('p', { class: 'muted' }, 'No league yet.'));
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
          return this.app.showError({ message: 'League points are whole numbers, separated by commas: for example 3, 2, 1, 0.' });
        if (points.length !== players)
          return this.app.showError({ message: `Give ${plural(players, 'number')} of league points, one per place.` });
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
    action = h('p', { id: 'signup-guest', class: 'muted' }, 'Only registered players can join a league: sign out, then create an account.');
  else if (app.guest === false)
    action = signedUp
      ? h('button', { id: 'withdraw', type: 'button', class: 'secondary', onclick: (event) => page.signup(event.currentTarget, false) }, `Withdraw from season ${season.season}`)
      : h('button', { id: 'signup', type: 'button', onclick: (event) => page.signup(event.currentTarget, true) }, `Sign up for season ${season.season}`);
  return h('section', { id: 'signup-panel', class: 'panel', 'data-season': season.season },
    h('h2', {}, `Season ${season.season}: sign-up`),
    h('p', {}, `Open since ${formatDate(season.opened)}. `,
      signedUp ? h('strong', {}, 'You are signed up. ') : null,
      `${plural(season.signups.length, 'player')} so far; a table seats ${league.options.players}.`),
    season.signups.length
      ? h('ol', { id: 'signups' }, season.signups.map((user) => h('li', { 'data-user': user.id }, playerLink(user, me))))
      : h('p', { class: 'muted' }, 'Nobody yet.'),
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
    buttons = button('open-signup', 'Open sign-up for season 1', `/api/leagues/${league.id}/seasons`);
  } else if (season.status === 'signup') {
    buttons = button('start-season', `Start season ${season.season}`, `/api/leagues/${league.id}/seasons/${season.season}/start`, 'season');
    hint = 'Starting splits the players who signed up into divisions and creates every game of the season.';
  } else if (season.status === 'playing') {
    buttons = button('close-season', `Close season ${season.season}`, `/api/leagues/${league.id}/seasons/${season.season}/close`, 'season');
    hint = 'Close the season once every game is over: promotion and relegation are applied and the next season opens for sign-up.';
  } else {
    return null;
  }
  return h('section', { id: 'league-admin', class: 'panel', 'aria-label': 'Organizer' },
    h('h2', {}, 'Organizer'),
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
    this.title = 'League';
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
      ['Players per table', String(options.players)],
      ['Rules', describeRules(options)],
      ['Time per move', describeTimeControl(league.time_control)],
      ['Undo', league.undo === false ? 'off: every move is final' : 'on: a player may take back the moves of their turn that revealed nothing'],
      ['Chat', { all: 'players and spectators', players: 'players only', off: 'off' }[league.chat ?? 'all']],
      ['Division size', `up to ${plural(league.division_size, 'player')}`],
      ['Games per pairing', `every two players of a division meet ${league.games_per_pairing === 1 ? 'once' : `${league.games_per_pairing} times`} a season`],
      ['League points', describePoints(league.points)],
      ['Promotion', movers(league.promote, 'top', 'up', 'division 1')],
      ['Relegation', movers(league.relegate, 'bottom', 'down', 'the lowest division')],
    ];
    return [
      h('header', { class: 'page-head' },
        h('h1', {}, league.name),
        h('p', { class: 'muted' }, 'Organized by ', playerLink(league.organizer, me), ` · created ${formatDate(league.created)} · `,
          h('a', { href: '#/leagues' }, 'all leagues'))),
      h('div', { class: 'league-grid' },
        h('div', {},
          organizerPanel(this, league, season),
          season?.status === 'signup' ? signupPanel(this, league, season) : null,
          h('section', { class: 'panel' },
            h('h2', {}, 'Seasons'),
            league.seasons.length
              ? h('ol', { id: 'seasons', class: 'table-list' }, [...league.seasons].reverse().map((item) =>
                  h('li', { 'data-season': item.season, 'data-status': item.status },
                    h('div', {}, h('a', { href: seasonHref(league.id, item.season) }, `Season ${item.season}`), ` · ${kSeasonStatus[item.status] ?? item.status}`),
                    h('span', { class: 'muted' }, seasonDates(item)))))
              : h('p', { class: 'muted' }, 'No season yet: the organizer opens the sign-up for the first one.'),
            h('button', { id: 'league-refresh', type: 'button', class: 'secondary', onclick: () => this.refresh() }, 'Refresh'))),
        h('section', { class: 'panel', 'aria-labelledby': 'league-settings-title' },
          h('h2', { id: 'league-settings-title' }, 'Settings'),
          h('dl', { id: 'league-settings', class: 'facts' }, settings.map(([term, text]) => [h('dt', {}, term), h('dd', {}, text)])))),
    ];
  }
}

// "the top 2 players of each division move up a division at the season's end (not from division 1)"
function movers(count, end, way, except) {
  if (!count) return `nobody moves ${way}`;
  const who = count === 1 ? `the ${end} player` : `the ${end} ${count} players`;
  return `${who} of each division move${count === 1 ? 's' : ''} ${way} a division at the season's end (not from ${except})`;
}

function seasonDates(season) {
  if (season.finished) return `${formatDate(season.started)} – ${formatDate(season.finished)}`;
  if (season.started) return `started ${formatDate(season.started)}`;
  return `sign-up since ${formatDate(season.opened)}`;
}

// --- #/league/<id>/season/<n> ----------------------------------------------------------------------

// Each column's key, title and the abbreviation a phone shows instead (the title stays for screen
// readers).
const kStandingsColumns = [
  ['played', 'Played', 'Pl'],
  ['wins', 'Wins', 'W'],
  ['forfeits', 'Forfeits', 'Ff'],
  ['points', 'Points', 'Pts'],
  ['score', 'Score', 'Sc'],
  ['influence', 'Influence', 'Inf'],
  ['coins', 'Coins', 'Co'],
];

export class SeasonPage extends LeagueDataPage {
  constructor(app) {
    super(app, 'season');
    this.title = 'Season';
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
        h('h1', {}, h('a', { href: leagueHref(league.id) }, league.name), ` · Season ${season.season}`),
        h('p', { class: 'muted' },
          h('span', { id: 'season-status' }, kSeasonStatus[season.status] ?? season.status),
          ` · ${seasonDates(season)}`,
          allGames ? ` · ${finishedGames} of ${plural(allGames, 'game')} finished` : '',
          ' ', h('button', { id: 'season-refresh', type: 'button', class: 'secondary', onclick: () => this.refresh() }, 'Refresh'))),
      next ? h('p', { id: 'next-season', class: 'panel notice-panel' },
        h('a', { href: leagueHref(league.id) }, `Season ${next.season} is ${kSeasonStatus[next.status] ?? next.status}`), '.') : null,
      current?.season === season.season ? organizerPanel(this, league, season) : null,
      season.status === 'signup' ? signupPanel(this, league, season) : null,
      season.divisions.length
        ? h('div', { class: 'divisions' }, season.divisions.map((division) => this.division(league, season, division)))
        : season.status !== 'signup' ? h('p', { class: 'muted' }, 'No division.') : null,
      season.status === 'finished' ? h('p', { class: 'muted small' }, '↑ promoted, ↓ relegated for the next season.') : null,
    ];
  }

  division(league, season, division) {
    const me = this.app.user?.id;
    const promoted = new Set(division.promoted ?? []);
    const relegated = new Set(division.relegated ?? []);
    const titleId = `division-${division.division}-title`;
    return h('section', { class: 'panel division', 'data-division': division.division, 'aria-labelledby': titleId },
      h('h2', { id: titleId }, `Division ${division.division}`),
      h('table', { class: 'grid standings' },
        h('caption', {}, 'Standings'),
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col', class: 'num' }, 'Rank'), h('th', { scope: 'col' }, 'Player'),
          kStandingsColumns.map(([, title, short]) => h('th', { scope: 'col', class: 'num', title },
            h('span', { class: 'long' }, title), h('span', { class: 'short', 'aria-hidden': 'true' }, short))))),
        h('tbody', {}, division.standings.map((row) => {
          const away = division.players?.find((player) => player.id === row.user.id)?.away_until;
          const change = promoted.has(row.user.id) ? 'promoted' : relegated.has(row.user.id) ? 'relegated' : null;
          const classes = [row.user.id === me ? 'me' : '', change ?? ''].filter(Boolean).join(' ');
          return h('tr', { 'data-user': row.user.id, 'data-rank': row.rank, 'data-change': change ?? undefined, class: classes || undefined },
            h('td', { class: 'rank' }, String(row.rank)),
            h('th', { scope: 'row' }, playerLink(row.user, me),
              change ? h('span', { class: `mark ${change}`, title: change },
                h('span', { 'aria-hidden': 'true' }, change === 'promoted' ? ' ↑' : ' ↓'),
                h('span', { class: 'sr-only' }, ` (${change})`)) : null,
              awayBadge(away)),
            kStandingsColumns.map(([key]) => h('td', { class: key }, String(row[key]))));
        }))),
      h('h3', {}, 'Games'),
      division.tables.length
        ? h('ol', { class: 'schedule table-list' }, division.tables.map((table) => this.game(table)))
        : h('p', { class: 'muted' }, 'No game.'));
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
        myTurn ? h('strong', { class: 'turn-mark' }, 'Your turn') : toAct ? `${toAct.name} to play` : 'playing',
        table.deadline ? [' · ', h('span', { 'data-deadline': table.deadline }, describeDeadline(table.deadline))] : null);
    } else {
      state = h('span', {}, table.status);
    }
    const link = table.status === 'finished' ? 'Scores' : seat >= 0 ? (myTurn ? 'Play' : 'Open') : 'Watch';
    return h('li', { 'data-table': table.id, 'data-status': table.status, class: myTurn ? 'your-turn' : undefined },
      h('div', {},
        h('div', { class: 'seating' }, table.players.map((user, index) =>
          h('span', { class: 'seated' }, index ? ' vs ' : '', h('span', { class: `emissary seat-${index}`, 'aria-hidden': 'true' }, String(index + 1)),
            ` ${user.name}${user.id === me ? ' (you)' : ''}`, awayBadge(user.away_until)))),
        h('div', { class: 'muted' }, state)),
      h('a', { class: 'button-link', href: `#/table/${table.id}`, 'data-action': 'open', 'aria-label': `${link}: table ${table.id}` }, link),
      table.status === 'finished' ? h('a', { class: 'button-link secondary', href: `#/replay/${table.id}`, 'data-action': 'replay', 'aria-label': `Replay: table ${table.id}` }, 'Replay') : null);
  }
}
