// The table page: a waiting table's seats, then the game from one seat's view (or a spectator's).
// It draws everything from the view the server sends; the only rules it knows are the move
// texts of the view's `moves` list, which it turns into clicks.
import { h, fill } from './dom.js';
import { ChatPanel } from './chat.js';
import { LogPanel } from './log.js';
import { fetchWholeLog } from './log_pages.js';
import { t } from './i18n.js';
import { kRoman } from './events.js';
import { finalScores, finalPlaces, scoresTable } from './final_scores.js';
import { classify, cellKey, cityWindow, holdsBrickToken, buildPayment, describePayment } from './table_moves.js';
import { seatName, seatBadge, describeOptions, describeTimeControl, describeDeadline, awayBadge, tableTag, handContents, tableName } from './table_text.js';

const kPhases = new Set(['draft', 'emissaries', 'actions', 'game_over']);

export class TablePage {
  constructor(app) {
    this.app = app;
    this.logPanel = new LogPanel(() => fetchWholeLog(this.app.connection, this.id), {
      seatName: (seat) => seatName(this.summary, seat),
      cardName: (card) => this.app.catalogue.name(card),
    });
    this.chatPanel = new ChatPanel(app, () => this.id);
    this.content = h('div', { class: 'table-view' }); // re-drawn; the log and chat beside it are not
    this.side = h('div', { class: 'table-side' }, this.logPanel.element, this.chatPanel.element);
    this.reset(null);
    // Whether the player uses the keyboard: the focus moved for them then scrolls into view.
    this.keyboard = false;
    this.runningOpen = false; // the running scores unfolded, across re-draws and tables
    document.addEventListener('keydown', () => (this.keyboard = true), true);
    document.addEventListener('pointerdown', () => (this.keyboard = false), true);
    // Ctrl+Z (⌘Z) takes back the latest move while the view allows it; not while typing.
    document.addEventListener('keydown', (event) => {
      if (event.key.toLowerCase() !== 'z' || !(event.ctrlKey || event.metaKey) || event.shiftKey || event.altKey) return;
      if (this.app.route?.page !== 'table' || !this.canUndo || event.target.closest?.('input, textarea, select')) return;
      event.preventDefault();
      this.undo();
    });
    // One listener for every move and selection on the page (elements are redrawn often).
    document.getElementById('table').addEventListener('click', (event) => {
      const target = event.target.closest('[data-move], [data-select]');
      if (!target || target.disabled) return;
      if (target.hasAttribute('data-move')) this.play(target.dataset.move);
      else this.select(Number(target.dataset.card));
    });
  }

  reset(id) {
    if (this.id !== id) {
      this.logPanel?.clear();
      this.chatPanel?.clear();
      // Off the table page nothing of it stays in the document (the replay has a #log too).
      if (id === null) document.getElementById('table')?.replaceChildren();
    }
    this.id = id;
    this.summary = null;
    this.seat = null;
    this.version = null;
    this.view = null;
    this.selected = null; // a card id whose builds (or school keeps) are shown
    this.pendingMove = null; // {move, version, move_id} (move null: an undo) until it is acknowledged
  }

  // A forfeited seat is played by a bot: its moves, still in the view, are not this player's to make.
  get myTurn() {
    return Boolean(this.view && this.seat !== null && this.view.to_act === this.seat && this.view.moves.length > 0 &&
      !this.summary?.seats?.[this.seat]?.forfeited);
  }

  // The view says whether this seat may take back its latest move now (docs/rules.md).
  get canUndo() {
    return this.myTurn && !this.pendingMove && this.view.undo === true;
  }

  // The panels beside the game keep their lines across a change of language: they relabel them.
  relabel() {
    this.logPanel.relabel();
    this.chatPanel.relabel();
  }

  // --- Messages --------------------------------------------------------------------------------

