#!/usr/bin/python3
"""One training step of the playground's model in PyTorch on the CPU, one thread, for scale.

The model is tests/golden/make_train_golden.py's (the same formulas the golden vectors use),
at d_model 64, 2 layers x 2 heads, sequence 16, batch 32, with torch.optim.Adam. Prints the
median milliseconds per step over ROUNDS rounds of STEPS steps (arguments; default 5 and 20).
Run by bench/train_bench.mjs.
"""

import os
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "golden"))
from make_train_golden import batch_for, loss_of, make_weights  # noqa: E402


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    torch.set_num_threads(1)
    gen = torch.Generator().manual_seed(1)
    weights = make_weights(gen, 16, 16, 2, 64, "learned")
    params = {k: v.clone().requires_grad_(True) for k, v in weights.items()}
    opt = torch.optim.Adam(params.values(), lr=0.003)
    args = (2, 2, 64, True, "learned")

    def step():
        tokens, targets = batch_for("induction", gen, 32)
        opt.zero_grad()
        loss_of(params, tokens, targets, *args).backward()
        opt.step()

    for _ in range(5):
        step()
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(steps):
            step()
        times.append((time.perf_counter() - t0) * 1000 / steps)
    print(sorted(times)[len(times) // 2])


if __name__ == "__main__":
    main()
