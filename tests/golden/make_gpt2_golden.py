#!/usr/bin/python3
"""Tiny GPT-2 checkpoints and what GPT-2 computes on them, with PyTorch.

Run with Debian's system Python (python3-torch, PyTorch 1.13; no transformers package needed):

    /usr/bin/python3 tests/golden/make_gpt2_golden.py

Writes tests/golden/gpt2/*.safetensors (random tiny GPT-2 checkpoints, written byte by byte in
the safetensors format: F32, F16 and BF16, with and without the "transformer." prefix, some with
the buffers real checkpoints carry: h.{i}.attn.bias, h.{i}.attn.masked_bias, a tied
lm_head.weight) and tests/golden/gpt2.json: for each checkpoint its config.json, token ids and
the reference forward pass's logits, every head's attention weights, the residual stream's norm
after the embedding and after each block, one head's five stages, the logits with heads ablated
(zeroed, or replaced by their mean output), and the head scores on a fixed sequence.

The reference forward is GPT-2 as Hugging Face's GPT2LMHeadModel computes it, written out below
in float64 from the weights as stored (F16 and BF16 rounded first), and each block's attention
is checked against torch.nn.MultiheadAttention given the same weights. JSON: numbers are float32
written with the shortest decimal that reads back to the same float32; -inf (the masked cells
of the "masked" stage) is null.
"""

import json
import math
import os
import struct

import numpy as np
import torch
import torch.nn.functional as F

SEED = 20261205
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "gpt2")


# ---- JSON ------------------------------------------------------------------------------------

def f32(x):
    if x == float("-inf"):
        return None
    v = np.float32(x)
    assert np.isfinite(v), "golden values must be finite"
    return float(str(v))  # the shortest decimal of the float32


def enc(t):
    a = t.detach().to(torch.float64).cpu().numpy()
    if a.ndim == 0:
        return f32(a)
    return [enc(torch.from_numpy(np.ascontiguousarray(r))) for r in a] if a.ndim > 1 else [f32(v) for v in a]


# ---- safetensors, by hand ----------------------------------------------------------------------

def tensor_bytes(t, dtype):
    if dtype == "F32":
        return t.to(torch.float32).numpy().astype("<f4").tobytes()
    if dtype == "F16":
        return t.to(torch.float16).numpy().astype("<f2").tobytes()
    if dtype == "BF16":
        return t.to(torch.bfloat16).view(torch.int16).numpy().astype("<i2").tobytes()
    if dtype == "U8":
        return t.to(torch.uint8).numpy().tobytes()
    if dtype == "BOOL":
        return t.to(torch.bool).numpy().astype(np.uint8).tobytes()
    raise ValueError(dtype)


def as_stored(t, dtype):
    """The values a reader gets back: rounded to the stored dtype, then float64."""
    cast = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}[dtype]
    return t.to(cast).to(torch.float64)


def write_safetensors(path, tensors):
    """tensors: [(name, tensor, dtype)], written in name order (as the reference writer does)."""
    header, blobs, at = {"__metadata__": {"format": "pt"}}, [], 0
    for name, t, dtype in sorted(tensors, key=lambda x: x[0]):
        data = tensor_bytes(t, dtype)
        header[name] = {"dtype": dtype, "shape": list(t.shape), "data_offsets": [at, at + len(data)]}
        blobs.append(data)
        at += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # padded to 8 bytes with spaces, as the format allows
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)


# ---- the reference forward pass ----------------------------------------------------------------

