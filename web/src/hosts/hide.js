// Hiding control groups for embedding (#hide=inputs,nav or <attention-lab hide="inputs">): every
// [data-group=<name>] in the list is hidden, and in its place a line of text says what the
// hidden controls are set to ("Set for this example: Fill: 0; Stable softmax: on"), so text that
// refers to a control still has its value on screen.
//
//   applyHide(root, hide, t)   // root: the document or a shadow root; t(key, params): shell strings
//
// Pure DOM, no state of its own beyond the summary lines it places (found again by class).

const SUMMARY = 'hidden-values';

const clean = (text) =>
  (text || '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[:：]$/, '');

// The name a control goes by: its aria-label, its <label>, or the legend of its fieldset.
function nameOf(el) {
  if (el.getAttribute('aria-label')) return clean(el.getAttribute('aria-label'));
  if (el.labels && el.labels.length) return clean(el.labels[0].textContent);
  const legend = el.closest('fieldset')?.querySelector('legend');
  return legend ? clean(legend.textContent) : '';
}

// "name: value" for each control inside a hidden group (radio groups once, by their checked one).
// Left out: the cells of a grid of numbers (a matrix the figures show anyway) and controls folded
// away in a closed <details>.
function describeControls(group, t) {
  const parts = [];
  const seenRadio = new Set();
  for (const el of group.querySelectorAll('input, select, textarea, button[aria-pressed]')) {
    if (el.closest('table') || el.closest('details:not([open])')) continue;
    let name = '',
      value = '';
    if (el.matches('button')) {
      name = clean(el.getAttribute('aria-label') || el.textContent);
      value = t(el.getAttribute('aria-pressed') === 'true' ? 'on' : 'off');
    } else if (el.type === 'radio') {
      if (seenRadio.has(el.name)) continue;
      seenRadio.add(el.name);
      const group = el.closest('[role="radiogroup"]') || el.closest('fieldset');
      const checked = [...(group || el.parentNode).querySelectorAll(`input[type="radio"]`)].find(
        (r) => r.name === el.name && r.checked,
      );
      if (!checked) continue;
      name = group ? clean(group.getAttribute('aria-label') || group.querySelector('legend')?.textContent) : '';
      value = checked.labels && checked.labels.length ? clean(checked.labels[0].textContent) : checked.value;
    } else if (el.type === 'checkbox') {
      name = nameOf(el);
      value = t(el.checked ? 'on' : 'off');
    } else if (el.matches('select')) {
      name = nameOf(el);
      value = clean(el.selectedOptions[0]?.textContent);
    } else if (el.type !== 'button' && el.type !== 'submit' && el.type !== 'hidden') {
      name = nameOf(el);
      value = clean(el.value);
    }
    if (value !== '') parts.push(name ? t('nameValue', { name, value }) : value);
  }
  return parts;
}

export function applyHide(root, hide, t) {
  for (const el of root.querySelectorAll('[data-group]')) {
    const hidden = hide.includes(el.dataset.group);
    el.classList.toggle('group-hidden', hidden);
    let line = el.nextElementSibling?.classList.contains(SUMMARY) ? el.nextElementSibling : null;
    const parts = hidden && el.dataset.group === 'inputs' ? describeControls(el, t) : [];
    if (!parts.length) {
      line?.remove();
      continue;
    }
    if (!line) {
      line = el.ownerDocument.createElement('p');
      line.className = `hint ${SUMMARY}`;
      el.after(line);
    }
    const text = t('hiddenValues', { list: parts.join(t('listSep')) });
    if (line.textContent !== text) line.textContent = text;
  }
}
