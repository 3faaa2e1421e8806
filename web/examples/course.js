// The host side of the iframe protocol (README: "Use it in your course"): each Attention Lab
// frame reports its content height, and the frame is made that tall. Messages are read only from
// the page's own frames and only with the fields the protocol names.

const frames = [...document.querySelectorAll('iframe.lab-frame')];

window.addEventListener('message', (e) => {
  const frame = frames.find((f) => f.contentWindow === e.source);
  const m = e.data;
  if (!frame || m === null || typeof m !== 'object' || m.source !== 'attention-lab') return;
  if (m.type === 'height' && Number.isFinite(m.height) && m.height > 0 && m.height < 20000) {
    frame.style.height = `${Math.ceil(m.height)}px`;
  } else if (m.type === 'stage' && typeof m.stage === 'string') {
    frame.dataset.stage = m.stage; // e.g. to mark the section the learner has worked through
  }
});
