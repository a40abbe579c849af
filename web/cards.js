// Cards as the page shows them: name, cost, value, stars and the colour of public buildings,
// from the server's catalogue (GET /api/catalogue), with a short reminder of what each does.
import { h, fill } from './dom.js';

const kEffects = {
  vegetable_farm: 'Produce: +1 coin.',
  grain_farm: 'Produce: a brick token (at most one).',
  sheep_farm: 'Produce: +1 influence token.',
  vineyard: 'Produce: +1 coin and a brick token (at most one).',
  market: 'Built: 1 coin per adjacent building.',
  forum_romanum: 'Built: 1 coin per adjacent building, +1.',
  arena: 'Built: 1 influence token per adjacent building.',
  colosseum: 'Built: 1 influence token per adjacent building, +1.',
  school: 'Built: draw a card per adjacent building from a deck, keep one.',
  university: 'Built: draw a card per adjacent building, +1, from a deck, keep one.',
  thermal_baths: 'Built: 1 point token per adjacent building.',
  imperial_thermal_baths: 'Built: 1 point token per adjacent building, +1.',
  aqueduct: 'May replace any building. 1/2/3/4 aqueducts score 4/12/24/40.',
  grand_aqueduct: 'May replace any building. 1/2/3/4 aqueducts score 4/12/24/40.',
  temple_luna: 'End: 1 point per star in the city.',
  temple_mars: 'End: 5 points with a residence of value 4.',
  temple_venus: 'End: 2 points per residence of value 2.',
  temple_jupiter: 'End: 2 points per temple.',
  temple_mercury: 'End: 1 point per 3 coins.',
  temple_minerva: 'End: 10 points with 16 buildings.',
  temple_fortuna: 'End: 15 points with all four public colours.',
  temple_cupid: 'End: 10 points with four residences of value 2.',
  temple_juno: 'End: 10 points with four temples.',
  temple_saturn: 'End: 15 points with four production buildings.',
  shrine: 'Costs nothing. End: 2 points per adjacent building.',
};

// What each kind of building does at the end, by category (the details panel's "Scoring").
const kCategoryScoring = {
  residential: 'Scores at the end with its residential area (the residences of the same value connected to it): the sum of their values × the number of public colours next to the area, plus the point tokens of the best thermal baths next to it. An area with no public building next to it scores 0.',
  production: 'Scores nothing itself; produces (2 cogs) coins, brick tokens or influence tokens.',
  public: 'Scores nothing itself; its colour counts for the residential areas next to it.',
  aqueduct: 'Aqueducts score together at the end: 1 / 2 / 3 / 4 aqueducts give 4 / 12 / 24 / 40 points. At most one per row and per column.',
  temple: 'Scores at the end as written on it.',
};
const kCategoryNames = { residential: 'residence', production: 'production building', public: 'public building', aqueduct: 'aqueduct', temple: 'temple' };

export class Catalogue {
  constructor(json) {
    this.cards = json.cards;
    this.buildings = json.buildings;
  }

  static async load() {
    const response = await fetch('/api/catalogue');
    if (!response.ok) throw new Error(`the card catalogue could not be loaded (${response.status})`);
    return new Catalogue(await response.json());
  }

  kindOf(id) {
    return this.cards[id]?.building;
  }

  building(id) {
    return this.buildings[this.kindOf(id)];
  }

  influenceValue(id) {
    return this.cards[id]?.influence;
  }

  // "Market" or "Influence card (6)": for logs, labels and screen readers.
  name(id) {
    const value = this.influenceValue(id);
    if (value !== undefined) return `Influence card (${value})`;
    return this.building(id)?.name ?? `card ${id}`;
  }

  // "cost 2, value 2, 1 star, red": what a card's symbols say.
  facts(id) {
    const building = this.building(id);
    if (!building) return '';
    const parts = [`cost ${building.cost}`];
    if (building.value) parts.push(`value ${building.value}`);
    if (building.stars) parts.push(`${building.stars} star${building.stars > 1 ? 's' : ''}`);
    if (building.colour) parts.push(building.colour);
    return parts.join(', ');
  }

  // A fuller description for screen readers and tooltips.
  describe(id) {
    const value = this.influenceValue(id);
    if (value !== undefined) return `Influence card worth ${value} points`;
    const building = this.building(id);
    if (!building) return `card ${id}`;
    const effect = kEffects[this.kindOf(id)];
    return `${building.name}, ${this.facts(id)}.${effect ? ` ${effect}` : ''}`;
  }

  effect(id) {
    return kEffects[this.kindOf(id)] ?? null;
  }

  // What the details panel says about a card: its facts, what it does, and how it scores.
  details(id) {
    const value = this.influenceValue(id);
    if (value !== undefined)
      return { name: `Influence card (${value})`, facts: [], effect: null, scoring: `Worth ${value} points at the end. The player with strictly the most influence tokens at the end of a round takes the influence cards on the table and gives back all their tokens.` };
    const building = this.building(id);
    if (!building) return { name: `card ${id}`, facts: [], effect: null, scoring: null };
    const facts = [
      ['Kind', `${kCategoryNames[building.category] ?? building.category}${building.special ? ' (special, deck I)' : ''}`],
      ['Cost', building.cost === 0 ? 'nothing' : `${building.cost} brick${building.cost > 1 ? 's' : ''} (a missing brick costs 2 coins)`],
    ];
    if (building.value) facts.push(['Value', String(building.value)]);
    if (building.stars) facts.push(['Stars', `${building.stars} (an influence token each when built)`]);
    if (building.colour) facts.push(['Colour', building.colour]);
    const kind = this.kindOf(id);
    const scoring = kind === 'shrine' ? 'Scores 2 points per building next to it; counts as a temple.' : kCategoryScoring[building.category] ?? null;
    return { name: building.name, facts, effect: kEffects[kind] ?? null, scoring };
  }

