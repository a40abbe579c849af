// The tournament pages, drawn from the HTTP API (docs/tournaments.md): the list of upcoming, running
// and finished tournaments with sign-up and the form that creates one (#/tournaments), and a
// tournament with its players, standings (tiebreaks Buchholz, then score sum), rounds and their
// tables, and, for a knockout, its bracket drawn as a tree (#/tournament/<id>).
import { h, svg, fill } from './dom.js';
import { describeTimeControl, describeRules } from './table_text.js';
import { DataPage, playerLink } from './pages.js';
import { bindTimeControl } from './lobby.js';
import { t, ordinal, formatDate, formatList } from './i18n.js';

const tournamentHref = (id) => `#/tournament/${id}`;

// The API names a person {user, name}; the pages' links take {id, name}.
const person = (entry) => ({ id: entry.user, name: entry.name });

const kStatuses = new Set(['signup', 'running', 'finished']);
const describeStatus = (status) => (kStatuses.has(status) ? t(`tournament.status.${status}`) : status);

// "Swiss system, 3 rounds" / "knockout, the best 2 of each table go on".
function describeFormat(tournament) {
  if (tournament.format === 'knockout') return t('tournament.knockout', { count: tournament.advance });
  if (tournament.format === 'swiss') return t('tournament.swiss', { count: tournament.rounds_planned });
  return tournament.format;
}

// "Round 2 of 3 under way" while it runs (a knockout's count follows from its players), else
// its state.
function describeProgress(tournament) {
  if (tournament.status !== 'running') return describeStatus(tournament.status);
  return t('tournament.roundOf', { round: tournament.round, count: tournament.rounds_planned });
}

// When it starts (or started: a tournament's detail has its first round's time; the list only the
// start it was planned for, so it says nothing once started).
function describeStart(tournament) {
  if (tournament.status === 'signup')
    return tournament.starts_at ? t('tournament.startsAt', { date: formatDate(tournament.starts_at, 'dateTime') }) : t('tournament.startsByHand');
  const first = Array.isArray(tournament.rounds) ? tournament.rounds.find((round) => round.number === 1) : undefined;
  return first ? t('tournament.startedAt', { date: formatDate(first.started_at, 'dateTime') }) : null;
}

const mayStart = (app, tournament) => tournament.status === 'signup' && (tournament.creator?.user === app.user?.id || app.user?.admin === true);

// Sign up / Leave (registered players, during the sign-up) and Start (the creator or an admin);
// while it runs, Withdraw on the tournament's page for a player still in. `ids`: the buttons' ids
// on the tournament's page; the list's rows use data-action alone.
function actionButtons(page, tournament, { ids = false, canStart = mayStart(page.app, tournament) } = {}) {
  if (tournament.status === 'running' && ids && stillIn(page.app, tournament)) return [withdrawButton(page, tournament)];
  if (tournament.status !== 'signup') return [];
  const id = (name) => (ids ? `tournament-${name}` : undefined);
  const label = (key) => (ids ? undefined : t('tournaments.actionLabel', { action: t(key), tournament: tournament.name }));
  const button = (action, key, secondary) =>
    h('button', { id: id(action), type: 'button', class: secondary ? 'secondary' : undefined, 'data-action': action, 'aria-label': label(key),
      onclick: (event) => page.request(event.currentTarget, tournament.id, action) }, t(key));
  const buttons = [];
  if (page.app.guest === false) {
    if (tournament.joined) buttons.push(button('leave', 'tournament.leave', true));
    else if (tournament.player_count < tournament.max_players) buttons.push(button('join', 'tournament.join'));
  }
  if (canStart) buttons.push(button('start', 'tournament.start'));
  return buttons;
}

// The asking player plays on in this running tournament: not withdrawn, dropped or knocked out.
function stillIn(app, tournament) {
  const me = app.user?.id;
  const row = tournament.standings?.find((item) => item.user === me);
  return tournament.joined === true && row !== undefined && !row.withdrawn && !row.dropped && !row.eliminated;
}

// Withdrawing while it runs (docs/tournaments.md): no later round pairs the player; it cannot be
// undone, so it is asked once more.
const withdrawButton = (page, tournament) =>
  h('button', { id: 'tournament-withdraw', type: 'button', class: 'secondary', 'data-action': 'leave',
    onclick: (event) => {
      if (confirm(t('tournament.withdrawConfirm', { tournament: tournament.name }))) page.request(event.currentTarget, tournament.id, 'leave');
    } }, t('tournament.withdraw'));