  onSummary(summary) {
    if (summary.id !== this.id) return;
    this.summary = summary;
    if (summary.status === 'waiting') {
      this.view = null;
      this.version = summary.version;
      const mine = summary.seats.findIndex((seat) => seat.kind === 'human' && seat.user === this.app.user?.id);
      this.seat = mine >= 0 ? mine : null;
      this.chatPanel.configure(summary, this.seat);
      this.chatPanel.ensureLoaded();
    } else if (!this.view) {
      return this.app.sync(this.id); // started: the snapshot is on its way or was missed
    }
    this.render();
  }

  onSnapshot(message) {
    if (message.table !== this.id) return;
    this.summary = message.summary;
    this.seat = message.seat;
    this.version = message.version;
    this.view = message.view;
    this.logPanel.show(message.log);
    this.chatPanel.configure(message.summary, message.seat);
    this.chatPanel.showRecent(message.chat ?? []);
    this.dropSelectionIfGone();
    this.render();
    // A move sent before the connection was lost and not applied: send it again (the server
    // answers a move id it already applied with an ack, so this never plays twice).
    const pending = this.pendingMove;
    if (pending && pending.version === this.version && this.myTurn) this.resend(pending);
    else if (pending && pending.version !== this.version) this.pendingMove = null;
  }

  onPatch(message) {
    if (message.table !== this.id || this.view === null) return;
    if (message.from < this.version) return; // old news
    if (message.from > this.version) return this.app.sync(this.id); // missed something
    try {
      this.view = this.app.applyPatch(this.view, message.ops);
    } catch (error) {
      console.warn('patch did not apply, asking for a snapshot', error);
      return this.app.sync(this.id);
    }
    this.version = message.to;
    this.logPanel.append(message.log);
    if (this.summary) {
      this.summary.version = message.to;
      this.summary.to_act = this.view.to_act;
      if (!takesBack(message)) this.refreshDeadline(); // an undo never restarts the clock
      if (this.view.result) this.summary.status = 'finished';
    }
    this.dropSelectionIfGone();
    this.render();
  }

  onChat(message) {
    if (message.table === this.id) this.chatPanel.onLine(message);
  }

  onChatDeleted(message) {
    if (message.table === this.id) this.chatPanel.remove(message.n);
  }

  onForfeited(message) {
    if (message.table !== this.id) return;
    this.logPanel.append([{ e: 'forfeit', seat: message.seat }]);
    const info = this.summary?.seats?.[message.seat];
    if (info) info.forfeited = true; // the next summary says so too; until then the panel and the turn know
    this.render();
    this.app.updateTitle();
  }

  // The deadline starts again after every move; the summary's is exact, this one is close.
  // Only a person has one: not a bot, not a forfeited seat.
  refreshDeadline() {
    const control = this.summary.time_control;
    const info = this.summary.seats[this.view.to_act];
    if (!control || control.kind === 'none' || info?.kind !== 'human' || info.forfeited)
      return void delete this.summary.deadline;
    const seconds = control.kind === 'realtime' ? control.seconds : control.days * 86400;
    this.summary.deadline = Date.now() + seconds * 1000;
  }

  dropSelectionIfGone() {
    if (this.selected === null || !this.view) return;
    const moves = classify(this.view.moves);
    if (!moves.build.has(this.selected) && !moves.keep.has(this.selected)) this.selected = null;
  }

  // --- Actions ---------------------------------------------------------------------------------

  async play(move) {
    if (this.pendingMove || !this.myTurn) return;
    const pending = { move, version: this.version, move_id: `m${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}` };
    this.pendingMove = pending;
    this.selected = null;
    this.render();
    await this.resend(pending);
  }

  // An undo is sent and acknowledged like a move (same version check, same idempotent move_id).
  undo() {
    if (!this.canUndo) return;
    return this.play(null);
  }

  async resend(pending) {
    const request = { table: this.id, version: pending.version, move_id: pending.move_id };
    try {
      await this.app.connection.request(pending.move === null ? { type: 'undo', ...request } : { type: 'move', ...request, move: pending.move });
      if (this.pendingMove === pending) this.pendingMove = null;
    } catch (error) {
      if (error.code === 'offline') return; // sent again after the reconnection's snapshot
      if (this.pendingMove === pending) this.pendingMove = null;
      this.app.showError(error);
    }
    this.render();
  }

