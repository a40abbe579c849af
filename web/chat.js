// A table's chat: a panel beside the game log that outlives the table's re-draws (its live list
// only grows, as the log's does). Lines come from the snapshot, from `chat` messages and, paging
// back, from `chat_history`; they are shown as text only. Enter sends; lines of others that
// arrive while the panel is out of sight count as unread until it is seen again.
import { h, fill } from './dom.js';
import { t, formatDate } from './i18n.js';

const kMaxLines = 500; // kept in the page; older ones are a click on "Earlier messages" away

export class ChatPanel {
  // `app`: the connection, the user and their mutes; `tableId()`: the table shown.
  constructor(app, tableId) {
    this.app = app;
    this.tableId = tableId;
    this.lines = new Map(); // n -> line, for the lines shown
    this.names = new Map(); // user id -> name, from the lines seen (for the muted list)
    this.unread = 0;
    this.visible = false;
    this.list = h('ol', { id: 'chat-list', 'aria-live': 'polite', 'aria-relevant': 'additions', tabindex: '0' });
    this.badge = h('span', { id: 'chat-unread', class: 'badge unread', hidden: true });
    this.older = h('button', { id: 'chat-older', type: 'button', class: 'secondary small', hidden: true, onclick: () => this.loadEarlier() });
    this.input = h('input', { id: 'chat-input', type: 'text', maxlength: '500', autocomplete: 'off' });
    this.send = h('button', { id: 'chat-send', type: 'submit' });
    this.title = h('h2', { id: 'chat-title' });
    this.note = h('p', { id: 'chat-note', class: 'muted small', hidden: true });
    this.error = h('p', { id: 'chat-error', class: 'chat-error small', role: 'status' });
    this.muted = h('p', { id: 'chat-muted', class: 'muted small', hidden: true });
    this.form = h('form', { id: 'chat-form', onsubmit: (event) => this.submit(event) }, this.input, this.send);
    this.element = h('section', { id: 'chat-panel', class: 'chat-panel', 'aria-labelledby': 'chat-title', onfocusin: () => this.seen() },
      h('div', { class: 'chat-head' }, this.title, this.badge),
      this.older, this.list, this.note, this.form, this.error, this.muted);
    this.relabel();
    // Unread: lines that came while the panel was off the screen or the tab hidden.
    new IntersectionObserver((entries) => {
      this.visible = entries.some((entry) => entry.isIntersecting);
      if (this.visible) this.seen();
    }).observe(this.element);
    document.addEventListener('visibilitychange', () => this.visible && this.seen());
    // The list follows new lines while its reader is at its end (not while they read back).
    this.follow = true;
    this.list.addEventListener('scroll', () => {
      this.follow = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 24;
    });
  }

  // The panel's words and its lines again in the page's language (the lines' elements are made
  // again: their buttons and times are words too).
  relabel() {
    this.list.setAttribute('aria-label', t('chat.messages'));
    this.older.textContent = t('chat.earlier');
    this.input.setAttribute('aria-label', t('chat.message'));
    this.input.placeholder = t('chat.placeholder');
    this.send.textContent = t('chat.send');
    this.title.textContent = t('chat.title');
    this.note.textContent = this.why ? t(this.why) : '';
    this.error.textContent = '';
    this.showUnread();
    this.showMuted();
    this.list.setAttribute('aria-busy', 'true');
    for (const element of [...this.list.children]) element.replaceWith(this.item(this.lines.get(Number(element.dataset.n))));
    this.list.removeAttribute('aria-busy');
  }

  clear() {
    this.lines.clear();
    this.list.replaceChildren();
    this.older.hidden = true;
    this.loaded = false;
    this.error.textContent = '';
    this.unread = 0;
    this.showUnread();
  }

  // Who may write, from the table's summary (`chat`, `spectators`) and the viewer's seat.
  configure(summary, seat) {
    const setting = summary?.chat ?? 'all';
    let why = '';
    if (setting === 'off') why = 'chat.off';
    else if (seat === null && setting === 'players') why = 'chat.playersOnly';
    this.why = why;
    this.note.textContent = why ? t(why) : '';
    this.note.hidden = !why;
    this.form.hidden = Boolean(why);
    this.showMuted();
  }

  // A waiting table has no snapshot: its lines come from the history, once per table shown.
  async ensureLoaded() {
    if (this.loaded || this.loading) return;
    this.loading = true;
    try {
      const page = await this.app.connection.request({ type: 'chat_history', table: this.tableId() });
      this.merge(page.lines);
      this.older.hidden = !page.more;
      this.loaded = true;
    } catch (error) {
      if (error.code !== 'offline') this.error.textContent = this.app.refusalText(error);
    } finally {
      this.loading = false;
    }
  }

