// The embed code of what is on screen: the <attention-lab> element (with the script tag it needs
// once per page) and the iframe, each reproducing the lesson, the step, the language, the hide
// flags and every other field of the state that is not its default (the numbers on screen).
// Pure: no DOM (the dialog that shows it is ./embed-dialog.js).
//
//   embedCode(state, { schema, root, title, hide }) -> { script, element, iframe }
//   root: where the built folder is served (…/lab/: attention-lab.js and embed.html are there);
//   title: the iframe's accessible name; hide: the control groups the embedded lesson hides.

import { serializeHash } from './state.js';

// The element's own attributes; every other field goes into its state attribute.
const OWN = ['lesson', 'stage', 'lang', 'hide'];
// The control groups an embedded lesson may hide (the page's header and nav are not in it).
export const EMBED_GROUPS = ['inputs', 'stepper', 'save', 'footer'];

const attr = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function embedCode(state, { schema, root, title, hide = [] }) {
  const hash = serializeHash({ ...state, hide: hide.filter((g) => EMBED_GROUPS.includes(g)) }, schema);
  const fields = hash.split('&').map((part) => [part.slice(0, part.indexOf('=')), part]);
  const own = Object.fromEntries(fields.filter(([name]) => OWN.includes(name)));
  const rest = fields.filter(([name]) => !OWN.includes(name)).map(([, part]) => part);
  const value = (name) => decodeURIComponent(own[name].slice(name.length + 1));
  const attributes = OWN.filter((name) => own[name]).map((name) => `${name}="${attr(value(name))}"`);
  if (rest.length) attributes.push(`state="${attr(rest.join('&'))}"`);
  return {
    script: `<script type="module" src="${attr(new URL('attention-lab.js', root).href)}"></script>`,
    element: `<attention-lab ${attributes.join(' ')}></attention-lab>`,
    iframe:
      `<iframe src="${attr(new URL(`embed.html#${hash}`, root).href)}" title="${attr(title)}"` +
      ` width="100%" height="640" loading="lazy"></iframe>`,
  };
}
