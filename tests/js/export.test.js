// The page's exported code (web/src/lesson/export.js) run for real: for several states of the
// worked example, of the multi-head layer and of the Transformer block's two layers, the NumPy
// and PyTorch scripts are written to a temporary directory, executed by PYTHON (default Debian's
// /usr/bin/python3 with python3-numpy and python3-torch, installed by scripts/setup.sh --test),
// and what they print is compared with the engine's numbers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadEngine } from '../../web/src/engine.js';
import { coreSchema, defaults } from '../../web/src/hosts/state.js';
import { EXAMPLE_SHAPE, runExample, presetPatch } from '../../web/src/lesson/example.js';
import {
  attentionSpec,
  multiHeadSpec,
  blockSpec,
  modelHeadSpec,
  exportCode,
  float32Text,
  LANGS,
} from '../../web/src/lesson/export.js';
import { layerWeights, tokenMatrix } from '../../web/src/lesson/layer.js';
import { runBlock } from '../../web/src/lesson/block.js';

const TOL = 1e-5;
const PYTHON = process.env.PYTHON || '/usr/bin/python3';

let engine;
let dir;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'attention-export-'));
  engine = await loadEngine({ simd: false });
});
after(() => rmSync(dir, { recursive: true, force: true }));

// ---- the states -----------------------------------------------------------------------------

const state = (preset, extra = {}) => ({ ...defaults(coreSchema(EXAMPLE_SHAPE)), ...presetPatch(preset), ...extra });

// name -> a state of the worked example (example.js's runExample runs the engine on it)
const EXAMPLES = {
  'cat-fish': state('cat-fish'),
  'cat-chase causal': state('cat-chase', { causal: true }),
  'cat-fish padding, fill -inf': state('cat-fish', { keyPadding: [false, false, true, true] }),
  'cat-fish padding, fill -1e9': state('cat-fish', { keyPadding: [false, false, true, true], fill: 'large-negative' }),
  'cat-fish padding, fill 0': state('cat-fish', { keyPadding: [false, false, true, true], fill: 'zero' }),
  'cat-chase causal + padding (a fully blocked row), -inf': state('cat-chase', {
    causal: true,
    keyPadding: [true, false, false],
  }),
  'cat-chase causal + padding (a fully blocked row), -1e9': state('cat-chase', {
    causal: true,
    keyPadding: [true, false, false],
    fill: 'large-negative',
  }),
  'cat-chase causal + padding (a fully blocked row), naive': state('cat-chase', {
    causal: true,
    keyPadding: [true, false, false],
    stable: false,
  }),
  'cat-fish naive softmax': state('cat-fish', { stable: false }),
  'cat-fish naive softmax at T = 0.01 (overflow)': state('cat-fish', { stable: false, temperature: 0.01 }),
  'cat-fish T = 0.3': state('cat-fish', { temperature: 0.3 }),
  'cat-fish T = 7': state('cat-fish', { temperature: 7 }),
  'cat-fish explicit mask + reversed causal': state('cat-fish', {
    customMask: [
      [1, 1, 0, 1],
      [0, 1, 1, 1],
      [1, 1, 1, 1],
    ],
    reverseCausal: true,
  }),
  'random seed 7, d_k = 8': state('random', { seed: 7, dk: 8, inputMode: 'random' }),
  'random seed 123, d_k = 16, 6 tokens, causal': state('random', {
    seed: 123,
    dk: 16,
    inputMode: 'random',
    queryTokens: ['a', 'b', 'c', 'd', 'e', 'f'],
    keyTokens: ['a', 'b', 'c', 'd', 'e', 'f'],
    causal: true,
  }),
  'hand-check typed scores': state('hand-check'),
  'cat-fish typed Q, d_k = 4, unusual tokens': state('cat-fish', {
    queryTokens: ['"q"', "it's", '#x'],
    Q: [
      [0.1, -2.5, 3.25, 1e-3],
      [7, 0, 0, 1],
      [-1, 1, -1, 1],
    ],
  }),
};