  // A card as an element: a button when it does something (a move, or a selection), else a button
  // that opens its details (`data-info`); `inert` draws it as a picture only (inside another
  // button). A card that does something gets an ⓘ button beside it for its details. Full-size
  // cards also show their effect.
  element(id, options = {}) {
    const card = this.card(id, options);
    if (options.move === undefined && !options.select) return card;
    return h('span', { class: 'card-wrap' }, card,
      h('button', { type: 'button', class: 'card-info', 'data-info': id, 'aria-label': `About ${this.name(id)}`, title: `About ${this.name(id)}` }, 'i'));
  }

  card(id, { move, select, selected, small, extra, inert, note } = {}) {
    const value = this.influenceValue(id);
    const building = this.building(id);
    const classes = ['card'];
    if (value !== undefined) classes.push('influence');
    if (building) classes.push(`cat-${building.category}`);
    if (building?.colour) classes.push(`colour-${building.colour}`);
    if (building?.special) classes.push('special');
    if (small) classes.push('small');
    if (selected) classes.push('selected');
    const actionable = move !== undefined || select;
    const tag = inert ? 'div' : 'button';
    const effect = !small && !inert ? this.effect(id) : null;
    // A button's name is its text (what it shows, then for screen readers what the symbols say);
    // a picture's is its label.
    const said = (text) => h('span', { class: 'sr-only' }, text);
    const body =
      value !== undefined
        ? [h('span', { class: 'card-name' }, 'Influence'), h('span', { class: 'card-value' }, String(value)), said(` points: an influence card${extra ? `. ${extra}` : ''}`)]
        : [
            h('span', { class: 'card-name' }, building?.name ?? `#${id}`),
            said(`, ${this.facts(id)}.${effect ? '' : ` ${this.effect(id) ?? ''}`}`),
            h(
              'span',
              { class: 'card-facts', 'aria-hidden': 'true' },
              h('span', { class: 'cost', title: 'cost in bricks' }, `${building?.cost ?? '?'}▣`),
              building?.value ? h('span', { class: 'value', title: 'value' }, `V${building.value}`) : null,
              building?.stars ? h('span', { class: 'stars', title: 'stars' }, '★'.repeat(building.stars)) : null,
            ),
            effect ? h('span', { class: 'card-effect' }, ` ${effect}`) : null,
            note ? h('span', { class: 'card-note' }, ` ${note}`) : null,
            extra ? said(` ${extra}`) : null,
          ];
    return h(
      tag,
      {
        class: classes.join(' '),
        'data-card': id,
        'data-move': move,
        'data-select': select ? '' : undefined,
        'data-info': inert || actionable ? undefined : id,
        'aria-pressed': select ? String(Boolean(selected)) : undefined,
        'aria-haspopup': inert || actionable ? undefined : 'dialog',
        type: inert ? undefined : 'button',
        role: inert ? 'img' : undefined,
        title: this.describe(id),
        'aria-label': inert ? `${this.describe(id)}${extra ? ` ${extra}` : ''}` : undefined,
      },
      body,
    );
  }
}

// The card details dialog (index.html's #card-dialog): opens on a click, tap or Enter on a card
// that shows details (`data-info`), closes with Escape, its close button or a click outside it.
export class CardDialog {
  constructor(catalogue) {
    this.catalogue = catalogue;
    this.dialog = document.getElementById('card-dialog');
    this.opener = null;
    document.addEventListener('click', (event) => {
      const target = event.target.closest('[data-info]');
      if (target && !this.dialog.contains(target)) this.open(Number(target.dataset.info), target);
    });
    this.dialog.addEventListener('click', (event) => {
      if (event.target === this.dialog || event.target.closest('[data-close]')) this.dialog.close();
    });
    this.dialog.addEventListener('close', () => this.restoreFocus());
  }

  open(id, opener) {
    const details = this.catalogue.details(id);
    this.opener = opener;
    this.openerKey = opener?.dataset.info;
    this.dialog.dataset.shows = id;
    this.dialog.querySelector('#card-dialog-title').textContent = details.name;
    fill(this.dialog.querySelector('.card-detail-body'),
      details.facts.length ? h('dl', { class: 'facts' }, details.facts.map(([term, text]) => [h('dt', {}, term), h('dd', {}, text)])) : null,
      details.effect ? h('p', { class: 'card-detail-effect' }, details.effect) : null,
      details.scoring ? h('p', { class: 'card-detail-scoring' }, h('strong', {}, 'Scoring: '), details.scoring) : null);
    if (!this.dialog.open) this.dialog.showModal();
    this.dialog.querySelector('[data-close]').focus();
  }

  // Back to the card that opened it, or to the same card drawn again since.
  restoreFocus() {
    let target = this.opener;
    if (!target?.isConnected && this.openerKey !== undefined)
      target = document.querySelector(`[data-info="${CSS.escape(this.openerKey)}"]`);
    target?.focus?.({ preventScroll: true });
    this.opener = null;
  }
}
