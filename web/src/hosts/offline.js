// Offline use: the service worker (sw.js, made by the build next to index.html; see
// vite.config.js) keeps the engine, the scripts, the styles and KaTeX's fonts, so after a first
// visit the tutorial works without a network. Not in development (there is no sw.js there).

import { LAB_ROOT } from './root-url.js';

export function registerOffline() {
  if (import.meta.env.DEV || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register(new URL('sw.js', LAB_ROOT), { scope: LAB_ROOT }).catch(() => {
    // Offline use is an extra: the page works the same without it.
  });
}
