// What the pages drawn from the HTTP API share (leagues, seasons, ratings, profiles): loading with
// a later load winning over an earlier one, an error in the page, the focus kept across re-draws,
// and a few words (places, dates, names linked to profiles).
import { h, fill } from './dom.js';
import { t, formatNumber } from './i18n.js';

// Ratings are shown whole (the server may keep fractions), without a thousands separator.
export const formatRating = (rating) => formatNumber(Math.round(rating), { useGrouping: false });

export function formatChange(before, after) {
  const change = Math.round(after) - Math.round(before);
  return change > 0 ? `+${change}` : change < 0 ? `−${-change}` : '±0';
}

// A player's name, linked to their profile; `me` adds "(you)".
export function playerLink(user, me) {
  return h('a', { href: `#/player/${user.id}`, 'data-user': user.id }, user.name, user.id === me ? t('common.you') : '');
}

const kSeasonStates = new Set(['signup', 'playing', 'finished']);
export const seasonStatus = (status) => (kSeasonStates.has(status) ? t(`season.status.${status}`) : status);

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
      fill(this.body, h('p', { class: 'loading' }, t('common.loading')));
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
      h('h1', {}, this.title ? t(this.title) : t('common.notFound')),
      h('p', {}, this.app.errorText(error)),
      h('p', {}, h('a', { href: '#/' }, t('common.backToLobby'))));
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