  // Picking a card shows where it can go: the focus moves to the first of those (a build cell, or
  // the school's first order), so that Tab or Enter goes on from there.
  select(card) {
    this.selected = this.selected === card ? null : card;
    this.render();
    if (this.selected === null) return;
    const root = document.getElementById('table');
    const target = root.querySelector(`#my-city .cell.target[data-move^="build ${card} "], .keep-orders [data-move^="keep ${card}"]`);
    target?.focus({ preventScroll: !this.keyboard });
  }

  // --- Drawing ---------------------------------------------------------------------------------

  render() {
    const root = document.getElementById('table');
    if (!root || this.id === null) return;
    const focus = focusKey(document.activeElement);
    const hadFocus = root.contains(document.activeElement) || document.activeElement === document.body;
    const parked = this.parkedFocus && document.activeElement?.id === 'turn';
    const status = this.view ? (this.view.result ? 'finished' : 'playing') : (this.summary?.status ?? 'waiting');
    root.dataset.table = this.id;
    root.dataset.status = status;
    root.dataset.version = this.version ?? '';
    root.dataset.seat = this.seat ?? '';
    root.dataset.myTurn = String(this.myTurn && !this.pendingMove);
    root.classList.toggle('busy', Boolean(this.pendingMove));
    if (!this.summary) fill(this.content, h('p', { class: 'loading' }, t('table.loading')));
    else if (!this.view) fill(this.content, this.waitingRoom());
    else fill(this.content, this.header(), this.view.result ? finalScores({ id: this.id, view: this.view, summary: this.summary, mySeat: this.seat }) : null, this.runningScores(), this.board());
    // The log and chat panels stay attached across re-draws (their live regions only grow).
    if (this.content.parentNode !== root) fill(root, this.content, this.side);
    this.logPanel.element.hidden = !this.view;
    this.chatPanel.element.hidden = !this.summary;
    this.logPanel.keepUp();
    restoreFocus(root, focus);
    if (this.app.route?.page === 'table' && hadFocus) this.keepFocusInPlay(root, parked);
    this.app.updateTitle();
  }

  // The keyboard focus stays where play continues: when the element it was on is gone (a move
  // made, a card taken), on the first thing this player can do next, or, while others play, on
  // the turn's line (`#turn`), from where it goes on to the first move once the turn comes back.
  keepFocusInPlay(root, parked) {
    const lost = !document.activeElement || document.activeElement === document.body;
    if (!lost && !parked) return void (this.parkedFocus = false);
    const next = this.myTurn && !this.pendingMove ? firstAction(root) : null;
    if (next) {
      next.focus({ preventScroll: !this.keyboard });
      this.parkedFocus = false;
    } else if (lost) {
      root.querySelector('#turn')?.focus({ preventScroll: true });
      this.parkedFocus = true;
    }
  }

  header() {
    const view = this.view;
    const options = view.options;
    const toAct = view.to_act;
    let turn = t('table.over');
    if (toAct !== null) turn = toAct === this.seat ? t('table.yourTurn') : t('table.toPlay', { name: seatName(this.summary, toAct) });
    if (view.turn && toAct !== null) turn += ` (${t('count.bricks', { count: view.turn.bricks })}, ${t('count.cogs', { count: view.turn.cogs })})`;
    return h(
      'header',
      { class: 'table-head' },
      h('div', { class: 'table-title' }, h('h1', { id: 'table-name' }, this.summary ? tableName(this.summary) : t('table.title', { id: this.id })), h('span', { class: 'muted' }, describeOptions(options)), this.summary ? tableTag(this.summary) : null),
      h('div', { class: 'table-status' },
        h('span', { id: 'round' }, view.round === 0 ? t('table.beforeRound1') : t('table.round', { round: view.round, rounds: view.rounds })),
        h('span', { id: 'phase' }, kPhases.has(view.phase) ? t(`phase.${view.phase}`) : view.phase),
        h('strong', { id: 'turn', tabindex: '-1', class: toAct === this.seat ? 'my-turn' : '' }, turn),
        this.deadlineElement(),
        this.pendingMove ? h('span', { class: 'muted' }, t('table.sending')) : null),
      this.seat === null ? h('span', { class: 'badge' }, t('table.spectating')) : null,
    );
  }

