// The settings page: how a player hears that it is their turn, and their vacation. Browser
// notifications are this browser's choice (kept in localStorage, and the browser's own
// permission); turn mails, the turn webhook and the vacation are the account's (the HTTP API's
// /api/email, /api/webhook and /api/vacation).
import { h, fill } from './dom.js';

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
    fill(this.root, h('h1', {}, 'Settings'), this.notificationsPanel(), h('p', { class: 'loading' }, 'Loading…'));
    let webhook = '';
    let email = null;
    let vacation = null;
    try {
      [webhook, email, vacation] = await Promise.all([
        this.app.get('/api/webhook').then((reply) => reply.webhook),
        this.app.get('/api/email'),
        // Guests take no vacation: the panel says so.
        this.app.get('/api/vacation').catch((error) => {
          if (error.code === 'registered_only') return null;
          throw error;
        }),
      ]);
    } catch (error) {
      this.app.showError(error);
    }
    // A server without a mail relay offers no mail.
    const mail = email && email.available ? [this.emailPanel(email)] : [];
    fill(this.root, h('h1', {}, 'Settings'), this.notificationsPanel(), ...mail, this.webhookPanel(webhook), this.vacationPanel(vacation));
  }

  // The address turn mails go to, its state, and how often they come (GET/POST /api/email).
  emailPanel(current) {
    const title = h('h2', { id: 'settings-email-title' }, 'Turn mails');
    if (this.app.user && this.app.user.guest) {
      return h('section', { class: 'panel', 'aria-labelledby': 'settings-email-title' }, title, h('p', { id: 'settings-email-guest' }, 'Register to get a mail when it is your turn.'));
    }
    const input = h('input', { id: 'settings-email', type: 'email', value: current.email || '', placeholder: 'ann@example.org', size: 32, autocomplete: 'email' });
    const state = h('p', { id: 'settings-email-state', class: 'muted small', role: 'status' });
    const frequency = h('select', { id: 'settings-email-frequency' },
      h('option', { value: 'each_turn' }, 'at each turn'),
      h('option', { value: 'daily' }, 'once a day, listing the games waiting for me'),
      h('option', { value: 'off' }, 'never'));
    const show = (reply) => {
      current = reply;
      input.value = reply.email || '';
      frequency.value = reply.frequency;
      frequency.disabled = !reply.email;
      if (!reply.email) state.textContent = 'No address: no mail is sent.';
      else if (reply.confirmed) state.textContent = `Mails go to ${reply.email}.`;
      else state.textContent = `A link was mailed to ${reply.email}: open it to confirm the address. Nothing else is mailed before. (Save again for a new link.)`;
    };
    show(current);
    const send = async (body, done) => {
      try {
        show(await this.app.send('/api/email', body));
        state.textContent = `${done} ${state.textContent}`;
      } catch (error) {
        state.textContent = this.app.errorText(error);
      }
    };
    // The server checks the address (and says why not); the browser's own check would only block.
    const form = h('form', { id: 'settings-email-form', novalidate: true },
      h('label', { for: 'settings-email' }, 'E-mail address'),
      input,
      h('p', { class: 'muted small' }, 'Leave it empty and save to remove it. Every mail has a link that stops them without signing in.'),
      h('button', { id: 'settings-email-save', type: 'submit' }, 'Save'));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      send({ email: input.value.trim() }, 'Saved.');
    });
    frequency.addEventListener('change', () => send({ frequency: frequency.value }, 'Saved.'));
    return h('section', { class: 'panel', 'aria-labelledby': 'settings-email-title' }, title, form,
      h('p', {}, h('label', {}, 'Mail me ', frequency)),
      state);
  }

  // A vacation stops the deadlines of the player's correspondence games; the dates are local days:
  // away from the start of the first, back at the start of the second.
  vacationPanel(state) {
    const section = (...content) => h('section', { class: 'panel', 'aria-labelledby': 'settings-vacation-title' },
      h('h2', { id: 'settings-vacation-title' }, 'Vacation'), ...content);
    const hint = 'While you are away the deadlines of your correspondence games wait (they move back by the time away); real-time games go on. The other players see that you are on vacation.';
    if (!state) return section(h('p', { id: 'settings-vacation-guest', class: 'muted' }, 'Vacations are for registered players: sign out, then create an account.'));
    if (!state.days_per_year) return section(h('p', { class: 'muted' }, 'This server takes no vacations.'));
    const status = h('p', { id: 'settings-vacation-state', role: 'status' });
    const from = h('input', { id: 'settings-vacation-from', type: 'date', required: true });
    const back = h('input', { id: 'settings-vacation-to', type: 'date', required: true });
    const end = h('button', { id: 'settings-vacation-end', type: 'button', class: 'secondary' });
    const show = (current) => {
      const vacation = current.vacation;
      const running = vacation && vacation.from <= Date.now();
      status.textContent = `${vacation ? `${running ? 'You are on vacation' : `Vacation planned from ${formatWhen(vacation.from)}`} until ${formatWhen(vacation.to)}.` : 'No vacation planned.'} ${current.days_left} of ${current.days_per_year} days left this year.`;
      from.value = dateInputValue(vacation && !running ? vacation.from : Date.now());
      back.value = vacation ? dateInputValue(vacation.to) : '';
      end.textContent = running ? 'End the vacation now' : 'Cancel the vacation';
      end.hidden = !vacation;
    };
    show(state);
    const form = h('form', { id: 'settings-vacation-form' },
      h('p', { class: 'muted small' }, hint),
      h('label', { for: 'settings-vacation-from' }, 'Away from'), from,
      h('label', { for: 'settings-vacation-to' }, 'Back on'), back,
      h('button', { id: 'settings-vacation-save', type: 'submit' }, 'Declare'),
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
        status.textContent = this.app.errorText(error);
      }
    });
    end.addEventListener('click', async () => {
      try {
        show(await this.app.api('DELETE', '/api/vacation'));
      } catch (error) {
        status.textContent = this.app.errorText(error);
      }
    });
    return section(form);
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
      h('h2', { id: 'settings-turns' }, 'Your turn'),
      h('p', {}, 'While a page of this site is open, its tab title counts the games waiting for you: "(2) Your turn".'),
      h('label', { class: 'check' }, box, ' Also show a system notification when it becomes my turn (a click opens the table)'),
      state);
  }

  webhookPanel(current) {
    const input = h('input', { id: 'settings-webhook', type: 'url', value: current, placeholder: 'http://example.org/turns', size: 40, autocomplete: 'off', 'aria-describedby': 'settings-webhook-hint' });
    const saved = h('p', { id: 'settings-webhook-state', class: 'muted small', role: 'status' }, current ? 'A webhook is set.' : 'No webhook is set.');
    const form = h('form', { id: 'settings-webhook-form' },
      h('label', { for: 'settings-webhook' }, 'Webhook URL'),
      input,
      h('p', { id: 'settings-webhook-hint', class: 'muted small' }, 'When it becomes your turn the server POSTs the turn as JSON to this http:// address (for a bot or a chat relay of your own). Leave it empty for none.'),
      h('button', { id: 'settings-webhook-save', type: 'submit' }, 'Save'),
      saved);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        const reply = await this.app.send('/api/webhook', { url: input.value.trim() });
        input.value = reply.webhook;
        saved.textContent = reply.webhook ? 'Saved: the webhook is set.' : 'Saved: no webhook.';
      } catch (error) {
        saved.textContent = this.app.errorText(error);
      }
    });
    return h('section', { class: 'panel', 'aria-labelledby': 'settings-webhook-title' }, h('h2', { id: 'settings-webhook-title' }, 'Turn webhook'), form);
  }
}

// A moment as the browser's language writes it.
function formatWhen(ms) {
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));
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
  if (typeof Notification === 'undefined') return 'This browser does not show notifications.';
  if (Notification.permission === 'denied') return 'This browser blocks notifications from this site: allow them in its site settings first.';
  return notificationsOn() ? 'Notifications are on.' : 'Notifications are off.';
}
