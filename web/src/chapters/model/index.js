// Lesson 14: a real model. A GPT-2-architecture model that ships with the page (tiny/, trained by
// scripts/train_tiny_gpt2.py on sentences that script writes), or the learner's own GPT-2-family
// checkpoint, or a course author's hosted one, read by the engine (engine.loadModel). On the
// learner's sentence: the next-token guess, every head at once, one head through the pipeline's
// five stages, the kinds of head (the engine's head scores), switching heads off, and the
// debugging lesson's monitors. Pure logic in ./logic.js, the tokens in ./tokens.js, loading in
// ./source.js and ./session.js, the figures in ./figures.js and ./steps.js.

import { h, setText } from '../../views/dom.js';
import { field, showError, syncInput } from '../../views/controls.js';
import { TokenError, pieces } from './tokens.js';
import { createSession } from './session.js';
import { SourceError } from './source.js';
import { createModelBox, createTokenStrip, sizeText, countText } from './figures.js';
import { sentenceOf, sourceOf, chosenHead, ablatedHeads, positionOf, memoryBytes, parameterCount } from './logic.js';
import { STEPS, TOP_K } from './steps.js';
import strings from './strings.js';
import meta, { MAX_TEXT } from './meta.js';

// The session of this mount: the model, its runs, and redraws when they arrive.
function session(c) {
  if (!c.ui.session) {
    c.ui.session = createSession({ onChange: () => c.redraw(), kept: c.kept });
    c.onLeave(() => c.ui.session.dispose());
  }
  return c.ui.session;
}

// What every step draws from: the model (or where its load stands), the sentence's ids and
// tokens, the position read, the head opened, the ablated heads and the run on the sentence.
function compute(c) {
  const s = session(c);
  const source = sourceOf(c.state);
  s.open(c.engine, source, c.ui.files);
  const data = { source, s, loaded: s.loaded };
  if (!s.loaded) return data;
  const { config, tokenizer } = s.loaded;
  let ids;
  try {
    ids = tokenizer.encode(sentenceOf(c.state, c.lang));
    data.tokenError = null;
  } catch (e) {
    if (!(e instanceof TokenError)) throw e;
    data.tokenError = e;
    ids = c.ui.ids || [];
  }
  data.cut = ids.length > config.nPositions ? ids.length : 0;
  if (data.cut) ids = ids.slice(0, config.nPositions);
  c.ui.ids = ids;
  data.ids = ids;
  data.groups = pieces(tokenizer, ids);
  if (!ids.length) return data;
  data.pos = positionOf(c.state.mdPos, ids.length);
  data.head = chosenHead(c.state, config);
  data.ablate = ablatedHeads(c.state.mdAblate, config);
  data.request = { ids, head: data.head, topK: TOP_K };
  const refused = s.errorOf(data.request);
  if (refused) throw refused;
  data.run = s.run(data.request);
  return data;
}

// ---- the model box and the sentence (beside every step's figure) -------------------------------------

function buildModel(c, v) {
  v.box = createModelBox(c, {
    onFiles: (files) => {
      c.ui.files = files;
      session(c).forget();
      const model = files.find((f) => /\.safetensors$/i.test(f.name));
      c.set({ mdModel: `file:${model ? model.name : files[0].name}`, modelSrc: '', mdAblate: [] });
      c.redraw();
    },
    onCancel: () => session(c).cancel(),
    onShipped: () => {
      c.ui.files = null;
      session(c).forget();
      session(c).drop();
      c.set({ mdModel: '', modelSrc: '', mdAblate: [] });
    },
  });
  return v.box.el;
}

function loadErrorText(c, e) {
  if (!e) return '';
  if (e.code === 'cancelled') return c.s('load.cancelled');
  if (e instanceof SourceError) return c.s(`load.${e.code}`, e.params);
  return c.s('load.refused', { msg: e.message });
}

function drawModel(c, data, v) {
  const { source, s } = data;
  let message;
  if (s.loaded) {
    const cfg = s.loaded.config;
    message = c.s(source.kind === 'shipped' ? 'model.shipped' : 'model.own', {
      name: s.loaded.name,
      layers: cfg.nLayer,
      heads: cfg.nHead,
      d: cfg.nEmbd,
      vocab: cfg.vocabSize,
      params: countText(parameterCount(cfg)),
      memory: sizeText(memoryBytes(cfg)),
    });
  } else if (s.loading) {
    const p = s.loading.progress;
    const need = s.loading.config ? c.s('model.need', { memory: sizeText(memoryBytes(s.loading.config)) }) : '';
    const read = p && p.total ? c.s('model.loading', { done: sizeText(p.loaded), total: sizeText(p.total) }) : '';
    message = (read || c.s('model.starting')) + need;
  } else if (source.kind === 'file' && !c.ui.files) message = c.s('model.needFile', { name: source.name });
  else message = '';
  v.box.draw({
    source,
    loaded: s.loaded,
    loading: s.loading,
    loadError: s.loadError,
    need: loadErrorText(c, s.loadError),
    message,
  });
}

function buildSentence(c, v) {
  const input = h('textarea', { class: 'md-text', rows: 3, maxlength: MAX_TEXT, spellcheck: 'false' });
  v.field = field(c.s('sentence'), input);
  input.addEventListener('input', () => {
    const text = input.value;
    c.set({ mdText: text === sentenceOf({ mdText: '' }, c.lang) ? '' : text, mdPos: -1 });
  });
  v.strip = createTokenStrip(c, { onPick: (i) => c.set({ mdPos: i }) });
  v.count = h('p', { class: 'hint md-count' });
  return [v.field.wrap, v.count, v.strip.el];
}

function drawSentence(c, data, v) {
  syncInput(v.field, sentenceOf(c.state, c.lang));
  if (!data.loaded) return;
  const tok = data.loaded.tokenizer;
  showError(v.field, data.tokenError ? c.s('errIds', data.tokenError.params) : '');
  v.strip.draw(data.groups || [], data.pos);
  setText(
    v.count,
    data.cut
      ? c.s('tokensCut', { n: data.cut, max: data.loaded.config.nPositions })
      : c.s(tok.kind === 'ids' ? 'tokensIds' : 'tokensCount', { n: data.ids.length }),
  );
}

export default {
  ...meta,
  prefix: 'md',
  strings,
  compute,
  controls: [
    { steps: ['guess', 'heads', 'stages', 'ablate', 'debug'], build: buildSentence, draw: drawSentence },
    { steps: '*', build: buildModel, draw: drawModel },
  ],
  steps: STEPS,
};