  deadlineElement() {
    const deadline = this.summary?.deadline;
    if (!deadline || this.view?.to_act === null) return null;
    return h('span', { id: 'deadline', 'data-deadline': deadline }, describeDeadline(deadline));
  }

  waitingRoom() {
    const summary = this.summary;
    const me = this.app.user?.id;
    const seated = summary.seats.some((seat) => seat.kind === 'human' && seat.user === me);
    const free = summary.seats.some((seat) => seat.kind === 'open');
    // A seat kept for me is mine to take (accepting the invitation); one kept for another is not.
    const invited = summary.seats.some((seat) => seat.kind === 'reserved' && seat.user === me);
    const waiting = free || summary.seats.some((seat) => seat.kind === 'reserved');
    const control = summary.time_control;
    return h(
      'div',
      { class: 'waiting-room' },
      h('h1', { id: 'table-name' }, tableName(summary), tableTag(summary)),
      h('p', {}, `${describeOptions(summary.options)}; ${describeTimeControl(control)}; ${t(summary.undo === false ? 'table.undoOff' : 'table.undoOn')}; ${t(summary.public ? 'table.public' : 'table.private')}.`),
      h('ol', { id: 'seats' }, summary.seats.map((seat, index) =>
        h('li', { 'data-seat': index, class: seat.kind }, seat.kind === 'open' ? t('table.freeSeat') : seatName(summary, index), seat.kind === 'human' && seat.user === me ? t('common.you') : '', awayBadge(seat.away_until)))),
      h('div', { class: 'buttons' },
        (free || invited) && !seated ? h('button', { id: 'sit', type: 'button', onclick: () => this.app.sit(this.id) }, t('table.sit')) : null,
        seated ? h('button', { id: 'start', type: 'button', disabled: waiting, onclick: () => this.app.start(this.id) }, waiting ? t('table.waitingForPlayers') : t('table.start')) : null,
        seated ? h('button', { id: 'leave-seat', type: 'button', class: 'secondary', onclick: () => this.app.leaveSeat(this.id) }, t('table.leaveSeat')) : null,
        h('label', { for: 'table-link' }, t('table.link')),
        h('input', { id: 'table-link', readonly: true, size: 40, value: `${location.origin}/#/table/${this.id}`, onfocus: (event) => event.target.select() })),
    );
  }

  board() {
    const view = this.view;
    const moves = this.myTurn && !this.pendingMove ? classify(view.moves) : classify([]);
    const others = view.players.map((_, seat) => seat).filter((seat) => seat !== this.seat);
    const spectating = this.seat === null;
    const players = h('section', { id: 'opponents', 'aria-label': t(spectating ? 'table.players' : 'table.opponents') }, others.map((seat) => this.playerPanel(seat)));
    return h(
      'div',
      { class: 'board' },
      h('div', { class: 'main-column' },
        this.stripPanel(moves),
        this.offerPanel(moves),
        view.draft ? this.draftPanel(moves) : null,
        view.school || moves.school.length ? this.schoolPanel(moves) : null,
        spectating ? players : this.myPanel(moves)),
      spectating ? null : h('div', { class: 'side-column' }, players),
    );
  }

