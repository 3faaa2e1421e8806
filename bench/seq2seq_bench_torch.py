#!/usr/bin/python3
"""One training step of the RNN encoder-decoder in PyTorch on the CPU, one thread, for scale.

The model of tests/golden/make_seq2seq_golden.py (torch.nn.GRU encoder, GRUCell decoder,
attention, linear output on [state; context]), batched as the engine runs it: the sources padded
and packed (pack_padded_sequence), attention masked past each source's end, the loss over each
target and its "</s>". hidden 64, embed 32, batch 32, source lengths drawn uniformly from 2 to 24,
copy task, clip_grad_norm_ to 1 and torch.optim.Adam. Prints the median milliseconds per step of
each attention kind over ROUNDS rounds of STEPS steps, as JSON (arguments; default 5 and 20), in
CPU time (time.process_time: one thread, so on an idle machine the wall-clock time).
Run by bench/seq2seq_bench.mjs.
"""

import json
import statistics
import sys
import time

import torch
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

H, E, B, L, V = 64, 32, 32, 24, 10


class Model(torch.nn.Module):
    def __init__(self, attention):
        super().__init__()
        self.attention = attention
        self.source = torch.nn.Embedding(V, E)
        self.encoder = torch.nn.GRU(E, H // 2, bidirectional=True, batch_first=True)
        self.bridge = torch.nn.Linear(H, H)
        if attention == "additive":
            self.W = torch.nn.Linear(H, H, bias=False)
            self.U = torch.nn.Linear(H, H, bias=False)
            self.v = torch.nn.Linear(H, 1, bias=False)
        elif attention == "general":
            self.W = torch.nn.Linear(H, H, bias=False)
        self.target = torch.nn.Embedding(V + 1, E)
        self.decoder = torch.nn.GRUCell(E + H, H)
        self.output = torch.nn.Linear(2 * H, V + 1)

    def loss(self, src, lengths, tgt_in, tgt_out):
        packed = pack_padded_sequence(self.source(src), lengths, batch_first=True, enforce_sorted=False)
        out, h_n = self.encoder(packed)
        ann, _ = pad_packed_sequence(out, batch_first=True)  # (B, S, H)
        summary = torch.cat([h_n[0], h_n[1]], dim=1)
        s = torch.tanh(self.bridge(summary))
        blocked = torch.arange(ann.shape[1])[None, :] >= lengths[:, None]
        keys = self.U(ann) if self.attention == "additive" else self.W(ann) if self.attention == "general" else ann
        logits = []
        for i in range(tgt_in.shape[1]):
            if self.attention == "none":
                c = summary
            else:
                if self.attention == "additive":
                    e = self.v(torch.tanh(self.W(s)[:, None, :] + keys))[..., 0]
                else:
                    e = (keys @ s[:, :, None])[..., 0]
                a = torch.softmax(e.masked_fill(blocked, float("-inf")), dim=1)
                c = (a[:, None, :] @ ann)[:, 0]
            s = self.decoder(torch.cat([self.target(tgt_in[:, i]), c], dim=1), s)
            logits.append(self.output(torch.cat([s, c], dim=1)))
        logits = torch.stack(logits, dim=1)
        return F.cross_entropy(logits.reshape(-1, V + 1), tgt_out.reshape(-1), ignore_index=-1)


def batch(gen):
    lengths = torch.randint(2, L + 1, (B,), generator=gen)
    S = int(lengths.max())
    src = torch.randint(0, V, (B, S), generator=gen)
    tgt_in = torch.zeros(B, S + 1, dtype=torch.long)
    tgt_out = torch.full((B, S + 1), -1, dtype=torch.long)
    for b in range(B):
        n = int(lengths[b])
        tgt_in[b, 1 : n + 1] = src[b, :n] + 1
        tgt_out[b, :n] = src[b, :n] + 1
        tgt_out[b, n] = 0
    return src, lengths, tgt_in, tgt_out


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    torch.set_num_threads(1)
    torch.manual_seed(1)
    gen = torch.Generator().manual_seed(1)
    result = {}
    for attention in ("none", "additive", "dot"):
        model = Model(attention)
        opt = torch.optim.Adam(model.parameters(), lr=0.003)

        def step():
            opt.zero_grad()
            loss = model.loss(*batch(gen))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()

        for _ in range(3):
            step()
        times = []
        for _ in range(rounds):
            t0 = time.process_time()
            for _ in range(steps):
                step()
            times.append((time.process_time() - t0) * 1000 / steps)
        result[attention] = statistics.median(times)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
