// RFC 6902 JSON Patch, applied in place. The server sends add, remove and replace; the other
// operations are here so that any valid patch applies. A patch that does not fit the document
// throws, and the caller asks for a fresh snapshot.

function unescape(token) {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function parsePointer(pointer) {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`bad JSON pointer: ${pointer}`);
  return pointer.slice(1).split('/').map(unescape);
}

function arrayIndex(array, token, forInsert) {
  if (forInsert && token === '-') return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`bad array index: ${token}`);
  const index = Number(token);
  if (index > array.length || (!forInsert && index === array.length))
    throw new Error(`array index out of range: ${token}`);
  return index;
}

// The container holding the pointer's last token, and that token.
function locate(document, pointer) {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return { parent: null, key: null };
  let parent = document;
  for (const token of tokens.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object') throw new Error(`no such path: ${pointer}`);
    parent = Array.isArray(parent) ? parent[arrayIndex(parent, token, false)] : parent[token];
  }
  if (parent === null || typeof parent !== 'object') throw new Error(`no such path: ${pointer}`);
  return { parent, key: tokens[tokens.length - 1] };
}

function get(document, pointer) {
  const { parent, key } = locate(document, pointer);
  if (parent === null) return document;
  if (Array.isArray(parent)) return parent[arrayIndex(parent, key, false)];
  if (!Object.prototype.hasOwnProperty.call(parent, key)) throw new Error(`no such path: ${pointer}`);
  return parent[key];
}

function add(document, pointer, value) {
  const { parent, key } = locate(document, pointer);
  if (parent === null) return value;
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true), 0, value);
  else parent[key] = value;
  return document;
}

function remove(document, pointer) {
  const { parent, key } = locate(document, pointer);
  if (parent === null) throw new Error('cannot remove the whole document');
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, false), 1);
  else if (Object.prototype.hasOwnProperty.call(parent, key)) delete parent[key];
  else throw new Error(`no such path: ${pointer}`);
  return document;
}

const clone = (value) => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

// Applies `ops` to `document` and returns the new document (the same object unless the root
// was replaced).
export function applyPatch(document, ops) {
  let result = document;
  for (const op of ops) {
    switch (op.op) {
      case 'add':
        result = add(result, op.path, clone(op.value));
        break;
      case 'remove':
        result = remove(result, op.path);
        break;
      case 'replace':
        get(result, op.path); // must exist
        result = op.path === '' ? clone(op.value) : add(remove(result, op.path), op.path, clone(op.value));
        break;
      case 'move': {
        const value = get(result, op.from);
        result = add(remove(result, op.from), op.path, value);
        break;
      }
      case 'copy':
        result = add(result, op.path, clone(get(result, op.from)));
        break;
      case 'test':
        if (JSON.stringify(get(result, op.path)) !== JSON.stringify(op.value))
          throw new Error(`test failed at ${op.path}`);
        break;
      default:
        throw new Error(`unknown patch operation: ${op.op}`);
    }
  }
  return result;
}
