// Every strings table of the page (the shell's and each chapter's <id>/strings.js) has the same
// keys in English and Chinese, with the same {placeholders}: a lookup of a missing key would
// silently print the key itself. Chapters found by file name, so a new chapter is covered too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { STRINGS, REASONS, LANGS } from '../../web/src/text/i18n.js';
import { STRINGS as TRAINING } from '../../web/src/chapters/kit/training.js';

const CHAPTERS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/src/chapters');
const files = fs
  .readdirSync(CHAPTERS)
  .filter((id) => fs.existsSync(path.join(CHAPTERS, id, 'strings.js')))
  .map((id) => `${id}/strings.js`)
  .sort();

const placeholders = (text) =>
  typeof text === 'string' ? [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort() : null;

function checkTable(name, table) {
  for (const lang of LANGS) assert.ok(table[lang] && typeof table[lang] === 'object', `${name}: no ${lang} table`);
  const en = Object.keys(table.en).sort();
  for (const lang of LANGS) {
    const keys = Object.keys(table[lang]).sort();
    assert.deepEqual(
      keys.filter((k) => !en.includes(k)),
      [],
      `${name}: keys only in ${lang}`,
    );
    assert.deepEqual(
      en.filter((k) => !keys.includes(k)),
      [],
      `${name}: keys missing in ${lang}`,
    );
    for (const k of en) {
      const a = table.en[k],
        b = table[lang][k];
      assert.equal(typeof b, typeof a, `${name} ${lang}.${k}: a ${typeof a} in English`);
      if (typeof a === 'string') {
        // Separators may be blank in one language (a space in English, nothing in Chinese).
        if (a.trim() !== '' && a.length > 2) assert.ok(b.trim() !== '', `${name} ${lang}.${k} is empty`);
        assert.deepEqual(placeholders(b), placeholders(a), `${name} ${lang}.${k}: placeholders differ from English`);
      }
    }
  }
}

test('the shell strings, the schema reasons and the training panel have the same keys in every language', () => {
  checkTable('i18n.js STRINGS', STRINGS);
  checkTable('i18n.js REASONS', REASONS);
  checkTable('kit/training.js STRINGS', TRAINING);
});

test('every chapter strings table has the same keys and placeholders in English and Chinese', async () => {
  assert.ok(files.length >= 5, `found ${files.length} strings files`);
  for (const f of files) {
    const table = (await import(pathToFileURL(path.join(CHAPTERS, f)))).default;
    checkTable(f, table);
    // What the shell reads from every chapter.
    for (const k of ['intro', 'errEngine']) assert.ok(k in table.en, `${f}: no ${k}`);
    assert.deepEqual(placeholders(table.en.errEngine), ['msg'], `${f}: errEngine must take {msg}`);
  }
});

test('the check itself catches a missing key and a changed placeholder', () => {
  assert.throws(() => checkTable('t', { en: { a: 'x', b: 'y' }, zh: { a: '甲' } }), /missing in zh/);
  assert.throws(() => checkTable('t', { en: { a: 'n = {n}' }, zh: { a: 'n = {m}' } }), /placeholders/);
  assert.doesNotThrow(() => checkTable('t', { en: { a: 'n = {n}' }, zh: { a: '共 {n} 个' } }));
});
