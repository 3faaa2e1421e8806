// One query against n random keys, on this thread (the softmax, gradient and temperature steps).

// One query against n keys (cheap: on this thread).
export function probe(c, tau, scaled, gumbelSamples = 0) {
  const st = c.state;
  return c.engine.queryProbe({
    dk: st.labDk,
    nKeys: st.labKeys,
    seed: st.labSeed,
    trial: st.labTrial,
    tau,
    scaled,
    gumbelSamples,
  });
}

export const keyLabels = (n) => Array.from({ length: n }, (_, j) => `k${j + 1}`);
