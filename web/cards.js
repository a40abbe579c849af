// Cards as the page shows them: name, cost, value, stars and the colour of public buildings,
// from the server's catalogue (GET /api/catalogue), with a short reminder of what each does. Names,
// effects and scoring are the dictionaries' (`building.<id>`, `effect.<id>`, `scoring.<category>`):
// in German as the German rulebook names them.
import { h, fill } from './dom.js';
import { t } from './i18n.js';

// The buildings with an effect of their own (`effect.<id>`); the residences have none.
const kEffects = new Set(['vegetable_farm', 'grain_farm', 'sheep_farm', 'vineyard', 'market', 'forum_romanum', 'arena', 'colosseum',
  'school', 'university', 'thermal_baths', 'imperial_thermal_baths', 'aqueduct', 'grand_aqueduct', 'temple_luna', 'temple_mars',
  'temple_venus', 'temple_jupiter', 'temple_mercury', 'temple_minerva', 'temple_fortuna', 'temple_cupid', 'temple_juno',
  'temple_saturn', 'shrine']);
const kCategories = new Set(['residential', 'production', 'public', 'aqueduct', 'temple']);
const kColours = new Set(['yellow', 'red', 'green', 'blue']);

const colourName = (colour) => (kColours.has(colour) ? t(`colour.${colour}`) : colour);

export class Catalogue {
  constructor(json) {
    this.cards = json.cards;
    this.buildings = json.buildings;
  }

  static async load() {
    const response = await fetch('/api/catalogue');
    if (!response.ok) throw new Error(t('card.catalogueFailed', { status: response.status }));
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
    if (value !== undefined) return t('card.influenceName', { value });
    return this.buildingName(this.kindOf(id)) ?? t('card.numbered', { id });
  }

  // A building's name in the page's language (the catalogue's English one for a building the
  // dictionaries do not know yet).
  buildingName(kind) {
    if (!this.buildings[kind]) return null;
    const key = `building.${kind}`;
    const name = t(key);
    return name === key ? this.buildings[kind].name : name;
  }

  // "cost 2, value 2, 1 star, red": what a card's symbols say.
  facts(id) {
    const building = this.building(id);
    if (!building) return '';
    const parts = [t('card.cost', { cost: building.cost })];
    if (building.value) parts.push(t('card.value', { value: building.value }));
    if (building.stars) parts.push(t('card.stars', { count: building.stars }));
    if (building.colour) parts.push(colourName(building.colour));
    return parts.join(', ');
  }

  // A fuller description for screen readers and tooltips.
  describe(id) {
    const value = this.influenceValue(id);
    if (value !== undefined) return t('card.influenceWorth', { count: value });
    const building = this.building(id);
    if (!building) return t('card.numbered', { id });
    const effect = this.effect(id);
    return `${this.name(id)}, ${this.facts(id)}.${effect ? ` ${effect}` : ''}`;
  }

  effect(id) {
    const kind = this.kindOf(id);
    return kEffects.has(kind) ? t(`effect.${kind}`) : null;
  }

  // What the details panel says about a card: its facts, what it does, and how it scores.
  details(id) {
    const value = this.influenceValue(id);
    if (value !== undefined)
      return { name: this.name(id), facts: [], effect: null, scoring: t('scoring.influence', { count: value }) };
    const building = this.building(id);
    if (!building) return { name: this.name(id), facts: [], effect: null, scoring: null };
    const category = kCategories.has(building.category) ? t(`category.${building.category}`) : building.category;
    const facts = [
      [t('card.kind'), building.special ? t('card.special', { category }) : category],
      [t('card.costTerm'), building.cost === 0 ? t('card.costNothing') : t('card.costBricks', { count: building.cost })],
    ];
    if (building.value) facts.push([t('card.valueTerm'), String(building.value)]);
    if (building.stars) facts.push([t('card.starsTerm'), t('card.starsFact', { count: building.stars })]);
    if (building.colour) facts.push([t('card.colourTerm'), colourName(building.colour)]);
    const kind = this.kindOf(id);
    const scoring = kind === 'shrine' ? t('scoring.shrine') : kCategories.has(building.category) ? t(`scoring.${building.category}`) : null;
    return { name: this.name(id), facts, effect: this.effect(id), scoring };
  }

  // A card as an element: a button when it does something (a move, or a selection), else a button
  // that opens its details (`data-info`); `inert` draws it as a picture only (inside another
  // button). A card that does something gets an ⓘ button beside it for its details. Full-size
  // cards also show their effect.
  element(id, options = {}) {
    const card = this.card(id, options);
    if (options.move === undefined && !options.select) return card;
    return h('span', { class: 'card-wrap' }, card,
      h('button', { type: 'button', class: 'card-info', 'data-info': id, 'aria-label': t('card.about', { card: this.name(id) }), title: t('card.about', { card: this.name(id) }) }, 'i'));
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
        ? [h('span', { class: 'card-name' }, t('card.influence')), h('span', { class: 'card-value' }, String(value)), said(`${t('card.influencePoints')}${extra ? `. ${extra}` : ''}`)]
        : [
            h('span', { class: 'card-name' }, building ? this.name(id) : `#${id}`),
            said(`, ${this.facts(id)}.${effect ? '' : ` ${this.effect(id) ?? ''}`}`),
            h(
              'span',
              { class: 'card-facts', 'aria-hidden': 'true' },
              h('span', { class: 'cost', title: t('card.costTitle') }, `${building?.cost ?? '?'}▣`),
              building?.value ? h('span', { class: 'value', title: t('card.valueTitle') }, `${t('card.valueShort')}${building.value}`) : null,
              building?.stars ? h('span', { class: 'stars', title: t('card.starsTitle') }, '★'.repeat(building.stars)) : null,
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
      details.scoring ? h('p', { class: 'card-detail-scoring' }, h('strong', {}, t('card.scoring')), details.scoring) : null);
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