// Sign-up, leaving and starting, from the list and from a tournament's page.
class TournamentDataPage extends DataPage {
  // Joining or leaving keeps the page; starting opens the tournament with its first round.
  async request(button, id, action) {
    const reply = await this.act(button, () => this.app.send(`/api/tournaments/${id}/${action}`));
    if (!reply) return;
    if (action === 'start' && location.hash !== tournamentHref(id)) location.hash = tournamentHref(id);
    else await this.refresh();
  }
}

// --- #/tournaments ---------------------------------------------------------------------------------

const kLists = ['upcoming', 'running', 'finished'];

export class TournamentsPage extends TournamentDataPage {
  constructor(app) {
    super(app, 'tournaments');
    this.title = 'nav.tournaments';
    this.body = document.getElementById('tournament-lists');
    this.bindCreateForm();
  }

  fetch() {
    return this.app.get('/api/tournaments');
  }

  // The form is part of the page's HTML (what was typed survives a re-draw); the lists are drawn.
  render() {
    if (!this.route) return;
    this.showAccount();
    const lists = this.body;
    if (this.error) return void fill(lists, h('p', { class: 'page-error' }, this.app.errorText(this.error)));
    if (!this.data) return;
    const focus = document.activeElement;
    const refocus = lists.contains(focus) && focus.dataset.action ? [focus.closest('li')?.dataset.tournament, focus.dataset.action] : null;
    fill(lists, kLists.map((list) => this.list(list, this.data[list] ?? [])));
    if (refocus) lists.querySelector(`li[data-tournament="${CSS.escape(refocus[0] ?? '')}"] [data-action="${refocus[1]}"]`)?.focus({ preventScroll: true });
  }

  // One entry per tournament: its name and creator, format, table size and rules, start, players and
  // state, with its buttons (a list rather than a table: it fits a phone).
  list(list, tournaments) {
    const me = this.app.user?.id;
    const titleId = `tournaments-${list}-title`;
    return h('section', { class: 'tournament-list', 'aria-labelledby': titleId },
      h('h2', { id: titleId }, t(`tournaments.${list}`)),
      tournaments.length
        ? h('ul', { class: 'table-list', id: `tournament-${list}` }, tournaments.map((tournament) =>
            h('li', { 'data-tournament': tournament.id, 'data-status': tournament.status, class: tournament.joined ? 'joined' : undefined },
              h('div', {},
                h('a', { class: 'tournament-name', href: tournamentHref(tournament.id) }, tournament.name),
                tournament.rated ? h('span', { class: 'badge rated' }, t('tag.rated')) : null,
                tournament.joined ? h('strong', { class: 'joined-mark' }, ` ${t('tournament.signedUp')}`) : null,
                h('div', {}, `${describeFormat(tournament)} · ${t('tournaments.tableOf', { count: tournament.players_per_table })} · ${describeRules(tournament)}`),
                h('div', { class: 'muted' },
                  tournament.status === 'signup' ? [describeStart(tournament), ' · '] : null,
                  h('span', { class: 'count' }, t('tournaments.ofMax', { count: tournament.player_count, max: tournament.max_players })), ' · ',
                  h('span', { class: 'state' }, describeProgress(tournament)), ' · ',
                  t('tournaments.by'), playerLink(person(tournament.creator), me))),
              h('div', { class: 'buttons' }, actionButtons(this, tournament)))))
        : h('p', { class: 'muted' }, t(`tournaments.none.${list}`)));
  }

  // The create form for registered players; guests are told to register.
  showAccount() {
    const guest = this.app.guest;
    document.getElementById('tournament-create-form').hidden = guest !== false;
    document.getElementById('tournaments-guest').hidden = guest !== true;
  }