  stripPanel(moves) {
    const view = this.view;
    const legal = new Set(moves.place);
    let bricks = 0;
    let cogs = 0;
    const spaces = [...view.strip].map((symbol, space) => {
      if (symbol === 'B') bricks += 1;
      else cogs += 1;
      const occupant = view.emissaries[space];
      const move = `place ${space}`;
      const label = t(occupant !== null ? 'strip.spaceTaken' : 'strip.space', {
        number: space + 1,
        symbol: t(symbol === 'B' ? 'strip.brick' : 'strip.cog'),
        bricks: t('count.bricks', { count: bricks }),
        cogs: t('count.cogs', { count: cogs }),
        name: occupant !== null ? seatName(this.summary, occupant) : '',
      });
      return h(
        legal.has(move) ? 'button' : 'div',
        {
          role: legal.has(move) ? undefined : 'img',
          class: `space ${symbol === 'B' ? 'brick' : 'cog'}${legal.has(move) ? ' target' : ''}${view.turn?.space === space ? ' acting' : ''}`,
          'data-space': space,
          'data-move': legal.has(move) ? move : undefined,
          type: legal.has(move) ? 'button' : undefined,
          title: label,
          'aria-label': label,
        },
        h('span', { class: 'symbol', 'aria-hidden': 'true' }, symbol === 'B' ? '▣' : '⚙'),
        h('span', { class: 'gives', 'aria-hidden': 'true' }, `${bricks}▣ ${cogs}⚙`),
        occupant !== null ? h('span', { class: `emissary seat-${occupant}`, 'aria-hidden': 'true' }, String(occupant + 1)) : null,
      );
    });
    return h('section', { class: 'panel strip-panel', 'aria-label': t('strip.title') },
      h('h2', {}, t('strip.title')),
      h('div', { id: 'strip' }, h('div', { class: 'emperor', title: t('strip.emperorTitle') }, '♛', h('span', {}, t('strip.emperor'))), spaces),
      moves.place.length ? h('p', { class: 'hint' }, t('strip.hint')) : null);
  }

  offerPanel(moves) {
    const view = this.view;
    const legal = new Set(moves.take);
    const decks = view.decks.map((count, deck) => (count === null ? null : h('span', { class: 'deck', title: t('offer.deck', { deck: kRoman[deck] }) }, `${kRoman[deck]}: ${count}`))).filter(Boolean);
    return h('section', { class: 'panel offer-panel', 'aria-label': t('offer.title') },
      h('h2', {}, t('offer.title')),
      h('div', { id: 'offer', class: 'cards' },
        view.offer.length ? view.offer.map((card) => this.app.catalogue.element(card, { move: legal.has(`take ${card}`) ? `take ${card}` : undefined })) : h('p', { class: 'muted' }, t('offer.empty'))),
      moves.take.length ? h('p', { class: 'hint' }, t('offer.hint')) : null,
      h('p', { class: 'decks' }, t('offer.decks'), decks, t('offer.influenceInDeck', { count: view.influence_in_deck })),
      view.influence_on_table.length
        ? h('div', { class: 'influence-table' }, h('span', {}, t('offer.influenceWaiting')), h('span', { id: 'influence-on-table', class: 'cards' }, view.influence_on_table.map((card) => this.app.catalogue.element(card, { small: true }))))
        : null);
  }

  draftPanel(moves) {
    const draft = this.view.draft;
    const legal = new Set(moves.draft);
    return h('section', { id: 'draft', class: 'panel', 'aria-label': t('draft.title') },
      h('h2', {}, t('draft.heading', { count: draft.size })),
      draft.cards.length
        ? h('div', { class: 'cards' }, draft.cards.map((card) => this.app.catalogue.element(card, { move: legal.has(`draft ${card}`) ? `draft ${card}` : undefined })))
        : h('p', { class: 'muted' }, t('draft.others')),
      moves.draft.length ? h('p', { class: 'hint' }, t('draft.hint')) : null);
  }

