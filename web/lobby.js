// The lobby: my games (my turn marked), the friends online, the public tables (those where a friend
// sits marked), and the form that creates a table.
import { h, fill } from './dom.js';
import { seatName, describeTimeControl, describeDeadline, describeOptions, tableTag, awayBadge, tableName } from './table_text.js';
import { t } from './i18n.js';

// The other players of a game who are on vacation now, one line each.
function awayList(game) {
  const away = game.seats.flatMap((seat, index) => {
    const badge = index === game.seat ? null : awayBadge(seat.away_until);
    return badge ? [h('div', { class: 'away-note', 'data-seat': index }, `${seatName(game, index)} `, badge)] : [];
  });
  return away.length ? away : null;
}

function describeTable(summary) {
  return `${describeOptions(summary.options)}; ${describeTimeControl(summary.time_control)}`;
}

const openTable = (id) => (location.hash = `#/table/${id}`);

// A button that opens the table's page: `action` is the stable hook (open or watch).
function tableButton(id, action, text, secondary = false) {
  return h('button', { type: 'button', class: secondary ? 'secondary' : undefined, 'data-action': action, onclick: () => openTable(id) }, text);
}

function seatsText(summary) {
  return summary.seats.map((seat, index) => (seat.kind === 'open' ? t('lobby.freeSeat') : seatName(summary, index))).join(', ');
}

// A form's time control (`<prefix>-time`, `-time-amount`, and `-on-timeout` where the form lets
// one choose it: the lobby's and the tournaments' create forms): the amount and what a timeout
// does show only with a kind of clock. Returns a function that reads the time_control
// (docs/protocol.md, "Time control"), or null for none.
export function bindTimeControl(form, prefix) {
  const time = document.getElementById(`${prefix}-time`);
  const amount = document.getElementById(`${prefix}-time-amount`);
  const onTimeout = document.getElementById(`${prefix}-on-timeout`);
  const show = () => {
    const kind = time.value;
    for (const element of onTimeout ? [amount, onTimeout] : [amount]) {
      element.disabled = kind === 'none';
      form.querySelector(`label[for="${element.id}"]`).hidden = kind === 'none';
      element.hidden = kind === 'none';
    }
    amount.max = kind === 'correspondence' ? '60' : '86400';
    if (kind === 'correspondence' && Number(amount.value) > 60) amount.value = '3';
    if (kind === 'realtime' && Number(amount.value) < 10) amount.value = '120';
  };
  time.addEventListener('change', show);
  show();
  return () => {
    if (time.value === 'none') return null;
    const control = { kind: time.value, [time.value === 'realtime' ? 'seconds' : 'days']: Number(amount.value) };
    if (onTimeout) control.on_timeout = onTimeout.value;
    return control;
  };
}

// How often the lobby asks again who of the friends is online (GET /api/friends).
const kFriendsEveryMs = 30000;
// How long the lobby may stay unseen while its first lists are on their way.
const kHoldMs = 2000;

export class LobbyPage {
  constructor(app) {
    this.app = app;
    this.tables = new Map(); // public unfinished tables by id
    this.myGames = [];
    this.friends = []; // the registered user's friends, each with whether they are online
    // The lists the lobby waits for once, unseen (index.html's aria-busy, style.css), so that they
    // do not push the panels below them down as they come in one after another (a layout shift).
    this.awaited = new Set(['games', 'tables', 'friends']);
    this.holdTimer = null;
    setInterval(() => {
      if (!document.getElementById('lobby').hidden) this.loadFriends();
    }, kFriendsEveryMs);
    this.bindCreateForm();
    document.getElementById('join-form').addEventListener('submit', (event) => {
      event.preventDefault();
      openTable(document.getElementById('join-id').value.trim());
    });
  }

  // A new connection: follow the lobby on it, and read the list page by page (docs/protocol.md,
  // "Pages"); lobby updates that arrive meanwhile apply on top, in the order they come.
  connected() {
    this.loadFriends();
    const connection = this.app.connection;
    const more = (after) => connection.request({ type: 'list_tables', after }).catch((error) =>
      // A listing counts as several messages: wait a little when the server says so.
      error.code === 'rate_limited' ? new Promise((wait) => setTimeout(wait, 1000)).then(() => more(after)) : Promise.reject(error));
    connection.request({ type: 'subscribe_lobby' }).then(async (first) => {
      this.tables = new Map();
      for (let page = first; ; page = await more(page.next)) {
        for (const table of page.tables) this.tables.set(table.id, table);
        this.arrived('tables');
        if (!page.next || connection !== this.app.connection) return;
      }
    }).catch(() => this.arrived('tables'));
  }

  // One of the awaited lists came (or failed): the lobby is drawn, and shown once all have.
  arrived(list) {
    this.awaited.delete(list);
    if (this.awaited.size === 0) this.reveal();
    if (!document.getElementById('lobby').hidden) this.render();
  }

