// Predict, then reveal: the learner commits to a guess before the engine's answer is shown.
//
//   const p = createPredict(c, { id: 'sf-winner', question, options: [{ value, label }], reveal })
//   el.append(p.el)                      // a fieldset of radio buttons and a "Check" button
//   p.ask(question)                      // a question that depends on the settings
//   p.draw(answer, feedback)             // after every compute: the engine's answer (a value of
//                                        // options) and the sentences for right / wrong (the
//                                        // wrong one explains the answer: it is also what
//                                        // "Just show me" says after naming it)
//   p.lock()                             // the figure shows the answer now (e.g. a run has
//                                        // trained): the question closes as if shown
//   reveal: an element shown only once the learner has answered (or pressed "Show me").
//
// The question sits in its step's side column, after the controls (kit/shell.js places every
// fieldset.predict of a step there). Once answered or shown it locks: the options are disabled,
// only the learner's pick stays in view, and the feedback says what the engine computed, also
// after a later change of the settings (the reveal stays open, so the learner watches it move).
//
// Progress (which questions were answered, and whether right) lives in localStorage under
// "attention-lab-progress" on this device only; it is never sent anywhere. Each checked answer is
// also reported to the host (c.progress), which hands it to the course page holding the lesson.

import { h, nextId } from '../../views/dom.js';

const STORE = 'attention-lab-progress';

const STRINGS = {
  en: {
    predict: 'Predict: ',
    check: 'Check my guess',
    showMe: 'Just show me',
    right: 'Right.',
    wrong: 'Not this time.',
    shown: 'The engine’s answer: {a}.',
    changed: 'With the settings on screen the engine’s answer is {a}.',
    pickFirst: 'Pick an answer first.',
    gap: ' ',
  },
  zh: {
    predict: '先猜一猜：',
    check: '核对',
    showMe: '直接看结果',
    right: '答对了。',
    wrong: '这次没猜中。',
    shown: '引擎的答案：{a}。',
    changed: '按现在的设置，引擎的答案是：{a}。',
    pickFirst: '请先选一个答案。',
    gap: '',
  },
};

export function loadProgress() {
  try {
    return JSON.parse(globalThis.localStorage?.getItem(STORE) || '{}') || {};
  } catch {
    return {};
  }
}

// Forgets every answer (the start page's "Forget my answers").
export function clearProgress() {
  try {
    globalThis.localStorage?.removeItem(STORE);
  } catch {
    // storage not available: nothing was kept
  }
}

function saveProgress(id, record) {
  try {
    const all = loadProgress();
    all[id] = record;
    globalThis.localStorage?.setItem(STORE, JSON.stringify(all));
  } catch {
    // private mode or storage full: progress is a convenience, the page works without it
  }
}

export function createPredict(c, { id, question, options, reveal }) {
  const name = nextId('pr');
  const str = STRINGS[c.lang] || STRINGS.en;
  const radios = options.map((o) => {
    const input = h('input', { type: 'radio', name, value: o.value });
    return {
      value: o.value,
      input,
      label: h('label', { class: 'check predict-option' }, input, h('span', { text: o.label })),
    };
  });
  const feedback = h('p', { class: 'predict-feedback', role: 'status', 'aria-live': 'polite' });
  const check = h('button', { type: 'button', class: 'btn predict-check', text: str.check });
  const show = h('button', { type: 'button', class: 'btn predict-show', text: str.showMe });
  const legend = h('legend', { text: `${str.predict}${question}` });
  const el = h(
    'fieldset',
    { class: 'predict', 'data-predict': id },
    legend,
    h('div', { class: 'predict-options' }, ...radios.map((r) => r.label)),
    h('div', { class: 'controls' }, check, show),
    feedback,
  );

  if (reveal) reveal.dataset.revealOf = id; // what the question keeps back until it is answered
  let answer = null; // the engine's answer for the settings on screen
  let text = null; // { right, wrong }
  // The learner's committed guess (for these settings), whether the answer was shown, and whether
  // the settings changed the answer after the guess: kept in c.kept, so the chapter mounted again
  // (a language switch) still shows the question answered. The answer it was for comes too: a
  // guess whose answer the new settings change is dropped as below.
  const kept = (c.kept.predict ??= {});
  let { guessed = null, shown = false, changed = false, answer: before = null } = kept[id] || {};
  const keep = () => (kept[id] = { guessed, shown, changed, answer: answer ?? before });
  let nudged = false; // "Check" was pressed with nothing picked: the nudge stays through redraws
  let unsaved = false; // a guess made before the engine's first answer arrived: kept once it does
  const restored = guessed ?? loadProgress()[id]?.guess;
  if (restored !== undefined) {
    const r = radios.find((x) => x.value === restored);
    if (r) r.input.checked = true;
  }

  // A guess checked against the engine's answer: kept on this device, and reported to the host
  // (an 'answered' statement a course can grade: ../../hosts/progress.js).
  function commit() {
    saveProgress(id, { guess: guessed, right: guessed === answer });
    const text = legend.textContent.slice(str.predict.length);
    c.progress?.('answered', { question: id, text, options, response: guessed, answer });
  }

  const labelOf = (value) => options.find((o) => o.value === value)?.label ?? String(value);
  const say = (key, value) => str[key].replace('{a}', labelOf(value));

  function render() {
    const locked = guessed !== null || shown;
    if (reveal && reveal.hidden !== !locked) reveal.hidden = !locked;
    el.classList.toggle('locked', locked);
    el.classList.toggle('guessed', guessed !== null);
    for (const r of radios) if (r.input.disabled !== locked) r.input.disabled = locked;
    if (check.hidden !== locked) check.hidden = locked;
    if (show.hidden !== locked) show.hidden = locked;
    const right = guessed !== null && guessed === answer;
    const cls = locked && answer !== null && guessed !== null ? (right ? ' right' : ' wrong') : '';
    const line = !locked
      ? nudged
        ? str.pickFirst
        : ''
      : answer === null
        ? ''
        : guessed !== null
          ? `${right ? str.right : str.wrong}${str.gap}${right ? text.right : text.wrong}`
          : `${say(changed ? 'changed' : 'shown', answer)}${str.gap}${text.wrong}`;
    feedback.className = `predict-feedback${cls}`;
    if (feedback.textContent !== line) feedback.textContent = line;
  }

  check.addEventListener('click', () => {
    if (guessed !== null || shown) return; // locked: one answer per question
    const picked = radios.find((r) => r.input.checked);
    nudged = !picked;
    if (!picked) {
      render();
      return;
    }
    guessed = picked.value;
    keep();
    unsaved = answer === null;
    if (!unsaved) commit();
    render();
  });
  show.addEventListener('click', () => {
    shown = true;
    keep();
    render();
  });

  return {
    el,
    // The question for the settings on screen.
    ask(text) {
      const t = `${str.predict}${text}`;
      if (legend.textContent !== t) legend.textContent = t;
    },
    // A new answer (the settings changed): the old guess no longer applies. What was revealed
    // stays on screen, so the learner can watch the change they made.
    draw(nextAnswer, nextText) {
      const was = answer ?? before;
      if (nextAnswer !== was && was !== null && guessed !== null) {
        guessed = null;
        shown = true;
        changed = true;
      }
      answer = nextAnswer;
      if (guessed !== null || shown) keep();
      text = nextText;
      if (unsaved && guessed !== null) commit();
      unsaved = false;
      render();
    },
    // The figure shows the answer: the question closes (an answer already given stays).
    lock() {
      if (guessed !== null || shown) return;
      shown = true;
      keep();
      render();
    },
  };
}