  schoolPanel(moves) {
    const school = this.view.school ?? { deck: null, drawn: 0, cards: [] }; // null until the deck is chosen
    const catalogue = this.app.catalogue;
    const keepOrders = this.selected !== null ? (moves.keep.get(this.selected) ?? []) : [];
    return h('section', { id: 'school', class: 'panel', 'aria-label': t('school.title') },
      h('h2', {}, t('school.title')),
      moves.school.length
        ? h('div', { class: 'buttons' }, h('span', {}, t('school.drawFrom')), moves.school.map((move) => h('button', { type: 'button', 'data-move': move }, t('school.deck', { deck: move.split(' ')[1] }))))
        : null,
      school.deck !== null ? h('p', {}, t('school.drawn', { count: school.drawn, deck: kRoman[school.deck] ?? school.deck })) : null, // deck is an index: 1 is deck II
      school.cards.length
        ? h('div', { class: 'cards' }, school.cards.map((card) => this.app.catalogue.element(card, { select: moves.keep.has(card), selected: this.selected === card })))
        : null,
      moves.keep.size ? h('p', { class: 'hint' }, t('school.hint')) : null,
      keepOrders.length
        ? h('div', { class: 'buttons keep-orders' }, keepOrders.map(({ move, detail }) => {
            const rest = detail ? detail.split(',').map((card) => catalogue.name(Number(card))) : [];
            const keep = t('school.keep', { card: catalogue.name(this.selected) });
            return h('button', { type: 'button', 'data-move': move }, rest.length ? t('school.keepUnder', { keep, cards: rest.join(t('school.then')) }) : keep);
          }))
        : null);
  }

  myPanel(moves) {
    const view = this.view;
    const me = view.players[this.seat];
    const catalogue = this.app.catalogue;
    const targets = new Map(); // cell -> move, for the selected card
    if (this.selected !== null && moves.build.has(this.selected))
      for (const { move, detail } of moves.build.get(this.selected)) targets.set(detail, move);
    const turn = view.turn && view.turn.seat === this.seat ? view.turn : null;
    const payment = (card) => buildPayment(catalogue.building(card)?.cost ?? 0, turn?.bricks ?? 0, me.city, catalogue);
    const building = this.selected !== null && moves.build.has(this.selected);
    // Nothing is left but Done: a turn that waits for its player (rules.md, "Taking moves back").
    const onlyDone = moves.other.length === 1 && moves.other[0] === 'end' && this.view.moves.length === 1;
    const hint = moves.build.size
      ? building
        ? `${t(catalogue.building(this.selected)?.category === 'aqueduct' ? 'build.hintAqueduct' : 'build.hint', { card: catalogue.name(this.selected) })} ${describePayment(payment(this.selected))}`
        : t('build.pick')
      : onlyDone && turn ? t(this.canUndo ? 'my.waitingUndo' : 'my.waiting') : null;
    const coinNote = (card) => {
      const coins = moves.build.has(card) ? payment(card).coins : 0;
      return coins ? { note: t('build.costsNote', { count: coins }), extra: t('build.costsExtra', { coins: t('count.coins', { count: coins }) }) } : {};
    };
    return h('section', { class: 'panel my-panel', 'aria-label': t('my.label') },
      h('h2', {}, h('span', {}, seatBadge(this.seat), `${seatName(this.summary, this.seat)}${t('common.you')}`,
        this.summary?.seats?.[this.seat]?.forfeited ? h('span', { class: 'badge' }, t('player.forfeited')) : null,
        awayBadge(this.summary?.seats?.[this.seat]?.away_until),
        this.view.first_player === this.seat ? h('span', { class: 'badge first-player' }, t('player.first')) : null), this.stats(me, this.seat)),
      turn ? h('div', { id: 'actions', class: 'actions' },
        h('span', {}, t('my.thisTurn', { bricks: t('count.bricks', { count: turn.bricks }), cogs: t('count.cogs', { count: turn.cogs }) })),
        h('span', { class: 'done' }, t('my.done', { took: turn.took ? '✓' : '·', built: turn.built ? '✓' : '·', produced: turn.produced ? '✓' : '·' })),
        moves.other.map((move) => h('button', { type: 'button', 'data-move': move, class: move === 'end' && !onlyDone ? 'secondary' : '', title: moveTitle(move) }, moveLabel(move))),
        this.canUndo ? h('button', { id: 'undo', type: 'button', class: 'secondary', title: t('my.undoTitle'), 'aria-keyshortcuts': 'Control+Z', onclick: () => this.undo() }, t('my.undo')) : null) : null,
      !turn && moves.other.length ? h('div', { class: 'actions' }, moves.other.map((move) => h('button', { type: 'button', 'data-move': move }, moveLabel(move)))) : null,
      hint ? h('p', { class: 'hint' }, hint) : null,
      h('div', { class: 'my-area' },
        this.city(me.city, { id: 'my-city', targets, label: t('my.city'), coins: building ? payment(this.selected).coins : 0 }),
        h('div', { class: 'hand-area' },
          h('h3', {}, t('my.hand', { count: me.hand.length })),
          h('div', { id: 'hand', class: 'cards' }, me.hand.map((card) => catalogue.element(card, { select: moves.build.has(card), selected: this.selected === card, ...coinNote(card) }))),
          me.influence_cards.length ? h('div', {}, h('h3', {}, t('score.influence_cards')), h('div', { class: 'cards' }, me.influence_cards.map((card) => catalogue.element(card, { small: true })))) : null)));
  }

