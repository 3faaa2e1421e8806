#!/usr/bin/python3
"""Golden vectors for the playground's trainer, computed with PyTorch autograd.

Run with Debian's system Python (python3-torch, PyTorch 1.13):

    /usr/bin/python3 tests/golden/make_train_golden.py

Writes train.json next to this file. Each case builds the attention-only transformer of
cpp/core/transformer.h in PyTorch from the formulas (not from the engine): token embedding plus
positions (learned, sinusoidal or none), layers of causal multi-head attention with Q, K, V and
output projections with biases and a residual connection, scores scaled by 1/sqrt(d_k) or not,
an unembedding with a bias, and the mean cross-entropy over the positions that have a target
(-1 = none). Its initial weights come from torch's generator; the file records them, one batch,
the loss and every gradient on that batch, and the loss before each of the first 20
torch.optim.Adam steps on that batch. The tests load the weights into the engine and compare.

Numbers are float32 written with the shortest decimal that reads back to the same float32.
"""

import json
import math
import os

import numpy as np
import torch
import torch.nn.functional as F

SEED = 20261201
HERE = os.path.dirname(os.path.abspath(__file__))
ADAM_STEPS = 20


def f32(x):
    return float(np.format_float_scientific(np.float32(x), unique=True))


def enc(t):
    a = t.detach().to(torch.float32).numpy()
    if a.ndim == 1:
        return [f32(x) for x in a]
    return [[f32(x) for x in row] for row in a]


def sinusoidal(n, d):
    """sin / cos of p / 10000^(2i/d), computed in double and rounded to float32 (as the engine)."""
    pe = np.zeros((n, d))
    for p in range(n):
        for c in range(d):
            angle = p / math.pow(10000.0, (c - c % 2) / d)
            pe[p, c] = math.sin(angle) if c % 2 == 0 else math.cos(angle)
    return torch.tensor(pe, dtype=torch.float32)


def make_weights(gen, vocab, length, layers, d_model, position):
    """Names and shapes as the engine's tensors(); weights follow torch.nn.Linear (out, in)."""
    w = {}
    std = 1.0 / math.sqrt(d_model)
    # biases are drawn too (not left at zero) so their gradients are checked on a general point
    w["embedding"] = torch.randn(vocab, d_model, generator=gen)
    if position == "learned":
        w["position"] = torch.randn(length, d_model, generator=gen)
    for l in range(layers):
        for name in ("Wq", "Wk", "Wv"):
            w[f"layers.{l}.{name}"] = torch.randn(d_model, d_model, generator=gen) * std
        for name in ("bq", "bk", "bv"):
            w[f"layers.{l}.{name}"] = torch.randn(1, d_model, generator=gen) * 0.1
        w[f"layers.{l}.Wo"] = torch.randn(d_model, d_model, generator=gen) * std
        w[f"layers.{l}.bo"] = torch.randn(1, d_model, generator=gen) * 0.1
    w["unembedding"] = torch.randn(vocab, d_model, generator=gen) * std
    w["unembeddingBias"] = torch.randn(1, vocab, generator=gen) * 0.1
    return w


def loss_of(w, tokens, targets, layers, heads, d_model, scale, position):
    size, length = tokens.shape
    dk = d_model // heads
    x = w["embedding"][tokens]  # (size, length, D)
    if position == "learned":
        x = x + w["position"][:length]
    elif position == "sinusoidal":
        x = x + sinusoidal(length, d_model)
    blocked = torch.triu(torch.ones(length, length, dtype=torch.bool), diagonal=1)
    for l in range(layers):
        p = f"layers.{l}."
        q = x @ w[p + "Wq"].T + w[p + "bq"][0]
        k = x @ w[p + "Wk"].T + w[p + "bk"][0]
        v = x @ w[p + "Wv"].T + w[p + "bv"][0]
        split = lambda t: t.view(size, length, heads, dk).transpose(1, 2)  # (size, H, length, dk)
        s = split(q) @ split(k).transpose(-1, -2)
        if scale:
            s = s / math.sqrt(dk)
        a = torch.softmax(s.masked_fill(blocked, float("-inf")), dim=-1)
        z = (a @ split(v)).transpose(1, 2).reshape(size, length, d_model)
        x = x + z @ w[p + "Wo"].T + w[p + "bo"][0]
    logits = x @ w["unembedding"].T + w["unembeddingBias"][0]
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), ignore_index=-1)


