// The leaderboard (#/ratings) and a player's profile (#/player/<id>): rating, rated games, the
// rating's history (with a small chart), the player's league seasons, their finished games (paged,
// filtered) and figures per rules. See docs/leagues.md, "Ratings", and docs/web.md.
import { h, svg } from './dom.js';
import { DataPage, formatChange, formatRating, seasonStatus, playerLink } from './pages.js';
import { t, ordinal, formatDate, formatList, formatNumber } from './i18n.js';
import { describeOptions } from './table_text.js';

const kLeaderboardSize = 100;

function provisionalBadge(provisional) {
  return provisional ? h('span', { class: 'badge provisional', title: t('ratings.provisionalTitle') }, t('ratings.provisional')) : null;
}

// --- #/ratings ------------------------------------------------------------------------------------

export class RatingsPage extends DataPage {
  constructor(app) {
    super(app, 'ratings');
    this.title = 'nav.ratings';
  }

  fetch() {
    return this.app.get(`/api/ratings?limit=${kLeaderboardSize}`);
  }

  draw({ players }) {
    const me = this.app.user?.id;
    return h('section', { class: 'panel narrow' },
      h('h1', {}, t('nav.ratings')),
      h('p', { class: 'muted' }, t('ratings.intro')),
      players.length
        ? h('table', { id: 'leaderboard', class: 'grid' },
            h('caption', { class: 'sr-only' }, t('ratings.leaderboard')),
            h('thead', {}, h('tr', {}, [['standings.rank', 'num'], ['scores.player'], ['ratings.rating', 'num'], ['season.games', 'num']].map(([key, kind]) => h('th', { scope: 'col', class: kind }, t(key))))),
            h('tbody', {}, players.map((row) =>
              h('tr', { 'data-user': row.user.id, 'data-rank': row.rank, class: row.user.id === me ? 'me' : undefined },
                h('td', { class: 'rank' }, String(row.rank)),
                h('th', { scope: 'row' }, playerLink(row.user, me), provisionalBadge(row.provisional)),
                h('td', { class: 'rating', 'data-rating': row.rating }, formatRating(row.rating)),
                h('td', { class: 'games' }, String(row.games))))))
        : h('p', { class: 'muted' }, t('ratings.none')));
  }
}

// --- #/player/<id> --------------------------------------------------------------------------------

export class ProfilePage extends DataPage {
  constructor(app) {
    super(app, 'profile');
    this.title = 'profile.player';
  }

  async fetch({ id }) {
    if (this.route?.id !== this.filtersOf) {
      this.filters = { rules: '', players: '', rated: '' };
      this.filtersOf = this.route?.id;
    }
    const [profile, figures, games] = await Promise.all([this.app.get(`/api/users/${id}`), this.app.get(`/api/users/${id}/figures`), this.gamesPage(id)]);
    // A registered visitor's own friends and blocks, for the buttons (docs/web.md, "Friends").
    const others = this.app.guest === false && this.app.user && this.app.user.id !== profile.user.id;
    const [friends, blocks] = others ? await Promise.all([this.app.get('/api/friends'), this.app.get('/api/blocks')]) : [null, null];
    return { ...profile, figures: figures.figures, finished: games, friends: friends?.friends, blocks: blocks?.blocks };
  }

