#!/usr/bin/python3
"""Which top 10 is right where the engine's and onnxruntime-web's differ: GPT-2 in float64.

bench/gpt2_bench.mjs writes, when the two runtimes' top 10 differ at some position, a JSON file
{ checkpoint, config, ids, positions, engine, ort }: the checkpoint's path, the token ids, the
positions that differ, and at each of them both runtimes' top 10 ids and probabilities. This
script runs tests/golden/make_gpt2_golden.py's reference forward (GPT-2 as Hugging Face computes
it, in float64) on the same weights and ids, and prints at each position the float64 top 10 and,
for every rank where the runtimes disagree, the float64 probabilities of the two ids: how far
apart they really are, against how far float32 arithmetic moves them (each runtime's distance
from float64).

    /usr/bin/python3 bench/gpt2_float64.py /tmp/attention-lab-gpt2-top10.json
"""

import json
import os
import struct
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "golden"))
from make_gpt2_golden import forward  # noqa: E402


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        assert t["dtype"] == "F32", name
        a, b = t["data_offsets"]
        x = np.frombuffer(data, dtype="<f4", count=(b - a) // 4, offset=8 + n + a)
        name = name.removeprefix("transformer.")
        # the reference's names: wte and wpe without ".weight", the rest as the file has them
        key = name.removesuffix(".weight") if name in ("wte.weight", "wpe.weight") else name
        out[key] = torch.from_numpy(x.astype(np.float64)).view(t["shape"])
    return out


def main():
    case = json.load(open(sys.argv[1]))
    W = read_safetensors(case["checkpoint"])
    ids = case["ids"]
    last = max(case["positions"]) + 1  # causal: the positions up to the last one decide it
    with torch.no_grad():
        logits = forward(W, case["config"], ids[:last])[0]
    p = torch.softmax(logits, dim=-1)
    worst = {"engine": 0.0, "ort": 0.0}
    for i, t in enumerate(case["positions"]):
        exact = torch.argsort(-p[t], stable=True)[:10].tolist()
        print(f"position {t}: float64 top 10 {exact}")
        for who in ("engine", "ort"):
            got = case[who][i]
            err = max(abs(q - p[t][j].item()) / p[t][j].item() for j, q in zip(got["ids"], got["p"]))
            worst[who] = max(worst[who], err)
            same = "same as float64" if got["ids"] == exact else "DIFFERS from float64"
            print(f"  {who:6}: {got['ids']} ({same}; its probabilities within {err:.1e} of float64, relative)")
        for r, (a, b) in enumerate(zip(case["engine"][i]["ids"], case["ort"][i]["ids"])):
            if a != b:
                pa, pb = p[t][a].item(), p[t][b].item()
                print(f"  rank {r + 1}: engine {a}, onnxruntime {b}; float64 p({a}) = {pa:.9g}, "
                      f"p({b}) = {pb:.9g}, {abs(pa - pb) / max(pa, pb):.1e} apart (relative)")
    print(f"largest distance from float64 of a top-10 probability: engine {worst['engine']:.1e}, "
          f"onnxruntime-web {worst['ort']:.1e}")


if __name__ == "__main__":
    main()
