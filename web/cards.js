// Cards as the page shows them: name, cost, value, stars and the colour of public buildings,
// from the server's catalogue (GET /api/catalogue), with a short reminder of what each does.
import { h } from './dom.js';

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

  // A fuller description for screen readers and tooltips.
  describe(id) {
    const value = this.influenceValue(id);
    if (value !== undefined) return `Influence card worth ${value} points`;
    const building = this.building(id);
    if (!building) return `card ${id}`;
    const parts = [building.name, `cost ${building.cost}`];
    if (building.value) parts.push(`value ${building.value}`);
    if (building.stars) parts.push(`${building.stars} star${building.stars > 1 ? 's' : ''}`);
    if (building.colour) parts.push(building.colour);
    const effect = kEffects[this.kindOf(id)];
    return `${parts.join(', ')}.${effect ? ` ${effect}` : ''}`;
  }

  // A card as an element: a button when it does something (a move, or a selection).
  element(id, { move, select, selected, small, extra } = {}) {
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
    const tag = actionable ? 'button' : 'div';
    const body =
      value !== undefined
        ? [h('span', { class: 'card-name' }, 'Influence'), h('span', { class: 'card-value' }, String(value))]
        : [
            h('span', { class: 'card-name' }, building?.name ?? `#${id}`),
            h(
              'span',
              { class: 'card-facts', 'aria-hidden': 'true' },
              h('span', { class: 'cost', title: 'cost in bricks' }, `${building?.cost ?? '?'}▣`),
              building?.value ? h('span', { class: 'value', title: 'value' }, `V${building.value}`) : null,
              building?.stars ? h('span', { class: 'stars', title: 'stars' }, '★'.repeat(building.stars)) : null,
            ),
          ];
    return h(
      tag,
      {
        class: classes.join(' '),
        'data-card': id,
        'data-move': move,
        'data-select': select ? '' : undefined,
        'aria-pressed': select ? String(Boolean(selected)) : undefined,
        type: actionable ? 'button' : undefined,
        role: actionable ? undefined : 'img',
        title: this.describe(id),
        'aria-label': `${this.describe(id)}${extra ? ` ${extra}` : ''}`,
      },
      body,
    );
  }
}