function exampleSpec(s) {
  const { inputs, args, result } = runExample(engine, s);
  const spec = attentionSpec({
    args,
    queryTokens: inputs.queryTokens,
    keyTokens: inputs.keyTokens,
    scoresTyped: inputs.scoresTyped,
  });
  const want = { weights: result.weights };
  if (!inputs.scoresTyped) want.output = result.output;
  return { spec, want };
}

function scoreKindSpec(kind) {
  const m = (rows, cols, stream) => engine.randomMatrix({ rows, cols, seed: 5, stream });
  const dk = kind === 'dot' ? 5 : 6; // dot needs d_q = d_k; general and additive do not
  const args = { query: m(3, 5, 1), key: m(4, dk, 2), value: m(4, 3, 3), score: kind, causal: true, temperature: 0.8 };
  if (kind === 'general') args.general = { W: m(5, 6, 4) };
  if (kind === 'additive') args.additive = { Wq: m(7, 5, 5), Wk: m(7, 6, 6), v: Array.from(m(1, 7, 7).data) };
  const r = engine.attend(args);
  return { spec: attentionSpec({ args }), want: { weights: r.weights, output: r.output } };
}

function multiHeadCase({ tokens, d, heads, seed, cross, extra = {} }) {
  const X = tokenMatrix(engine, tokens, d, seed);
  const W = layerWeights(engine, d, seed);
  const args = { query: X, key: X, value: X, heads, ...W, ...extra };
  let sourceTokens;
  if (cross) {
    sourceTokens = cross;
    args.key = args.value = tokenMatrix(engine, cross, d, seed);
  }
  const r = engine.multiHead(args);
  const want = { output: r.output };
  r.heads.forEach((hd, i) => {
    want[`head ${i + 1} weights`] = hd.weights;
  });
  return { spec: multiHeadSpec({ args, tokens, sourceTokens }), want };
}

// The Transformer block chapter's layers (lesson/block.js): the encoder's and decoder's outputs.
function blockCase(extra = {}) {
  const st = {
    seed: 42,
    blSource: ['The', 'cat', 'eats', 'fish'],
    blTarget: ['猫', '吃', '鱼'],
    blAligned: false,
    blNormFirst: false,
    blAct: 'relu',
    blResidual: true,
    blNorm: true,
    ...extra,
  };
  const r = runBlock(engine, st);
  return {
    spec: blockSpec({ ...r.args, sourceTokens: st.blSource, targetTokens: st.blTarget }),
    want: { 'encoder output': r.encoder.output, 'decoder output': r.decoder.output },
  };
}

// ---- running the scripts --------------------------------------------------------------------

