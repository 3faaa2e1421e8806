// embed.html: one lesson in an <iframe>, with the options of the page's link in its hash
// (embed.html#lesson=masks&stage=padding&hide=inputs), drawn by the <attention-lab> element.
//
// The frame talks to the page around it with postMessage (README: "Use it in your course"):
//   to the parent   { source: 'attention-lab', version: 1, type: 'height', height }  (CSS px; on
//                   load and on every change of the content's height)
//                   { source: 'attention-lab', version: 1, type: 'stage', lesson, stage }  (on
//                   load and on every change of lesson or stage)
//                   { source: 'attention-lab', version: 1, type: 'progress', statement }  (each of
//                   the element's attention-lab-progress events: ./progress.js)
//                   the height, also as Canvas's lti.frameResize and, once iframe-resizer's parent
//                   script has introduced itself, as its child script answers (./embed-protocol.js)
//   from the parent { source: 'attention-lab-host', type: 'set', state: { stage: 'padding', ... } }
//                   { source: 'attention-lab-host', type: 'get' }   (answered with height and stage)
// Only messages from the parent window are read, and only whole valid ones (./embed-protocol.js).
// The frame's hash is the element's address: the element's host (./host.js) writes its state
// there, throttled and with the race guards of the page's hash (a hash navigation always wins).

import { schema } from './element.js';
import { createHashWriter } from './host.js';
import { serializeHash } from './state.js';
import { loadedChapter } from '../chapters/index.js';
import {
  readMessage,
  FRAME_SOURCE,
  PROTOCOL_VERSION,
  canvasResize,
  resizerId,
  resizerMessage,
} from './embed-protocol.js';

const stepsOf = (lesson) => {
  const chapter = loadedChapter(lesson);
  return chapter ? (chapter.steps || []).map((st) => st.id) : null;
};

function frame(lab) {
  const framed = window.parent !== window;
  const send = (message) => {
    if (framed) window.parent.postMessage(message, '*');
  };
  const post = (message) => send({ source: FRAME_SOURCE, version: PROTOCOL_VERSION, ...message });

  let lastHeight = -1;
  let resizer = null; // the frame's id, once iframe-resizer's parent script has sent it
  function postHeight() {
    const height = Math.ceil(lab.getBoundingClientRect().height);
    if (height === lastHeight) return;
    lastHeight = height;
    post({ type: 'height', height });
    send(canvasResize(height));
    if (resizer) send(resizerMessage(resizer, height, Math.ceil(lab.getBoundingClientRect().width), 'resize'));
  }
  new ResizeObserver(postHeight).observe(lab);

  // The frame's own link follows the lesson (a reload keeps it; every change rewrites the entry);
  // the element reads it whole. A hash navigation (the parent setting the frame's src, Back, an
  // edited address) drops a rewrite of the state before it that is still waiting, and nothing is
  // written until the element has drawn the navigation's own state.
  const hash = createHashWriter({ serialize: (state) => '#' + serializeHash(state, schema), entries: false });
  lab.address = hash;
  const readHash = () => {
    hash.navigation();
    lab.setAttribute('state', location.hash.replace(/^#/, ''));
  };
  readHash();
  window.addEventListener('hashchange', readHash);
  window.addEventListener('pagehide', () => hash.flush());

  let lastStage = '';
  lab.addEventListener('attention-lab-change', (e) => {
    const { lesson, stage } = e.detail;
    document.documentElement.dataset.ready = 'true';
    if (`${lesson}/${stage}` !== lastStage) {
      lastStage = `${lesson}/${stage}`;
      post({ type: 'stage', lesson, stage });
    }
  });

  lab.addEventListener('attention-lab-progress', (e) => post({ type: 'progress', statement: e.detail }));

  window.addEventListener('message', (e) => {
    if (!framed || e.source !== window.parent) return;
    const id = resizerId(e.data);
    if (id) {
      resizer = id;
      const { width, height } = lab.getBoundingClientRect();
      send(resizerMessage(id, Math.ceil(height), Math.ceil(width), 'init'));
      return;
    }
    if (!lab.state) return;
    const m = readMessage(e.data, { schema, lesson: lab.state.lesson, stepsOf });
    if (!m) return;
    if (m.get) {
      lastHeight = -1;
      postHeight();
      post({ type: 'stage', lesson: lab.state.lesson, stage: lab.state.stage });
      return;
    }
    lab.set(m.patch);
  });
}

// Offline use only when the link asks for it (offline=1: ./element.js).
frame(document.getElementById('lab'));
