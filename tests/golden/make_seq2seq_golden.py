#!/usr/bin/python3
"""Golden vectors for the RNN encoder-decoder (cpp/core/seq2seq_model.h), computed with PyTorch autograd.

Run with Debian's system Python (python3-torch, PyTorch 1.13):

    /usr/bin/python3 tests/golden/make_seq2seq_golden.py

Writes seq2seq.json next to this file. Each case builds the model in PyTorch from torch modules
and the formulas (not from the engine): token embeddings, a torch.nn.GRU encoder (bidirectional
or not; each direction has hidden / 2 units when bidirectional), a tanh bridge from the final
states to the decoder's first state, a torch.nn.GRUCell decoder fed [embedding of the previous
target token; context] with teacher forcing, attention none (the context is the final states) /
additive (v . tanh(W s + U a_j)) / dot (s . a_j) / general (s . W a_j) over the source's
annotations, a linear output layer on [state; context], and the mean cross-entropy over every
target token and the "</s>" (token 0) that ends it. Sentences run one at a time (no padding).
Its initial weights come from torch's generator; the file records them, one batch, the loss and
every gradient on that batch, and the loss before each of the first 20 steps of
torch.optim.Adam on that batch after torch.nn.utils.clip_grad_norm_.

Numbers are float32 written with the shortest decimal that reads back to the same float32.
"""

import json
import math
import os

import numpy as np
import torch
import torch.nn.functional as F

SEED = 20261202
HERE = os.path.dirname(os.path.abspath(__file__))
ADAM_STEPS = 20

ENGLISH = ["the", "that", "cat", "dog", "mouse", "fish", "bird", "eats", "chases", "sees",
           "likes", "big", "small", "black", "white"]
CHINESE = ["</s>", "的", "猫", "狗", "老鼠", "鱼", "鸟", "吃", "追", "看", "喜欢", "大", "小", "黑", "白"]
SENTENCES = [  # English -> Chinese, written out by hand
    ("the cat that eats fish chases the mouse", "吃 鱼 的 猫 追 老鼠"),
    ("the big dog", "大 狗"),
    ("the mouse sees the small white bird", "老鼠 看 小 白 鸟"),
    ("fish likes the cat that chases the black dog", "鱼 喜欢 追 黑 狗 的 猫"),
]


def f32(x):
    return float(np.format_float_scientific(np.float32(x), unique=True))


def enc(t):
    a = t.detach().to(torch.float32).numpy()
    if a.ndim == 1:
        return [f32(x) for x in a]
    return [[f32(x) for x in row] for row in a]


