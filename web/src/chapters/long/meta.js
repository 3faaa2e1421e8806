// What the page needs of this chapter before its module loads (./index.js): its id, its title
// and the hash fields it owns.

import { LIMITS } from '../../engine/choices.js';
export const TRACE_N = 16; // the tiling animation: 16 queries and keys
export const PATTERN_N = 32; // the mask patterns: 32 x 32
export const SWEEP_TO = ['128', '256', '512', '1024', '2048', '4096', '8192']; // the sweep's last n

export default {
  id: 'long',
  title: { en: 'Long sequences', zh: '长序列' },
  engines: ['full'],
  questions: ['long/memory'],
  state: {
    longN: { type: 'int', default: 1024, min: 64, max: LIMITS.maxFlashTokens }, // sequence length of the runs
    longWindow: { type: 'int', default: 128, min: 0, max: LIMITS.maxFlashTokens }, // w of the windowed run
    longWorkers: { type: 'int', default: 2, min: 1, max: 4 },
    // the sweep's last n (from 64, doubling)
    longSweepTo: { type: 'enum', default: '4096', values: SWEEP_TO },
    longRow: { type: 'int', default: 9, min: 0, max: TRACE_N - 1 }, // query of the animation
    longBlock: { type: 'enum', default: '4', values: ['2', '4', '8'] },
    longStep: { type: 'int', default: 0, min: 0, max: TRACE_N }, // key blocks folded in
    longPattern: { type: 'enum', default: 'window', values: ['full', 'causal', 'window', 'stride', 'causal-window'] },
    longWidth: { type: 'int', default: 3, min: 0, max: PATTERN_N },
  },
};
