// What the view's moves and a city mean for the table page: the moves sorted by what offers
// them, the cells of a city to draw, and how a build is paid.
import { t } from './i18n.js';

// The view's legal moves, sorted into what the page offers for each.
export function classify(moves) {
  const sorted = { draft: [], place: [], take: [], build: new Map(), school: [], keep: new Map(), other: [] };
  for (const move of moves) {
    const [verb, first, second] = move.split(' ');
    if (verb === 'draft' || verb === 'place' || verb === 'take' || verb === 'school') sorted[verb].push(move);
    else if (verb === 'build' || verb === 'keep') {
      const byCard = sorted[verb];
      const card = Number(first);
      if (!byCard.has(card)) byCard.set(card, []);
      byCard.get(card).push({ move, detail: second ?? '' });
    } else sorted.other.push(move); // produce, end, and anything new
  }
  return sorted;
}

export function cellKey(x, y) {
  return `${x},${y}`;
}

// The cells to draw: what is built and the ring around it where the next building may go, as
// far as the city's 4×4 bounds allow.
export function cityWindow(city) {
  const cells = Object.keys(city).map((key) => key.split(',').map(Number));
  if (cells.length === 0) return { xs: [0, 1, 2, 3], ys: [0, 1, 2, 3] };
  const span = (values) => {
    const low = Math.min(...values);
    const high = Math.max(...values);
    const from = Math.max(low - 1, high - 3);
    const to = Math.min(high + 1, low + 3);
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  };
  return { xs: span(cells.map(([x]) => x)), ys: span(cells.map(([, y]) => y)) };
}

export function holdsBrickToken(kind) {
  return kind === 'grain_farm' || kind === 'vineyard';
}

// How a build is paid (docs/rules.md, "Build"): the strip's bricks first, then brick tokens
// (one on a grain farm or the vineyard), then each missing brick for 2 coins.
export function buildPayment(cost, stripBricks, city, catalogue) {
  const tokens = Object.values(city).filter((cell) => holdsBrickToken(catalogue.kindOf(cell.card)) && cell.tokens > 0).length;
  const missing = Math.max(0, cost - stripBricks);
  const fromTokens = Math.min(missing, tokens);
  return { cost, strip: Math.min(cost, stripBricks), tokens: fromTokens, coins: 2 * (missing - fromTokens) };
}

export function describePayment({ cost, strip, tokens, coins }) {
  if (cost === 0) return t('build.free');
  const parts = [];
  if (strip) parts.push(t('build.fromStrip', { count: strip }));
  if (tokens) parts.push(t('count.brickTokens', { count: tokens }));
  if (coins) parts.push(t('build.buy', { coins: t('count.coins', { count: coins }), bricks: t('count.bricks', { count: coins / 2 }) }));
  return t('build.costs', { bricks: t('count.bricks', { count: cost }), parts: parts.join(', ') });
}