  // A page of the player's finished games with the filters chosen, after the cursor `before`.
  gamesPage(id, before) {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(this.filters)) if (value) query.set(name, value);
    if (before) query.set('before', before);
    const text = query.toString();
    return this.app.get(`/api/users/${id}/games${text ? `?${text}` : ''}`);
  }

  // "More": the next page joins the list; a filter's change reads the first page again.
  async moreGames(button) {
    const data = this.data;
    const page = await this.act(button, () => this.gamesPage(data.user.id, data.finished.next));
    if (!page || this.data !== data) return;
    data.finished = { games: [...data.finished.games, ...page.games], next: page.next };
    this.render();
  }

  async filterGames(name, value) {
    this.filters = { ...this.filters, [name]: value };
    const data = this.data;
    const page = await this.act(null, () => this.gamesPage(data.user.id));
    if (!page || this.data !== data) return;
    data.finished = page;
    this.render();
  }

  // Add friend / Remove friend (not for a guest, who cannot be one) and Block / Unblock, asked
  // once more before a block.
  socialButtons(profile) {
    if (!profile.friends) return null;
    const user = profile.user;
    const friend = profile.friends.some((listed) => listed.user === user.id);
    const blocked = profile.blocks.some((listed) => listed.user === user.id);
    const state = h('p', { id: 'profile-social-state', class: 'muted small', role: 'status' });
    const change = async (method, list) => {
      try {
        await this.app.api(method, `/api/${list}/${user.id}`);
        this.refresh();
      } catch (error) {
        state.textContent = this.app.refusalText(error);
      }
    };
    return h('div', { id: 'profile-social' },
      h('div', { class: 'buttons' },
        profile.guest ? null : h('button', { type: 'button', id: 'profile-friend', 'data-action': friend ? 'unfriend' : 'friend', onclick: () => change(friend ? 'DELETE' : 'PUT', 'friends') }, t(friend ? 'social.removeFriend' : 'social.addFriend')),
        h('button', { type: 'button', id: 'profile-block', class: 'secondary', 'data-action': blocked ? 'unblock' : 'block', onclick: () => {
          if (blocked || confirm(t('social.blockConfirm', { name: user.name }))) change(blocked ? 'DELETE' : 'PUT', 'blocks');
        } }, t(blocked ? 'social.unblock' : 'social.block'))),
      state);
  }

  draw(profile) {
    const me = this.app.user?.id;
    const user = profile.user;
    this.root.dataset.user = user.id;
    return h('div', { class: 'profile-grid' },
      h('section', { class: 'panel' },
        h('h1', { id: 'profile-name' }, user.name, user.id === me ? t('common.you') : '', profile.guest ? h('span', { class: 'badge' }, t('profile.guest')) : null),
        // Registered players invite registered players (docs/protocol.md, "Invitations").
        user.id !== me && !profile.guest && this.app.guest === false
          ? h('button', { type: 'button', id: 'invite-player', onclick: () => { location.hash = '#/'; this.app.lobby.invite(user.name); } }, t('invite.toGame'))
          : null,
        this.socialButtons(profile),
        h('dl', { class: 'facts' },
          h('dt', {}, t('ratings.rating')), h('dd', {}, h('strong', { id: 'profile-rating', 'data-rating': profile.rating }, formatRating(profile.rating)), provisionalBadge(profile.provisional)),
          h('dt', {}, t('profile.ratedGames')), h('dd', { id: 'profile-games' }, String(profile.games))),
        chart(profile.history),
        h('h2', {}, t('nav.leagues')),
        profile.leagues.length
          ? h('ul', { id: 'profile-leagues', class: 'table-list' }, profile.leagues.map((entry) =>
              h('li', { 'data-league': entry.league.id, 'data-season': entry.season },
                h('a', { href: `#/league/${entry.league.id}/season/${entry.season}` }, `${entry.league.name} · ${t('season.title', { season: entry.season })}`),
                h('span', { class: 'muted' }, `${entry.division ? t('season.division', { division: entry.division }) : t('profile.signedUp')} · ${seasonStatus(entry.status)}`))))
          : h('p', { class: 'muted' }, t('leagues.none')),
        this.figuresTable(profile.figures)),
      this.gamesPanel(profile),
      h('section', { class: 'panel' },
        h('h2', {}, t('profile.ratedGames')),
        profile.history.length
          ? h('table', { id: 'history', class: 'grid' },
              h('caption', { class: 'sr-only' }, t('profile.history')),
              h('thead', {}, h('tr', {}, [['profile.date'], ['table.label'], ['scores.place'], ['ratings.rating'], ['profile.change', 'num']].map(([key, kind]) => h('th', { scope: 'col', class: kind }, t(key))))),
              h('tbody', {}, profile.history.map((entry) => {
                const change = Math.round(entry.after) - Math.round(entry.before);
                return h('tr', { 'data-table': entry.table },
                  h('td', {}, formatDate(entry.at, 'dateTime')),
                  h('td', {}, h('a', { href: `#/table/${entry.table}` }, entry.table), ' ', h('a', { href: `#/replay/${entry.table}`, 'aria-label': t('profile.replayLabel', { table: entry.table }) }, t('profile.replay'))),
                  h('td', { class: 'place' }, t('profile.place', { place: ordinal(entry.place), players: entry.players })),
                  h('td', {}, `${formatRating(entry.before)} → ${formatRating(entry.after)}`),
                  h('td', { class: `change ${change > 0 ? 'up' : change < 0 ? 'down' : ''}` }, formatChange(entry.before, entry.after)));
              })))
          : h('p', { class: 'muted' }, t('profile.noRated'))));
  }

  figuresTable(figures) {
    const rulesName = (rules) => (rules === 'publisher' ? t('rules.publisher') : rules === 'yucata' ? t('rules.yucata') : rules);
    return [
      h('h2', {}, t('figures.title')),
      figures.length
        ? h('table', { id: 'profile-figures', class: 'grid' },
            h('thead', {}, h('tr', {}, [['figures.rules'], ['figures.games', 'num'], ['figures.wins', 'num'], ['figures.winRate', 'num'], ['figures.mean', 'num'], ['figures.best', 'num']].map(([key, kind]) => h('th', { scope: 'col', class: kind }, t(key))))),
            h('tbody', {}, figures.map((row) =>
              h('tr', { 'data-rules': row.rules },
                h('th', { scope: 'row' }, rulesName(row.rules)),
                h('td', { class: 'num' }, formatNumber(row.games)),
                h('td', { class: 'num' }, formatNumber(row.wins)),
                h('td', { class: 'num' }, formatNumber(row.win_rate, { style: 'percent', maximumFractionDigits: 1 })),
                h('td', { class: 'num' }, formatNumber(row.mean_score, { maximumFractionDigits: 1 })),
                h('td', { class: 'num' }, formatNumber(row.best_score))))))
        : h('p', { class: 'muted' }, t('figures.none')),
    ];
  }

  gamesPanel(profile) {
    const me = this.app.user?.id;
    const filter = (name, label, options) =>
      h('label', {}, t(label), ' ',
        h('select', { id: `games-filter-${name}`, onchange: (event) => this.filterGames(name, event.target.value) },
          options.map(([value, text]) => h('option', { value, selected: this.filters[name] === value }, text))));
    const games = profile.finished.games;
    return h('section', { class: 'panel', id: 'profile-finished' },
      h('h2', {}, t('games.title')),
      h('div', { class: 'filters', role: 'group', 'aria-label': t('games.filters') },
        filter('rules', 'games.filter.rules', [['', t('games.filter.any')], ['yucata', t('rules.yucata')], ['publisher', t('rules.publisher')]]),
        filter('players', 'games.filter.players', [['', t('games.filter.any')], ['2', '2'], ['3', '3'], ['4', '4']]),
        filter('rated', 'games.filter.rated', [['', t('games.filter.any')], ['true', t('games.filter.ratedOnly')], ['false', t('games.filter.unratedOnly')]])),
      games.length
        ? h('ul', { id: 'profile-games-list', class: 'table-list' }, games.map((game) => {
            const opponents = game.opponents.map((seat) => (seat.user ? playerLink({ id: seat.user, name: seat.name }, me) : seat.name));
            const against = opponents.length ? `${t('games.against')} ` : t('games.alone');
            return h('li', { 'data-table': game.table },
              h('div', {},
                h('a', { class: 'table-name', href: `#/replay/${game.table}` }, game.name ?? formatList([profile.user.name, ...game.opponents.map((seat) => seat.name)])),
                game.rated ? h('span', { class: 'badge rated' }, t('tag.rated')) : null,
                h('a', { class: 'review-link', href: `#/review/${game.table}`, 'aria-label': t('games.reviewLabel', { table: game.name ?? game.table }) }, t('review.label')),
                h('div', { class: 'muted' }, formatDate(game.finished, 'dateTime'), ' · ', describeOptions({ players: game.players, rules: game.rules, shrine: game.shrine })),
                h('div', { class: 'opponents' }, against, interleave(opponents))),
              h('div', { class: 'place' },
                game.place ? t('profile.place', { place: ordinal(game.place), players: game.players }) : '',
                game.score !== null ? ` · ${t('games.points', { count: game.score })}` : '',
                game.forfeited ? ` · ${t('games.forfeited')}` : ''));
          }))
        : h('p', { class: 'muted' }, t('games.none')),
      profile.finished.next ? h('button', { type: 'button', id: 'profile-games-more', class: 'secondary', onclick: (event) => this.moreGames(event.currentTarget) }, t('games.more')) : null);
  }
}