  // Coins, influence and the running score; the score's figure opens its breakdown (its id keeps
  // the keyboard focus on it across re-draws).
  stats(player, seat) {
    return h('span', { class: 'stats' },
      h('span', { class: 'coins', title: t('stats.coinsTitle') }, t('stats.coins', { count: player.coins })),
      h('span', { class: 'influence', title: t('stats.influenceTitle') }, t('stats.influence', { count: player.influence })),
      player.influence_cards.length ? h('span', { title: t('stats.cardsTitle') }, t('stats.cards', { count: player.influence_cards.reduce((sum, card) => sum + (this.app.catalogue.influenceValue(card) ?? 0), 0) })) : null,
      h('button', { type: 'button', id: `points-${seat}`, class: 'link points', 'data-seat': seat, title: t('stats.pointsTitle'), 'aria-controls': 'running-scores', onclick: () => openRunningScores() }, t('stats.points', { count: player.score.total })));
  }

  // Every player's points as if the game ended now (the view's running scores, docs/rules.md), in
  // the final scores' table. Folded until opened; it stays as the player left it across re-draws.
  runningScores() {
    const view = this.view;
    const scores = view.players.map((player) => player.score);
    const places = finalPlaces({ scores }, view.players, this.summary);
    return h('details', { id: 'running-scores', class: 'panel', open: this.runningOpen, ontoggle: (event) => (this.runningOpen = event.target.open) },
      h('summary', { id: 'running-scores-summary' }, t('running.title')),
      scoresTable({ id: 'running-scores-table', caption: t('running.caption'), scores, places, view, summary: this.summary, mySeat: this.seat }),
      h('p', { class: 'muted small' }, t('running.explain')));
  }

  playerPanel(seat) {
    const view = this.view;
    const player = view.players[seat];
    const info = this.summary?.seats?.[seat];
    const catalogue = this.app.catalogue;
    return h('article', { class: `player${view.to_act === seat ? ' to-act' : ''}`, 'data-seat': seat, 'aria-label': seatName(this.summary, seat) },
      h('h2', {}, seatBadge(seat), seatName(this.summary, seat),
        info?.forfeited ? h('span', { class: 'badge' }, t('player.forfeited')) : null,
        awayBadge(info?.away_until),
        view.first_player === seat ? h('span', { class: 'badge first-player' }, t('player.first')) : null,
        view.to_act === seat ? h('span', { class: 'badge' }, t('player.toPlay')) : null),
      h('p', {}, this.stats(player, seat)),
      player.influence_cards.length ? h('div', { class: 'cards' }, player.influence_cards.map((card) => catalogue.element(card, { small: true }))) : null,
      h('div', { class: 'hand' }, handContents(player.hand, (card) => catalogue.element(card, { small: true }))),
      this.city(player.city, { small: true, label: t('player.city', { name: seatName(this.summary, seat) }) }));
  }

