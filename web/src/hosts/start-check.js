// Whether a page lets <attention-lab> start, and saying so when it does not. A page that replaced
// JavaScript's own functions (Array.prototype.map, Function.prototype.call, ...) breaks the lab
// in ways none of its own messages could explain, and a page that already defined another
// element of that name leaves the lab nothing to draw in. Either is said once on the console
// and, inside every element of the lab's own, in the element. Nothing here relies on a built-in
// it has not checked: plain syntax (index loops, ===, +) and the DOM only.

import { STRINGS } from '../text/i18n.js';

// [name, a use of it that gives true where it works as the language defines it]
const PROBES = [
  [
    'Function.prototype.call',
    () => {
      function add(a) {
        return this.x + a;
      }
      return add.call({ x: 1 }, 2) === 3;
    },
  ],
  ['Function.prototype.apply', () => Math.max.apply(null, [1, 3, 2]) === 3],
  ['Function.prototype.bind', () => ((a, b) => a - b).bind(null, 5)(2) === 3],
  ['Reflect.apply', () => Reflect.apply((a) => a + 1, null, [1]) === 2],
  ['Array.isArray', () => Array.isArray([]) === true && Array.isArray({ length: 0 }) === false],
  ['Array.from', () => Array.from({ length: 2 }, (_, i) => i + 1)[1] === 2],
  ['Array.prototype[Symbol.iterator]', () => [...[1, 2]].length === 2],
  ['Array.prototype.map', () => [1, 2].map((x) => x * 2)[1] === 4],
  ['Array.prototype.filter', () => [1, 2, 3].filter((x) => x !== 2)[1] === 3],
  [
    'Array.prototype.forEach',
    () => {
      let sum = 0;
      [1, 2].forEach((x) => (sum += x));
      return sum === 3;
    },
  ],
  ['Array.prototype.some', () => [1, 2].some((x) => x === 2) === true && [1].some((x) => x === 2) === false],
  ['Array.prototype.every', () => [1, 2].every((x) => x > 0) === true && [1, 2].every((x) => x > 1) === false],
  ['Array.prototype.find', () => [1, 2, 3].find((x) => x > 1) === 2],
  ['Array.prototype.findIndex', () => [1, 2, 3].findIndex((x) => x > 1) === 1],
  ['Array.prototype.includes', () => [1, 2].includes(2) === true && [1, 2].includes(3) === false],
  ['Array.prototype.indexOf', () => [1, 2].indexOf(2) === 1],
  ['Array.prototype.join', () => [1, 2].join('-') === '1-2'],
  [
    'Array.prototype.push',
    () => {
      const a = [1];
      return a.push(2) === 2 && a[1] === 2;
    },
  ],
  ['Array.prototype.slice', () => [1, 2, 3].slice(1)[1] === 3],
  [
    'Array.prototype.splice',
    () => {
      const a = [1, 2, 3];
      return a.splice(1, 1)[0] === 2 && a[1] === 3;
    },
  ],
  ['Array.prototype.concat', () => [1].concat([2])[1] === 2],
  ['Array.prototype.reduce', () => [1, 2, 3].reduce((s, x) => s + x, 0) === 6],
  ['Array.prototype.fill', () => new Array(2).fill(7)[1] === 7],
  ['Array.prototype.sort', () => [3, 1, 2].sort((a, b) => a - b)[0] === 1],
  ['Array.prototype.flat', () => [[1], [2]].flat()[1] === 2],
  ['Object.keys', () => Object.keys({ a: 1, b: 2 })[1] === 'b'],
  ['Object.entries', () => Object.entries({ a: 1 })[0][1] === 1],
  ['Object.fromEntries', () => Object.fromEntries([['a', 1]]).a === 1],
  ['Object.assign', () => Object.assign({}, { a: 1 }).a === 1],
  ['Object.freeze', () => Object.isFrozen(Object.freeze({})) === true],
  ['Object.hasOwn', () => Object.hasOwn({ a: 1 }, 'a') === true && Object.hasOwn({}, 'a') === false],
  ['Object.getPrototypeOf', () => Object.getPrototypeOf([]) === Array.prototype],
  ['String.prototype.split', () => 'a b'.split(' ')[1] === 'b'],
  ['String.prototype.replace', () => 'a-b'.replace(/-/g, '+') === 'a+b'],
  ['String.prototype.trim', () => ' a '.trim() === 'a'],
  ['String.prototype.slice', () => 'abc'.slice(1) === 'bc'],
  ['String.prototype.startsWith', () => 'abc'.startsWith('ab') === true],
  ['RegExp.prototype.test', () => /b/.test('abc') === true && /d/.test('abc') === false],
  ['JSON.stringify', () => JSON.stringify({ a: [1] }) === '{"a":[1]}'],
  ['JSON.parse', () => JSON.parse('{"a":[1]}').a[0] === 1],
  ['Math.round', () => Math.round(2.5) === 3 && Math.min(1, 2) === 1],
  ['Number.isInteger', () => Number.isInteger(2) === true && Number.isInteger(2.5) === false],
  [
    'Map',
    () => {
      const m = new Map();
      m.set('a', 1);
      return m.get('a') === 1 && m.has('b') === false;
    },
  ],
  [
    'Set',
    () => {
      const s = new Set([1, 1, 2]);
      return s.size === 2 && s.has(2) === true;
    },
  ],
  [
    'Float32Array.prototype.set',
    () => {
      const a = new Float32Array(3);
      a.set([1, 2], 1);
      return a[2] === 2 && a.slice(1)[0] === 1;
    },
  ],
];

// Whether a probe gives true (a probe that throws does not).
function works(probe) {
  try {
    return probe() === true;
  } catch {
    return false;
  }
}

// The first built-in the lab relies on that does not work as the language defines it, or ''.
export function misbehavingBuiltin() {
  for (let i = 0; i < PROBES.length; i++) if (!works(PROBES[i][1])) return PROBES[i][0];
  return '';
}

const told = new WeakSet(); // the documents whose console has heard it: once per page

// Says on the console (once) that the lab cannot start here, and inside `root` (an element's
// shadow root, or null) in the element's language: STRINGS[lang][key] followed by `detail`.
export function cannotStart(root, lang, key, detail) {
  const strings = STRINGS[lang] || STRINGS.en;
  const text = strings[key] + ' ' + detail;
  if (!told.has(document)) {
    told.add(document);
    console.error('attention-lab: ' + STRINGS.en[key] + ' ' + detail);
  }
  if (!root) return;
  const p = document.createElement('p');
  p.setAttribute('role', 'alert');
  p.className = 'start-failed';
  p.textContent = text;
  root.replaceChildren(p);
}

// The language of an element before its state is known: its lang attribute, else the page's,
// read without the built-ins a broken page may have replaced ('zh…' is Chinese).
export function langOf(el) {
  const attr = el.getAttribute('lang') || el.ownerDocument.documentElement.getAttribute('lang') || '';
  return attr[0] === 'z' && attr[1] === 'h' ? 'zh' : 'en';
}
