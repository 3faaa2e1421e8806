// Saving a figure as PNG and SVG (for slides and handouts). A figure is first described as a
// scene, a list of plain shapes in one coordinate system:
//   { width, height, items: [
//     { t: 'rect', x, y, w, h, fill, stroke?, sw?, dash? },
//     { t: 'path', d, m?: [a, b, c, d, e, f], fill?, stroke?, sw?, dash?, opacity? },
//     { t: 'text', x, y, text, size, weight?, fill, anchor: 'start' | 'middle' | 'end',
//       baseline: 'alphabetic' | 'middle' | 'hanging' } ] }
// and then written out as SVG text or drawn on a canvas for the PNG. The heatmap makes its scene
// from its numbers (views/heatmap.js); the SVG charts' scene is read from the drawn SVG
// (svgScene). No image is loaded from a data: or blob: URL, so this works under the page's
// strict Content-Security-Policy.
//
//   const save = createSaveButtons(() => scene, () => 'attention-weights')   // { el, label(lang) }

import { h } from './dom.js';
import { t as shellT } from '../text/i18n.js';
import { INK, PAPER } from './palette.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const FONT = 'system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", sans-serif';
const PNG_SCALE = 2;

// The width of a line of text in the font figures are saved with (measured on a canvas).
let measure = null;
export function textWidth(text, size, weight = 'normal') {
  measure = measure || document.createElement('canvas').getContext('2d');
  measure.font = `${weight} ${size}px ${FONT}`;
  return measure.measureText(String(text)).width;
}

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const num = (x) => +Number(x).toFixed(2);

// ---- scene -> SVG text ------------------------------------------------------------------------

function paint({ fill, stroke, sw, dash, opacity }) {
  let a = ` fill="${esc(fill || 'none')}"`;
  if (stroke && stroke !== 'none') a += ` stroke="${esc(stroke)}" stroke-width="${num(sw ?? 1)}"`;
  if (dash && dash.length) a += ` stroke-dasharray="${dash.map(num).join(' ')}"`;
  if (opacity !== undefined && opacity < 1) a += ` opacity="${num(opacity)}"`;
  return a;
}

const SVG_ANCHOR = { start: 'start', middle: 'middle', end: 'end' };
const SVG_BASELINE = { alphabetic: 'auto', middle: 'central', hanging: 'hanging' };

function sceneToSvg(scene) {
  const out = [
    `<svg xmlns="${SVG_NS}" width="${num(scene.width)}" height="${num(scene.height)}" viewBox="0 0 ${num(scene.width)} ${num(scene.height)}" font-family="${esc(FONT)}">`,
    `<rect x="0" y="0" width="${num(scene.width)}" height="${num(scene.height)}" fill="${PAPER}"/>`,
  ];
  for (const it of scene.items) {
    if (it.t === 'rect')
      out.push(`<rect x="${num(it.x)}" y="${num(it.y)}" width="${num(it.w)}" height="${num(it.h)}"${paint(it)}/>`);
    else if (it.t === 'path')
      out.push(`<path d="${esc(it.d)}"${it.m ? ` transform="matrix(${it.m.map(num).join(' ')})"` : ''}${paint(it)}/>`);
    else if (it.t === 'text') {
      out.push(
        `<text x="${num(it.x)}" y="${num(it.y)}" font-size="${num(it.size)}"${it.weight && it.weight !== 'normal' && it.weight !== 400 ? ` font-weight="${esc(it.weight)}"` : ''}` +
          ` fill="${esc(it.fill)}" text-anchor="${SVG_ANCHOR[it.anchor] || 'start'}" dominant-baseline="${SVG_BASELINE[it.baseline] || 'auto'}">${esc(it.text)}</text>`,
      );
    }
  }
  out.push('</svg>');
  return out.join('\n');
}

// ---- scene -> canvas -----------------------------------------------------------------------