  reveal() {
    clearTimeout(this.holdTimer);
    this.awaited.clear();
    document.getElementById('lobby').removeAttribute('aria-busy');
  }

  // Guests keep no friends; a failure keeps the list shown.
  async loadFriends() {
    if (this.app.guest !== false) {
      this.friends = [];
      return this.arrived('friends');
    }
    try {
      this.friends = (await this.app.get('/api/friends')).friends;
    } catch {
      return this.arrived('friends');
    }
    this.arrived('friends');
  }

  // The names of the friends seated at a table (none: empty).
  friendsAt(table) {
    const names = new Map(this.friends.map((friend) => [friend.user, friend.name]));
    return table.seats.flatMap((seat) => (seat.kind === 'human' && names.has(seat.user) ? [names.get(seat.user)] : []));
  }

  // A table's row in the lists: marked when a friend sits there.
  tableItem(table, ...buttons) {
    const friends = this.friendsAt(table);
    return h('li', { 'data-table': table.id, class: friends.length ? 'friend-table' : undefined, 'data-friends': friends.length ? 'true' : undefined },
      h('div', {}, h('strong', { class: 'table-name' }, tableName(table)), tableTag(table),
        friends.length ? h('span', { class: 'badge friend' }, t('social.friendsHere', { names: friends.join(', ') })) : null,
        h('div', {}, describeTable(table)), h('div', { class: 'muted' }, seatsText(table))),
      ...buttons);
  }

  refreshMyGames() {
    this.app.connection?.request({ type: 'my_games' }).catch(() => {});
  }

  receive(message) {
    if (message.type === 'tables') {
      return; // pages of the list: connected() reads them
    } else if (message.type === 'lobby_update' || message.type === 'table') {
      const table = message.table;
      if (table.status === 'finished' || table.status === 'closed' || !table.public) this.tables.delete(table.id);
      else if (message.type === 'lobby_update' || this.tables.has(table.id)) this.tables.set(table.id, table);
      if (table.status === 'finished' && this.myGames.some((game) => game.id === table.id)) this.refreshMyGames();
    } else if (message.type === 'my_games') {
      this.myGames = message.games;
      return this.arrived('games');
    }
    if (!document.getElementById('lobby').hidden) this.render();
  }

  render() {
    // A list that never comes does not keep the lobby hidden.
    if (this.awaited.size && this.holdTimer === null) this.holdTimer = setTimeout(() => this.reveal(), kHoldMs);
    const me = this.app.user?.id;
    const open = [];
    const running = [];
    for (const table of this.tables.values()) {
      if (table.status === 'waiting' && table.seats.some((seat) => seat.kind === 'open')) open.push(table);
      else if (table.status === 'playing') running.push(table);
    }
    fill(document.getElementById('my-games'),
      this.myGames.length ? this.myGames.map((game) => this.myGameItem(game)) : h('li', { class: 'muted' }, t('lobby.noGames')));
    const online = this.friends.filter((friend) => friend.online);
    document.getElementById('friends-panel').hidden = this.friends.length === 0;
    fill(document.getElementById('friends-online'),
      online.length
        ? online.map((friend) => h('li', { 'data-user': friend.user }, h('a', { href: `#/player/${friend.user}` }, friend.name)))
        : h('li', { class: 'muted' }, t('social.noneOnline')));
    this.offerFriends();
    fill(document.getElementById('open-tables'),
      open.length
        ? open.map((table) => {
            const mine = table.seats.some((seat) => seat.kind === 'human' && seat.user === me);
            return this.tableItem(table,
              h('div', { class: 'buttons' },
                mine ? tableButton(table.id, 'open', t('lobby.open'))
                  : h('button', { type: 'button', 'data-action': 'sit', onclick: () => this.app.sit(table.id) }, t('lobby.sit')),
                table.spectators ? tableButton(table.id, 'watch', t('lobby.watch'), true) : null));
          })
        : h('li', { class: 'muted' }, t('lobby.noOpenTables')));
    fill(document.getElementById('running-tables'),
      running.length
        ? running.map((table) => this.tableItem(table, table.spectators ? tableButton(table.id, 'watch', t('lobby.watch'), true) : null))
        : h('li', { class: 'muted' }, t('lobby.noRunning')));
  }

  // The create form offers the friends first for its invitations (online ones first): a click
  // adds the name to the field, once.
  offerFriends() {
    const offer = document.getElementById('create-invite-friends');
    const friends = [...this.friends].sort((a, b) => Number(b.online) - Number(a.online));
    offer.hidden = friends.length === 0;
    fill(offer, friends.length ? t('invite.friends') : null, friends.map((friend) =>
      h('button', { type: 'button', class: 'secondary small', 'data-friend': friend.user, onclick: () => {
        const field = document.getElementById('create-invite');
        const names = field.value.split(',').map((name) => name.trim()).filter(Boolean);
        if (!names.some((name) => name.toLowerCase() === friend.name.toLowerCase())) names.push(friend.name);
        field.value = names.join(', ');
      } }, friend.name)));
  }

