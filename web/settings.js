// The settings page: how a turn ends, how a player hears that it is their turn, their vacation,
// the players they blocked, their password and their own data. Browser notifications are this
// browser's choice (kept in localStorage, and the browser's own permission); the preferences, turn
// mails, the turn webhook, the vacation and the blocked players are the account's (the HTTP API's
// /api/preferences, /api/email, /api/webhook, /api/vacation and /api/blocks); the password is
// changed with POST /api/password; the data are downloaded from /api/account/export and the
// account deleted with DELETE /api/account.
import { h, fill } from './dom.js';
import { t, formatDate, language } from './i18n.js';

const kNotifyKey = 'gcor.notify';

// Whether this browser shows a system notification at a turn: the player asked for it here, and
// the browser allows it.
export function notificationsOn() {
  return typeof Notification !== 'undefined' && Notification.permission === 'granted' && localStorage.getItem(kNotifyKey) === 'on';
}

export class SettingsPage {
  constructor(app) {
    this.app = app;
    this.root = document.getElementById('settings');
  }

  async load() {
    fill(this.root, h('h1', {}, t('nav.settings')), this.notificationsPanel(), h('p', { class: 'loading' }, t('common.loading')));
    let preferences = null;
    let webhook = '';
    let email = null;
    let vacation = null;
    let blocks = null;
    try {
      [preferences, webhook, email, vacation, blocks] = await Promise.all([
        this.app.get('/api/preferences'),
        this.app.get('/api/webhook').then((reply) => reply.webhook),
        this.app.get('/api/email'),
        // Guests take no vacation: the panel says so, without asking (a 403 in the console).
        this.app.user?.guest ? null : this.app.get('/api/vacation'),
        // Guests block nobody: no panel, and nothing asked.
        this.app.user?.guest ? null : this.app.get('/api/blocks').then((reply) => reply.blocks),
      ]);
    } catch (error) {
      this.app.showError(error);
    }
    // A server without a mail relay offers no mail.
    const mail = email && email.available ? [this.emailPanel(email)] : [];
    fill(this.root, h('h1', {}, t('nav.settings')), ...(preferences ? [this.playPanel(preferences)] : []), this.notificationsPanel(), ...mail, this.webhookPanel(webhook), this.vacationPanel(vacation), ...(blocks ? [this.blocksPanel(blocks)] : []), this.passwordPanel(), this.accountPanel());
  }

  // Whether the end of the player's turn waits for their Done (POST /api/preferences).
  playPanel(preferences) {
    const box = h('input', { id: 'settings-confirm-turn', type: 'checkbox', 'aria-describedby': 'settings-confirm-turn-hint' });
    box.checked = preferences.confirm_turn;
    const state = h('p', { id: 'settings-play-state', class: 'muted small', role: 'status' });
    box.addEventListener('change', async () => {
      try {
        box.checked = (await this.app.send('/api/preferences', { confirm_turn: box.checked })).confirm_turn;
        state.textContent = t('settings.saved');
      } catch (error) {
        box.checked = !box.checked;
        state.textContent = this.app.refusalText(error);
      }
    });
    return h('section', { class: 'panel', 'aria-labelledby': 'settings-play-title' },
      h('h2', { id: 'settings-play-title' }, t('settings.play.title')),
      h('p', {}, h('label', { class: 'check' }, box, t('settings.play.confirmTurn'))),
      h('p', { id: 'settings-confirm-turn-hint', class: 'muted small' }, t('settings.play.confirmTurnHint')),
      state);
  }

  // The players this user blocked, each with Unblock (GET and DELETE /api/blocks).
  blocksPanel(blocks) {
    const list = h('ul', { id: 'settings-blocks', class: 'table-list' });
    const state = h('p', { id: 'settings-blocks-state', class: 'muted small', role: 'status' });
    const show = (current) => fill(list, current.length
      ? current.map((blocked) => h('li', { 'data-user': blocked.user },
          h('a', { href: `#/player/${blocked.user}` }, blocked.name),
          h('button', { type: 'button', class: 'secondary', 'data-action': 'unblock', onclick: async () => {
            try {
              show((await this.app.api('DELETE', `/api/blocks/${blocked.user}`)).blocks);
              state.textContent = t('social.unblocked', { name: blocked.name });
            } catch (error) {
              state.textContent = this.app.refusalText(error);
            }
          } }, t('social.unblock'))))
      : h('li', { class: 'muted' }, t('social.noBlocks')));
    show(blocks);
    return h('section', { class: 'panel', 'aria-labelledby': 'settings-blocks-title' },
      h('h2', { id: 'settings-blocks-title' }, t('social.blocksTitle')),
      h('p', { class: 'muted small' }, t('social.blocksHint')),
      list, state);
  }

