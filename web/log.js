// The game log: a panel that outlives the table's re-draws, so that its `aria-live` list only ever
// grows by appended lines (a rebuilt live region makes screen readers lose what they announce).
// On a wide screen it is a column that stays in view; on a phone a bar at the bottom of the screen
// with the last line, that opens upwards (the toggle). A snapshot brings only the newest lines;
// "Earlier lines" asks the server for the whole game's (`loadWhole`) and puts what is missing
// before them. Until then the lines are not numbered, as their numbers in the game are not known.
// The lines are events (web/events.js): the panel keeps them and says them in the page's language,
// again in the same elements when the language changes.
import { h } from './dom.js';
import { t } from './i18n.js';
import { describeEvent } from './events.js';

const kMaxLines = 300; // while the log is partial; the whole game's log is kept whole
const kSnapshotLines = 64; // the most lines a snapshot carries

export class LogPanel {
  // `loadWhole`: resolves with every line of the game so far, oldest first; `names`: seatName(seat)
  // and cardName(card) for the events.
  constructor(loadWhole, names) {
    this.loadWhole = loadWhole;
    this.names = names;
    this.lines = []; // events
    this.keys = []; // each line's JSON, to compare lines
    this.complete = false;
    this.list = h('ol', { id: 'log', 'aria-live': 'polite', 'aria-relevant': 'additions', tabindex: '0' });
    this.toggle = h('button', { id: 'log-toggle', type: 'button', class: 'secondary', 'aria-expanded': 'false', 'aria-controls': 'log', onclick: () => this.setOpen(!this.open) });
    this.older = h('button', { id: 'log-older', type: 'button', class: 'secondary small', onclick: () => this.loadEarlier() });
    this.title = h('h2', { id: 'log-title' });
    this.element = h('aside', { id: 'log-panel', class: 'log-panel', 'aria-labelledby': 'log-title' },
      h('div', { class: 'log-head' }, this.title, this.toggle),
      this.older,
      this.list);
    this.setComplete(false);
    this.open = false;
    this.relabel();
    // The list follows new lines while its reader is at its end (not while they read back).
    this.follow = true;
    this.list.addEventListener('scroll', () => {
      this.follow = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 24;
    });
  }

  setOpen(open) {
    this.open = open;
    this.element.classList.toggle('open', open);
    this.toggle.setAttribute('aria-expanded', String(open));
    this.toggle.textContent = t(open ? 'log.hide' : 'log.show');
    this.scrollToEnd();
  }

  // The panel's words and every line again in the page's language, in the same elements.
  relabel() {
    this.list.setAttribute('aria-label', t('log.title'));
    this.title.textContent = t('log.title');
    this.toggle.textContent = t(this.open ? 'log.hide' : 'log.show');
    if (!this.older.disabled) this.older.textContent = t('log.earlier');
    [...this.list.children].forEach((li, i) => { li.textContent = this.say(this.lines[i]); });
  }

  say(line) {
    return describeEvent(line, this.names);
  }

  // `data-event`: the event's kind.
  item(line, number) {
    return h('li', { value: number, 'data-event': line.e }, this.say(line));
  }

  clear() {
    this.follow = true;
    this.lines = [];
    this.keys = [];
    this.list.replaceChildren();
    this.setComplete(false);
  }

  setComplete(complete) {
    this.complete = complete;
    this.older.hidden = complete;
    this.list.classList.toggle('partial', !complete);
  }

  async loadEarlier() {
    this.older.disabled = true;
    this.older.textContent = t('common.loading');
    try {
      this.prependFrom(await this.loadWhole());
    } catch (error) {
      this.older.textContent = t('log.earlierFailed');
      return;
    } finally {
      this.older.disabled = false;
    }
    this.older.textContent = t('log.earlier');
  }

  // `whole`: every line of the game up to some move, which the lines shown reach or pass (news
  // may have come meanwhile). The lines shown start where they match it; what comes before goes
  // before them, announced to nobody (they are old), and every line gets its number in the game.
  prependFrom(whole) {
    const wholeKeys = whole.map(lineKey);
    let start = whole.length;
    for (let k = 0; k < whole.length; ++k) {
      const count = Math.min(this.lines.length, whole.length - k);
      let same = true;
      for (let i = 0; i < count && same; ++i) same = this.keys[i] === wholeKeys[k + i];
      if (same) { start = k; break; }
    }
    const earlier = whole.slice(0, start);
    this.list.setAttribute('aria-busy', 'true');
    const top = this.list.scrollHeight - this.list.scrollTop;
    this.list.prepend(...earlier.map((line) => this.item(line)));
    this.lines.unshift(...earlier);
    this.keys.unshift(...wholeKeys.slice(0, start));
    [...this.list.children].forEach((li, i) => { li.value = i + 1; });
    this.list.removeAttribute('aria-busy');
    this.setComplete(true);
    if (this.follow) this.scrollToEnd();
    else this.list.scrollTop = this.list.scrollHeight - top; // the reader's place stays
  }

  // A snapshot's lines (the last ones of the game): the lines already shown that it repeats stay as
  // they are, and only what is new is appended; a log that does not overlap replaces the list.
  show(lines) {
    const overlap = this.overlap(lines);
    if (overlap === null) {
      this.clear();
      this.append(lines);
    } else {
      this.append(lines.slice(overlap));
    }
    // A snapshot carries the log's last kSnapshotLines lines (docs/protocol.md, "The whole log"):
    // fewer are the whole log, and there is nothing earlier to ask for.
    if (!this.complete && lines.length < kSnapshotLines && this.lines.length === lines.length) this.setComplete(true);
  }

  // How many of `lines` are the end of the lines shown (null: none, though both have lines).
  overlap(lines) {
    if (this.lines.length === 0) return 0;
    const keys = lines.map(lineKey);
    for (let count = Math.min(lines.length, this.lines.length); count > 0; --count) {
      const start = this.keys.length - count;
      let same = true;
      for (let i = 0; i < count && same; ++i) same = this.keys[start + i] === keys[i];
      if (same) return count;
    }
    return lines.length === 0 ? 0 : null;
  }

  append(lines = []) {
    if (lines.length === 0) return;
    const start = this.lines.length;
    this.lines.push(...lines);
    this.keys.push(...lines.map(lineKey));
    this.list.append(...lines.map((line, i) => this.item(line, start + i + 1)));
    if (!this.complete && this.lines.length > kMaxLines) {
      const drop = this.lines.length - kMaxLines;
      this.lines.splice(0, drop);
      this.keys.splice(0, drop);
      for (let i = 0; i < drop; ++i) this.list.firstElementChild?.remove();
    }
    if (this.follow) this.scrollToEnd();
  }

  scrollToEnd() {
    this.list.scrollTop = this.list.scrollHeight;
    this.follow = true;
  }

  // After the panel is shown or laid out again (a hidden list cannot scroll).
  keepUp() {
    if (this.follow) this.list.scrollTop = this.list.scrollHeight;
  }
}

// Lines are the same when their events are.
const lineKey = (line) => JSON.stringify(line);
