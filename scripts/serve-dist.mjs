// Serves the built page (dist/) the way a static host would: under a sub-path, with the right
// MIME types (.wasm as application/wasm), gzip for text and wasm when the browser accepts it,
// and any extra headers (e.g. a Content-Security-Policy). With http2, over TLS with HTTP/2 as
// GitHub Pages, Netlify and the CDNs in front of most static hosts serve (every request of a page
// on one connection, instead of HTTP/1.1's six at a time), on a certificate made for the run
// (openssl; a browser opening it must ignore certificate errors).
//
//   node scripts/serve-dist.mjs [dir] [--prefix /courses/nlp/lab/] [--port 8080] [--http2]
//   import { serveDist } from './serve-dist.mjs';
//   const server = await serveDist({ dir, prefix: '/courses/nlp/lab/', headers, http2 });
//   // -> { url, origin, hits, log, setDir(dir), close() }
// log: every response, { path, bytes (the body as sent, gzip included), raw (the file's own size),
// at (performance.now()) };
// setDir(dir): serve another folder from now on.
//
// Files outside the prefix give 404; so does a path that leaves the folder.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};
// Worth compressing: text and wasm (fonts and images are compressed already).
const COMPRESS = new Set(['.html', '.js', '.mjs', '.css', '.json', '.webmanifest', '.wasm', '.svg', '.txt']);

// A self-signed certificate for 127.0.0.1 and localhost: { key, cert }.
function certificate() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-tls-'));
  try {
    const [key, cert] = [path.join(tmp, 'key.pem'), path.join(tmp, 'cert.pem')];
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout', key, '-out', cert,
    ], { stdio: 'ignore' }); // prettier-ignore
    return { key: fs.readFileSync(key), cert: fs.readFileSync(cert) };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

// extra: { 'relative/path.html': 'text' }, files served as if they were in the folder (test pages).
export async function serveDist({
  dir = path.join(ROOT, 'dist'),
  prefix = '/',
  headers = {},
  port = 0,
  host = '127.0.0.1',
  extra = {},
  http2: h2 = false,
} = {}) {
  if (!prefix.startsWith('/') || !prefix.endsWith('/'))
    throw new Error(`prefix must start and end with "/": ${prefix}`);
  let root = path.resolve(dir);
  if (!Object.hasOwn(extra, 'index.html') && !fs.existsSync(path.join(root, 'index.html')))
    throw new Error(`${root}/index.html not found: build the page first (npm run build)`);
  const gzipped = new Map(); // file -> gzip bytes (the folder does not change while served)
  const hits = new Map(); // path inside the folder -> requests served
  const log = [];

  const handle = (req, res) => {
    const url = new URL(req.url, 'http://x');
    let pathname;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      pathname = '';
    }
    if (!pathname.startsWith(prefix)) {
      res.writeHead(404).end('not found');
      return;
    }
    let rel = pathname.slice(prefix.length);
    if (rel === '' || rel.endsWith('/')) rel += 'index.html';
    hits.set(rel, (hits.get(rel) || 0) + 1);
    const file = path.resolve(root, rel);
    if (Object.hasOwn(extra, rel)) {
      const body = Buffer.from(extra[rel]);
      res.writeHead(200, {
        'content-type': MIME[path.extname(rel)] || 'text/plain',
        'cache-control': 'no-cache',
        'content-length': String(body.length),
        ...headers,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, headers).end('not found');
      return;
    }
    const ext = path.extname(file);
    // Hashed files never change; the fixed names (pages, the element, sw.js) are checked each time.
    const cache = rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
    const out = { 'content-type': MIME[ext] || 'application/octet-stream', 'cache-control': cache, ...headers };
    let body = fs.readFileSync(file);
    const raw = body.length;
    if (COMPRESS.has(ext) && /\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
      if (!gzipped.has(file)) gzipped.set(file, zlib.gzipSync(body, { level: 9 }));
      body = gzipped.get(file);
      out['content-encoding'] = 'gzip';
      out.vary = 'accept-encoding';
    }
    out['content-length'] = String(body.length);
    if (req.method !== 'HEAD') log.push({ path: rel, bytes: body.length, raw, at: performance.now() });
    res.writeHead(200, out);
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  const server = h2
    ? http2.createSecureServer({ ...certificate(), allowHTTP1: true }, handle)
    : http.createServer(handle);
  const sessions = new Set(); // HTTP/2 connections, closed with the server
  server.on('session', (s) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  await new Promise((resolve) => server.listen(port, host, resolve));
  const origin = `${h2 ? 'https' : 'http'}://${host}:${server.address().port}`;
  return {
    origin,
    url: origin + prefix,
    hits,
    log,
    // Serves another folder from now on (a deploy under open pages); `extra` can be changed too.
    setDir(next) {
      root = path.resolve(next);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        for (const s of sessions) s.destroy();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const opt = (name, fallback) => {
    const k = args.indexOf(name);
    return k >= 0 ? args.splice(k, 2)[1] : fallback;
  };
  const prefix = opt('--prefix', '/');
  const port = Number(opt('--port', '8080'));
  const k = args.indexOf('--http2');
  if (k >= 0) args.splice(k, 1);
  const dir = args[0] ? path.resolve(args[0]) : path.join(ROOT, 'dist');
  const s = await serveDist({ dir, prefix, port, http2: k >= 0 });
  console.log(`serving ${dir} at ${s.url}`);
}