  bindCreateForm() {
    const form = document.getElementById('tournament-create-form');
    const field = (name) => document.getElementById(`tournament-${name}`);
    const timeControl = bindTimeControl(form, 'tournament');
    // Rounds are the Swiss system's; how many go on from a table, the knockout's (fewer than a
    // table seats). A deadline per round is for correspondence.
    const fit = () => {
      const swiss = field('format').value === 'swiss';
      const players = Number(field('players').value);
      const advance = field('advance');
      advance.max = String(players - 1);
      field('max-players').min = String(players);
      if (Number(advance.value) > players - 1) advance.value = String(players - 1);
      const correspondence = field('time').value === 'correspondence';
      for (const [name, shown] of [['rounds', swiss], ['advance', !swiss], ['deadline-hours', correspondence]]) {
        const row = field(name).closest('.field');
        row.hidden = !shown;
        field(name).disabled = !shown;
      }
    };
    for (const name of ['format', 'players', 'time']) field(name).addEventListener('change', fit);
    fit();
    this.defaultStart();
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      // An empty start: its creator starts it.
      const startsAt = field('starts').value ? new Date(field('starts').value).getTime() : null;
      const swiss = field('format').value === 'swiss';
      const body = {
        name: field('name').value.trim(),
        format: field('format').value,
        players_per_table: Number(field('players').value),
        rules: field('rules').value,
        shrine: field('shrine').checked,
        time_control: timeControl(),
        starts_at: startsAt,
        max_players: Number(field('max-players').value),
        rated: field('rated').checked,
      };
      if (swiss) body.rounds = Number(field('rounds').value);
      else body.advance = Number(field('advance').value);
      const hours = field('deadline-hours');
      if (!hours.disabled && hours.value.trim()) body.round_deadline_hours = Number(hours.value);
      const tournament = await this.act(field('create-submit'), () => this.app.send('/api/tournaments', body));
      if (!tournament) return;
      form.reset();
      fit();
      this.defaultStart();
      location.hash = tournamentHref(tournament.id);
    });
  }

  // The next full hour but one, in the browser's time zone (a datetime-local field has no zone).
  defaultStart() {
    const start = new Date(Date.now() + 2 * 3600 * 1000);
    start.setMinutes(0, 0, 0);
    const pad = (n) => String(n).padStart(2, '0');
    document.getElementById('tournament-starts').value =
      `${start.getFullYear()}-${pad(start.getMonth() + 1)}-${pad(start.getDate())}T${pad(start.getHours())}:${pad(start.getMinutes())}`;
  }
}

// --- #/tournament/<id> -----------------------------------------------------------------------------

// Each column's key; `tournament.col.<key>` is its title, `.short` the abbreviation a phone shows
// instead (the title stays for screen readers). A knockout ranks without Buchholz.
const standingsColumns = (format) => (format === 'knockout' ? ['points', 'score_sum', 'games'] : ['points', 'buchholz', 'score_sum', 'games']);

export class TournamentPage extends TournamentDataPage {
  constructor(app) {
    super(app, 'tournament');
    this.title = 'tournament.label';
  }

  fetch({ id }) {
    return this.app.get(`/api/tournaments/${id}`);
  }

  // A table's summary names the tournament shown (a round paired the viewer).
  concerns(summary) {
    return this.route && summary?.tournament && String(summary.tournament.id) === String(this.route.id);
  }

  draw(tournament) {
    const me = this.app.user?.id;
    this.root.dataset.tournament = tournament.id;
    this.root.dataset.status = tournament.status;
    this.root.dataset.format = tournament.format;
    const rounds = [...(tournament.rounds ?? [])].sort((a, b) => a.number - b.number);
    const head = h('header', { class: 'page-head' },
      h('h1', {}, tournament.name),
      h('p', { class: 'muted' },
        h('span', { id: 'tournament-status' }, describeProgress(tournament)),
        [describeFormat(tournament), describeStart(tournament)].filter(Boolean).map((text) => ` · ${text}`),
        ' · ', t('tournaments.by'), playerLink(person(tournament.creator), me), ' · ',
        h('a', { href: '#/tournaments' }, t('tournament.all')), ' ',
        h('button', { id: 'tournament-refresh', type: 'button', class: 'secondary', onclick: () => this.refresh() }, t('common.refresh'))));
    return [
      head,
      h('div', { class: 'tournament-grid' },
        h('div', {},
          tournament.status === 'signup' ? this.signupPanel(tournament) : this.standingsPanel(tournament),
          tournament.format === 'knockout' && rounds.length ? bracketPanel(tournament, rounds, me) : null,
          rounds.length ? this.roundsPanel(tournament, rounds) : null),
        h('div', {},
          tournament.status !== 'signup' ? this.playersPanel(tournament) : null,
          this.settingsPanel(tournament))),
    ];
  }