  // Fills the create form's invitations with `name` (a profile's "Invite to a game").
  invite(name) {
    const field = document.getElementById('create-invite');
    field.value = name;
    field.focus();
  }

  // An invitation in My games: the seat kept for me, with Accept (sit down) and Decline.
  invitationItem(game) {
    return h('li', { 'data-table': game.id, 'data-invitation': 'true', class: 'invitation' },
      h('div', {},
        h('strong', {}, t('invite.mark')), ' ',
        h('strong', {}, describeTable(game)),
        tableTag(game),
        h('div', { class: 'muted' }, seatsText(game))),
      h('div', { class: 'buttons' },
        h('button', { type: 'button', 'data-action': 'accept', onclick: () => this.app.sit(game.id) }, t('invite.accept')),
        h('button', { type: 'button', class: 'secondary', 'data-action': 'decline', onclick: () => this.decline(game.id) }, t('invite.decline'))));
  }

  async decline(id) {
    if (await this.app.call({ type: 'decline', table: id })) this.refreshMyGames();
  }

  myGameItem(game) {
    if (game.status === 'waiting' && game.seats[game.seat]?.kind === 'reserved') return this.invitationItem(game);
    let state = t('lobby.state.waiting');
    if (game.status === 'finished') {
      const won = game.result?.winners?.includes(game.seat);
      state = t(won ? 'lobby.state.won' : 'lobby.state.finished');
    } else if (game.status === 'playing') state = game.your_turn ? t('lobby.state.yourTurn') : t('lobby.state.toPlay', { name: seatName(game, game.to_act) });
    return h('li', { 'data-table': game.id, 'data-your-turn': String(Boolean(game.your_turn)), class: game.your_turn ? 'your-turn' : '' },
      h('div', {},
        game.your_turn ? h('strong', { class: 'turn-mark' }, t('lobby.yourTurnMark')) : null,
        h('strong', { class: 'table-name' }, tableName(game)),
        tableTag(game),
        h('div', {}, describeTable(game)),
        h('div', { class: 'muted' }, `${seatsText(game)} · ${state}`, game.your_turn && game.deadline ? ` · ${describeDeadline(game.deadline)}` : ''),
        awayList(game)),
      tableButton(game.id, 'open', game.status === 'finished' ? t('lobby.scores') : t('lobby.open')));
  }

  // Rated tables are for registered players (the welcome says whether the user is a guest).
  showAccount() {
    const rated = document.getElementById('create-rated');
    const guest = this.app.guest;
    rated.disabled = guest !== false;
    if (guest !== false) rated.checked = false;
    document.getElementById('create-rated-hint').textContent = t(guest === true ? 'create.rated.guest' : 'create.rated.hint');
    this.showRated();
  }

  showRated() {
    const rated = document.getElementById('create-rated').checked;
    for (let seat = 1; seat <= 3; ++seat) {
      const select = document.getElementById(`create-seat-${seat}`);
      if (rated) select.value = 'human';
      for (const option of select.options) option.disabled = rated && option.value !== 'human';
    }
  }

  bindCreateForm() {
    const form = document.getElementById('create-form');
    const players = document.getElementById('create-players');
    const timeControl = bindTimeControl(form, 'create');
    const showSeats = () => {
      for (const element of form.querySelectorAll('[data-seat-row]')) element.hidden = Number(element.dataset.seatRow) >= Number(players.value);
    };
    players.addEventListener('change', showSeats);
    // A rated table has a registered player in every seat: no bots.
    document.getElementById('create-rated').addEventListener('change', () => this.showRated());
    showSeats();
    this.showAccount();
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const count = Number(players.value);
      const bots = [null];
      for (let seat = 1; seat < count; ++seat) {
        const kind = document.getElementById(`create-seat-${seat}`).value;
        bots.push(kind === 'human' ? null : kind);
      }
      const request = {
        type: 'create_table',
        options: { players: count, rules: document.getElementById('create-rules').value, shrine: document.getElementById('create-shrine').checked },
        bots,
        public: document.getElementById('create-public').checked,
        spectators: document.getElementById('create-spectators').checked,
        undo: document.getElementById('create-undo').checked,
        chat: document.getElementById('create-chat').value,
      };
      // The server trims the name too; an empty one is none (the table is named by its players).
      const name = document.getElementById('create-name').value.trim();
      if (name) request.name = name;
      if (document.getElementById('create-rated').checked) request.rated = true;
      const invite = document.getElementById('create-invite').value.split(',').map((name) => name.trim()).filter(Boolean);
      if (invite.length) request.invite = invite;
      const control = timeControl();
      if (control) request.time_control = control;
      // The invitations went with this table: the next one invites nobody unless asked.
      this.app.createTable(request).then((reply) => {
        if (reply) document.getElementById('create-invite').value = '';
      });
    });
  }
}
