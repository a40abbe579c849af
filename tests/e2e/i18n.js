// What the language tests share: the English phrases that must not be left on a German page, and
// the page's words (its visible text, and the labels, titles and placeholders of its elements).
import en from '../../web/i18n/en.js';
import de from '../../web/i18n/de.js';

const texts = (dictionary) => Object.values(dictionary).flatMap((value) => (typeof value === 'string' ? [value] : Object.values(value)));

// The pieces of the English texts around their placeholders that German says otherwise: those of
// keys whose German text differs, at least 4 letters long, found nowhere in the German texts.
export function englishPhrases() {
  const german = texts(de).join('\n');
  const phrases = new Set();
  for (const [key, value] of Object.entries(en)) {
    const forms = typeof value === 'string' ? [[value, de[key]]] : Object.entries(value).map(([form, text]) => [text, de[key][form]]);
    for (const [english, translated] of forms) {
      if (english === translated) continue;
      for (const piece of english.split(/\{\w+\}/)) {
        const phrase = piece.trim().replace(/^[\s,.;:()·–—+-]+|[\s,.;:()·–—+-]+$/g, '');
        if (/[A-Za-z]{4}/.test(phrase) && !german.includes(phrase)) phrases.add(phrase);
      }
    }
  }
  return [...phrases];
}

// Every phrase of `phrases` that stands in `words` as whole words.
export function phrasesIn(words, phrases) {
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return phrases.filter((phrase) => new RegExp(`(^|[^A-Za-z])${escape(phrase)}($|[^A-Za-z])`).test(words));
}

// The page's words: its visible text, its title, and every label, title and placeholder; not the
// language switch (it names each language in its own).
export async function pageWords(page) {
  return page.evaluate(() => {
    const skip = '#language';
    const skipped = new Set([...document.querySelectorAll(skip)].flatMap((element) => element.innerText.split('\n')).map((line) => line.trim()));
    const lines = document.body.innerText.split('\n').map((line) => line.trim()).filter((line) => line && !skipped.has(line));
    const attributes = [...document.querySelectorAll('[aria-label], [title], [placeholder]')]
      .filter((element) => !element.closest(skip))
      .flatMap((element) => ['aria-label', 'title', 'placeholder'].map((name) => element.getAttribute(name)).filter(Boolean));
    return [...lines, ...attributes, document.title].join('\n');
  });
}
