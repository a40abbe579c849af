// The game log's events (docs/protocol.md, "Events"; protocol version 2) in the reader's language: each
// event is an object whose `e` names its kind; `describeEvent` makes the sentence.
import { t, formatList } from './i18n.js';

export const kRoman = ['I', 'II', 'III', 'IV'];

const kUndoMoves = new Set(['take', 'build', 'produce', 'keep']);

// `names.seatName(seat)` and `names.cardName(card)` name a seat and a card.
export function describeEvent(event, names) {
  const seat = event.seat === undefined ? '' : names.seatName(event.seat);
  const card = event.card === undefined ? null : names.cardName(event.card);
  const deck = kRoman[event.deck] ?? String(event.deck ?? '');
  const count = (key, value) => t(key, { count: value ?? 0 });
  let text;
  switch (event.e) {
    case 'start': text = t('event.start', { seat }); break;
    case 'draft': text = t('event.draft', { seat, card: card ?? t('event.aCard') }); break;
    case 'round': text = t('event.round', { round: event.round }); break;
    case 'offer': text = t('event.offer', { card, deck }); break;
    case 'reveal': text = t('event.reveal', { card }); break;
    case 'place': text = t('event.place', { seat, space: (event.space ?? 0) + 1 }); break;
    case 'turn': text = t('event.turn', { seat, bricks: count('count.bricks', event.bricks), cogs: count('count.cogs', event.cogs) }); break;
    case 'take': text = t('event.take', { seat, card }); break;
    case 'build': text = describeBuild(event, seat, card, names); break;
    case 'produce': text = describeProduce(event, seat); break;
    case 'school': text = t('event.school', { seat, cards: count('count.cards', event.drew), deck }); break;
    case 'keep': text = t('event.keep', { seat, card: card ?? t('event.oneCard'), under: count('count.cards', event.under), deck }); break;
    case 'end': text = t('event.end', { seat }); break;
    case 'first': text = t('event.first', { seat }); break;
    case 'influence':
      text = t('event.influence', { seat, cards: count('count.influenceCards', event.cards), points: count('count.points', event.points), returned: count('count.influenceTokens', event.returned) });
      break;
    case 'tie': text = t('event.tie'); break;
    case 'over': text = t('event.over'); break;
    case 'undo': text = describeUndo(event, seat, card); break;
    case 'timeout': text = t('event.timeout', { seat }); break;
    case 'forfeit': text = t('event.forfeit', { seat }); break;
    default: text = t('event.unknown', { kind: String(event.e) });
  }
  return event.auto ? t('event.auto', { text }) : text;
}

// What a build or a production gained: "2 coins, 1 influence token and 3 point tokens".
function gains(event, tokensKey) {
  const parts = [];
  if (event.coins) parts.push(t('count.coins', { count: event.coins }));
  if (event.influence) parts.push(t('count.influenceTokens', { count: event.influence }));
  if (event[tokensKey.member]) parts.push(t(tokensKey.key, { count: event[tokensKey.member] }));
  return parts.length ? formatList(parts) : null;
}

function describeBuild(event, seat, card, names) {
  const clauses = [];
  if (event.replaced !== undefined) clauses.push(t('event.build.replacing', { card: names.cardName(event.replaced) }));
  if (event.tokens) clauses.push(t('event.build.tokens', { tokens: t('count.brickTokens', { count: event.tokens }) }));
  if (event.bought) clauses.push(t('event.build.bought', { bricks: t('count.bricks', { count: event.bought }), coins: t('count.coins', { count: event.paid ?? 0 }) }));
  const gained = gains(event, { member: 'points', key: 'count.pointTokens' });
  if (gained) clauses.push(t('event.gaining', { gains: gained }));
  return t('event.build', { seat, card, cell: event.cell, details: clauses.map((clause) => `, ${clause}`).join('') });
}

function describeProduce(event, seat) {
  const clauses = [];
  if (event.bought) clauses.push(t(event.paid ? 'event.produce.boughtFor' : 'event.produce.bought', { cogs: t('count.cogs', { count: event.bought }), coins: t('count.coins', { count: event.paid ?? 0 }) }));
  const gained = gains(event, { member: 'tokens', key: 'count.brickTokens' });
  if (gained) clauses.push(t('event.gaining', { gains: gained }));
  return t('event.produce', { seat, details: clauses.map((clause) => `, ${clause}`).join('') });
}

function describeUndo(event, seat, card) {
  const move = kUndoMoves.has(event.move) ? event.move : 'move';
  const what = t(`event.undo.${move}`, { card: card ?? t('event.aCard'), cell: event.cell ?? '' });
  return t('event.undo', { seat, what });
}