def batch_for(task, gen, size):
    """A batch shaped like the task's (any tokens and targets would do for the gradients)."""
    tokens, targets = [], []
    for _ in range(size):
        if task == "previous-token":
            x = torch.randint(0, 16, (16,), generator=gen).tolist()
            y = [-1] + x[:-1]
        elif task == "reverse":
            a = torch.randint(0, 10, (8,), generator=gen).tolist()
            b = a[::-1]
            x = a + [10] + b[:7]
            y = [-1] * 8 + b
        else:  # induction
            m = 5 + int(torch.randint(0, 4, (1,), generator=gen))
            block = torch.randperm(16, generator=gen)[:m].tolist()
            x = [block[t % m] for t in range(16)]
            y = [x[t + 1 - m] if m <= t < 15 else -1 for t in range(16)]
        tokens.append(x)
        targets.append(y)
    return torch.tensor(tokens), torch.tensor(targets)


CASES = [
    dict(name="two_layers_learned", task="previous-token", vocab=16, layers=2, heads=2, dModel=16,
         scale=True, position="learned", learningRate=0.01, size=4),
    dict(name="one_layer_unscaled_sinusoidal", task="reverse", vocab=11, layers=1, heads=1, dModel=8,
         scale=False, position="sinusoidal", learningRate=0.05, size=3),
    dict(name="four_heads_no_position", task="induction", vocab=16, layers=2, heads=4, dModel=16,
         scale=True, position="none", learningRate=0.01, size=4),
]


def main():
    torch.set_num_threads(1)
    gen = torch.Generator().manual_seed(SEED)
    cases = []
    for c in CASES:
        w = make_weights(gen, c["vocab"], 16, c["layers"], c["dModel"], c["position"])
        tokens, targets = batch_for(c["task"], gen, c["size"])
        args = (c["layers"], c["heads"], c["dModel"], c["scale"], c["position"])
        weights = {k: enc(v[0] if v.shape[0] == 1 else v) for k, v in w.items()}

        params = {k: v.clone().requires_grad_(True) for k, v in w.items()}
        loss = loss_of(params, tokens, targets, *args)
        loss.backward()
        grads = {k: enc(p.grad[0] if p.grad.shape[0] == 1 else p.grad) for k, p in params.items()}

        params = {k: v.clone().requires_grad_(True) for k, v in w.items()}
        opt = torch.optim.Adam(params.values(), lr=c["learningRate"])
        losses = []
        for _ in range(ADAM_STEPS):
            opt.zero_grad()
            step_loss = loss_of(params, tokens, targets, *args)
            step_loss.backward()
            opt.step()
            losses.append(f32(step_loss.item()))

        config = {k: c[k] for k in ("task", "layers", "heads", "dModel", "scale", "position", "learningRate")}
        cases.append(dict(name=c["name"], config=config, weights=weights, tokens=tokens.tolist(),
                          targets=targets.tolist(), loss=f32(loss.item()), gradients=grads,
                          adamLosses=losses))

    doc = {
        "generator": "tests/golden/make_train_golden.py",
        "torch": torch.__version__,
        "seed": SEED,
        "conventions": {
            "weights": "the engine's tensor names; (out, in) as torch.nn.Linear; biases as plain lists",
            "targets": "-1 = no target at this position (ignore_index)",
            "loss": "mean cross-entropy over the target positions, natural log",
            "adamLosses": "the loss before each of the first 20 torch.optim.Adam steps on the same batch",
        },
        "cases": cases,
    }
    with open(os.path.join(HERE, "train.json"), "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