  signupPanel(tournament) {
    const me = this.app.user?.id;
    const players = tournament.players ?? [];
    return h('section', { id: 'tournament-signup', class: 'panel', 'aria-labelledby': 'tournament-signup-title' },
      h('h2', { id: 'tournament-signup-title' }, t('tournament.signup')),
      h('p', {},
        tournament.joined ? [h('strong', {}, t('tournament.signedUp')), ' '] : null,
        t('tournament.soFarMax', { count: players.length, max: tournament.max_players })),
      players.length
        ? h('ol', { id: 'tournament-players' }, players.map((player) => h('li', { 'data-user': player.user }, playerLink(person(player), me))))
        : h('p', { class: 'muted' }, t('signup.nobody')),
      this.app.guest === true ? h('p', { id: 'tournament-signup-guest', class: 'muted' }, t('tournament.guest')) : null,
      h('div', { class: 'buttons' }, actionButtons(this, tournament, { ids: true, canStart: tournament.can_start === true })),
      tournament.can_start ? h('p', { class: 'muted small' }, t('tournament.startHint')) : null);
  }

  standingsPanel(tournament) {
    const me = this.app.user?.id;
    const standings = tournament.standings ?? [];
    const columns = standingsColumns(tournament.format);
    return h('section', { class: 'panel', 'aria-labelledby': 'tournament-standings-title' },
      h('h2', { id: 'tournament-standings-title' }, t('tournament.standings')),
      standings.length
        ? h('table', { id: 'tournament-standings', class: 'grid standings' },
            h('caption', { class: 'sr-only' }, t('tournament.standings')),
            h('thead', {}, h('tr', {},
              h('th', { scope: 'col', class: 'num' }, t('standings.rank')), h('th', { scope: 'col' }, t('scores.player')),
              columns.map((key) => h('th', { scope: 'col', class: 'num', title: t(`tournament.col.${key}`) },
                h('span', { class: 'long' }, t(`tournament.col.${key}`)), h('span', { class: 'short', 'aria-hidden': 'true' }, t(`tournament.col.${key}.short`)))))),
            h('tbody', {}, standings.map((row) => {
              const state = playerState(row);
              return h('tr', { 'data-user': row.user, 'data-rank': row.rank, 'data-state': state ?? undefined, class: [row.user === me ? 'me' : '', state ? 'out' : ''].filter(Boolean).join(' ') || undefined },
                h('td', { class: 'rank' }, String(row.rank)),
                h('th', { scope: 'row' }, playerLink(person(row), me), state ? h('span', { class: 'badge state' }, describePlayerState(state)) : null),
                columns.map((key) => h('td', { class: `num ${key}` }, formatFigure(row[key]))));
            })))
        : h('p', { class: 'muted' }, t('tournament.noStandings')),
      h('p', { class: 'muted small' }, t(tournament.format === 'knockout' ? 'tournament.legendKnockout' : 'tournament.legendSwiss')));
  }

  // Rounds, the latest first: each with its tables (seats in seat order, a forfeited one marked;
  // places, scores and tournament points once finished) and its byes.
  roundsPanel(tournament, rounds) {
    return h('section', { class: 'panel', 'aria-labelledby': 'tournament-rounds-title' },
      h('h2', { id: 'tournament-rounds-title' }, t('tournament.rounds')),
      [...rounds].reverse().map((round) => {
        const finished = round.tables.filter((table) => table.status === 'finished').length;
        return h('section', { class: 'round', 'data-round': round.number, 'aria-labelledby': `round-${round.number}-title` },
          h('h3', { id: `round-${round.number}-title` }, t('tournament.round', { round: round.number })),
          h('p', { class: 'muted small' },
            t('tournament.roundStarted', { date: formatDate(round.started_at, 'dateTime') }),
            round.deadline ? ` · ${t('tournament.roundDeadline', { date: formatDate(round.deadline, 'dateTime') })}` : '',
            ` · ${t('season.finishedGames', { finished, games: t('count.games', { count: round.tables.length }) })}`),
          h('ol', { class: 'round-tables table-list' }, round.tables.map((table, index) => this.tableItem(table, index))),
          round.byes?.length
            ? h('p', { class: 'byes' }, t('tournament.byes', { count: round.byes.length }), ' ',
                round.byes.map((bye, index) => [index ? ', ' : '', h('span', { class: 'bye', 'data-user': bye.user }, bye.name)]))
            : null);
      }));
  }

