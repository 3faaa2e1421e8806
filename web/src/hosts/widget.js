// The notebook and book widget: an anywidget front-end module (https://anywidget.dev/en/afm) that
// mounts one <attention-lab> lesson in a notebook cell (JupyterLab, Jupyter Notebook, Colab,
// VS Code, marimo) or a Jupyter Book 2 page ({anywidget} directive). Built with the site as one
// self-contained file, dist/widget.js (scripts/widget-build.mjs: the engine, the lessons and their
// styles inside, nothing fetched from anywhere), because a notebook loads the module from text.
//
// The model's traits, synced both ways:
//   lesson, stage, lang   strings, as in the tutorial's links
//   state                 the link's further fields as text ("causal=1&fill=zero")
//   hide                  a list of control groups to hide (inputs, stepper, save, footer);
//                         without it, footer (the link to the tutorial, which a notebook has not)
// A trait set from Python (or the book's JSON) moves the lesson; what the learner changes comes back
// into the traits. Each progress statement (./progress.js) is sent to the model as a message:
// { type: 'progress', statement } (Python: widget.on_msg).

import { schema } from './element.js';
import { serializeHash } from './state.js';

const OWN = ['lesson', 'stage', 'lang', 'hide'];

// The element's attributes from traits (get(name) -> a trait's value).
function attributes(get) {
  const hide = get('hide');
  return {
    lesson: get('lesson') || '',
    stage: get('stage') || '',
    lang: get('lang') || '',
    // no hide trait: the "Open in Attention Lab" link goes (a notebook has no tutorial beside it)
    hide: Array.isArray(hide) ? hide.join(',') : typeof hide === 'string' ? hide : 'footer',
    state: get('state') || '',
  };
}

// The traits of a state: its link's own fields apart, the rest as the state text.
function traitsOf(state) {
  const rest = serializeHash(state, schema)
    .split('&')
    .filter((part) => !OWN.includes(part.slice(0, part.indexOf('='))));
  return { lesson: state.lesson, stage: state.stage, lang: state.lang, hide: [...state.hide], state: rest.join('&') };
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function render({ model, el }) {
  const lab = document.createElement('attention-lab');
  const traits = (name) => model.get(name);
  let shown = null; // the attributes of what the lesson shows (set last, or reported by it)
  // A trait changed: the lesson follows, unless it is what the lesson itself just reported.
  const onChange = () => {
    const next = attributes(traits);
    if (shown && same(next, shown)) return;
    shown = next;
    for (const [name, value] of Object.entries(next)) {
      if (value === '') lab.removeAttribute(name);
      else lab.setAttribute(name, value);
    }
  };
  // The learner changed something: the traits follow (and are not sent back to the lesson).
  const onLab = (e) => {
    const now = traitsOf(e.detail.state);
    shown = attributes((name) => now[name]);
    const changed = Object.keys(now).filter((name) => !same(model.get(name), now[name]));
    for (const name of changed) model.set(name, now[name]);
    if (changed.length) model.save_changes();
  };
  const onProgress = (e) => model.send({ type: 'progress', statement: e.detail });
  const events = ['lesson', 'stage', 'lang', 'state', 'hide'].map((name) => `change:${name}`);
  for (const name of events) model.on(name, onChange);
  lab.addEventListener('attention-lab-change', onLab);
  lab.addEventListener('attention-lab-progress', onProgress);
  onChange();
  el.append(lab);
  return () => {
    for (const name of events) model.off(name, onChange);
    lab.remove();
  };
}

export default { render };
