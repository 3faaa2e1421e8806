// Which sentence compares the Gumbel draws with the soft row, chosen from the shared
// temperature T: the draws follow softmax at temperature 1, the soft row uses T.
// Pure: T -> [key, params] of softmax/strings.js.
export function gumbelCompare(T) {
  return T === 1 ? ['gumbel.sameT', {}] : ['gumbel.otherT', { T }];
}
