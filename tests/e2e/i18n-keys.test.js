// The dictionaries (web/i18n/*.js) without a browser: every language has exactly the keys of the
// English one, no empty text, the same placeholders and plural forms per key; and every kind of
// game event (docs/protocol.md, "Events") reads as a whole sentence in every language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import en from '../../web/i18n/en.js';
import de from '../../web/i18n/de.js';
import { kLanguages, setLanguage, t, preferredLanguage } from '../../web/i18n.js';
import { describeEvent } from '../../web/events.js';

const dictionaries = { en, de };

// "key" for a plain text, "key.one", "key.other" … for the forms of a plural.
function flatten(dictionary) {
  const texts = new Map();
  for (const [key, value] of Object.entries(dictionary)) {
    if (typeof value === 'string') texts.set(key, value);
    else for (const [form, text] of Object.entries(value)) texts.set(`${key}#${form}`, text);
  }
  return texts;
}

const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

test('every language has the English keys, plural forms and placeholders, and no empty text', () => {
  assert.deepEqual(Object.keys(kLanguages).sort(), Object.keys(dictionaries).sort());
  const english = flatten(en);
  for (const [lang, dictionary] of Object.entries(dictionaries)) {
    const texts = flatten(dictionary);
    assert.deepEqual([...texts.keys()].sort(), [...english.keys()].sort(), `${lang}: the same keys and plural forms as en`);
    for (const [key, text] of texts) {
      assert.equal(typeof text, 'string', `${lang} ${key}`);
      assert.ok(text.trim().length > 0, `${lang} ${key} is empty`);
      // A plural's forms may leave out the count ("once"), but name nothing the English one lacks.
      const want = placeholders(english.get(key));
      const have = placeholders(text);
      if (key.includes('#')) assert.ok(have.every((name) => want.includes(name) || name === 'count'), `${lang} ${key}: placeholders ${have} within ${want}`);
      else assert.deepEqual(have, want, `${lang} ${key}: placeholders`);
    }
  }
});

test('the language: the stored choice, else any German preference of the browser, else English', () => {
  assert.equal(preferredLanguage('de', ['en-US']), 'de');
  assert.equal(preferredLanguage('en', ['de-DE']), 'en');
  assert.equal(preferredLanguage(null, ['de-AT', 'en']), 'de');
  assert.equal(preferredLanguage(null, ['fr-FR', 'de']), 'de');
  assert.equal(preferredLanguage(null, ['en-GB', 'de']), 'en');
  assert.equal(preferredLanguage(null, ['fr-FR']), 'en');
  assert.equal(preferredLanguage('xx', []), 'en');
});

// One event of every kind of the spec, with its optional members, and without them.
const kEvents = [
  { e: 'start', seat: 0 },
  { e: 'draft', seat: 1, card: 17 },
  { e: 'draft', seat: 1 },
  { e: 'round', round: 3 },
  { e: 'offer', card: 17, deck: 2 },
  { e: 'reveal', card: 90 },
  { e: 'place', seat: 0, space: 4 },
  { e: 'turn', seat: 1, space: 2, bricks: 1, cogs: 2 },
  { e: 'take', seat: 0, card: 17 },
  { e: 'build', seat: 0, card: 17, cell: '1,0' },
  { e: 'build', seat: 0, card: 17, cell: '1,0', replaced: 18, tokens: 1, bought: 1, paid: 2, coins: 3, influence: 1, points: 2 },
  { e: 'produce', seat: 1 },
  { e: 'produce', seat: 1, bought: 2, paid: 4, coins: 2, influence: 1, tokens: 1 },
  { e: 'school', seat: 0, deck: 1, drew: 3 },
  { e: 'keep', seat: 0, card: 17, deck: 1, under: 2 },
  { e: 'keep', seat: 1, deck: 3, under: 1 },
  { e: 'end', seat: 0 },
  { e: 'first', seat: 1 },
  { e: 'influence', seat: 0, cards: 2, points: 9, returned: 7 },
  { e: 'tie' },
  { e: 'over' },
  { e: 'undo', seat: 0, move: 'take', card: 17 },
  { e: 'undo', seat: 0, move: 'build', card: 17, cell: '2,1' },
  { e: 'undo', seat: 0, move: 'produce' },
  { e: 'undo', seat: 0, move: 'keep', card: 17 },
  { e: 'undo', seat: 0, move: 'keep' },
  { e: 'undo', seat: 0, move: 'move' },
  { e: 'timeout', seat: 1 },
  { e: 'forfeit', seat: 1 },
  { e: 'place', seat: 1, space: 0, auto: 1 },
];
const kSpecKinds = ['start', 'draft', 'round', 'offer', 'reveal', 'place', 'turn', 'take', 'build', 'produce', 'school', 'keep', 'end',
  'first', 'influence', 'tie', 'over', 'undo', 'timeout', 'forfeit'];

const names = {
  seatName: (seat) => ['Ann', 'Bob'][seat],
  cardName: (card) => (card === 90 ? t('card.influenceName', { value: 6 }) : t('building.market')),
};

test('describeEvent says every kind of event in every language, with nothing left unfilled', () => {
  assert.deepEqual([...new Set(kEvents.map((event) => event.e))].sort(), [...kSpecKinds].sort());
  for (const lang of Object.keys(dictionaries)) {
    setLanguage(lang);
    for (const event of kEvents) {
      const text = describeEvent(event, names);
      assert.doesNotMatch(text, /\{\w+\}|undefined|NaN|null/, `${lang} ${JSON.stringify(event)}: ${text}`);
      assert.ok(text.length > 8, `${lang} ${JSON.stringify(event)}: ${text}`);
      if (event.seat !== undefined && event.e !== 'influence') assert.match(text, /Ann|Bob/, `${lang} ${JSON.stringify(event)}: ${text}`);
    }
  }
  setLanguage('en');
  assert.equal(describeEvent({ e: 'build', seat: 0, card: 17, cell: '1,0', bought: 1, paid: 2 }, names), 'Ann builds Market at (1,0), buying 1 brick for 2 coins.');
  assert.equal(describeEvent({ e: 'undo', seat: 0, move: 'take', card: 17 }, names), 'Ann takes back taking Market.');
  setLanguage('de');
  assert.equal(describeEvent({ e: 'build', seat: 0, card: 17, cell: '1,0', bought: 1, paid: 2 }, names), 'Ann baut Markt auf (1,0), kauft 1 Baupunkt für 2 Geld.');
  setLanguage('en');
});

test('numbers, plurals and ordinals follow the language', () => {
  setLanguage('de');
  assert.equal(t('count.cards', { count: 1 }), '1 Karte');
  assert.equal(t('count.cards', { count: 2 }), '2 Karten');
  setLanguage('en');
  assert.equal(t('count.cards', { count: 1 }), '1 card');
  assert.equal(t('count.cards', { count: 2 }), '2 cards');
});
