// The final scores of a finished game, by place, with their breakdown and tie-breakers; the table
// page and the replay's last position show them. The running scores during play are the same
// table (scoresTable).
import { h } from './dom.js';
import { t, ordinal, formatList } from './i18n.js';
import { seatBadge, seatName } from './table_text.js';

// The final scores' categories (score.<key> names them).
const kScoreRows = ['residential_2', 'residential_3', 'residential_4', 'aqueducts', 'temples', 'shrine', 'coins', 'influence_tokens', 'influence_cards'];

// The final scores by place: each seat's points per category (the view's breakdown, which a
// player can check against the city), the influence tokens behind their points, and the
// tie-breakers (docs/rules.md: points, then influence tokens, then coins; still tied: shared).
export function finalScores({ id, view, summary, mySeat }) {
  const result = view.result;
  const winners = new Set(result.winners);
  const places = finalPlaces(result, view.players, summary);
  return h('section', { class: 'panel scores-panel', 'aria-labelledby': 'scores-title' },
    h('h2', { id: 'scores-title' }, t(winners.size > 1 ? 'scores.sharedWin' : 'scores.winner'), formatList([...winners].map((seat) => seatName(summary, seat)))),
    scoresTable({ id: 'scores', caption: t('scores.caption'), scores: result.scores, places, winners, view, summary, mySeat,
      tieBreak: (seat) => tieBreak(seat, result, view.players, places) }),
    h('p', { class: 'muted small' }, t('scores.explain')),
    h('p', { class: 'muted' }, h('a', { href: `/api/tables/${id}/record`, target: '_blank', rel: 'noopener' }, t('scores.record')), t('scores.recordNote'), h('a', { id: 'replay-link', href: `#/replay/${id}` }, t('scores.replay')), t('scores.reviewNote'), h('a', { id: 'review-link', href: `#/review/${id}` }, t('scores.review')), '.'));
}

// Scores as a table by place, one row per seat: its place, its points per category with the
// influence tokens held behind theirs, its total and, with `tieBreak(seat)`, what decides equal
// points. The final scores and the running scores (table.js) are both this table.
export function scoresTable({ id, caption, scores, places, winners = new Set(), view, summary, mySeat, tieBreak = null }) {
  const order = scores.map((_, seat) => seat).sort((a, b) => places[a] - places[b] || a - b);
  const rows = kScoreRows.filter((key) => key !== 'shrine' || view.options.shrine).map((key) => [key, t(`score.${key}`)]);
  const shared = (seat) => order.some((other) => other !== seat && places[other] === places[seat]);
  return h('table', { id, class: 'scores-table' },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, t('scores.place')),
      h('th', { scope: 'col' }, t('scores.player')),
      rows.map(([, title]) => h('th', { scope: 'col' }, title)),
      h('th', { scope: 'col' }, t('scores.total')),
      tieBreak ? h('th', { scope: 'col' }, t('scores.tieBreakers')) : null)),
    h('tbody', {}, order.map((seat) => {
      const score = scores[seat];
      const player = view.players[seat];
      const place = `${shared(seat) ? '= ' : ''}${ordinal(places[seat])}`;
      return h('tr', { 'data-seat': seat, 'data-place': places[seat], class: winners.has(seat) ? 'winner' : '' },
        h('td', { class: 'place', 'data-label': t('scores.place') }, place),
        h('th', { scope: 'row', 'data-label': t('scores.player') }, seatBadge(seat), seatName(summary, seat), seat === mySeat ? t('common.you') : '', summary?.seats?.[seat]?.forfeited ? t('scores.forfeited') : ''),
        rows.map(([key, title]) => h('td', { class: key, 'data-label': title }, h('span', {},
          h('span', { class: 'points' }, String(score[key] ?? 0)),
          key === 'influence_tokens' ? h('span', { class: 'muted held' }, t('scores.held', { count: player.influence })) : null))),
        h('td', { class: 'total', 'data-label': t('scores.total') }, String(score.total)),
        tieBreak ? h('td', { class: 'tie-break', 'data-label': t('scores.tieBreakers') }, tieBreak(seat)) : null);
    })));
}

// Each seat's place: the summary's when it has them (the server's word), else from the view:
// points, then influence tokens, then coins; equal seats share the better place; forfeited seats
// come after all others.
export function finalPlaces(result, players, summary) {
  const known = summary?.result?.places;
  if (Array.isArray(known) && known.length === result.scores.length) return known;
  const forfeited = new Set([...(result.forfeited ?? []), ...(summary?.seats ?? []).flatMap((info, seat) => (info?.forfeited ? [seat] : []))]);
  const key = (seat) => [forfeited.has(seat) ? 0 : 1, result.scores[seat].total, players[seat].influence, players[seat].coins];
  const better = (a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < x.length; ++i) if (x[i] !== y[i]) return x[i] > y[i];
    return false;
  };
  return result.scores.map((_, seat) => 1 + result.scores.filter((__, other) => better(other, seat)).length);
}

// The tie-breakers as they matter for this seat: its influence tokens and coins, and, when its
// points equal another's, what decided between them.
function tieBreak(seat, result, players, places) {
  const mine = players[seat];
  const held = `${t('count.influenceTokens', { count: mine.influence })}, ${t('count.coins', { count: mine.coins })}`;
  const equal = result.scores.map((_, other) => other).filter((other) => other !== seat && result.scores[other].total === result.scores[seat].total);
  if (equal.length === 0) return held;
  if (equal.every((other) => places[other] === places[seat])) return t('scores.shared', { held });
  const byTokens = equal.some((other) => players[other].influence !== mine.influence);
  return t(byTokens ? 'scores.byTokens' : 'scores.byCoins', { held });
}
