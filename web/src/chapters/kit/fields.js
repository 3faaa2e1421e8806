// A chapter's tokens field: the tokens of state[key], at most `max` of them, each at most the
// page's longest token, its messages in the chapter's language (views/controls.js tokensInput).

import { tokensInput } from '../../views/controls.js';
import { MAX_TOKEN_CHARS } from '../../lesson/example.js';

export const tokensField = (c, label, key, max) =>
  tokensInput(label, { max, maxChars: MAX_TOKEN_CHARS, lang: c.lang, onValue: (list) => c.set({ [key]: list }) });