  // `coins`: what building on a target cell costs in coins (shown on the cells before the click).
  city(city, { id, targets = new Map(), small = false, label, coins = 0 }) {
    const { xs, ys } = cityWindow(city);
    const catalogue = this.app.catalogue;
    const rows = ys.map((y) =>
      xs.map((x) => {
        const key = cellKey(x, y);
        const built = city[key];
        const move = targets.get(key);
        const where = t('cell.where', { x, y });
        // Tokens are a brick on a grain farm or vineyard, points on thermal baths.
        const brickToken = built && holdsBrickToken(catalogue.kindOf(built.card));
        const tokenText = built?.tokens ? (brickToken ? t('cell.brickToken') : t('count.pointTokens', { count: built.tokens })) : '';
        const text = built ? t(tokenText ? 'cell.builtTokens' : 'cell.built', { card: catalogue.name(built.card), where, tokens: tokenText }) : t('cell.empty', { where });
        const classes = ['cell', built ? 'built' : 'empty'];
        if (move) classes.push('target');
        if (move && built) classes.push('replace');
        const content = built
          ? [catalogue.element(built.card, { small: true, inert: Boolean(move) }), built.tokens ? h('span', { class: 'tokens', 'aria-hidden': 'true' }, brickToken ? '▣' : `+${built.tokens}`) : null]
          : [];
        const price = move && coins ? t('cell.price', { coins: t('count.coins', { count: coins }) }) : '';
        if (move && coins) content.push(h('span', { class: 'coin-cost', 'aria-hidden': 'true' }, t('count.coins', { count: coins })));
        return h(move ? 'button' : 'div', {
          role: move ? undefined : built ? 'group' : 'img', // a built cell holds its card's button
          class: classes.join(' '),
          'data-cell': key,
          'data-move': move,
          'data-coins': move ? coins : undefined,
          type: move ? 'button' : undefined,
          title: move ? t('cell.buildHere', { price, text }) : text,
          'aria-label': move ? t('cell.buildCardHere', { card: catalogue.name(Number(move.split(' ')[1])), price, text }) : text,
        }, content);
      }));
    const grid = h('div', { id, class: `city${small ? ' small' : ''}`, role: 'group', 'aria-label': label }, rows);
    // Through the CSSOM: the Content-Security-Policy refuses style attributes.
    grid.style.gridTemplateColumns = `repeat(${xs.length}, 1fr)`;
    return grid;
  }

}

// Opens the running scores (what a player's points figure leads to) and takes the focus there.
function openRunningScores() {
  const details = document.getElementById('running-scores');
  if (!details) return;
  details.open = true;
  details.querySelector('summary').focus({ preventScroll: true });
  details.scrollIntoView({ block: 'nearest' });
}

function moveLabel(move) {
  if (move === 'produce') return t('move.produce');
  if (move === 'end') return t('move.end');
  return move;
}

function moveTitle(move) {
  return move === 'end' ? t('move.endTitle') : undefined;
}

// Whether a patch takes a move back (its `undo` event): the clock goes on then.
function takesBack(message) {
  return (message.log ?? []).some((event) => event?.e === 'undo');
}

// Re-drawing replaces elements; the keyboard focus follows the element that means the same.
function focusKey(element) {
  if (!element || element === document.body) return null;
  for (const name of ['data-move', 'data-card', 'data-cell', 'data-info', 'id'])
    if (element.hasAttribute?.(name)) return [name, element.getAttribute(name)];
  return null;
}

// The first move or card to pick, in the page's order (strip, offer, draft, school, my turn's
// buttons, my city, my hand).
function firstAction(root) {
  return [...root.querySelectorAll('[data-move], [data-select]')].find((element) => !element.disabled && element.checkVisibility()) ?? null;
}

function restoreFocus(root, key) {
  if (!key) return;
  const match = root.querySelector(`[${key[0]}="${CSS.escape(key[1])}"]`);
  if (match && match !== document.activeElement) match.focus({ preventScroll: true });
}
