#!/usr/bin/python3
"""Golden vectors for the Transformer block, computed with PyTorch.

Run with Debian's system Python (python3-torch, PyTorch 1.13):

    /usr/bin/python3 tests/golden/make_block_golden.py

Writes block.json next to this file (the other golden files are not touched). Each case is one
torch.nn.TransformerEncoderLayer or TransformerDecoderLayer (batch_first, dropout 0, eval) with
random biases and LayerNorm weights, post-norm or pre-norm, relu or gelu, with causal and
padding masks, or one torch.nn.GRU (one layer, forward). The layer runs with gradients enabled,
so torch takes its plain path (not the fused inference fast path) and the reference is the maths
as written. Every stage is recorded from the layer's own sub-modules (self_attn, norm1, linear1,
...), and the composition is checked against the layer's forward().

JSON: a matrix is a list of rows, a vector a plain list; numbers are float32 written with the
shortest decimal that reads back to the same float32. Masks: keyPadding and memoryKeyPadding
true = padding (torch's key_padding_mask); causal = torch's triu attn_mask (True = blocked).
Weights follow torch: a Linear weight is (out, in).
"""

import json
import os

import numpy as np
import torch
import torch.nn.functional as F

SEED = 20261202
HERE = os.path.dirname(os.path.abspath(__file__))


def f32(x):
    x = np.float32(x)
    assert np.isfinite(x), "golden values must be finite"
    return float(np.format_float_scientific(x, unique=True))


def enc(t):
    """Tensor -> nested lists of float32 values."""
    a = t.detach().to(torch.float32).cpu().numpy()
    if a.ndim == 0:
        return f32(a)
    if a.ndim == 1:
        return [f32(v) for v in a]
    return [enc(torch.from_numpy(r)) for r in a]


def randomise(layer):
    """Non-zero biases and LayerNorm weights, so every term is really tested."""
    with torch.no_grad():
        for name, p in layer.named_parameters():
            if name.endswith("bias"):
                p.copy_(torch.randn(p.shape) * 0.3)
            elif name.startswith("norm") and name.endswith("weight"):
                p.copy_(1 + torch.randn(p.shape) * 0.2)


def attention_weights(mha):
    Wq, Wk, Wv = mha.in_proj_weight.chunk(3)
    bq, bk, bv = mha.in_proj_bias.chunk(3)
    return {"Wq": enc(Wq), "Wk": enc(Wk), "Wv": enc(Wv), "Wo": enc(mha.out_proj.weight),
            "bq": enc(bq), "bk": enc(bk), "bv": enc(bv), "bo": enc(mha.out_proj.bias)}


def mha(module, q, kv, attn_mask, key_padding):
    """One attention sub-layer: (n, d) output and (heads, n, m) weights, from torch's module."""
    kpm = None if key_padding is None else torch.tensor([key_padding])
    out, w = module(q[None], kv[None], kv[None], attn_mask=attn_mask, key_padding_mask=kpm,
                    need_weights=True, average_attn_weights=False)
    return out[0], w[0]


def layer_case(name, kind, n, d_model, heads, d_ff, m=0, norm_first=False, activation="relu",
               causal=None, key_padding=None, memory_key_padding=None, eps=1e-5):
    decoder = kind == "decoder"
    causal = decoder if causal is None else causal
    cls = torch.nn.TransformerDecoderLayer if decoder else torch.nn.TransformerEncoderLayer
    layer = cls(d_model, heads, dim_feedforward=d_ff, dropout=0.0, activation=activation,
                layer_norm_eps=eps, batch_first=True, norm_first=norm_first)
    randomise(layer)
    layer.eval()
    x = torch.randn(n, d_model)
    memory = torch.randn(m, d_model) if decoder else None
    mask = torch.triu(torch.ones(n, n, dtype=torch.bool), 1) if causal else None
    kpm = None if key_padding is None else torch.tensor([key_padding])
    mkpm = None if memory_key_padding is None else torch.tensor([memory_key_padding])

    # the layer itself, gradients enabled (no fused fast path)
    if decoder:
        want = layer(x[None], memory[None], tgt_mask=mask, tgt_key_padding_mask=kpm,
                     memory_key_padding_mask=mkpm)[0]
    else:
        want = layer(x[None], src_mask=mask, src_key_padding_mask=kpm)[0]

    # the same, stage by stage, from its sub-modules
    act = F.relu if activation == "relu" else F.gelu
    norms = [layer.norm1, layer.norm2] + ([layer.norm3] if decoder else [])
    residuals, normed, weights = [], [], {}
    hidden = []

    def self_block(h):
        out, w = mha(layer.self_attn, h, h, mask, key_padding)
        weights["self"] = w
        return out

    def cross_block(h):
        out, w = mha(layer.multihead_attn, h, memory, None, memory_key_padding)
        weights["cross"] = w
        return out

    def ff_block(h):
        hidden.append(act(layer.linear1(h)))
        return layer.linear2(hidden[-1])

    blocks = [self_block] + ([cross_block] if decoder else []) + [ff_block]
    h = x
    for k, f in enumerate(blocks):
        if norm_first:
            normed.append(norms[k](h))
            h = h + f(normed[-1])
            residuals.append(h)
        else:
            residuals.append(h + f(h))
            normed.append(norms[k](residuals[-1]))
            h = normed[-1]
    assert torch.allclose(h, want, atol=1e-5), name

    options = {"kind": kind, "heads": heads, "normFirst": norm_first, "activation": activation,
               "eps": eps, "causal": causal}
    if key_padding is not None:
        options["keyPadding"] = key_padding
    if memory_key_padding is not None:
        options["memoryKeyPadding"] = memory_key_padding
    inputs = {
        "x": enc(x),
        "selfAttention": attention_weights(layer.self_attn),
        "ff": {"W1": enc(layer.linear1.weight), "b1": enc(layer.linear1.bias),
               "W2": enc(layer.linear2.weight), "b2": enc(layer.linear2.bias)},
        "norms": [{"gamma": enc(nm.weight), "beta": enc(nm.bias)} for nm in norms],
    }
    expected = {
        "output": enc(want),
        "selfAttentionWeights": enc(weights["self"]),
        "ffHidden": enc(hidden[0]),
        "residuals": [enc(r) for r in residuals],
        "normed": [enc(r) for r in normed],
    }
    if decoder:
        inputs["memory"] = enc(memory)
        inputs["crossAttention"] = attention_weights(layer.multihead_attn)
        expected["crossAttentionWeights"] = enc(weights["cross"])
    return {"name": name, "options": options, "inputs": inputs, "expected": expected}