  // A new password, the current one asked (POST /api/password): the account's other sessions end,
  // this one goes on.
  passwordPanel() {
    const title = h('h2', { id: 'settings-password-title' }, t('password.change.title'));
    if (!this.app.user || this.app.user.guest)
      return h('section', { class: 'panel', 'aria-labelledby': 'settings-password-title' }, title,
        h('p', { id: 'settings-password-guest', class: 'muted' }, t('password.change.guest')));
    const old = h('input', { id: 'settings-password-old', type: 'password', autocomplete: 'current-password', required: true });
    const replacement = h('input', { id: 'settings-password-new', type: 'password', autocomplete: 'new-password', minlength: 8, required: true,
      'aria-describedby': 'settings-password-rules' });
    const status = h('p', { id: 'settings-password-state', role: 'status' });
    const form = h('form', { id: 'settings-password-form' },
      h('label', { for: 'settings-password-old' }, t('password.change.old')), old,
      h('label', { for: 'settings-password-new' }, t('password.change.new')), replacement,
      h('p', { id: 'settings-password-rules', class: 'muted small' }, t('password.rules')),
      h('button', { id: 'settings-password-save', type: 'submit' }, t('password.change.submit')),
      status);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        await this.app.send('/api/password', { old: old.value, new: replacement.value });
        old.value = '';
        replacement.value = '';
        status.textContent = t('password.change.done');
      } catch (error) {
        status.textContent = this.app.refusalText(error);
      }
    });
    return h('section', { class: 'panel', 'aria-labelledby': 'settings-password-title' }, title, form);
  }

  // The address turn mails go to, its state, and how often they come (GET/POST /api/email).
  emailPanel(current) {
    const title = h('h2', { id: 'settings-email-title' }, t('settings.mail.title'));
    if (this.app.user && this.app.user.guest) {
      return h('section', { class: 'panel', 'aria-labelledby': 'settings-email-title' }, title, h('p', { id: 'settings-email-guest' }, t('settings.mail.guest')));
    }
    const input = h('input', { id: 'settings-email', type: 'email', value: current.email || '', placeholder: 'ann@example.org', size: 32, autocomplete: 'email' });
    const state = h('p', { id: 'settings-email-state', class: 'muted small', role: 'status' });
    const frequency = h('select', { id: 'settings-email-frequency' },
      h('option', { value: 'each_turn' }, t('settings.mail.eachTurn')),
      h('option', { value: 'daily' }, t('settings.mail.daily')),
      h('option', { value: 'off' }, t('settings.mail.never')));
    const invitations = h('input', { id: 'settings-email-invitations', type: 'checkbox' });
    const show = (reply) => {
      current = reply;
      input.value = reply.email || '';
      frequency.value = reply.frequency;
      frequency.disabled = !reply.email;
      invitations.checked = reply.invitations !== false;
      invitations.disabled = !reply.email;
      if (!reply.email) state.textContent = t('settings.mail.none');
      else if (reply.confirmed) state.textContent = t(reply.frequency === 'off' ? 'settings.mail.off' : 'settings.mail.confirmed', { email: reply.email });
      else state.textContent = t('settings.mail.unconfirmed', { email: reply.email });
    };
    show(current);
    // Mails are written in the language of the page that saved (not with a removal: no address).
    const send = async (body, done) => {
      try {
        show(await this.app.send('/api/email', body.email === '' ? body : { ...body, language: language() }));
        state.textContent = `${done} ${state.textContent}`;
      } catch (error) {
        state.textContent = this.app.refusalText(error);
      }
    };
    // The server checks the address (and says why not); the browser's own check would only block.
    const form = h('form', { id: 'settings-email-form', novalidate: true },
      h('label', { for: 'settings-email' }, t('settings.mail.address')),
      input,
      h('p', { class: 'muted small' }, t('settings.mail.hint')),
      h('button', { id: 'settings-email-save', type: 'submit' }, t('common.save')));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      send({ email: input.value.trim() }, t('settings.saved'));
    });
    frequency.addEventListener('change', () => send({ frequency: frequency.value }, t('settings.saved')));
    invitations.addEventListener('change', () => send({ invitations: invitations.checked }, t('settings.saved')));
    return h('section', { class: 'panel', 'aria-labelledby': 'settings-email-title' }, title, form,
      h('p', {}, h('label', {}, t('settings.mail.frequency'), frequency)),
      h('p', {}, h('label', { class: 'check' }, invitations, ` ${t('invite.mailSetting')}`)),
      state);
  }

  // A vacation stops the deadlines of the player's correspondence games; the dates are local days:
  // away from the start of the first, back at the start of the second.
  vacationPanel(state) {
    const section = (...content) => h('section', { class: 'panel', 'aria-labelledby': 'settings-vacation-title' },
      h('h2', { id: 'settings-vacation-title' }, t('settings.vacation.title')), ...content);
    const hint = t('settings.vacation.hint');
    if (!state) return section(h('p', { id: 'settings-vacation-guest', class: 'muted' }, t('settings.vacation.guest')));
    if (!state.days_per_year) return section(h('p', { class: 'muted' }, t('settings.vacation.unavailable')));
    const status = h('p', { id: 'settings-vacation-state', role: 'status' });
    const from = h('input', { id: 'settings-vacation-from', type: 'date', required: true });
    const back = h('input', { id: 'settings-vacation-to', type: 'date', required: true });
    const end = h('button', { id: 'settings-vacation-end', type: 'button', class: 'secondary' });
    const show = (current) => {
      const vacation = current.vacation;
      const running = vacation && vacation.from <= Date.now();
      const until = vacation ? formatDate(vacation.to, 'dateTime') : '';
      const plan = !vacation ? t('settings.vacation.none')
        : running ? t('settings.vacation.running', { until }) : t('settings.vacation.planned', { from: formatDate(vacation.from, 'dateTime'), until });
      status.textContent = `${plan} ${t('settings.vacation.daysLeft', { left: current.days_left, count: current.days_per_year })}`;
      from.value = dateInputValue(vacation && !running ? vacation.from : Date.now());
      back.value = vacation ? dateInputValue(vacation.to) : '';
      end.textContent = t(running ? 'settings.vacation.end' : 'settings.vacation.cancel');
      end.hidden = !vacation;
    };
    show(state);
    const form = h('form', { id: 'settings-vacation-form' },
      h('p', { class: 'muted small' }, hint),
      h('label', { for: 'settings-vacation-from' }, t('settings.vacation.from')), from,
      h('label', { for: 'settings-vacation-to' }, t('settings.vacation.to')), back,
      h('button', { id: 'settings-vacation-save', type: 'submit' }, t('settings.vacation.declare')),
      end, status);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const starts = startOfDay(from.value);
      const body = { to: startOfDay(back.value) };
      // Today means now: a vacation cannot start in the past.
      if (starts > Date.now()) body.from = starts;
      try {
        show(await this.app.send('/api/vacation', body));
      } catch (error) {
        status.textContent = this.app.refusalText(error);
      }
    });
    end.addEventListener('click', async () => {
      try {
        show(await this.app.api('DELETE', '/api/vacation'));
      } catch (error) {
        status.textContent = this.app.refusalText(error);
      }
    });
    return section(form);
  }

  // The player's data (docs/operations.md, "Your data"): a download of all the server keeps about
  // them, and the deletion of the account in two steps (a guest has no password to give).
  accountPanel() {
    const guest = Boolean(this.app.user && this.app.user.guest);
    const state = h('p', { id: 'settings-account-state', class: 'muted small', role: 'status' });
    const download = h('button', { id: 'settings-export', type: 'button', class: 'secondary' }, t('settings.account.export'));
    download.addEventListener('click', async () => {
      try {
        await downloadExport(this.app.token);
        state.textContent = t('settings.account.exported');
      } catch (error) {
        state.textContent = this.app.refusalText(error);
      }
    });
    const password = h('input', { id: 'settings-delete-password', type: 'password', autocomplete: 'current-password', required: !guest, size: 24 });
    const ask = h('button', { id: 'settings-delete', type: 'submit', class: 'secondary' }, t('settings.account.delete'));
    const confirm = h('button', { id: 'settings-delete-confirm', type: 'button', hidden: true }, t('settings.account.confirm'));
    const keep = h('button', { id: 'settings-delete-cancel', type: 'button', class: 'secondary', hidden: true }, t('settings.account.keep'));
    const asking = (on) => {
      ask.hidden = on;
      confirm.hidden = !on;
      keep.hidden = !on;
      state.textContent = on ? t('settings.account.sure') : '';
    };
    const form = h('form', { id: 'settings-delete-form' },
      h('p', {}, t(guest ? 'settings.account.deleteGuest' : 'settings.account.deleteHint')),
      guest ? null : [h('label', { for: 'settings-delete-password' }, t('settings.account.password')), password],
      ask, confirm, keep);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      asking(true);
    });
    keep.addEventListener('click', () => asking(false));
    confirm.addEventListener('click', async () => {
      try {
        await this.app.api('DELETE', '/api/account', guest ? {} : { password: password.value });
        await this.app.signOut();
        this.app.notice(t('settings.account.deleted'));
      } catch (error) {
        asking(false);
        state.textContent = this.app.refusalText(error);
      }
    });
    return h('section', { class: 'panel', 'aria-labelledby': 'settings-account-title' },
      h('h2', { id: 'settings-account-title' }, t('settings.account.title')),
      h('p', {}, t('settings.account.exportHint')), download, form, state);
  }

  notificationsPanel() {
    const supported = typeof Notification !== 'undefined';
    const state = h('p', { id: 'settings-notify-state', class: 'muted small', role: 'status' }, describePermission());
    const box = h('input', { id: 'settings-notify', type: 'checkbox', checked: notificationsOn(), disabled: !supported });
    box.addEventListener('change', async () => {
      if (!box.checked) {
        localStorage.setItem(kNotifyKey, 'off');
      } else {
        const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
        localStorage.setItem(kNotifyKey, permission === 'granted' ? 'on' : 'off');
        box.checked = permission === 'granted';
      }
      state.textContent = describePermission();
    });
    return h('section', { class: 'panel', 'aria-labelledby': 'settings-turns' },
      h('h2', { id: 'settings-turns' }, t('table.yourTurn')),
      h('p', {}, t('settings.notify.title')),
      h('label', { class: 'check' }, box, t('settings.notify.box')),
      state);
  }

  webhookPanel(current) {
    const input = h('input', { id: 'settings-webhook', type: 'url', value: current, placeholder: 'http://example.org/turns', size: 40, autocomplete: 'off', 'aria-describedby': 'settings-webhook-hint' });
    const saved = h('p', { id: 'settings-webhook-state', class: 'muted small', role: 'status' }, t(current ? 'settings.webhook.set' : 'settings.webhook.unset'));
    const form = h('form', { id: 'settings-webhook-form' },
      h('label', { for: 'settings-webhook' }, t('settings.webhook.url')),
      input,
      h('p', { id: 'settings-webhook-hint', class: 'muted small' }, t('settings.webhook.hint')),
      h('button', { id: 'settings-webhook-save', type: 'submit' }, t('common.save')),
      saved);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        const reply = await this.app.send('/api/webhook', { url: input.value.trim() });
        input.value = reply.webhook;
        saved.textContent = t(reply.webhook ? 'settings.webhook.savedSet' : 'settings.webhook.savedUnset');
      } catch (error) {
        saved.textContent = this.app.refusalText(error);
      }
    });
    return h('section', { class: 'panel', 'aria-labelledby': 'settings-webhook-title' }, h('h2', { id: 'settings-webhook-title' }, t('settings.webhook.title')), form);
  }
}

// Saves GET /api/account/export as the file the server names; errors as App.api throws them.
async function downloadExport(token) {
  let response;
  try {
    response = await fetch('/api/account/export', { headers: { Authorization: `Bearer ${token}` }, cache: 'no-store' });
  } catch {
    throw { code: 'offline', message: 'the server cannot be reached', api: true };
  }
  if (!response.ok) {
    const reply = await response.json().catch(() => ({}));
    throw { code: reply.code, message: reply.message || `HTTP ${response.status}`, status: response.status, api: true };
  }
  const named = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') || '');
  const link = h('a', { href: URL.createObjectURL(await response.blob()), download: named ? named[1] : 'gcor-account.json', hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

// "2026-11-25" for a date input, in local time.
function dateInputValue(ms) {
  const date = new Date(ms);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

// The start of a date input's day, in local time, as Unix milliseconds.
function startOfDay(value) {
  const [year, month, day] = value.split('-').map(Number);
  return new Date(year, month - 1, day).getTime();
}

function describePermission() {
  if (typeof Notification === 'undefined') return t('settings.notify.unsupported');
  if (Notification.permission === 'denied') return t('settings.notify.blocked');
  return t(notificationsOn() ? 'settings.notify.on' : 'settings.notify.off');
}
