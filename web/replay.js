// The replay of a finished game (#/replay/<table>[/<move>]): the board as a spectator saw it after
// each move, with the log up to there and the final scores at the end, from
// GET /api/tables/<id>/replay?move=N (docs/protocol.md, "Replays"). The board is drawn by the
// table page's own code, read-only: as a spectator's, with no move to make. #/review/<table> opens
// the deal and asks for the strong bot's review of the game (review.js).
import { h } from './dom.js';
import { DataPage } from './pages.js';
import { TablePage } from './table.js';
import { finalScores } from './final_scores.js';
import { t } from './i18n.js';
import { describeEvent } from './events.js';
import { seatName, tableName } from './table_text.js';
import { GameReview } from './review.js';

export class ReplayPage extends DataPage {
  constructor(app) {
    super(app, 'replay');
    this.title = 'replay.label';
    this.review = new GameReview(app, (full) => (full ? this.render() : this.redrawReview()));
    this.root.addEventListener('click', (event) => {
      const button = event.target.closest('[data-step]');
      if (button && !button.disabled) this.go(Number(button.dataset.step));
    });
    this.root.addEventListener('change', (event) => {
      if (event.target.id === 'replay-slider' || event.target.id === 'replay-round') this.go(Number(event.target.value));
    });
  }

  // Another move of the same game keeps the board shown until the next one arrives.
  sameRoute(route) {
    return this.route?.id === route.id;
  }

  async fetch(route) {
    this.route = route;
    this.review.use(route.id);
    const replay = await this.app.get(`/api/tables/${route.id}/replay?move=${route.move ?? 0}`);
    if (route.review && this.review.state === 'idle') this.review.ask();
    return replay;
  }

  // The review's panel alone, while it runs: the board stays as it is.
  redrawReview() {
    const old = this.root.querySelector('#review');
    if (!old || !this.data) return;
    const focused = old.contains(document.activeElement);
    const panel = this.review.panel(this.data.move, this.names);
    old.replaceWith(panel);
    if (focused) panel.querySelector('button, progress')?.focus();
  }

  go(move) {
    if (!this.data) return;
    const to = Math.max(0, Math.min(this.data.moves, move));
    location.hash = `#/replay/${this.data.table}/${to}`;
  }

  draw(replay) {
    const { move, moves, rounds } = replay;
    this.root.dataset.table = replay.table;
    this.root.dataset.move = move;
    this.root.dataset.moves = moves;
    // The table page's drawing, as a spectator's (seat null: nothing to click).
    const board = Object.create(TablePage.prototype);
    Object.assign(board, {
      app: this.app,
      id: replay.table,
      summary: { id: replay.table, name: replay.name, status: 'finished', seats: replay.seats },
      seat: null,
      view: replay.view,
      selected: null,
      pendingMove: null,
    });
    // The running scores stay unfolded from one position to the next.
    Object.defineProperty(board, 'runningOpen', { get: () => this.runningOpen ?? false, set: (open) => { this.runningOpen = open; } });
    this.names = { seatName: (seat) => seatName(board.summary, seat), cardName: (card) => this.app.catalogue.name(card) };
    const round = rounds.filter((start) => start <= move).length;
    // Once shown, the log shows its end: the lines of this move.
    requestAnimationFrame(() => {
      const log = this.root.querySelector('#log');
      if (log) log.scrollTop = log.scrollHeight;
    });
    const step = (id, label, to, disabled) => h('button', { id, type: 'button', class: 'secondary', 'data-step': to, disabled }, label);
    const page = h('div', { class: 'replay' },
      h('header', { class: 'panel replay-controls' },
        h('h1', {}, t('replay.title'), h('a', { href: `#/table/${replay.table}` }, tableName(board.summary))),
        h('p', { id: 'replay-position', 'aria-live': 'polite' }, move === 0 ? t('replay.deal', { moves }) : t('replay.after', { move, moves }), round ? t('replay.round', { round }) : ''),
        h('div', { class: 'replay-buttons' },
          step('replay-first', t('replay.first'), 0, move === 0),
          step('replay-prev', t('replay.previous'), move - 1, move === 0),
          step('replay-next', t('replay.next'), move + 1, move === moves),
          step('replay-last', t('replay.last'), moves, move === moves)),
        h('label', {}, t('replay.move'), h('input', { id: 'replay-slider', type: 'range', min: 0, max: moves, value: move })),
        h('label', {}, t('replay.jump'), h('select', { id: 'replay-round' },
          h('option', { value: move, selected: true, disabled: true }, t('replay.aRound')),
          rounds.map((start, index) => h('option', { value: start }, t('replay.roundOption', { round: index + 1 }))),
          h('option', { value: moves }, t('replay.end'))))),
      this.review.panel(move, this.names),
      board.header(),
      replay.view.result ? finalScores({ id: board.id, view: board.view, summary: board.summary, mySeat: null }) : null,
      // What the players' points figures open, as on the table page.
      board.runningScores(),
      board.board(),
      // The log up to this move, whole (the table page's live panel is for play, not for this).
      h('section', { class: 'panel replay-log', 'aria-labelledby': 'replay-log-title' },
        h('h2', { id: 'replay-log-title' }, t('log.title')),
        h('ol', { id: 'log', tabindex: '0', 'aria-label': t('replay.logLabel') }, replay.log.map((line) =>
          h('li', {}, describeEvent(line, this.names))))));
    this.review.markBoard(page, move);
    return page;
  }
}
