// What the pages drawn from the HTTP API share (leagues, seasons, ratings, profiles): loading with
// a later load winning over an earlier one, an error in the page, the focus kept across re-draws,
// and a few words (places, dates, names linked to profiles).
import { h, fill } from './dom.js';

export function ordinal(n) {
  const suffixes = ['th', 'st', 'nd', 'rd'];
  const v = n % 100;
  return `${n}${suffixes[(v - 20) % 10] || suffixes[v] || suffixes[0]}`;
}

export function formatDate(ms, withTime = false) {
  if (!ms) return '';
  const options = { year: 'numeric', month: 'short', day: 'numeric' };
  if (withTime) Object.assign(options, { hour: '2-digit', minute: '2-digit' });
  return new Date(ms).toLocaleString(undefined, options);
}

// Ratings are shown whole (the server may keep fractions).
export const formatRating = (rating) => String(Math.round(rating));

export function formatChange(before, after) {
  const change = Math.round(after) - Math.round(before);
  return change > 0 ? `+${change}` : change < 0 ? `−${-change}` : '±0';
}

// A player's name, linked to their profile; `me` adds "(you)".
export function playerLink(user, me) {
  return h('a', { href: `#/player/${user.id}`, 'data-user': user.id }, user.name, user.id === me ? ' (you)' : '');
}

export const kSeasonStatus = { signup: 'open for sign-up', playing: 'under way', finished: 'finished' };

// A page that shows what it fetched for one route. `fetch(route)` returns the data, `draw(data)`
// the page's content. A load started later wins over one still under way.
export class DataPage {
  constructor(app, sectionId) {
    this.app = app;
    this.root = document.getElementById(sectionId);
    this.body = this.root; // what the loading message replaces
    this.serial = 0;
    this.route = null;
    this.data = null;
    this.error = null;
  }

  sameRoute(route) {
    return this.route && JSON.stringify(this.route) === JSON.stringify(route);
  }

  // `quiet`: a refresh in the background, which keeps what is shown if it fails.
  async load(route, { quiet = false } = {}) {
    const serial = ++this.serial;
    if (!this.sameRoute(route)) {
      this.route = route;
      this.data = null;
      this.error = null;
      fill(this.body, h('p', { class: 'loading' }, 'Loading…'));
    }
    try {
      const data = await this.fetch(route);
      if (serial !== this.serial) return;
      this.data = data;
      this.error = null;
    } catch (error) {
      if (serial !== this.serial) return;
      if (quiet && this.data) return;
      this.error = error;
    }
    this.render();
  }

  refresh() {
    if (this.route) return this.load(this.route, { quiet: true });
    return undefined;
  }

  render() {
    if (!this.route) return;
    const focus = focusKey(this.root, document.activeElement);
    if (this.error) fill(this.root, this.errorPanel(this.error));
    else if (this.data) fill(this.root, this.draw(this.data));
    restoreFocus(this.root, focus);
  }

  errorPanel(error) {
    return h('div', { class: 'panel page-error' },
      h('h1', {}, this.title ?? 'Not found'),
      h('p', {}, this.app.errorText(error)),
      h('p', {}, h('a', { href: '#/' }, 'Back to the lobby')));
  }

  // Runs a request a button asked for: the button is disabled meanwhile; an error is shown.
  async act(button, request) {
    if (button) button.disabled = true;
    try {
      return await request();
    } catch (error) {
      this.app.showError(error);
      return null;
    } finally {
      if (button?.isConnected) button.disabled = false;
    }
  }
}

// Re-drawing replaces elements; the focus goes back to the one that means the same thing.
function focusKey(root, element) {
  if (!element || !root.contains(element)) return null;
  for (const name of ['id', 'data-action', 'href'])
    if (element.hasAttribute(name)) return [name, element.getAttribute(name)];
  return null;
}

function restoreFocus(root, key) {
  if (!key) return;
  const match = root.querySelector(`[${key[0]}="${CSS.escape(key[1])}"]`);
  if (match && match !== document.activeElement) match.focus({ preventScroll: true });
}
