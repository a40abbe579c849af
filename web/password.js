// Account life on the sign-in page and its neighbours (docs/web.md): a forgotten password's
// form (POST /api/password/forgot), the page of the mailed link, #/reset?token=…, which sets the
// new password (POST /api/password/reset), and the register form as a signed-in guest offers it
// ("Register to keep your games": POST /api/register with the guest's token keeps the user id).
import { t } from './i18n.js';

export class PasswordPages {
  constructor(app) {
    this.app = app;
  }

  bind() {
    const link = document.getElementById('forgot-link');
    const form = document.getElementById('forgot-form');
    const status = document.getElementById('forgot-status');
    link.addEventListener('click', () => {
      form.hidden = !form.hidden;
      link.setAttribute('aria-expanded', String(!form.hidden));
      if (!form.hidden) document.getElementById('forgot-email').focus();
    });
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      status.textContent = '';
      try {
        await this.app.post('/api/password/forgot', { email: document.getElementById('forgot-email').value.trim() });
        // The same answer for every address: the server does not say which ones it knows.
        status.textContent = t('password.forgot.sent');
      } catch (error) {
        status.textContent = this.app.refusalText(error);
      }
    });
    document.getElementById('reset-form').addEventListener('submit', (event) => {
      event.preventDefault();
      this.reset();
    });
  }

  // The sign-in page as a signed-in guest sees it (only the register form, which keeps the
  // guest's games), or as everybody else does.
  showSignIn() {
    const guest = this.signedInGuest();
    for (const id of ['guest-form', 'login-form', 'register-title']) document.getElementById(id).hidden = guest;
    for (const id of ['register-guest-title', 'register-guest-note']) document.getElementById(id).hidden = !guest;
    document.getElementById('forgot-form').hidden = true;
    document.getElementById('forgot-link').setAttribute('aria-expanded', 'false');
  }

  signedInGuest() {
    return Boolean(this.app.token && this.app.user && this.app.guest);
  }

  // The header's link for guests.
  showAccount() {
    document.getElementById('nav-register').hidden = !this.signedInGuest();
  }

  // A token for the register request: a guest's keeps its user id.
  registerToken() {
    return this.signedInGuest() ? this.app.token : undefined;
  }

  // The mailed link's page: the token is in the route.
  showReset(token) {
    this.token = token;
    document.getElementById('reset-status').textContent = '';
    document.getElementById('reset-password').value = '';
    this.app.show('reset');
  }

  async reset() {
    const status = document.getElementById('reset-status');
    const field = document.getElementById('reset-password');
    try {
      const password = field.value;
      const reply = await this.app.post('/api/password/reset', { token: this.token, password });
      field.value = '';
      // Every session of the account ended, this browser's too: it signs in with the new password,
      // or, when that is refused (too many sign-ins from here, say), shows the sign-in form.
      this.app.forgetSession();
      history.replaceState(null, '', '#/');
      try {
        const session = await this.app.post('/api/login', { name: reply.user.name, password });
        this.app.saveToken(session.token);
        this.app.connect();
        this.app.notice(t('password.reset.signedIn'));
        return;
      } catch {
        // the form below says what to do
      }
      this.app.show('signin');
      document.getElementById('login-name').value = reply.user.name;
      document.getElementById('login-password').focus();
      const done = document.getElementById('signin-status');
      done.textContent = t('password.reset.done');
      done.hidden = false;
    } catch (error) {
      // The link's own troubles in the reader's words (a session's bad_token means another thing).
      if (error.code === 'bad_token') status.textContent = t('password.reset.badLink');
      else if (error.code === 'token_expired') status.textContent = t('password.reset.expired');
      else status.textContent = this.app.refusalText(error);
    }
  }
}