  // A snapshot's lines (the newest 50): what it lacks within its span was deleted or muted.
  showRecent(lines) {
    const first = lines[0]?.n ?? Infinity;
    for (const n of [...this.lines.keys()]) if (n >= first && !lines.some((line) => line.n === n)) this.remove(n);
    this.merge(lines);
    if (!this.loaded) this.older.hidden = !(lines.length > 0 && first > 1);
    this.loaded = true;
  }

  onLine(line) {
    const mine = line.from.user === this.app.user?.id;
    if (this.merge([line]) && !mine && !this.isSeen()) {
      this.unread += 1;
      this.showUnread();
    }
  }

  // Adds the lines not shown yet, in order; true when one was new.
  merge(lines) {
    let added = false;
    for (const line of lines) {
      this.names.set(line.from.user, line.from.name);
      if (this.lines.has(line.n) || this.app.muted.has(line.from.user)) continue;
      this.lines.set(line.n, line);
      const item = this.item(line);
      const after = [...this.list.children].find((element) => Number(element.dataset.n) > line.n);
      this.list.insertBefore(item, after ?? null);
      added = true;
    }
    while (this.lines.size > kMaxLines) this.remove(Math.min(...this.lines.keys()));
    if (added && this.follow) this.list.scrollTop = this.list.scrollHeight;
    return added;
  }

  remove(n) {
    this.lines.delete(n);
    this.list.querySelector(`li[data-n="${n}"]`)?.remove();
  }

  item(line) {
    const me = this.app.user?.id;
    const from = line.from;
    const who = from.seat === null ? t('chat.watching', { name: from.name }) : from.name;
    const time = new Date(line.at);
    return h('li', { 'data-n': line.n, 'data-user': from.user, class: from.user === me ? 'mine' : '' },
      h('span', { class: 'chat-from' }, who),
      ' ',
      h('span', { class: 'chat-text' }, line.text),
      ' ',
      h('time', { datetime: time.toISOString(), title: formatDate(line.at, 'dateTime') }, formatDate(line.at, 'time')),
      from.user !== me ? h('button', { type: 'button', class: 'link small chat-mute', 'aria-label': t('chat.muteLabel', { name: from.name }), onclick: () => this.mute(from.user, true) }, t('chat.mute')) : null,
      this.app.user?.admin ? h('button', { type: 'button', class: 'link small chat-delete', 'aria-label': t('chat.deleteLabel', { name: from.name }), onclick: () => this.deleteLine(line.n) }, t('chat.delete')) : null);
  }

  async submit(event) {
    event.preventDefault();
    const text = this.input.value.trim();
    if (!text || this.send.disabled) return;
    this.send.disabled = true;
    this.error.textContent = '';
    try {
      await this.app.connection.request({ type: 'chat', table: this.tableId(), text });
      this.input.value = '';
    } catch (error) {
      this.error.textContent = error.code === 'offline' ? t('chat.offline') : this.app.refusalText(error);
    } finally {
      this.send.disabled = false;
      this.input.focus();
    }
  }

  async loadEarlier() {
    const first = Math.min(...this.lines.keys());
    this.older.disabled = true;
    try {
      const page = await this.app.connection.request({ type: 'chat_history', table: this.tableId(), before: Number.isFinite(first) ? first : undefined });
      const top = this.list.firstElementChild;
      this.merge(page.lines);
      top?.scrollIntoView({ block: 'start' });
      this.older.hidden = !page.more;
    } catch (error) {
      this.error.textContent = this.app.refusalText(error);
    } finally {
      this.older.disabled = false;
    }
  }

  async mute(user, muting) {
    try {
      const reply = await this.app.connection.request({ type: muting ? 'mute' : 'unmute', user });
      this.app.muted = new Set(reply.users);
      if (muting) for (const [n, line] of [...this.lines]) if (line.from.user === user) this.remove(n);
      this.showMuted();
      if (!muting) {
        this.loaded = false; // their lines are readable again: read the history again
        await this.ensureLoaded();
      }
    } catch (error) {
      this.error.textContent = this.app.refusalText(error);
    }
  }

  async deleteLine(n) {
    try {
      await this.app.connection.request({ type: 'delete_chat', table: this.tableId(), n });
    } catch (error) {
      this.error.textContent = this.app.refusalText(error);
    }
  }

  showMuted() {
    const users = [...this.app.muted];
    this.muted.hidden = users.length === 0;
    fill(this.muted, users.length ? t('chat.muted') : null, users.map((user, index) => [
      index ? ', ' : null,
      this.names.get(user) ?? t('chat.player', { id: user }),
      ' ',
      h('button', { type: 'button', class: 'link small chat-unmute', 'data-user': user, onclick: () => this.mute(user, false) }, t('chat.unmute')),
    ]));
  }

  isSeen() {
    return this.visible && !document.hidden;
  }

  seen() {
    if (!this.isSeen() || this.unread === 0) return;
    this.unread = 0;
    this.showUnread();
  }

  showUnread() {
    this.badge.hidden = this.unread === 0;
    this.badge.textContent = t('chat.unread', { count: this.unread });
  }
}