// Names (links or texts) joined as the reader's language lists them, keeping the links.
function interleave(items) {
  if (items.length === 0) return [];
  const marks = items.map((_, index) => `\u0000${index}\u0000`);
  return formatList(marks).split(/\u0000(\d+)\u0000/).map((part, index) => (index % 2 ? items[Number(part)] : part)).filter((part) => part !== '');
}

// The rating over the games, oldest first: a line with a dot per game (inline SVG).
function chart(history) {
  if (history.length === 0) return null;
  const ratings = [history[history.length - 1].before, ...[...history].reverse().map((entry) => entry.after)];
  const width = 320;
  const height = 110;
  const pad = 12;
  const low = Math.min(...ratings);
  const high = Math.max(...ratings);
  const span = Math.max(high - low, 20);
  const x = (i) => pad + (i * (width - 2 * pad)) / Math.max(1, ratings.length - 1);
  const y = (rating) => height - pad - ((rating - low) * (height - 2 * pad)) / span;
  const points = ratings.map((rating, i) => `${x(i).toFixed(1)},${y(rating).toFixed(1)}`).join(' ');
  const label = t('profile.chart', { count: history.length, from: formatRating(ratings[0]), to: formatRating(ratings[ratings.length - 1]), low: formatRating(low), high: formatRating(high) });
  return svg('svg', { id: 'rating-chart', class: 'chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label },
    svg('title', {}, label),
    low <= 1500 && high >= 1500 ? svg('line', { class: 'baseline', x1: pad, x2: width - pad, y1: y(1500), y2: y(1500) }) : null,
    svg('polyline', { points, fill: 'none' }),
    ratings.map((rating, i) => svg('circle', { cx: x(i).toFixed(1), cy: y(rating).toFixed(1), r: 3 })),
    svg('text', { x: pad, y: 10, class: 'chart-label' }, formatRating(low + span)),
    svg('text', { x: pad, y: height - 1, class: 'chart-label' }, formatRating(low)));
}
