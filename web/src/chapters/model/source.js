// Where the lesson's model comes from and how it is loaded: the shipped model (tiny/, fetched
// only when the lesson opens), a course author's hosted checkpoint (modelSrc), or the learner's
// own files (model.safetensors with its config.json, dropped or picked). The engine reads the
// weights (engine.loadModel: progress, cancel, the memory it needs, its message for a bad file);
// this module finds the files and the tokenizer that goes with them.
//
//   const loaded = await openModel(engine, source, { files, onProgress, onConfig, signal })
//     -> { model, config, tokenizer, name }

import { bpeTokenizer, idTokenizer } from './tokens.js';
import { configOf, hostedFiles } from './logic.js';

const SHIPPED = {
  model: new URL('./tiny/model.safetensors', import.meta.url).href,
  config: new URL('./tiny/config.json', import.meta.url).href,
  tokenizer: new URL('./tiny/tiktoken.json', import.meta.url).href,
};
const GPT2_VOCAB = 50257;

// A file the lesson could not use, named for the learner (the engine's own errors pass through).
export class SourceError extends Error {
  constructor(code, params = {}) {
    super(code);
    this.name = 'SourceError';
    this.code = code;
    this.params = params;
  }
}

async function fetchOk(url, signal) {
  let res;
  try {
    res = await fetch(url, { signal });
  } catch (e) {
    if (signal && signal.aborted) throw e;
    throw new SourceError('fetch', { url });
  }
  if (!res.ok) throw new SourceError('status', { url, status: res.status });
  return res;
}

async function jsonOf(textPromise, what) {
  try {
    return JSON.parse(await textPromise);
  } catch {
    throw new SourceError('json', { file: what });
  }
}

// The tokenizer for a checkpoint: its own tiktoken.json when there is one, GPT-2's BPE for
// GPT-2's vocabulary (loaded here only: a chunk of its own), else the ids typed by hand.
async function tokenizerFor(config, ranks) {
  if (ranks && typeof ranks.bpe_ranks === 'string') return bpeTokenizer(ranks);
  if (config.vocabSize === GPT2_VOCAB) {
    const { default: gpt2 } = await import('js-tiktoken/ranks/gpt2');
    return bpeTokenizer(gpt2);
  }
  return idTokenizer(config.vocabSize);
}

// The learner's dropped or picked files: the .safetensors, config.json and an optional
// tiktoken.json.
export function sortFiles(files) {
  const list = Array.from(files || []);
  return {
    model: list.find((f) => /\.safetensors$/i.test(f.name)) || null,
    config:
      list.find((f) => /(^|\/)config\.json$/i.test(f.name)) ||
      list.find((f) => /\.json$/i.test(f.name) && !/tiktoken/i.test(f.name)) ||
      null,
    tokenizer: list.find((f) => /tiktoken\.json$/i.test(f.name)) || null,
  };
}

export async function openModel(engine, source, { files = null, onProgress, onConfig = () => {}, signal } = {}) {
  let modelSource;
  let configJson;
  let ranks = null;
  let name;
  if (source.kind === 'file') {
    const f = sortFiles(files);
    if (!f.model) throw new SourceError('noModelFile', { name: source.name });
    if (!f.config) throw new SourceError('noConfig');
    configJson = await jsonOf(f.config.text(), f.config.name);
    if (f.tokenizer) ranks = await jsonOf(f.tokenizer.text(), f.tokenizer.name);
    modelSource = f.model;
    name = f.model.name;
  } else {
    const urls = source.kind === 'hosted' ? hostedFiles(source.url, globalThis.location?.href) : SHIPPED;
    configJson = await jsonOf((await fetchOk(urls.config, signal)).text(), 'config.json');
    if (source.kind === 'shipped')
      ranks = await jsonOf((await fetchOk(urls.tokenizer, signal)).text(), 'tiktoken.json');
    else if (configJson.vocab_size !== GPT2_VOCAB) {
      const res = await fetch(urls.tokenizer, { signal }).catch(() => null);
      if (res && res.ok) ranks = await jsonOf(res.text(), 'tiktoken.json');
    }
    modelSource = await fetchOk(urls.model, signal);
    name = source.kind === 'hosted' ? urls.model : 'tiny';
  }
  onConfig(configJson); // what the weights will need, before they are read
  const model = await engine.loadModel(modelSource, { config: configJson, onProgress, signal });
  try {
    const config = model.config || configOf(configJson);
    return { model, config, tokenizer: await tokenizerFor(config, ranks), name };
  } catch (e) {
    model.delete();
    throw e;
  }
}

// The key of a source: the same key is the same model.
export const sourceKey = (source) =>
  source.kind === 'shipped' ? 'shipped' : source.kind === 'hosted' ? `hosted:${source.url}` : `file:${source.name}`;