def gelu_tanh(x):
    return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def forward(W, cfg, ids, ablate=(), mode="zero"):
    """GPT-2 on ids: logits (n, vocab), weights [layer] (heads, n, n), norms (L + 1, n), and
    each block's q, k, v per head."""
    d, H, eps = cfg["n_embd"], cfg["n_head"], cfg["layer_norm_epsilon"]
    dh, n = d // H, len(ids)
    x = W["wte"][ids] + W["wpe"][:n]
    norms, weights, qkvs = [x.norm(dim=1)], [], []
    causal = torch.ones(n, n, dtype=torch.bool).tril()
    for l in range(cfg["n_layer"]):
        p = lambda name: W[f"h.{l}.{name}"]
        a = F.layer_norm(x, (d,), p("ln_1.weight"), p("ln_1.bias"), eps)
        q, k, v = (a @ p("attn.c_attn.weight") + p("attn.c_attn.bias")).split(d, dim=1)
        q, k, v = (t.view(n, H, dh).transpose(0, 1) for t in (q, k, v))  # (H, n, dh)
        scores = q @ k.transpose(1, 2)
        masked = (scores / math.sqrt(dh)).masked_fill(~causal, float("-inf"))
        w = torch.softmax(masked, dim=-1)
        out = w @ v  # (H, n, dh)
        for (al, ah) in ablate:
            if al == l:
                out[ah] = 0 if mode == "zero" else out[ah].mean(dim=0, keepdim=True)
        merged = out.transpose(0, 1).reshape(n, d)
        attn = merged @ p("attn.c_proj.weight") + p("attn.c_proj.bias")
        if not ablate:  # torch's own multi-head attention, given the same weights, agrees
            mha = torch.nn.MultiheadAttention(d, H, bias=True, batch_first=True, dtype=torch.float64)
            with torch.no_grad():
                mha.in_proj_weight.copy_(p("attn.c_attn.weight").T)
                mha.in_proj_bias.copy_(p("attn.c_attn.bias"))
                mha.out_proj.weight.copy_(p("attn.c_proj.weight").T)
                mha.out_proj.bias.copy_(p("attn.c_proj.bias"))
            ref, ref_w = mha(a[None], a[None], a[None], attn_mask=~causal, need_weights=True,
                             average_attn_weights=False)
            assert torch.allclose(ref[0], attn, atol=1e-10) and torch.allclose(ref_w[0], w, atol=1e-12)
        x = x + attn
        m = F.layer_norm(x, (d,), p("ln_2.weight"), p("ln_2.bias"), eps)
        hidden = F.gelu(m @ p("mlp.c_fc.weight") + p("mlp.c_fc.bias"), approximate="tanh")
        assert torch.allclose(hidden, gelu_tanh(m @ p("mlp.c_fc.weight") + p("mlp.c_fc.bias")))
        x = x + hidden @ p("mlp.c_proj.weight") + p("mlp.c_proj.bias")
        norms.append(x.norm(dim=1))
        weights.append(w)
        qkvs.append((q, k, v, scores, masked, out))
    xf = F.layer_norm(x, (d,), W["ln_f.weight"], W["ln_f.bias"], eps)
    return xf @ W["wte"].T, weights, torch.stack(norms), qkvs


def head_scores(W, cfg, tokens):
    """The five head scores on tokens written twice (their definitions, written out)."""
    L = len(tokens)
    _, weights, _, _ = forward(W, cfg, tokens + tokens)
    n = 2 * L
    out = {k: torch.zeros(cfg["n_layer"], cfg["n_head"], dtype=torch.float64)
           for k in ("previousToken", "induction", "duplicateToken", "firstToken", "entropy")}
    for l, w in enumerate(weights):
        for h in range(cfg["n_head"]):
            a = w[h]
            rows = range(1, n)
            second = range(L, n)
            out["previousToken"][l, h] = sum(a[i, i - 1] for i in rows) / (n - 1)
            out["firstToken"][l, h] = sum(a[i, 0] for i in rows) / (n - 1)
            out["duplicateToken"][l, h] = sum(a[i, i - L] for i in second) / L
            out["induction"][l, h] = sum(a[i, i - L + 1] for i in second) / L
            ent = [-(a[i, : i + 1] * torch.log(a[i, : i + 1])).nansum() / math.log(i + 1) for i in rows]
            out["entropy"][l, h] = min(1.0, float(sum(ent) / (n - 1)))
    return {k: enc(v) for k, v in out.items()}


# ---- the checkpoints ---------------------------------------------------------------------------

def random_weights(cfg):
    d, V, P, inner = cfg["n_embd"], cfg["vocab_size"], cfg["n_positions"], cfg["n_inner"] or 4 * cfg["n_embd"]
    g = lambda *shape, s=1.0: torch.randn(*shape, dtype=torch.float64) * s
    W = {"wte": g(V, d, s=0.8), "wpe": g(P, d, s=0.5),
         "ln_f.weight": 1 + g(d, s=0.2), "ln_f.bias": g(d, s=0.1)}
    for l in range(cfg["n_layer"]):
        p = f"h.{l}."
        W[p + "ln_1.weight"], W[p + "ln_1.bias"] = 1 + g(d, s=0.2), g(d, s=0.1)
        W[p + "attn.c_attn.weight"], W[p + "attn.c_attn.bias"] = g(d, 3 * d, s=1.2 / math.sqrt(d)), g(3 * d, s=0.1)
        W[p + "attn.c_proj.weight"], W[p + "attn.c_proj.bias"] = g(d, d, s=1 / math.sqrt(d)), g(d, s=0.1)
        W[p + "ln_2.weight"], W[p + "ln_2.bias"] = 1 + g(d, s=0.2), g(d, s=0.1)
        W[p + "mlp.c_fc.weight"], W[p + "mlp.c_fc.bias"] = g(d, inner, s=1 / math.sqrt(d)), g(inner, s=0.1)
        W[p + "mlp.c_proj.weight"], W[p + "mlp.c_proj.bias"] = g(inner, d, s=1 / math.sqrt(inner)), g(d, s=0.1)
    return W


