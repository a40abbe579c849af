// The strong bot's review of a finished game, on the replay page (docs/web.md, "Game review"):
// asked for with GET /api/tables/<id>/analysis, whose answer is the review (200) or its progress
// (202, asked again every second); then a chart of each seat's chance over the game, the decisions
// as a table (the chart's text alternative, mistakes marked, each linked to its position), a
// summary per player, and at a decision's position what the bot would have played, on the board
// too (docs/protocol.md, "Game review").
import { h, svg } from './dom.js';
import { t, formatNumber } from './i18n.js';

const kPollMs = 1000;

// A chance (0 to 1) as whole percent.
const percent = (chance) => formatNumber(chance, { style: 'percent', maximumFractionDigits: 0 });
// A loss in points of chance: "19".
const points = (loss) => formatNumber(Math.round(loss * 100));

// A move's text (docs/rules.md, "Moves as text") in the reader's words, as it was `played`
// ("built Forum at (1,-1)") or as the `bot` would have played it ("would have built …").
// `cardName(id)` names a card.
export function describeMove(text, cardName, form = 'played') {
  const [verb, first, second] = text.split(' ');
  const say = (kind, values) => t(`review.${form}.${kind}`, values);
  const card = () => cardName(Number(first));
  switch (verb) {
    case 'draft': return say('draft', { card: card() });
    case 'place': return say('place', { space: Number(first) + 1 });
    case 'take': return say('take', { card: card() });
    case 'build': return say('build', { card: card(), cell: second });
    case 'produce': return say('produce');
    case 'end': return say('end');
    case 'school': return say('school', { deck: first });
    case 'keep': return say('keep', { card: card(), count: (second ?? '').split(',').filter(Boolean).length });
    default: return text;
  }
}

// One table's review as the page knows it: nothing asked yet, running, done, or failed.
export class GameReview {
  // `redraw(full)`: the review changed; `full` when the board must be drawn again too.
  constructor(app, redraw) {
    this.app = app;
    this.redraw = redraw;
    this.table = null;
    this.state = 'idle';
    this.progress = { done: 0, total: 0 };
    this.result = null;
    this.error = null;
    this.timer = null;
  }

  // The review of `table`: another table's is forgotten (its polling stops).
  use(table) {
    if (this.table === table) return;
    clearTimeout(this.timer);
    Object.assign(this, { table, state: 'idle', progress: { done: 0, total: 0 }, result: null, error: null, timer: null });
  }

  async ask() {
    const table = this.table;
    clearTimeout(this.timer);
    try {
      const answer = await this.app.get(`/api/tables/${table}/analysis`);
      if (table !== this.table) return;
      if (answer.analysis) {
        Object.assign(this, { state: 'done', result: answer, error: null });
        this.redraw(true);
        return;
      }
      Object.assign(this, { state: 'running', progress: answer, error: null });
      this.timer = setTimeout(() => this.ask(), kPollMs);
    } catch (error) {
      if (table !== this.table) return;
      Object.assign(this, { state: 'failed', error });
    }
    this.redraw(false);
  }

  async cancel(button) {
    clearTimeout(this.timer);
    if (button) button.disabled = true;
    try {
      await this.app.api('DELETE', `/api/tables/${this.table}/analysis`);
      Object.assign(this, { state: 'idle', error: null });
    } catch (error) {
      Object.assign(this, { state: 'failed', error });
    }
    this.redraw(false);
  }

  // The position before each record move: the replay's move (GET …/replay?move=N).
  changeOf(decision) {
    return this.result.changes[decision.move];
  }

  // The decisions made at the replay's `move` (before it).
  decisionsAt(move) {
    if (this.state !== 'done') return [];
    return this.result.analysis.decisions.filter((decision) => this.changeOf(decision) === move);
  }

  // The review's panel for the replay at `move`; `names.seatName(seat)`, `names.cardName(card)`.
  panel(move, names) {
    const body = [];
    if (this.state === 'idle' || this.state === 'failed') {
      body.push(h('p', { class: 'muted' }, t('review.about')),
        h('button', { type: 'button', id: 'review-start', onclick: () => this.ask() }, t('review.start')));
      if (this.error) body.push(h('p', { class: 'error', role: 'alert' }, this.app.errorText(this.error)));
    } else if (this.state === 'running') {
      const { done, total } = this.progress;
      body.push(h('label', { for: 'review-progress' }, total ? t('review.running', { done, total }) : t('review.starting')),
        h('progress', { id: 'review-progress', max: Math.max(total, 1), value: done }),
        h('button', { type: 'button', id: 'review-cancel', class: 'secondary', onclick: (event) => this.cancel(event.currentTarget) }, t('review.cancel')));
    } else {
      body.push(this.hints(move, names), this.chart(move, names), this.summary(names), this.decisionList(move, names));
    }
    return h('section', { id: 'review', class: 'panel review', 'data-state': this.state, 'aria-labelledby': 'review-title', 'aria-busy': this.state === 'running' ? 'true' : undefined },
      h('h2', { id: 'review-title' }, t('review.title')), body);
  }

  // At a decision's position: what was played and what the bot would have played.
  hints(move, names) {
    const here = this.decisionsAt(move);
    if (!here.length) return h('p', { class: 'muted review-hint-none' }, t('review.pick'));
    return here.map((decision) => h('p', { class: `review-hint${decision.mistake ? ' mistake' : ''}`, id: 'review-hint', 'data-move': decision.move, role: 'status' },
      decision.mistake ? h('strong', {}, t('review.mistake'), ' ') : null,
      decision.preferred === decision.played
        ? t('review.agrees', { seat: names.seatName(decision.seat), chance: percent(decision.after) })
        : t('review.wouldHave', {
          seat: names.seatName(decision.seat),
          played: describeMove(decision.played, names.cardName),
          preferred: describeMove(decision.preferred, names.cardName, 'bot'),
          after: percent(decision.after),
          before: percent(decision.preferred_chance),
        })));
  }

