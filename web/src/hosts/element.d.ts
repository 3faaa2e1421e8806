// Types of the <attention-lab> element's public API (web/src/hosts/element.js, built to
// dist/attention-lab.js; README, "Embedding in a course site"). tests/types/usage.ts exercises
// them and `tsc -p tests/types` checks them in npm test.

import type { Engine } from '../engine.js';

/** The element's state: every field of the page's link, as values. */
export interface LabState {
  lesson: string;
  stage: string;
  lang: 'en' | 'zh';
  [field: string]: unknown;
}

/** A field set() refused: its name ('' when the patch is no object), a message code, the code's
 * parameters and the message ("causal: not 0 or 1, got 'false'"). set() never throws. */
export interface PatchError {
  key: string;
  code: string;
  params: Record<string, unknown>;
  message: string;
}

export interface LabChangeDetail {
  lesson: string;
  stage: string;
  state: LabState;
}

/** The attributes the element reads (and watches). */
export const ATTRIBUTES: readonly ('lesson' | 'stage' | 'preset' | 'lang' | 'seed' | 'hide' | 'height' | 'state')[];

export class AttentionLab extends HTMLElement {
  static readonly observedAttributes: typeof ATTRIBUTES;
  /** The state on screen (read-only); null until the element has started. */
  readonly state: LabState | null;
  /** The engine the element computes with; null until it has loaded. */
  readonly engine: Engine | null;
  /** Changes fields of the state: [] when applied, else the refused fields (nothing applied). */
  set(patch: Partial<LabState> | null): PatchError[];
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-lab': AttentionLab;
  }
  interface HTMLElementEventMap {
    /** After every change, e.g. a step chosen by the learner. */
    'attention-lab-change': CustomEvent<LabChangeDetail>;
  }
}
