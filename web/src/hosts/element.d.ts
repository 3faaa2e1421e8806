// Types of the <attention-lab> element's public API (web/src/hosts/element.js, built to
// dist/attention-lab.js; README, "Use it in your course"). tests/types/usage.ts exercises
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

/** An xAPI language map: a language tag ('en', 'zh-CN') -> text. */
export type LanguageMap = Record<string, string>;

/** What the learner did, as an xAPI statement without its actor (the course page knows the learner
 * and adds it before sending the statement anywhere; the lesson itself sends nothing).
 * - experienced: a step seen for the first time (object `urn:attention-lab:<lesson>/step/<stage>`)
 * - answered: a predict-then-reveal answer (object `urn:attention-lab:<lesson>/question/<name>`,
 *   a choice interaction; result.success, result.response, result.score 1 or 0 of 1; the attempt
 *   under context.extensions['urn:attention-lab:attempt'], 1 = the first try)
 * - completed: a chapter whose every step was seen and every question answered (object
 *   `urn:attention-lab:<lesson>`; result.score: its questions right on the first try)
 * - passed: a training run that reached "learned" (object `urn:attention-lab:<lesson>/run/<task>`;
 *   the step under result.extensions['urn:attention-lab:step'], the run's settings under
 *   context.extensions['urn:attention-lab:run']) */
export interface ProgressStatement {
  verb: {
    id: `http://adlnet.gov/expapi/verbs/${'experienced' | 'answered' | 'completed' | 'passed'}`;
    display: LanguageMap;
  };
  object: {
    objectType: 'Activity';
    id: string;
    definition: {
      type: string;
      name: LanguageMap;
      interactionType?: 'choice';
      choices?: { id: string; description: LanguageMap }[];
      correctResponsesPattern?: string[];
    };
  };
  result?: {
    success?: boolean;
    response?: string;
    completion?: boolean;
    score?: { raw: number; min: number; max: number; scaled: number };
    extensions?: Record<string, unknown>;
  };
  context: {
    language: string;
    contextActivities?: { parent: { objectType: 'Activity'; id: string }[] };
    extensions?: Record<string, unknown>;
  };
  /** ISO 8601 */
  timestamp: string;
}

/** What the learner has done, per lesson: the steps seen, each question's first try (right or
 * not), whether the chapter is completed. Plain JSON: a host may keep it and give it back. */
export type LabProgress = Record<string, { steps: string[]; answers: Record<string, boolean>; completed: boolean }>;

/** The attributes the element reads (and watches). Two more are read as flags, not watched:
 * `navigation` (the previous / next chapter links) and `offline` (keep the tutorial for offline
 * use: once the lesson is drawn and the page is idle, the service worker of the folder the element
 * comes from keeps the whole build; without it an embedded lesson registers no worker and caches
 * nothing; `offline=1` in `state` or in embed.html's link asks the same). */
export const ATTRIBUTES: readonly (
  'lesson' | 'stage' | 'preset' | 'lang' | 'seed' | 'hide' | 'height' | 'state' | 'model-src'
)[];

export class AttentionLab extends HTMLElement {
  static readonly observedAttributes: typeof ATTRIBUTES;
  /** The state on screen (read-only); null until the element has started. */
  readonly state: LabState | null;
  /** The engine the element computes with; null until it has loaded. */
  readonly engine: Engine | null;
  /** What the learner has done so far; setting it restores that (nothing is reported again). */
  progress: LabProgress | null;
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
    /** For every step seen, question answered, chapter completed and training run learned. */
    'attention-lab-progress': CustomEvent<ProgressStatement>;
  }
}
