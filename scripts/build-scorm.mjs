// The lessons as a SCORM 1.2 package for an LMS (Moodle, Canvas, Blackboard …): one SCO, a zip of
// imsmanifest.xml and the built folder, launched at scorm.html (web/src/hosts/scorm.js reports
// status, score and progress to the LMS).
//
//   npm run build:scorm -- [--chapters masks,softmax] [--mastery 80] [--title "…"] [--out file.zip]
//                          [--no-build]
//   --chapters  the package's lessons, in order (default: every chapter but the start page)
//   --mastery   the score (0-100, the questions right on the first try) that passes: written as
//               adlcp:masteryscore, so the status is passed or failed rather than completed
//   --out       default build/scorm/attention-lab-scorm.zip
//   --no-build  package dist/ as it is (built by `npm run build` before)

import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { zipSync } from 'fflate';
import { chapters } from '../web/src/chapters/index.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

const escape = (text) =>
  String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// Every file under dir, as paths relative to it with '/'.
function filesIn(dir, prefix = '') {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? filesIn(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
    );
}

export function manifest({ ids, mastery, title, files }) {
  const identifier = `attention-lab-${ids.join('-')}`.slice(0, 200);
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${escape(identifier)}" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="course">
    <organization identifier="course">
      <title>${escape(title)}</title>
      <item identifier="lessons" identifierref="sco" isvisible="true">
        <title>${escape(title)}</title>${mastery === undefined ? '' : `\n        <adlcp:masteryscore>${mastery}</adlcp:masteryscore>`}
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="sco" type="webcontent" adlcp:scormtype="sco" href="scorm.html">
${files.map((f) => `      <file href="${escape(f)}"/>`).join('\n')}
    </resource>
  </resources>
</manifest>
`;
}

export async function buildScorm({ ids, mastery, title, out, build = true, dist = path.join(ROOT, 'dist') }) {
  for (const id of ids)
    if (!chapters.some((c) => c.id === id))
      throw new Error(`--chapters: no chapter "${id}" (chapters: ${chapters.map((c) => c.id).join(', ')})`);
  if (mastery !== undefined && !(Number.isInteger(mastery) && mastery >= 0 && mastery <= 100))
    throw new Error(`--mastery: a whole number from 0 to 100, got ${mastery}`);
  if (build) {
    const { build: viteBuild } = await import('vite');
    await viteBuild({ configFile: path.join(ROOT, 'vite.config.js'), logLevel: 'warn' });
  }
  if (!fs.existsSync(path.join(dist, 'scorm.html')))
    throw new Error(`${dist}/scorm.html not found: build the page first`);
  // sw.js stays out (an LMS serves the package under its own paths, and the lessons need no
  // service worker), and so do the notebook widget and index.html's first screens.
  const files = filesIn(dist).filter((f) => f !== 'sw.js' && f !== 'widget.js' && !f.startsWith('first-screen/'));
  const entries = {};
  for (const f of files) entries[f] = fs.readFileSync(path.join(dist, f));
  const lessons = ids.length ? ids : chapters.filter((c) => !c.home).map((c) => c.id);
  entries['scorm.html'] = Buffer.from(
    entries['scorm.html'].toString('utf8').replace('data-chapters=""', `data-chapters="${escape(lessons.join(' '))}"`),
  );
  const name =
    title ||
    `Attention Lab: ${lessons.map((id) => chapters.find((c) => c.id === id).title.en).join(', ')}`.slice(0, 200);
  entries['imsmanifest.xml'] = Buffer.from(manifest({ ids: lessons, mastery, title: name, files }));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, zipSync(entries, { level: 6 }));
  return { out, files: Object.keys(entries).length, lessons };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const { values } = parseArgs({
    options: {
      chapters: { type: 'string', default: '' },
      mastery: { type: 'string' },
      title: { type: 'string' },
      out: { type: 'string', default: path.join(ROOT, 'build', 'scorm', 'attention-lab-scorm.zip') },
      'no-build': { type: 'boolean', default: false },
    },
  });
  const r = await buildScorm({
    ids: values.chapters.split(/[\s,]+/).filter(Boolean),
    mastery: values.mastery === undefined ? undefined : Number(values.mastery),
    title: values.title,
    out: path.resolve(values.out),
    build: !values['no-build'],
  });
  console.log(`${r.out}: ${r.files} files, lessons ${r.lessons.join(', ')}`);
}