// Runs every script in one Python process (PyTorch is imported once) and returns each one's stdout.
function runAll(paths) {
  const driver = join(dir, 'driver.py');
  writeFileSync(
    driver,
    [
      'import contextlib, io, json, runpy, sys',
      'out = {}',
      'for path in sys.argv[1:]:',
      '    buf = io.StringIO()',
      '    with contextlib.redirect_stdout(buf):',
      '        runpy.run_path(path, run_name="__main__")',
      '    out[path] = buf.getvalue()',
      'print(json.dumps(out))',
    ].join('\n'),
  );
  const r = spawnSync(PYTHON, [driver, ...paths], { encoding: 'utf8', maxBuffer: 64 << 20, timeout: 600000 });
  assert.equal(r.status, 0, `python3 failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

// "name" lines, then rows of numbers -> { name: [[...], ...] }
function parsePrinted(text) {
  const out = {};
  let current = null;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const cells = line.trim().split(/\s+/);
    const nums = cells.map((c) => (c === 'nan' ? NaN : c === 'inf' ? Infinity : c === '-inf' ? -Infinity : Number(c)));
    if (nums.some((x) => Number.isNaN(x) && !/nan/.test(line))) {
      current = line.trim();
      out[current] = [];
    } else {
      assert.ok(current, `numbers before a name: ${line}`);
      out[current].push(nums);
    }
  }
  return out;
}

// Largest |difference| between the engine's matrix and the printed grid; NaN must meet NaN and
// an infinity the same infinity.
function difference(label, m, grid) {
  assert.equal(grid.length, m.rows, `${label}: rows`);
  let worst = 0;
  for (let i = 0; i < m.rows; i++) {
    assert.equal(grid[i].length, m.cols, `${label}: columns of row ${i}`);
    for (let j = 0; j < m.cols; j++) {
      const a = m.data[i * m.cols + j],
        b = grid[i][j];
      if (Number.isNaN(a) || Number.isNaN(b) || !Number.isFinite(a) || !Number.isFinite(b)) {
        assert.ok(
          Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b)),
          `${label} [${i}][${j}]: engine ${a}, script ${b}`,
        );
        continue;
      }
      worst = Math.max(worst, Math.abs(a - b));
    }
  }
  return worst;
}

// ---- the tests ------------------------------------------------------------------------------

test('float32Text writes the shortest decimal that reads back as the same float32', () => {
  for (const x of [0.1, 1 / 3, -2.5, 1e-9, 3.4e38, 123456789, Math.PI, -0.000123]) {
    const f = Math.fround(x);
    const text = float32Text(f);
    assert.equal(Math.fround(Number(text)), f, text);
    assert.ok(text.replace(/^-|e.*$|\./g, '').replace(/^0+/, '').length <= 9, text);
  }
  assert.equal(float32Text(Math.fround(0.1)), '0.1');
  assert.equal(float32Text(-Infinity), '-inf');
});

test("the exported NumPy and PyTorch scripts print the engine's numbers (to 1e-5)", () => {
  const cases = [];
  for (const [name, s] of Object.entries(EXAMPLES)) cases.push({ name, ...exampleSpec(s) });
  for (const kind of ['dot', 'general', 'additive'])
    cases.push({ name: `${kind} score, causal, T = 0.8`, ...scoreKindSpec(kind) });
  cases.push({
    name: 'multi-head self, d_model 12, 3 heads',
    ...multiHeadCase({ tokens: ['猫', '吃', '鱼'], d: 12, heads: 3, seed: 42 }),
  });
  cases.push({
    name: 'multi-head self, d_model 8, 1 head',
    ...multiHeadCase({ tokens: ['the', 'cat', 'sat', 'on'], d: 8, heads: 1, seed: 3 }),
  });
  const bias = (stream) => Array.from(engine.randomMatrix({ rows: 1, cols: 6, seed: 9, stream }).data);
  cases.push({
    name: 'multi-head cross, biases, causal + padding, 2 heads',
    ...multiHeadCase({
      tokens: ['a', 'b', 'c'],
      d: 6,
      heads: 2,
      seed: 11,
      cross: ['x', 'y', 'z', 'w'],
      extra: {
        bq: bias(1),
        bk: bias(2),
        bv: bias(3),
        bo: bias(4),
        causal: true,
        keyPadding: [false, false, false, true],
      },
    }),
  });

  cases.push({ name: 'block: encoder + decoder, post-norm, relu', ...blockCase() });
  cases.push({
    name: 'block: pre-norm, gelu, hand-set cross-attention',
    ...blockCase({ blNormFirst: true, blAct: 'gelu', blAligned: true }),
  });
  cases.push({
    name: 'block: seed 7, 6 source and 5 target tokens',
    ...blockCase({
      seed: 7,
      blSource: ['a', 'dog', 'drinks', 'cold', 'water', '.'],
      blTarget: ['狗', '喝', '冷', '水', '。'],
    }),
  });

  const paths = [];
  const runs = [];
  cases.forEach((c, n) => {
    for (const lang of LANGS) {
      const path = join(dir, `case${n}-${lang}.py`);
      writeFileSync(path, exportCode(c.spec, lang));
      paths.push(path);
      runs.push({ ...c, lang, path });
    }
  });
  const printed = runAll(paths);
  let largest = 0;
  const lines = [];
  for (const r of runs) {
    const got = parsePrinted(printed[r.path]);
    assert.deepEqual(Object.keys(got).sort(), Object.keys(r.want).sort(), `${r.name} (${r.lang}): printed names`);
    let worst = 0;
    for (const [key, m] of Object.entries(r.want))
      worst = Math.max(worst, difference(`${r.name} (${r.lang}) ${key}`, m, got[key]));
    assert.ok(worst <= TOL, `${r.name} (${r.lang}): largest difference ${worst}`);
    largest = Math.max(largest, worst);
    lines.push(`${r.lang.padEnd(5)} ${worst.toExponential(2)}  ${r.name}`);
  }
  console.log(
    `exported scripts run: ${runs.length}; largest difference from the engine: ${largest.toExponential(2)}\n${lines.join('\n')}`,
  );
});

// The real-model lesson's head on the shipped model (web/src/chapters/model/tiny/): the scripts
// read the same model.safetensors and config.json and print the head's five stages, compared with
// the engine's model.run (each cell within 1e-4 of max(1, |engine|): the model's scores reach tens).
test("the exported scripts of a real model's head print the engine's stages of that head", async () => {
  const file = fileURLToPath(new URL('../../web/src/chapters/model/tiny/model.safetensors', import.meta.url));
  const config = JSON.parse(readFileSync(join(dirname(file), 'config.json'), 'utf8'));
  const model = await engine.loadModel(new Uint8Array(readFileSync(file)), { config });
  try {
    const ids = [5, 300, 17, 99, 300, 17, 440, 2];
    const head = [config.n_layer - 1, 1];
    const want = (await model.run(ids, { topK: 1, head })).stages;
    const paths = LANGS.map((lang) => {
      const path = join(dir, `model-head-${lang}.py`);
      writeFileSync(path, exportCode(modelHeadSpec({ ids, head, file }), lang));
      return path;
    });
    const printed = runAll(paths);
    for (const path of paths) {
      const got = parsePrinted(printed[path]);
      assert.deepEqual(Object.keys(got), ['scores', 'scaled', 'masked', 'weights', 'output']);
      for (const [name, m] of Object.entries(want)) {
        const grid = got[name];
        assert.equal(grid.length, m.rows, name);
        for (let i = 0; i < m.rows; i++)
          for (let j = 0; j < m.cols; j++) {
            const a = m.data[i * m.cols + j];
            const b = grid[i][j];
            if (a === -Infinity) assert.equal(b, -Infinity, `${path} ${name}[${i}][${j}]`);
            else
              assert.ok(
                Math.abs(a - b) <= 1e-4 * Math.max(1, Math.abs(a)),
                `${path} ${name}[${i}][${j}]: ${a} vs ${b}`,
              );
          }
      }
    }
  } finally {
    model.delete();
  }
});

const blockState = {
  seed: 1,
  blSource: ['a', 'b'],
  blTarget: ['c'],
  blAligned: false,
  blNormFirst: false,
  blAct: 'relu',
  blResidual: true,
  blNorm: true,
};

test('the PyTorch export is built on F.softmax and masked_fill, on nn.MultiheadAttention for multi-head and on nn.TransformerEncoderLayer / DecoderLayer for the block', () => {
  const { spec } = exampleSpec(EXAMPLES['cat-fish padding, fill -inf']);
  const torch = exportCode(spec, 'torch');
  assert.match(torch, /F\.softmax\(scores, dim=-1\)/);
  assert.match(torch, /masked_fill\(blocked, float\('-inf'\)\)/);
  const mh = multiHeadCase({ tokens: ['a', 'b'], d: 4, heads: 2, seed: 1 }).spec;
  assert.match(
    exportCode(mh, 'torch'),
    /torch\.nn\.MultiheadAttention\(embed_dim=X\.shape\[1\], num_heads=2, bias=False, batch_first=True\)/,
  );
  assert.match(exportCode(mh, 'torch'), /average_attn_weights=False/);
  assert.throws(() => exportCode(spec, 'jax'), /lang: expected 'numpy' or 'torch'/);
  const block = exportCode(blockCase().spec, 'torch');
  assert.match(block, /torch\.nn\.TransformerEncoderLayer\(\*\*options\)/);
  assert.match(block, /torch\.nn\.TransformerDecoderLayer\(\*\*options\)/);
  assert.match(block, /decoder\(Y\[None\], memory\[None\], tgt_mask=causal\)/);
  assert.throws(
    () => blockSpec({ ...runBlock(engine, { ...blockState, blResidual: false }).args }),
    /residual and LayerNorm on/,
  );
});