const CANVAS_ALIGN = { start: 'left', middle: 'center', end: 'right' };

function sceneToCanvas(scene, scale = PNG_SCALE) {
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(scene.width * scale);
  canvas.height = Math.ceil(scene.height * scale);
  const ctx = canvas.getContext('2d');
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  ctx.fillStyle = PAPER;
  ctx.fillRect(0, 0, scene.width, scene.height);
  for (const it of scene.items) {
    ctx.save();
    ctx.globalAlpha = it.opacity ?? 1;
    if (it.t === 'text') {
      ctx.font = `${it.weight || 'normal'} ${it.size}px ${FONT}`;
      ctx.fillStyle = it.fill;
      ctx.textAlign = CANVAS_ALIGN[it.anchor] || 'left';
      ctx.textBaseline = it.baseline === 'middle' ? 'middle' : it.baseline === 'hanging' ? 'hanging' : 'alphabetic';
      ctx.fillText(it.text, it.x, it.y);
    } else {
      let path;
      if (it.t === 'rect') {
        path = new Path2D();
        path.rect(it.x, it.y, it.w, it.h);
      } else {
        if (it.m) ctx.transform(...it.m);
        path = new Path2D(it.d);
      }
      if (it.fill && it.fill !== 'none') {
        ctx.fillStyle = it.fill;
        ctx.fill(path);
      }
      if (it.stroke && it.stroke !== 'none') {
        ctx.strokeStyle = it.stroke;
        ctx.lineWidth = it.sw ?? 1;
        if (it.dash && it.dash.length) ctx.setLineDash(it.dash);
        ctx.stroke(path);
      }
    }
    ctx.restore();
  }
  return canvas;
}

// ---- a drawn SVG chart -> scene ----------------------------------------------------------------

// The paint of an element as drawn (computed style): url(#gradient) fills become the
// gradient's middle colour.
function paintOf(el, cs, root) {
  const colour = (v) => {
    if (!v || v === 'none') return 'none';
    const url = /url\(["']?#([^"')]+)["']?\)/.exec(v);
    if (!url) return v;
    const stops = [
      ...((root.getElementById?.(url[1]) || root.querySelector(`[id="${url[1]}"]`))?.querySelectorAll('stop') || []),
    ];
    return stops.length ? getComputedStyle(stops[stops.length >> 1]).stopColor : 'none';
  };
  const dash =
    cs.strokeDasharray && cs.strokeDasharray !== 'none'
      ? cs.strokeDasharray
          .split(/[\s,]+/)
          .map(parseFloat)
          .filter(Number.isFinite)
      : [];
  return {
    fill: colour(cs.fill),
    stroke: colour(cs.stroke),
    sw: parseFloat(cs.strokeWidth) || 1,
    dash,
    opacity: (parseFloat(cs.opacity) || 1) * (parseFloat(cs.fillOpacity) ?? 1),
  };
}

function lengthOf(value, fontSize) {
  if (!value) return 0;
  const first = value.trim().split(/[\s,]+/)[0];
  if (first.endsWith('em')) return parseFloat(first) * fontSize;
  return parseFloat(first) || 0;
}