def config(n_layer, n_head, n_embd, vocab_size, n_positions, n_inner=None, eps=1e-5):
    # config.json as Hugging Face writes GPT-2's (the keys the engine reads, and a few it ignores)
    return {"activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"],
            "attn_pdrop": 0.1, "embd_pdrop": 0.1, "layer_norm_epsilon": eps, "model_type": "gpt2",
            "n_ctx": n_positions, "n_embd": n_embd, "n_head": n_head, "n_inner": n_inner,
            "n_layer": n_layer, "n_positions": n_positions, "resid_pdrop": 0.1,
            "vocab_size": vocab_size}


def case(name, cfg, dtype, n, stage, ablations, prefix=False, buffers=False, tied=False,
         mask_dtype="F32", dtypes=None):
    W = random_weights(cfg)
    dtypes = dtypes or {}
    stored = {k: as_stored(v, dtypes.get(k, dtype)) for k, v in W.items()}
    pre = "transformer." if prefix else ""
    file_name = lambda k: pre + (k + ".weight" if k in ("wte", "wpe") else k)
    tensors = [(file_name(k), v, dtypes.get(k, dtype)) for k, v in W.items()]
    P = cfg["n_positions"]
    if buffers:
        for l in range(cfg["n_layer"]):
            mask = torch.ones(P, P).tril().view(1, 1, P, P)
            tensors.append((f"{pre}h.{l}.attn.bias", mask, mask_dtype))
            tensors.append((f"{pre}h.{l}.attn.masked_bias", torch.tensor(-1e4), "F32"))
    if tied:
        tensors.append(("lm_head.weight", W["wte"], dtypes.get("wte", dtype)))
    write_safetensors(os.path.join(OUT, name + ".safetensors"), tensors)

    ids = torch.randint(0, cfg["vocab_size"], (n,)).tolist()
    logits, weights, norms, qkvs = forward(stored, cfg, ids)
    sl, sh = stage
    q, k, v, scores, masked, out = qkvs[sl]
    half = min(6, cfg["vocab_size"], P // 2)
    tokens = torch.randperm(cfg["vocab_size"])[:half].tolist()
    return {
        "name": name,
        "file": "gpt2/" + name + ".safetensors",
        "dtype": dtype,
        "config": cfg,
        "ids": ids,
        "logits": enc(logits),
        "attention": [enc(w) for w in weights],
        "residualNorms": enc(norms),
        "stage": {"layer": sl, "head": sh, "scores": enc(scores[sh]),
                  "scaled": enc(scores[sh] / math.sqrt(cfg["n_embd"] // cfg["n_head"])),
                  "masked": enc(masked[sh]), "weights": enc(weights[sl][sh]), "output": enc(out[sh])},
        "ablations": [{"heads": heads, "mode": mode,
                       "logits": enc(forward(stored, cfg, ids, heads, mode)[0])}
                      for heads, mode in ablations],
        "headScores": {"tokens": tokens, **head_scores(stored, cfg, tokens)},
    }


def main():
    torch.manual_seed(SEED)
    os.makedirs(OUT, exist_ok=True)
    cases = [
        case("f32_1x1_d8", config(1, 1, 8, 50, 8), "F32", n=6, stage=(0, 0),
             ablations=[([[0, 0]], "zero")]),
        case("f32_prefix_tied_2x2_d16", config(2, 2, 16, 64, 16), "F32", n=10, stage=(1, 1),
             ablations=[([[0, 1], [1, 0]], "zero"), ([[0, 1], [1, 0]], "mean")], prefix=True,
             tied=True),
        case("f16_buffers_3x4_d32", config(3, 4, 32, 60, 24), "F16", n=12, stage=(2, 3),
             ablations=[([[1, 2]], "mean")], buffers=True),
        case("bf16_prefix_buffers_2x3_d24", config(2, 3, 24, 300, 20, n_inner=40), "BF16", n=8,
             stage=(0, 2), ablations=[([[0, 0], [1, 2]], "zero")], prefix=True, buffers=True,
             mask_dtype="BOOL"),
        case("mixed_1x4_d64", config(1, 4, 64, 50, 16, n_inner=64, eps=1e-6), "F16", n=16,
             stage=(0, 1), ablations=[([[0, 3]], "zero")], dtypes={"wte": "F32", "wpe": "BF16"},
             buffers=True, mask_dtype="U8"),
    ]
    with open(os.path.join(HERE, "gpt2.json"), "w") as f:
        json.dump({"seed": SEED, "cases": cases}, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
