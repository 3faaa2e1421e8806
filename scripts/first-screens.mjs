// The first screens of the built page: for each lesson, in each language, at a wide (1280 px) and
// a narrow (360 px) width, the page's header and its <main> as the page draws them on a link to the
// lesson, computed by the engine in headless Chromium (the Debian package chromium-headless-shell:
// scripts/setup.sh installs it). The build runs this once the page's files are written
// (vite.config.js), before the offline worker lists them. On a first visit the page's first script
// (web/src/hosts/visit.js) shows the picture of the lesson the link opens while the page's own
// scripts and the engine download, and the page replaces it with the live chapter.
//
// Written into the build folder:
//   first-screen/<lesson>.<lang>.<wide|narrow>-<hash>.html   the header, then <main>'s chapter
//   first-screen/<hash>.png, .webp                            what each canvas showed
//   index.html  <script type="application/json" id="first-screens">
//               { "<lesson>.<lang>.<width>": ["./first-screen/….html", its images...] }
//               ('' is the start page)
// In the pictures the inputs keep their values as attributes, each element's style is in
// data-style (the page sets it through the CSSOM: a style attribute is refused under
// style-src 'self'), a canvas is an <img> of what it showed (at twice the resolution), a formula
// is waiting for KaTeX as on a first visit (its TeX in data-tex), and the header has no ids.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser, quiet } from '../tests/e2e/harness.js';
import { serveDist } from './serve-dist.mjs';

export const WIDTHS = { wide: 1280, narrow: 360 };
export const LANGS = ['en', 'zh'];
const DIR = 'first-screen';

// In the page: the header and <main> as displayed, down to a screen and a quarter (what starts
// further down is left to the page) -> { html, images: [data: URL of each canvas's picture] }.
function picture() {
  const images = [];
  const below = innerHeight * 1.25; // what starts further down is left to the page
  const copy = (live) => {
    const out = live.cloneNode(true);
    const from = [live, ...live.querySelectorAll('*')];
    const to = [out, ...out.querySelectorAll('*')];
    from.forEach((el, k) => {
      const c = to[k];
      if (!out.contains(c)) return; // in a part left out
      // Left out: what is not displayed and what starts further down the page.
      if (c !== out && (getComputedStyle(el).display === 'none' || el.getBoundingClientRect().top + scrollY > below)) {
        c.remove();
        return;
      }
      if (el instanceof HTMLInputElement)
        if (el.type === 'checkbox' || el.type === 'radio') c.toggleAttribute('checked', el.checked);
        else c.setAttribute('value', el.value);
      else if (el instanceof HTMLTextAreaElement) c.textContent = el.value;
      else if (el instanceof HTMLOptionElement) c.toggleAttribute('selected', el.selected);
      else if (el.dataset.tex !== undefined && !el.classList.contains('formula-pending')) {
        c.replaceChildren();
        c.classList.add('formula-pending');
      }
      let style = c.getAttribute('style') ?? '';
      if (el instanceof HTMLCanvasElement && el.width > 0 && el.height > 0) {
        const box = el.getBoundingClientRect();
        const img = document.createElement('img');
        for (const a of el.attributes) if (a.name !== 'width' && a.name !== 'height') img.setAttribute(a.name, a.value);
        img.alt = '';
        img.dataset.image = String(images.length);
        // A canvas drawn a pixel per cell and stretched keeps its exact colours (PNG); one drawn
        // at the screen's resolution (text, lines) is a tenth of the size as WebP.
        images.push(el.width < box.width ? el.toDataURL('image/png') : el.toDataURL('image/webp', 0.95));
        style += `${style ? '; ' : ''}width: ${box.width}px; height: ${box.height}px;`;
        c.replaceWith(img);
        to[k] = img;
        img.setAttribute('style', style);
      }
      const target = to[k];
      if (target.hasAttribute('style')) {
        target.dataset.style = target.getAttribute('style');
        target.removeAttribute('style');
      }
    });
    return out;
  };
  const header = copy(document.querySelector('header.site-header'));
  for (const el of [header, ...header.querySelectorAll('[id]')]) el.removeAttribute('id');
  header.classList.add('first-screen');
  const main = document.querySelector('#main');
  const box = document.createElement('div');
  box.className = 'first-screen';
  box.lang = main.lang;
  box.append(...[...copy(main).childNodes]);
  return { html: header.outerHTML + box.outerHTML, images };
}

// Waits until the chapter of `lesson` is drawn and nothing on the page has changed for two frames
// (at most 10 s: a figure that keeps moving is taken as it is then).
async function drawn(page, lesson) {
  await page.waitForFunction(
    (id) => document.documentElement.dataset.ready === 'true' && !!document.querySelector(`main .chapter-${id}`),
    lesson,
    { timeout: 60000 },
  );
  await quiet(page, { timeout: 10000 }).catch(() => {}); // still moving: taken as it is
}

const hashed = (text) => crypto.createHash('sha256').update(text).digest('base64url').slice(0, 10);

// Draws every first screen of the build in `dir` and lists them in its index.html.
export async function drawFirstScreens(dir) {
  const out = path.join(dir, DIR);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out);
  const server = await serveDist({ dir, prefix: '/' });
  const browser = await launchBrowser();
  const screens = {};
  // Every lesson in one language at one width, in a page of its own, moved from lesson to lesson.
  async function drawAll(lang, width) {
    const context = await browser.newContext({
      viewport: { width: WIDTHS[width], height: 800 },
      deviceScaleFactor: 2,
      serviceWorkers: 'block',
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}#lang=${lang}`);
    await drawn(page, 'start');
    const lessons = await page.evaluate(() => window.attentionLab.schema.lesson.values);
    for (const lesson of lessons) {
      // A link to the lesson: its first step, every setting at its default.
      if (lesson !== 'start') await page.evaluate((id) => window.attentionLab.set({ lesson: id, stage: '' }), lesson);
      await drawn(page, lesson);
      const { html, images } = await page.evaluate(picture);
      let text = html;
      const files = [];
      images.forEach((url, k) => {
        const bytes = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
        const name = `${DIR}/${hashed(bytes)}.${url.slice('data:image/'.length, url.indexOf(';'))}`;
        fs.writeFileSync(path.join(dir, name), bytes);
        text = text.replace(`data-image="${k}"`, `src="./${name}"`);
        files.push(`./${name}`);
      });
      const name = `${DIR}/${lesson}.${lang}.${width}-${hashed(text)}.html`;
      fs.writeFileSync(path.join(dir, name), text);
      screens[`${lesson === 'start' ? '' : lesson}.${lang}.${width}`] = [`./${name}`, ...new Set(files)];
    }
    if (errors.length) throw new Error(`first screens (${lang}, ${width}): ${errors.join('; ')}`);
    await context.close();
  }
  try {
    // Two pages at a time (a core each).
    for (const lang of LANGS) await Promise.all(Object.keys(WIDTHS).map((width) => drawAll(lang, width)));
  } finally {
    await browser.close();
    await server.close();
  }
  const index = path.join(dir, 'index.html');
  const html = fs.readFileSync(index, 'utf8');
  const list = `<script type="application/json" id="first-screens">${JSON.stringify(screens)}</script>`;
  fs.writeFileSync(index, html.replace(/(<script type="application\/json" id="lesson-chunks">)/, `${list}\n  $1`));
  return screens;
}