  tableItem(table, index) {
    const me = this.app.user?.id;
    const mine = table.seats.some((seat) => seat.user === me);
    const finished = table.status === 'finished';
    const link = t(finished ? 'lobby.scores' : mine ? 'lobby.open' : 'lobby.watch');
    const label = t('tournament.tableNumber', { number: index + 1 });
    return h('li', { 'data-table': table.table, 'data-status': table.status, class: mine ? 'mine' : undefined },
      h('div', {},
        h('strong', {}, label), ' ',
        h('span', { class: 'muted' }, finished ? t('lobby.state.finished') : table.status === 'playing' ? t('season.playing') : t('lobby.state.waiting')),
        h('ul', { class: 'seats' }, table.seats.map((seat) =>
          h('li', { class: 'seat', 'data-user': seat.user, 'data-place': seat.place ?? undefined },
            seat.place ? `${ordinal(seat.place)} ` : '',
            seat.name, seat.user === me ? t('common.you') : '',
            seat.forfeited ? [' ', h('span', { class: 'badge forfeited' }, t('player.forfeited'))] : null,
            seat.place ? h('span', { class: 'muted' }, ` · ${t('tournament.seatResult', { score: seat.score ?? 0, points: t('count.points', { count: seat.points ?? 0 }) })}`) : null)))),
      h('a', { class: 'button-link', href: `#/table/${table.table}`, 'data-action': 'open', 'aria-label': t('tournament.linkLabel', { link, table: label }) }, link));
  }

  playersPanel(tournament) {
    const me = this.app.user?.id;
    const players = tournament.players ?? [];
    return h('section', { class: 'panel', 'aria-labelledby': 'tournament-players-title' },
      h('h2', { id: 'tournament-players-title' }, t('tournament.players', { count: players.length })),
      h('ol', { id: 'tournament-players' }, players.map((player) => {
        const state = playerState(player);
        return h('li', { 'data-user': player.user, 'data-state': state ?? undefined },
          playerLink(person(player), me),
          h('span', { class: 'muted' }, ` · ${player.rating}`),
          state ? h('span', { class: 'badge state' }, describePlayerState(state)) : null);
      })),
      h('div', { class: 'buttons' }, actionButtons(this, tournament, { ids: true })));
  }

  settingsPanel(tournament) {
    const settings = [
      [t('tournament.format'), describeFormat(tournament)],
      [t('league.playersPerTable'), String(tournament.players_per_table)],
      [t('create.rules'), describeRules(tournament)],
      [t('create.timePerMove'), describeTimeControl(tournament.time_control)],
      [t('tournament.startsTerm'), tournament.starts_at ? formatDate(tournament.starts_at, 'dateTime') : t('tournament.startsByHandTerm')],
      [t('tournament.maxPlayers'), String(tournament.max_players)],
      [t('tournament.rated'), t(tournament.rated ? 'tournament.ratedYes' : 'tournament.ratedNo')],
    ];
    if (tournament.round_deadline_hours) settings.push([t('tournament.deadline'), t('count.hours', { count: tournament.round_deadline_hours })]);
    return h('section', { class: 'panel', 'aria-labelledby': 'tournament-settings-title' },
      h('h2', { id: 'tournament-settings-title' }, t('league.settings')),
      h('dl', { id: 'tournament-settings', class: 'facts' }, settings.map(([term, text]) => [h('dt', {}, term), h('dd', {}, text)])));
  }
}

// A player who no longer plays: withdrew, was dropped (did not start), or is out of the knockout.
function playerState(row) {
  if (row.withdrawn) return 'withdrawn';
  if (row.dropped) return 'dropped';
  if (row.eliminated) return 'eliminated';
  return null;
}

const describePlayerState = (state) => t(`tournament.state.${state}`);

// Tournament points may be halves (ties shared).
const formatFigure = (value) => (typeof value === 'number' ? String(Math.round(value * 100) / 100) : '');

// --- The knockout bracket --------------------------------------------------------------------------

