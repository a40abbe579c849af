// The replay of a finished game (#/replay/<table>[/<move>]): the board as a spectator saw it after
// each move, with the log up to there and the final scores at the end, from
// GET /api/tables/<id>/replay?move=N (docs/protocol.md, "Replays"). The board is drawn by the
// table page's own code, read-only: as a spectator's, with no move to make.
import { h } from './dom.js';
import { DataPage } from './pages.js';
import { TablePage } from './table.js';

export class ReplayPage extends DataPage {
  constructor(app) {
    super(app, 'replay');
    this.title = 'Replay';
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

  fetch(route) {
    this.route = route;
    return this.app.get(`/api/tables/${route.id}/replay?move=${route.move ?? 0}`);
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
      summary: { id: replay.table, status: 'finished', seats: replay.names.map((name) => ({ kind: 'human', name })) },
      seat: null,
      view: replay.view,
      selected: null,
      pendingMove: null,
    });
    const round = rounds.filter((start) => start <= move).length;
    // Once shown, the log shows its end: the lines of this move.
    requestAnimationFrame(() => {
      const log = this.root.querySelector('#log');
      if (log) log.scrollTop = log.scrollHeight;
    });
    const step = (id, label, to, disabled) => h('button', { id, type: 'button', class: 'secondary', 'data-step': to, disabled }, label);
    return h('div', { class: 'replay' },
      h('header', { class: 'panel replay-controls' },
        h('h1', {}, 'Replay of table ', h('a', { href: `#/table/${replay.table}` }, replay.table)),
        h('p', { id: 'replay-position', 'aria-live': 'polite' }, move === 0 ? `The deal (before move 1 of ${moves})` : `After move ${move} of ${moves}`, round ? ` · round ${round}` : ''),
        h('div', { class: 'replay-buttons' },
          step('replay-first', '⏮ First', 0, move === 0),
          step('replay-prev', '◀ Previous', move - 1, move === 0),
          step('replay-next', 'Next ▶', move + 1, move === moves),
          step('replay-last', 'Last ⏭', moves, move === moves)),
        h('label', {}, 'Move ', h('input', { id: 'replay-slider', type: 'range', min: 0, max: moves, value: move })),
        h('label', {}, ' Jump to ', h('select', { id: 'replay-round' },
          h('option', { value: move, selected: true, disabled: true }, 'a round…'),
          rounds.map((start, index) => h('option', { value: start }, `Round ${index + 1}`)),
          h('option', { value: moves }, 'The end')))),
      board.header(),
      replay.view.result ? board.scores() : null,
      board.board(),
      // The log up to this move, whole (the table page's live panel is for play, not for this).
      h('section', { class: 'panel replay-log', 'aria-labelledby': 'replay-log-title' },
        h('h2', { id: 'replay-log-title' }, 'Game log'),
        h('ol', { id: 'log', tabindex: '0', 'aria-label': 'Game log up to this move' }, replay.log.map((line) => h('li', {}, line)))));
  }
}
