// "Embed": a button and the dialog it opens, with the code that puts the step on screen into a
// course page (./embed-code.js): the element with its script tag, or the iframe, each with a copy
// button, and the control groups the embedded lesson hides. A modal <dialog> (the focus stays in
// it, Escape closes it, the focus returns to the button), in the page's language.
//
//   const embed = createEmbedDialog({ state: () => state, schema, title: (state) => text });
//   header.append(embed.button); embed.sync(lang) after every change of language

import { h } from '../views/dom.js';
import { embedCode, EMBED_GROUPS } from './embed-code.js';
import { LAB_ROOT } from './root-url.js';

const STRINGS = {
  en: {
    open: 'Embed',
    openLabel: 'Embed this step in a course page',
    title: 'Embed this step',
    about: 'Paste one of these into your course page: it shows this step with the numbers on screen.',
    hide: 'Hide in the embedded lesson',
    'group.inputs': 'Inputs',
    'group.stepper': 'Step bar',
    'group.save': 'PNG and SVG buttons',
    'group.footer': '“Open in Attention Lab” link',
    element: 'The element',
    script: 'Once per page, the script:',
    tag: 'Then the tag, where the lesson goes:',
    iframe: 'Or an iframe',
    frame: 'One tag, nothing else:',
    copy: 'Copy',
    copyWhat: 'Copy {what}',
    'what.script': 'the script tag',
    'what.element': 'the element',
    'what.iframe': 'the iframe',
    copied: 'Copied {what}.',
    selected: 'Selected: press Ctrl+C (⌘C) to copy {what}.',
    close: 'Close',
  },
  zh: {
    open: '嵌入',
    openLabel: '把这一步嵌入课程页面',
    title: '嵌入这一步',
    about: '把下面任意一段粘贴到你的课程页面里：它会显示这一步，数字与屏幕上相同。',
    hide: '嵌入后隐藏',
    'group.inputs': '输入控件',
    'group.stepper': '步骤栏',
    'group.save': 'PNG 和 SVG 按钮',
    'group.footer': '“在 Attention Lab 中打开”链接',
    element: '自定义元素',
    script: '每个页面一次，先放脚本：',
    tag: '再在课程需要的位置放标签：',
    iframe: '或者用 iframe',
    frame: '只需这一个标签：',
    copy: '复制',
    copyWhat: '复制{what}',
    'what.script': '脚本标签',
    'what.element': '元素标签',
    'what.iframe': 'iframe',
    copied: '已复制{what}。',
    selected: '已选中：按 Ctrl+C（⌘C）复制{what}。',
    close: '关闭',
  },
};
const say = (lang, key, params = {}) =>
  (STRINGS[lang] || STRINGS.en)[key].replace(/\{(\w+)\}/g, (_, k) => String(params[k]));

// Puts text on the clipboard; where the browser refuses, the text is left selected in its box.
async function copyText(box) {
  try {
    await navigator.clipboard.writeText(box.value);
    return true;
  } catch {
    box.focus();
    box.select();
    return false;
  }
}

export function createEmbedDialog({ state, schema, title }) {
  let lang = 'en';
  const button = h('button', { type: 'button', class: 'btn embed-open', 'aria-haspopup': 'dialog' });
  const heading = h('h2', { id: 'embed-title' });
  const about = h('p', { class: 'embed-about' });
  const legend = h('legend');
  const groups = EMBED_GROUPS.map((g) => {
    const input = h('input', { type: 'checkbox', value: g, onchange: () => fill() });
    return { g, input, label: h('label', { class: 'check' }, input, h('span')) };
  });
  const status = h('p', { class: 'embed-status', role: 'status', 'aria-live': 'polite' });
  const snippet = (name) => {
    const box = h('textarea', { class: `embed-code embed-${name}`, readonly: true, rows: 4, spellcheck: false });
    const copy = h('button', {
      type: 'button',
      class: `btn embed-copy embed-copy-${name}`,
      onclick: async () => {
        const what = say(lang, `what.${name}`);
        status.textContent = say(lang, (await copyText(box)) ? 'copied' : 'selected', { what });
      },
    });
    const label = h('p', { class: 'embed-label' });
    return { name, box, copy, label, el: h('div', { class: 'embed-snippet' }, label, box, copy) };
  };
  const parts = { script: snippet('script'), element: snippet('element'), iframe: snippet('iframe') };
  const elementTitle = h('h3');
  const iframeTitle = h('h3');
  const close = h('button', { type: 'button', class: 'btn embed-close', onclick: () => dialog.close() });
  const dialog = h(
    'dialog',
    { class: 'embed-dialog', 'aria-labelledby': 'embed-title' },
    heading,
    about,
    h('fieldset', { class: 'embed-hide' }, legend, ...groups.map((x) => x.label)),
    h('section', { class: 'embed-part' }, elementTitle, parts.script.el, parts.element.el),
    h('section', { class: 'embed-part' }, iframeTitle, parts.iframe.el),
    status,
    h('div', { class: 'embed-actions' }, close),
  );
  dialog.addEventListener('close', () => button.focus());

  // The code for the state on screen and the groups ticked.
  function fill() {
    const s = state();
    const hide = groups.filter((x) => x.input.checked).map((x) => x.g);
    const code = embedCode(s, { schema, root: LAB_ROOT, title: title(s), hide });
    for (const [name, part] of Object.entries(parts)) part.box.value = code[name];
    status.textContent = '';
  }

  button.addEventListener('click', () => {
    const s = state();
    if (!s) return;
    for (const x of groups) x.input.checked = s.hide.includes(x.g);
    fill();
    if (!dialog.isConnected) document.body.append(dialog);
    dialog.showModal();
  });

  // The texts in the page's language.
  function sync(next) {
    lang = next;
    dialog.lang = next === 'zh' ? 'zh-CN' : 'en';
    button.textContent = say(lang, 'open');
    button.setAttribute('aria-label', say(lang, 'openLabel'));
    heading.textContent = say(lang, 'title');
    about.textContent = say(lang, 'about');
    legend.textContent = say(lang, 'hide');
    for (const x of groups) x.label.querySelector('span').textContent = say(lang, `group.${x.g}`);
    elementTitle.textContent = say(lang, 'element');
    iframeTitle.textContent = say(lang, 'iframe');
    parts.script.label.textContent = say(lang, 'script');
    parts.element.label.textContent = say(lang, 'tag');
    parts.iframe.label.textContent = say(lang, 'frame');
    for (const part of Object.values(parts)) {
      part.copy.textContent = say(lang, 'copy');
      part.copy.setAttribute('aria-label', say(lang, 'copyWhat', { what: say(lang, `what.${part.name}`) }));
      part.box.setAttribute('aria-label', say(lang, `what.${part.name}`));
    }
    close.textContent = say(lang, 'close');
  }
  sync(lang);
  return { button, dialog, sync };
}
