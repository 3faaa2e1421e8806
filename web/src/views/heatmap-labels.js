// A heatmap's row and column labels: how wide they are (an estimate, no layout read) and the
// HTML spans that show them over the canvas.

// Length of the longest label in Latin-character widths (a CJK character counts double).
export function labelLength(labels) {
  return labels.reduce(
    (m, l) =>
      Math.max(
        m,
        [...l].reduce((w, ch) => w + (ch.charCodeAt(0) > 255 ? 1.9 : 1), 0),
      ),
    1,
  );
}

// Width the row labels take (an estimate from the longest label: CJK characters count double).
export function rowLabelWidth(labels) {
  return Math.min(96, 14 + labelLength(labels) * 7.5);
}

// One span per label in el (data-<name>="k"), their texts and titles; hidden when !show.
export function setLabels(el, labels, name, show) {
  el.classList.toggle('hm-hidden-labels', !show);
  if (el.childElementCount !== labels.length) {
    el.replaceChildren(
      ...labels.map((_, k) => {
        const s = document.createElement('span');
        s.dataset[name] = k;
        return s;
      }),
    );
  }
  for (let k = 0; k < labels.length; k++) {
    const s = el.children[k];
    if (s.textContent !== labels[k]) {
      s.textContent = labels[k];
      s.title = labels[k];
    }
  }
}
