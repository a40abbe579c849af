// The client's RFC 6902 applier (web/patch.js), run in Chromium as the page loads it: the
// examples of RFC 6902's appendix A, the shapes the server sends, and patches that must fail.
import assert from 'node:assert/strict';
import test from 'node:test';
import { Harness } from './support.js';

const cases = [
  ['add an object member (A.1)', { foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }], { baz: 'qux', foo: 'bar' }],
  ['add an array element (A.2)', { foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }], { foo: ['bar', 'qux', 'baz'] }],
  ['remove an object member (A.3)', { baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }],
  ['remove an array element (A.4)', { foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }], { foo: ['bar', 'baz'] }],
  ['replace a value (A.5)', { baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }], { baz: 'boo', foo: 'bar' }],
  ['move a value (A.6)', { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } }, [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }], { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } }],
  ['move an array element (A.7)', { foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }], { foo: ['all', 'cows', 'eat', 'grass'] }],
  ['test then add (A.8)', { baz: 'qux', foo: ['a', 2, 'c'] }, [{ op: 'test', path: '/baz', value: 'qux' }, { op: 'test', path: '/foo/1', value: 2 }], { baz: 'qux', foo: ['a', 2, 'c'] }],
  ['add a nested member (A.10)', { foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }], { foo: 'bar', child: { grandchild: {} } }],
  ['add to the end of an array (A.16)', { foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }], { foo: ['bar', ['abc', 'def']] }],
  ['escaped keys ~0 and ~1 (A.14)', { '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }, { op: 'replace', path: '/~1', value: 11 }], { '/': 11, '~1': 10 }],
  ['copy a value', { a: { b: [1] } }, [{ op: 'copy', from: '/a', path: '/c' }, { op: 'add', path: '/c/b/-', value: 2 }], { a: { b: [1] }, c: { b: [1, 2] } }],
  ['a city cell keyed "x,y", as the server sends builds', { players: [{ city: { '0,0': { card: 72 } } }] }, [{ op: 'add', path: '/players/0/city/1,-1', value: { card: 17, building: 'market', tokens: 0 } }, { op: 'replace', path: '/players/0/city/0,0/card', value: 20 }], { players: [{ city: { '0,0': { card: 20 }, '1,-1': { card: 17, building: 'market', tokens: 0 } } }] }],
  ['replace the whole document', { a: 1 }, [{ op: 'replace', path: '', value: { b: 2 } }], { b: 2 }],
];

const failures = [
  ['a test that fails (A.9)', { baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }]],
  ['add to a missing parent (A.12)', { foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }]],
  ['replace a missing member', { foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 1 }]],
  ['remove a missing member', { foo: 'bar' }, [{ op: 'remove', path: '/baz' }]],
  ['an array index out of range', { foo: [1] }, [{ op: 'add', path: '/foo/5', value: 2 }]],
  ['an array index with a leading zero', { foo: [1, 2] }, [{ op: 'replace', path: '/foo/01', value: 3 }]],
  ['an unknown operation', { foo: 1 }, [{ op: 'merge', path: '/foo', value: 2 }]],
  ['a pointer without a leading slash', { foo: 1 }, [{ op: 'replace', path: 'foo', value: 2 }]],
];

test('web/patch.js applies RFC 6902 patches and refuses those that do not fit', { timeout: 60000 }, async () => {
  const h = new Harness('patch');
  await h.run(async () => {
    const server = await h.server();
    const browser = await h.browser();
    const page = await h.page(browser, 'patch');
    await page.goto(`${server.url}/`);
    const results = await page.evaluate(
      async ({ cases, failures }) => {
        const { applyPatch } = await import('/patch.js');
        const applied = cases.map(([name, document, ops]) => [name, applyPatch(document, ops)]);
        const refused = failures.map(([name, document, ops]) => {
          try {
            applyPatch(document, ops);
            return [name, 'applied'];
          } catch (error) {
            return [name, error instanceof Error ? 'threw' : 'threw a non-error'];
          }
        });
        return { applied, refused };
      },
      { cases, failures },
    );
    results.applied.forEach(([name, document], index) => assert.deepEqual(document, cases[index][3], name));
    for (const [name, outcome] of results.refused) assert.equal(outcome, 'threw', name);
  });
});
