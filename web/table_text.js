// How a table is named and described wherever it shows: its seats, options, tag, time control,
// deadline and away players (the table page, the lobby, My games, the leagues, the tournaments).
import { h } from './dom.js';
import { t, formatDate, formatList } from './i18n.js';

const kBotLevels = new Set(['random', 'greedy', 'strong']);

export function seatName(summary, seat) {
  const info = summary?.seats?.[seat];
  if (!info) return t('seat.numbered', { number: seat + 1 });
  if (info.kind === 'bot') return t('seat.bot', { number: seat + 1, level: kBotLevels.has(info.bot) ? t(`bot.${info.bot}`) : info.bot });
  if (info.kind === 'open') return t('seat.open');
  if (info.kind === 'reserved') return t('seat.reserved', { name: info.name });
  return info.name;
}

// A player's hand as another seat sees it (the view lists the cards this viewer knows, and null
// for each it does not): its size, the known cards (`element(card)`), and "+ N unknown" only
// beside known ones, since without them the size says it all.
export function handContents(hand, element) {
  const known = hand.filter((card) => card !== null);
  const unknown = hand.length - known.length;
  return [
    h('span', { class: 'hand-size', 'data-hand-size': hand.length }, t('player.hand', { count: hand.length })),
    known.map(element),
    known.length > 0 && unknown > 0 ? h('span', { class: 'muted' }, t('player.unknown', { count: unknown })) : null,
  ];
}

// What a table is called: the name given at its creation, else its players in the reader's
// language ("Ann, Ben and Bot 3 (medium)"), else (nobody seated yet) its id.
export function tableName(summary) {
  if (summary?.name) return summary.name;
  const seated = (summary?.seats ?? []).flatMap((seat, index) => (seat.kind === 'open' ? [] : [seatName(summary, index)]));
  return seated.length ? formatList(seated) : t('table.title', { id: summary?.id ?? '' });
}

// "4 players, Yucata rules, with the Shrine".
export function describeOptions(options) {
  const rules = options.rules === 'publisher' ? t('rules.publisher') : options.rules === 'yucata' ? t('rules.yucata') : options.rules;
  return t(options.shrine ? 'table.optionsShrine' : 'table.options', { count: options.players, rules });
}

// A league's or tournament's rules: "Yucata rules, with the Shrine" (`rules`, `shrine` as in a
// table's options).
export function describeRules(options) {
  return t(options.shrine ? 'league.rulesShrine' : 'league.rules', { rules: t(options.rules === 'publisher' ? 'rules.publisher' : 'rules.yucata') });
}

// A seat's colour and number, as its emissaries show it.
export function seatBadge(seat) {
  return h('span', { class: `emissary seat-${seat}`, 'aria-hidden': 'true' }, String(seat + 1));
}

// A league game's league, season and division (linked to the season's page), a tournament game's
// tournament and round (linked to the tournament's page), or "rated".
export function tableTag(summary) {
  const tournament = summary.tournament;
  if (tournament)
    return h('a', { class: 'badge tournament', href: `#/tournament/${tournament.id}`, title: t('tag.tournamentTitle', { tournament: tournament.name, round: tournament.round }) },
      t('tag.tournament', { tournament: tournament.name, round: tournament.round }));
  const league = summary.league;
  if (league)
    return h('a', { class: 'badge league', href: `#/league/${league.id}/season/${league.season}`, title: t('tag.leagueTitle', { league: league.name, season: league.season, division: league.division }) },
      t('tag.league', { league: league.name, season: league.season, division: league.division }));
  if (summary.rated) return h('span', { class: 'badge rated', title: t('tag.ratedTitle') }, t('tag.rated'));
  return null;
}

export function describeTimeControl(control) {
  if (!control || control.kind === 'none') return t('time.none');
  const amount = control.kind === 'realtime' ? t('count.seconds', { count: control.seconds }) : t('count.days', { count: control.days });
  return t(control.on_timeout === 'forfeit' ? 'time.forfeit' : 'time.bot', { amount });
}

// "on vacation until 3 Dec 2026, 14:00" for a player away now (the summary's away_until), in the
// page's language; null otherwise.
export function awayBadge(until) {
  if (!until || until <= Date.now()) return null;
  return h('span', { class: 'badge away', 'data-away-until': until }, t('away.until', { when: formatDate(until, 'dateTime') }));
}

export function describeDeadline(deadline) {
  const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
  const clock = formatDate(deadline, left < 3600 ? 'timeSeconds' : left < 86400 ? 'time' : 'dateTime');
  let span;
  if (left < 120) span = t('count.seconds', { count: left });
  else if (left < 7200) span = t('count.minutes', { count: Math.round(left / 60) });
  else if (left < 172800) span = t('count.hours', { count: Math.round(left / 3600) });
  else span = t('count.days', { count: Math.round(left / 86400) });
  return t('deadline', { clock, span });
}
