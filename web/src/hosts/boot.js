// The page's first script (index.html). It starts, side by side, what the first figure needs: the
// lesson's chapter (its chunk and what that imports), the engine it computes with (index.html
// preloads the first part's wasm; compiling starts as it arrives) and the page itself (./page.js,
// whose scripts index.html preloads). Without it the chapter's chunk would be asked for only once
// the page's scripts had all arrived and run. page.js's host then finds both on their way
// (../chapters/index.js and ../engine/loader.js load each once). On the built page, ./visit.js has
// shown the first screen and started the lesson's chunks before this script.

import '../styles/lab.css';
import { chapters, loadChapter, loadLessonEngine } from '../chapters/index.js';
import { linkedLesson } from './visit.js';

const lesson = chapters.some((c) => c.id === linkedLesson) ? linkedLesson : chapters[0].id;
// Failures are the page's to report: it asks for both again.
loadChapter(lesson).catch(() => {});
loadLessonEngine(lesson).catch(() => {});
import('./page.js');