function geometry(el) {
  const a = (n) => parseFloat(el.getAttribute(n)) || 0;
  switch (el.tagName.toLowerCase()) {
    case 'path':
      return el.getAttribute('d') || '';
    case 'line':
      return `M${a('x1')} ${a('y1')}L${a('x2')} ${a('y2')}`;
    case 'rect':
      return `M${a('x')} ${a('y')}h${a('width')}v${a('height')}h${-a('width')}Z`;
    case 'circle': {
      const cx = a('cx'),
        cy = a('cy'),
        r = a('r');
      return `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
    }
    case 'polyline':
    case 'polygon': {
      const p = (el.getAttribute('points') || '')
        .trim()
        .split(/[\s,]+/)
        .map(Number);
      let d = '';
      for (let k = 0; k + 1 < p.length; k += 2) d += `${k ? 'L' : 'M'}${p[k]} ${p[k + 1]}`;
      return el.tagName.toLowerCase() === 'polygon' ? `${d}Z` : d;
    }
    default:
      return '';
  }
}

export function svgScene(svg, { title = '' } = {}) {
  const vb = svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.width ? svg.viewBox.baseVal : null;
  const box = svg.getBoundingClientRect();
  const height = vb ? vb.height : box.height;
  // As wide as the chart, or as its title when that is longer.
  const width = Math.max(vb ? vb.width : box.width, title ? 16 + textWidth(title, 14, 'bold') : 0);
  const top = title ? 28 : 0;
  const inv = svg.getScreenCTM().inverse();
  const items = title
    ? [
        {
          t: 'text',
          x: 8,
          y: 18,
          text: title,
          size: 14,
          weight: 'bold',
          fill: INK,
          anchor: 'start',
          baseline: 'alphabetic',
        },
      ]
    : [];
  const root = svg.getRootNode();
  for (const el of svg.querySelectorAll('path, line, rect, circle, polyline, polygon, text')) {
    if (el.closest('defs, clipPath, marker, mask, pattern')) continue;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden') continue;
    if (el.closest('[style*="display: none"], [display="none"]')) continue;
    const ctm = inv.multiply(el.getScreenCTM());
    const m = [ctm.a, ctm.b, ctm.c, ctm.d, ctm.e, ctm.f + top];
    if (el.tagName.toLowerCase() === 'text') {
      const size = parseFloat(cs.fontSize) || 12;
      const x = lengthOf(el.getAttribute('x'), size) + lengthOf(el.getAttribute('dx'), size);
      const y = lengthOf(el.getAttribute('y'), size) + lengthOf(el.getAttribute('dy'), size);
      const p = new DOMPoint(x, y).matrixTransform(ctm);
      const text = el.textContent.trim();
      if (!text) continue;
      const baseline = /middle|central/.test(cs.dominantBaseline)
        ? 'middle'
        : /hanging/.test(cs.dominantBaseline)
          ? 'hanging'
          : 'alphabetic';
      items.push({
        t: 'text',
        x: p.x,
        y: p.y + top,
        text,
        size: size * Math.hypot(ctm.a, ctm.b),
        weight: cs.fontWeight,
        fill: paintOf(el, cs, root).fill,
        anchor: cs.textAnchor || 'start',
        baseline,
      });
    } else {
      const d = geometry(el);
      if (d) items.push({ t: 'path', d, m, ...paintOf(el, cs, root) });
    }
  }
  return { width, height: height + top, items };
}

// ---- the buttons -----------------------------------------------------------------------------

// A short file name from a figure's caption: attention-lab-attention-weights.png
export function fileName(caption, ext) {
  const slug = String(caption || '')
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return `attention-lab-${slug || 'figure'}.${ext}`;
}

function download(blob, name, near) {
  const a = h('a', { href: URL.createObjectURL(blob), download: name, hidden: true });
  near.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// The language of the page part a figure is in ('zh' or 'en').
const langOf = (el) => (/^zh/i.test(el.closest('[lang]')?.getAttribute('lang') || '') ? 'zh' : 'en');

// Numbers as tab-separated text (a spreadsheet pastes it as a table): a header line of column
// labels after an empty corner, then one line per row, its label first. Numbers keep every digit.
function numbersText({ head = [], rows = [] }) {
  const text = (x) => (x !== null && typeof x === 'object' ? (x.textContent ?? x.text ?? '') : (x ?? ''));
  const line = (cells) => cells.map((x) => String(text(x)).replace(/[\t\n]+/g, ' ')).join('\t');
  const body = rows.map((r) => line(Array.isArray(r) ? r : r.cells));
  return [head.length ? line(head) : null, ...body].filter((l) => l !== null).join('\n');
}

// The parts of a figure an open menu lifts above the figures after it (class fig-menu-open, save.css).
const MENU_HOLDERS = '.map, figure, .bars, .stacked, .heatmap, .chart-foot, .hm-foot';

// One small menu per figure: PNG, SVG and, when the figure has numbers, "Copy the numbers".
// A button opens it (keyboard: Enter or Space; Escape closes it and gives the focus back).
//   getScene() -> scene (at the time of the click); getCaption() -> a caption for the file name;
//   getNumbers() -> { head, rows } (optional): the figure's numbers for "Copy the numbers".
export function createSaveButtons(getScene, getCaption, getNumbers = null) {
  const toggle = h('button', {
    type: 'button',
    class: 'fig-menu-button',
    'aria-expanded': 'false',
    'aria-haspopup': 'true',
    text: '⋯',
  });
  const png = h('button', { type: 'button', class: 'save-png', text: 'PNG' });
  const svg = h('button', { type: 'button', class: 'save-svg', text: 'SVG' });
  const copy = getNumbers ? h('button', { type: 'button', class: 'save-copy' }) : null;
  const status = h('span', { class: 'fig-menu-status', role: 'status' });
  const list = h('div', { class: 'fig-menu-list', hidden: true }, png, svg, copy);
  const el = h('span', { class: 'save-figure fig-menu', role: 'group', 'data-group': 'save' }, toggle, list, status);

  const outside = (e) => {
    if (!e.composedPath().includes(el)) close(false);
  };
  const holders = (on) => {
    for (let p = el.parentElement; p; p = p.parentElement)
      if (p.matches(MENU_HOLDERS)) p.classList.toggle('fig-menu-open', on);
  };
  function open() {
    list.hidden = false;
    holders(true);
    toggle.setAttribute('aria-expanded', 'true');
    status.textContent = '';
    el.getRootNode().addEventListener('pointerdown', outside, true);
  }
  function close(focus) {
    if (list.hidden) return;
    list.hidden = true;
    holders(false);
    toggle.setAttribute('aria-expanded', 'false');
    el.getRootNode().removeEventListener('pointerdown', outside, true);
    if (focus) toggle.focus();
  }
  toggle.addEventListener('click', () => (list.hidden ? open() : close(false)));
  el.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !list.hidden) {
      e.preventDefault();
      close(true);
    }
  });
  png.addEventListener('click', () => {
    sceneToCanvas(getScene()).toBlob((blob) => {
      if (blob) download(blob, fileName(getCaption(), 'png'), el);
    }, 'image/png');
    close(true);
  });
  svg.addEventListener('click', () => {
    download(new Blob([sceneToSvg(getScene())], { type: 'image/svg+xml' }), fileName(getCaption(), 'svg'), el);
    close(true);
  });
  if (copy)
    copy.addEventListener('click', () => {
      const lang = langOf(el);
      const text = numbersText(getNumbers());
      const done = (ok) => {
        status.textContent = shellT(lang, ok ? 'copied' : 'copyFailed');
      };
      close(true);
      if (navigator.clipboard?.writeText)
        navigator.clipboard.writeText(text).then(
          () => done(true),
          () => done(false),
        );
      else done(false);
    });
  // Names in the page's language, set once the figure is on the page (it knows its language then).
  let named = '';
  function label() {
    const lang = langOf(el);
    if (lang === named) return;
    named = lang;
    el.setAttribute('aria-label', shellT(lang, 'saveFigure'));
    toggle.setAttribute('aria-label', shellT(lang, 'figureMenu'));
    toggle.title = shellT(lang, 'figureMenu');
    png.setAttribute('aria-label', shellT(lang, 'savePng'));
    svg.setAttribute('aria-label', shellT(lang, 'saveSvg'));
    if (copy) copy.textContent = shellT(lang, 'copyNumbers');
  }
  return { el, label };
}