// A table's players who went on: those seated in the next round, or, before it is paired, the
// table's best `advance` places.
function advancers(table, nextRound, advance) {
  if (nextRound) {
    const next = new Set(nextRound.tables.flatMap((other) => other.seats.map((seat) => seat.user)));
    return new Set(table.seats.filter((seat) => next.has(seat.user)).map((seat) => seat.user));
  }
  if (table.status !== 'finished') return new Set();
  return new Set(table.seats.filter((seat) => seat.place && seat.place <= advance).map((seat) => seat.user));
}

const kBox = { width: 176, line: 18, pad: 6, gapX: 40, gapY: 14 };
const shorten = (name, max = 20) => (name.length > max ? `${name.slice(0, max - 1)}…` : name);

// Each round a column, each table a box; a box stands level with the tables its players came
// from, and lines join them, so the picture is the tree the rounds made.
function layoutBracket(rounds) {
  const columns = [];
  rounds.forEach((round, r) => {
    const boxes = round.tables.map((table) => {
      const height = kBox.pad * 2 + kBox.line * table.seats.length;
      const users = new Set(table.seats.map((seat) => seat.user));
      const feeders = r ? columns[r - 1].filter((box) => box.table.seats.some((seat) => users.has(seat.user))) : [];
      const wanted = feeders.length ? feeders.reduce((sum, box) => sum + box.y + box.height / 2, 0) / feeders.length - height / 2 : null;
      return { table, height, feeders, wanted, x: r * (kBox.width + kBox.gapX), y: 0 };
    });
    let bottom = 0;
    const order = [...boxes].sort((a, b) => (a.wanted ?? 0) - (b.wanted ?? 0));
    for (const box of r && boxes.every((item) => item.wanted !== null) ? order : boxes) {
      box.y = Math.max(bottom, box.wanted ?? bottom);
      bottom = box.y + box.height + kBox.gapY;
    }
    columns.push(boxes);
  });
  return columns;
}

function bracketPanel(tournament, rounds, me) {
  const columns = layoutBracket(rounds);
  const advance = tournament.advance ?? 1;
  const width = columns.length * (kBox.width + kBox.gapX) - kBox.gapX;
  const height = Math.max(...columns.flat().map((box) => box.y + box.height));
  const pictures = [];
  columns.forEach((boxes, r) => {
    for (const box of boxes) {
      for (const feeder of box.feeders) {
        const fromX = feeder.x + kBox.width;
        const fromY = feeder.y + feeder.height / 2;
        const toY = box.y + box.height / 2;
        const middle = fromX + kBox.gapX / 2;
        pictures.push(svg('path', { class: 'link', d: `M${fromX} ${fromY}H${middle}V${toY}H${box.x}` }));
      }
      const went = advancers(box.table, rounds[r + 1], advance);
      pictures.push(svg('g', { class: `match ${box.table.status}`, transform: `translate(${box.x} ${box.y})` },
        svg('rect', { width: kBox.width, height: box.height, rx: 4 }),
        box.table.seats.map((seat, index) =>
          svg('text', { x: kBox.pad, y: kBox.pad + kBox.line * (index + 0.75), class: [went.has(seat.user) ? 'on' : '', seat.user === me ? 'me' : ''].join(' ').trim() || undefined },
            `${seat.place ? `${ordinal(seat.place)} ` : ''}${shorten(seat.name)}${went.has(seat.user) ? ' →' : ''}`))));
    }
  });
  return h('section', { class: 'panel', 'aria-labelledby': 'tournament-bracket-title' },
    h('h2', { id: 'tournament-bracket-title' }, t('tournament.bracket')),
    h('div', { class: 'bracket-scroll', tabindex: '0', role: 'region', 'aria-label': t('tournament.bracket') },
      svg('svg', { id: 'bracket', class: 'bracket', viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': t('tournament.bracketPicture') }, pictures)),
    h('details', { id: 'bracket-text' },
      h('summary', {}, t('tournament.bracketText')),
      h('ol', {}, rounds.map((round, r) =>
        h('li', { 'data-round': round.number }, t('tournament.round', { round: round.number }), ': ',
          round.tables.map((table, index) => {
            const went = [...advancers(table, rounds[r + 1], advance)].map((user) => table.seats.find((seat) => seat.user === user).name);
            const players = formatList(table.seats.map((seat) => seat.name));
            return [index ? '; ' : '', went.length ? t('tournament.bracketGoesOn', { players, on: formatList(went) }) : players];
          }))))));
}
