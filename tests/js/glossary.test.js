// One name for each thing on the page (web/src/text/glossary.js): no string of the page (the
// shell's, each chapter's strings and titles) uses a Chinese rendering the glossary retired, and
// the page speaks in its own voice: no unnamed "the articles say" / "文章说" as an authority.
// Chapters found by file name, so a new chapter is covered too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { STRINGS } from '../../web/src/text/i18n.js';
import { GLOSSARY, term } from '../../web/src/text/glossary.js';

const CHAPTERS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/src/chapters');
const ids = fs.readdirSync(CHAPTERS).filter((id) => fs.existsSync(path.join(CHAPTERS, id, 'meta.js')));

// Every string of the page with where it comes from: [where, lang, text].
async function allStrings() {
  const out = [];
  const add = (where, table) => {
    for (const lang of Object.keys(table))
      for (const [k, v] of Object.entries(table[lang])) if (typeof v === 'string') out.push([`${where} ${k}`, lang, v]);
  };
  add('shell', STRINGS);
  for (const id of ids) {
    const meta = (await import(pathToFileURL(path.join(CHAPTERS, id, 'meta.js')))).default;
    for (const [lang, v] of Object.entries(meta.title)) out.push([`${id} title`, lang, v]);
    const file = path.join(CHAPTERS, id, 'strings.js');
    if (fs.existsSync(file)) add(id, (await import(pathToFileURL(file))).default);
  }
  return out;
}

test('no string of the page uses a Chinese term the glossary retired', async () => {
  const strings = await allStrings();
  assert.ok(strings.length > 500, `${strings.length} strings`);
  const found = [];
  for (const [name, t] of Object.entries(GLOSSARY))
    for (const bad of t.not)
      for (const [where, lang, text] of strings)
        if (lang === 'zh' && text.includes(bad)) found.push(`${where}: ${bad} (${name} is ${t.zh})`);
  assert.deepEqual(found, []);
});

test('the pipeline chapter has one Chinese name, the glossary’s, wherever it is named', async () => {
  const strings = await allStrings();
  const meta = (await import(pathToFileURL(path.join(CHAPTERS, 'pipeline', 'meta.js')))).default;
  assert.equal(meta.title.zh, term('pipeline', 'zh'));
  // Another chapter that names it in quotes uses the same name.
  const named = strings.filter(([, lang, text]) => lang === 'zh' && /“[^”]*(流水线|流程)[^”]*”一章/.test(text));
  for (const [where, , text] of named) assert.match(text, /“注意力流水线”一章/, where);
});

test('the page speaks in its own voice: no unnamed articles or tutorials as the authority', async () => {
  const strings = await allStrings();
  const en =
    /\bthe (articles|tutorials) (say|says|call|recommend|warn)|\b(articles|tutorials) (recommend|warn about)\b/i;
  const zh = /文章说|文章推荐|教程里常/;
  const found = strings
    .filter(([, lang, text]) => (lang === 'en' ? en : zh).test(text))
    .map(([w, l, t]) => `${w} (${l}): ${t.slice(0, 80)}`);
  assert.deepEqual(found, []);
});

test('no step sends the learner to another chapter’s control: nothing "is ticked in the Masks chapter"', async () => {
  const strings = await allStrings();
  const en = /\b(un)?(ticked|chosen|selected|switched on)\b[^.]{0,20}\bin the [\w ]+ chapter\b/i;
  const zh = /一章里(没有)?(勾选|选定|选了)/;
  const found = strings
    .filter(([, lang, text]) => (lang === 'en' ? en : zh).test(text))
    .map(([w, l, t]) => `${w} (${l}): ${t.slice(0, 80)}`);
  assert.deepEqual(found, []);
});