class Model(torch.nn.Module):
    def __init__(self, vs, vt, embed, hidden, bidirectional, attention, gen):
        super().__init__()
        self.dirs = 2 if bidirectional else 1
        self.attention = attention
        hd = hidden // self.dirs
        self.source = torch.nn.Embedding(vs, embed)
        self.encoder = torch.nn.GRU(embed, hd, bidirectional=bidirectional, batch_first=True)
        self.bridge = torch.nn.Linear(hidden, hidden)
        if attention == "additive":
            self.W = torch.nn.Parameter(torch.empty(hidden, hidden))
            self.U = torch.nn.Parameter(torch.empty(hidden, hidden))
            self.v = torch.nn.Parameter(torch.empty(1, hidden))
        elif attention == "general":
            self.W = torch.nn.Parameter(torch.empty(hidden, hidden))
        self.target = torch.nn.Embedding(vt, embed)
        self.decoder = torch.nn.GRUCell(embed + hidden, hidden)
        self.output = torch.nn.Linear(2 * hidden, vt)
        with torch.no_grad():  # a general point: every tensor drawn from the seed's generator
            for name, p in self.named_parameters():
                scale = 1.0 if name in ("source.weight", "target.weight") else 0.3
                p.copy_(torch.randn(p.shape, generator=gen) * scale)

    def engine_tensors(self):
        """The engine's names for the parameters (cpp/core/seq2seq_model.cpp)."""
        t = {"source.embedding": self.source.weight}
        for s in ["_l0", "_l0_reverse"][: self.dirs]:
            for kind in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
                t[f"encoder.{kind}{s}"] = getattr(self.encoder, kind + s)
        t["bridge.weight"] = self.bridge.weight
        t["bridge.bias"] = self.bridge.bias
        if self.attention == "additive":
            t["attention.W"], t["attention.U"], t["attention.v"] = self.W, self.U, self.v
        elif self.attention == "general":
            t["attention.W"] = self.W
        t["target.embedding"] = self.target.weight
        t["decoder.weight_ih"] = self.decoder.weight_ih
        t["decoder.weight_hh"] = self.decoder.weight_hh
        t["decoder.bias_ih"] = self.decoder.bias_ih
        t["decoder.bias_hh"] = self.decoder.bias_hh
        t["output.weight"] = self.output.weight
        t["output.bias"] = self.output.bias
        return t

    def sentence_loss(self, source, target):
        """Summed cross-entropy of one pair (target + "</s>"), and its token count."""
        x = self.source(torch.tensor([source]))  # (1, n, E)
        ann, h_n = self.encoder(x)  # (1, n, A), (dirs, 1, Hd)
        ann = ann[0]
        summary = torch.cat([h_n[d, 0] for d in range(self.dirs)])  # (A)
        s = torch.tanh(self.bridge(summary))
        total = 0
        prev = 0
        for want in target + [0]:
            if self.attention == "none":
                c = summary
            else:
                if self.attention == "additive":
                    e = torch.tanh(s @ self.W.T + ann @ self.U.T) @ self.v[0]
                elif self.attention == "dot":
                    e = ann @ s
                else:
                    e = (ann @ self.W.T) @ s
                c = torch.softmax(e, dim=0) @ ann
            inp = torch.cat([self.target.weight[prev], c])
            s = self.decoder(inp[None], s[None])[0]
            logits = self.output(torch.cat([s, c]))
            total = total + F.cross_entropy(logits[None], torch.tensor([want]), reduction="sum")
            prev = want
        return total, len(target) + 1

    def loss(self, batch):
        total, count = 0, 0
        for source, target in batch:
            l, n = self.sentence_loss(source, target)
            total, count = total + l, count + n
        return total / count


def digits_batch(task, gen, lengths):
    batch = []
    for n in lengths:
        x = torch.randint(0, 10, (n,), generator=gen).tolist()
        y = [d + 1 for d in (x[::-1] if task == "reverse" else x)]
        batch.append((x, y))
    return batch


def translate_batch():
    return [([ENGLISH.index(w) for w in en.split()], [CHINESE.index(w) for w in zh.split()])
            for en, zh in SENTENCES]


def make_case(name, task, attention, bidirectional, gen, hidden=16, embed=8, lr=0.01, clip=1.0):
    vs, vt = (15, 15) if task == "translate" else (10, 11)
    model = Model(vs, vt, embed, hidden, bidirectional, attention, gen)
    batch = translate_batch() if task == "translate" else digits_batch(task, gen, [3, 7, 2, 5])
    names = model.engine_tensors()
    weights = {k: enc(v) for k, v in names.items()}
    loss = model.loss(batch)
    loss.backward()
    gradients = {k: enc(v.grad) for k, v in names.items()}
    first = float(loss)
    model.zero_grad()
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    losses = []
    for _ in range(ADAM_STEPS):
        opt.zero_grad()
        l = model.loss(batch)
        losses.append(f32(float(l)))
        l.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        opt.step()
    return {
        "name": name,
        "config": {"task": task, "attention": attention, "bidirectional": bidirectional,
                   "hidden": hidden, "embed": embed, "learningRate": lr, "clip": clip},
        "weights": weights,
        "source": [s for s, _ in batch],
        "target": [t for _, t in batch],
        "loss": f32(first),
        "gradients": gradients,
        "adamLosses": losses,
    }


def main():
    torch.manual_seed(SEED)
    gen = torch.Generator().manual_seed(SEED)
    cases = [
        make_case("copy, additive, bidirectional", "copy", "additive", True, gen),
        make_case("translate, dot, unidirectional", "translate", "dot", False, gen),
        make_case("reverse, general, bidirectional", "reverse", "general", True, gen),
        make_case("translate, none, bidirectional", "translate", "none", True, gen),
        make_case("translate, additive, bidirectional", "translate", "additive", True, gen),
    ]
    out = {
        "made_by": "tests/golden/make_seq2seq_golden.py",
        "torch": torch.__version__,
        "seed": SEED,
        "cases": cases,
    }
    with open(os.path.join(HERE, "seq2seq.json"), "w") as f:
        json.dump(out, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