  // Each seat's chance after each of its decisions, over the game's moves; mistakes marked.
  chart(move, names) {
    const { decisions, players } = this.result.analysis;
    const width = 600;
    const height = 180;
    const pad = 24;
    const moves = Math.max(1, this.result.changes.length);
    const x = (index) => (pad + (index / moves) * (width - 2 * pad)).toFixed(1);
    const y = (chance) => (height - pad - chance * (height - 2 * pad)).toFixed(1);
    const here = this.result.changes.filter((change) => change < move).length;
    const label = t('review.chartLabel', { players: players.length });
    return h('figure', { class: 'review-figure' },
      svg('svg', { id: 'review-chart', class: 'chart review-chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label },
        svg('title', {}, label),
        [0, 0.5, 1].map((level) => [
          svg('line', { class: 'baseline', x1: pad, x2: width - pad, y1: y(level), y2: y(level) }),
          svg('text', { x: 2, y: Number(y(level)) + 3, class: 'chart-label' }, percent(level))]),
        svg('line', { class: 'review-now', x1: x(here), x2: x(here), y1: pad / 2, y2: height - pad / 2 }),
        players.map(({ seat }) => {
          const own = decisions.filter((decision) => decision.seat === seat);
          return svg('g', { class: `review-seat seat-line-${seat}`, 'data-seat': seat },
            svg('polyline', { fill: 'none', points: own.map((decision) => `${x(decision.move)},${y(decision.after)}`).join(' ') }),
            own.filter((decision) => decision.mistake).map((decision) =>
              svg('circle', { class: 'review-mistake', cx: x(decision.move), cy: y(decision.after), r: 4, 'data-decision': decision.move },
                svg('title', {}, t('review.mistakeTitle', { seat: names.seatName(seat), move: decision.move + 1, loss: points(decision.loss) })))));
        })),
      h('figcaption', { class: 'review-legend' }, players.map(({ seat }) =>
        h('span', { class: 'review-key' }, h('span', { class: `swatch seat-${seat}`, 'aria-hidden': 'true' }), names.seatName(seat))),
      ' ', t('review.legend')));
  }

  summary(names) {
    const { players } = this.result.analysis;
    return h('table', { id: 'review-summary', class: 'grid' },
      h('caption', {}, t('review.summary')),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('review.player')), h('th', { scope: 'col', class: 'num' }, t('review.decisions')),
        h('th', { scope: 'col', class: 'num' }, t('review.mistakes')), h('th', { scope: 'col', class: 'num' }, t('review.meanLoss')))),
      h('tbody', {}, players.map((player) => h('tr', { 'data-seat': player.seat },
        h('th', { scope: 'row' }, names.seatName(player.seat)),
        h('td', { class: 'num' }, formatNumber(player.decisions)),
        h('td', { class: 'num' }, formatNumber(player.mistakes)),
        h('td', { class: 'num' }, t('review.points', { points: points(player.mean_loss) }))))));
  }

  // Every decision, linked to its position: the chart's text alternative; mistakes marked.
  decisionList(move, names) {
    const { decisions, threshold } = this.result.analysis;
    const mistakes = decisions.filter((decision) => decision.mistake).length;
    return h('details', { class: 'review-decisions', open: mistakes > 0 ? true : undefined },
      h('summary', {}, t('review.decisionsTitle', { count: decisions.length, mistakes, threshold: points(threshold) })),
      h('div', { class: 'table-scroll' }, h('table', { id: 'review-decisions', class: 'grid' },
        h('thead', {}, h('tr', {}, ['review.move', 'review.player', 'review.played', 'review.chance', 'review.loss'].map((key) => h('th', { scope: 'col' }, t(key))))),
        h('tbody', {}, decisions.map((decision) => {
          const at = this.changeOf(decision);
          return h('tr', { class: decision.mistake ? 'mistake' : undefined, 'data-move': decision.move, 'aria-current': at === move ? 'step' : undefined },
            h('td', {}, h('a', { href: `#/replay/${this.table}/${at}` }, formatNumber(decision.move + 1))),
            h('td', {}, names.seatName(decision.seat)),
            h('td', {}, describeMove(decision.played, names.cardName),
              decision.preferred === decision.played ? null : h('div', { class: 'muted' }, t('review.botPlays', { move: describeMove(decision.preferred, names.cardName, 'bot') }))),
            h('td', {}, `${percent(decision.preferred_chance)} → ${percent(decision.after)}`),
            h('td', {}, decision.mistake ? h('strong', { class: 'review-flag' }, t('review.mistake'), ' ') : null, points(decision.loss)));
        })))));
  }

  // On the board drawn for the replay at `move`: the cell where the bot would have built.
  markBoard(root, move) {
    for (const decision of this.decisionsAt(move)) {
      const [verb, , cell] = decision.preferred.split(' ');
      if (verb !== 'build' || decision.preferred === decision.played) continue;
      const target = root.querySelector(`.player[data-seat="${decision.seat}"] [data-cell="${cell}"]`);
      if (!target) continue;
      target.classList.add('review-preferred');
      target.setAttribute('data-review', decision.preferred);
      target.title = t('review.botCell', { move: describeMove(decision.preferred, (card) => this.app.catalogue.name(card), 'bot') });
    }
  }
}