def gru_case(name, n, d_in, hidden, with_h0=False):
    gru = torch.nn.GRU(d_in, hidden, num_layers=1, batch_first=True)
    x = torch.randn(n, d_in)
    h0 = torch.randn(1, hidden) if with_h0 else torch.zeros(1, hidden)
    out, _ = gru(x[None], h0[None])
    inputs = {"x": enc(x), "Wih": enc(gru.weight_ih_l0), "Whh": enc(gru.weight_hh_l0),
              "bih": enc(gru.bias_ih_l0), "bhh": enc(gru.bias_hh_l0)}
    if with_h0:
        inputs["h0"] = enc(h0)
    return {"name": name, "options": {"kind": "gru"}, "inputs": inputs,
            "expected": {"hidden": enc(out[0])}}


def cases():
    return [
        layer_case("encoder_post_relu_d8_h2", "encoder", n=5, d_model=8, heads=2, d_ff=32),
        layer_case("encoder_pre_gelu_d8_h2", "encoder", n=5, d_model=8, heads=2, d_ff=32,
                   norm_first=True, activation="gelu"),
        layer_case("encoder_post_gelu_padding_d12_h3", "encoder", n=6, d_model=12, heads=3,
                   d_ff=48, activation="gelu",
                   key_padding=[False, False, False, False, True, True]),
        layer_case("encoder_pre_relu_causal_padding_d16_h4", "encoder", n=7, d_model=16, heads=4,
                   d_ff=24, norm_first=True, causal=True,
                   key_padding=[False, False, True, False, False, False, True]),
        layer_case("encoder_post_relu_eps_d6_h1", "encoder", n=4, d_model=6, heads=1, d_ff=10,
                   eps=1e-3),
        layer_case("decoder_post_relu_causal_d8_h2_n3_m4", "decoder", n=3, d_model=8, heads=2,
                   d_ff=32, m=4),
        layer_case("decoder_pre_gelu_causal_d8_h4_n4_m5", "decoder", n=4, d_model=8, heads=4,
                   d_ff=32, m=5, norm_first=True, activation="gelu"),
        layer_case("decoder_post_gelu_padding_d12_h3_n5_m6", "decoder", n=5, d_model=12, heads=3,
                   d_ff=20, m=6, activation="gelu", key_padding=[False, False, False, True, True],
                   memory_key_padding=[False, False, True, False, False, True]),
        layer_case("decoder_pre_relu_not_causal_memory_padding_d10_h2_n4_m3", "decoder", n=4,
                   d_model=10, heads=2, d_ff=40, m=3, norm_first=True, causal=False,
                   memory_key_padding=[False, True, False]),
        gru_case("gru_d4_h6_n7", n=7, d_in=4, hidden=6),
        gru_case("gru_d8_h5_n12_h0", n=12, d_in=8, hidden=5, with_h0=True),
    ]


def main():
    torch.manual_seed(SEED)
    torch.set_default_dtype(torch.float32)
    doc = {
        "generator": "tests/golden/make_block_golden.py",
        "torch": torch.__version__,
        "seed": SEED,
        "conventions": {
            "matrix": "list of rows (row-major); vectors are plain lists",
            "numbers": "float32, shortest decimal that reads back to the same float32",
            "keyPadding": "true = padding token (torch key_padding_mask)",
            "causal": "token i attends to tokens 0..i (torch triu attn_mask, True = blocked)",
            "weights": "torch Linear layout: (out, in)",
            "residuals": "x + sublayer(...), in order; normed: each LayerNorm's output, in order",
        },
        "cases": cases(),
    }
    path = os.path.join(HERE, "block.json")
    with open(path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print(f"block.json: {len(doc['cases'])} cases, {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
