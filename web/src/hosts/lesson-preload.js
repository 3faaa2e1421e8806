// The first script of the built page (index.html, async; the build adds it and the list below:
// vite.config.js). It imports nothing, so it runs as soon as it arrives: it asks for the chunks of
// the lesson a link opens, which the build lists in the page as data (<script
// type="application/json" id="lesson-chunks">: { lesson: [file, ...] }, the files index.html does
// not preload already). They then download beside the page's scripts instead of after the
// chapter list's chunk has arrived and run. In development there is no list and nothing to do.

// The lesson of the link (state.js reads the whole hash; a lesson it would not accept is only a
// chapter loaded early for nothing).
export const linkedLesson = /(?:^#|&)lesson=([\w-]+)/.exec(location.hash)?.[1];

const listed = document.getElementById('lesson-chunks');
const chunks = listed ? JSON.parse(listed.textContent) : {};
for (const href of Object.hasOwn(chunks, linkedLesson) ? chunks[linkedLesson] : [])
  document.head.append(Object.assign(document.createElement('link'), { rel: 'modulepreload', crossOrigin: '', href }));
