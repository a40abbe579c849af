// The client's words in the reader's language: `t(key, params)` looks a key up in the current
// language's dictionary (web/i18n/<lang>.js), fills its `{name}` placeholders, and picks a plural
// form (`one`, `other`, … as Intl.PluralRules names them) by `params.count`. Numbers and dates are
// formatted by Intl in the same locale. The language is the reader's choice (localStorage
// `gcor.lang`), else the browser's: any German preference means German, anything else English.
import en from './i18n/en.js';
import de from './i18n/de.js';

export const kLanguages = { de: { name: 'Deutsch', words: de }, en: { name: 'English', words: en } };
const kLanguageKey = 'gcor.lang';

export function preferredLanguage(stored, browserLanguages = []) {
  if (kLanguages[stored]) return stored;
  const first = browserLanguages.find((tag) => /^(de|en)\b/i.test(tag));
  return first && /^de/i.test(first) ? 'de' : 'en';
}

const storage = () => (typeof localStorage === 'undefined' ? null : localStorage);
let current = preferredLanguage(storage()?.getItem(kLanguageKey), globalThis.navigator?.languages ?? []);
const listeners = [];

export const language = () => current;

// Switches the language, remembers it, and lets every page draw itself again (`onLanguage`).
export function setLanguage(lang) {
  if (!kLanguages[lang]) return;
  current = lang;
  storage()?.setItem(kLanguageKey, lang);
  if (typeof document !== 'undefined') translateStatic(document);
  for (const listener of listeners) listener(lang);
}

export function onLanguage(listener) {
  listeners.push(listener);
}

const numberFormats = new Map();
export function formatNumber(value, options = {}) {
  const key = `${current}${JSON.stringify(options)}`;
  if (!numberFormats.has(key)) numberFormats.set(key, new Intl.NumberFormat(current, options));
  return numberFormats.get(key).format(value);
}

function lookup(key) {
  return kLanguages[current].words[key] ?? en[key];
}

function fillIn(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    const value = params[name];
    if (value === undefined || value === null) return whole;
    return typeof value === 'number' ? formatNumber(value) : String(value);
  });
}

// A plural key holds its forms as an object; `count` picks one (cardinal, or ordinal numbers).
function pickForm(forms, count, type = 'cardinal') {
  const form = new Intl.PluralRules(current, { type }).select(count ?? 0);
  return forms[form] ?? forms.other;
}

export function t(key, params = {}) {
  const value = lookup(key);
  if (value === undefined) {
    console.warn(`i18n: no text for ${key}`);
    return key;
  }
  return fillIn(typeof value === 'string' ? value : pickForm(value, params.count), params);
}

// "1st", "2nd" / "1.", "2.".
export function ordinal(n) {
  return fillIn(pickForm(lookup('ordinal'), n, 'ordinal'), { count: n });
}

// "Ann, Bob and Cy" / "Ann, Bob und Cy".
export function formatList(items, type = 'conjunction') {
  return new Intl.ListFormat(current, { style: 'long', type }).format(items.map(String));
}

// A day (and a time) as the reader's language writes it; `style`: 'date', 'dateTime', 'time',
// 'timeSeconds'.
export function formatDate(ms, style = 'date') {
  if (!ms) return '';
  const options = {
    date: { dateStyle: 'medium' },
    dateTime: { dateStyle: 'medium', timeStyle: 'short' },
    time: { hour: '2-digit', minute: '2-digit' },
    timeSeconds: { hour: '2-digit', minute: '2-digit', second: '2-digit' },
  }[style];
  return new Intl.DateTimeFormat(current, options).format(new Date(ms));
}

// The page's static texts (index.html): `data-i18n="key"` sets an element's text,
// `data-i18n-attr="attribute:key;…"` its attributes.
export function translateStatic(root) {
  root.documentElement?.setAttribute('lang', current);
  for (const element of root.querySelectorAll('[data-i18n]')) element.textContent = t(element.dataset.i18n);
  for (const element of root.querySelectorAll('[data-i18n-attr]'))
    for (const pair of element.dataset.i18nAttr.split(';')) {
      const [attribute, key] = pair.split(':');
      element.setAttribute(attribute, t(key));
    }
}
