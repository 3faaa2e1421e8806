// The page's first script (index.html). It starts, side by side, what the first figure needs: the
// lesson's chapter (its chunk and what that imports), the engine it computes with (index.html
// preloads the first part's wasm; compiling starts as it arrives) and the page itself (./page.js,
// whose scripts index.html preloads). Without it the chapter's chunk would be asked for only once
// the page's scripts had all arrived and run. page.js's host then finds both on their way
// (../chapters/index.js and ../engine/loader.js load each once).

import '../styles/lab.css';
import { chapters, loadChapter, loadLessonEngine } from '../chapters/index.js';

// The lesson of the link (state.js reads the whole hash; a lesson it would not accept is only a
// chapter loaded early for nothing).
const asked = /(?:^#|&)lesson=([\w-]+)/.exec(location.hash)?.[1];
const lesson = chapters.some((c) => c.id === asked) ? asked : chapters[0].id;
// Failures are the page's to report: it asks for both again.
loadChapter(lesson).catch(() => {});
loadLessonEngine(lesson).catch(() => {});
import('./page.js');
