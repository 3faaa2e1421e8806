#!/usr/bin/python3
"""Golden vectors for the attention engine, computed with PyTorch.

Run with Debian's system Python (python3-torch, PyTorch 1.13):

    /usr/bin/python3 tests/golden/make_golden.py

Writes softmax.json, softmax_jacobian.json, attention.json, multihead.json, scores.json,
positional.json and multihead_masks.json next to this file. Every case records its inputs, its options and every expected output.

JSON conventions (also written into each file under "conventions"):
- A matrix is a list of rows (row-major), a vector a plain list.
- Numbers are float32 values written with the shortest decimal that reads back to the
  same float32.
- -inf (a blocked score under maskFill 'neg-inf') is written as null.
- Masks use the engine's convention: 1 = may attend, 0 = blocked. keyPadding: true = padding
  (the same as torch's key_padding_mask). torch's attn_mask is the opposite (True = blocked).
- A row whose keys are all blocked under 'neg-inf' is NaN in torch; the engine gives zero
  weights and a zero output row there, and the file records those zeros.
"""

import json
import math
import os

import numpy as np
import torch
import torch.nn.functional as F

SEED = 20240607
HERE = os.path.dirname(os.path.abspath(__file__))
NEG_FILL = {"neg-inf": float("-inf"), "large-negative": -1e9, "zero": 0.0}

CONVENTIONS = {
    "matrix": "list of rows (row-major); vectors are plain lists",
    "numbers": "float32, shortest decimal that reads back to the same float32",
    "-inf": "written as null (cells blocked under maskFill 'neg-inf')",
    "mask": "1 = may attend, 0 = blocked (torch attn_mask is the opposite: True = blocked)",
    "keyPadding": "true = padding key (same as torch key_padding_mask)",
    "fullyMaskedRows": "torch gives NaN on a row with every key blocked under -inf; "
                       "the engine gives zero weights and a zero output row, recorded here",
    "entropy": "-sum w log w per row, natural log, 0 log 0 = 0",
}


# ---- JSON encoding ---------------------------------------------------------------------

def f32(x):
    """One float32 as the shortest decimal that reads back to it (None for -inf)."""
    x = np.float32(x)
    if np.isneginf(x):
        return None
    assert np.isfinite(x), "golden values must be finite (or -inf)"
    return float(np.format_float_scientific(x, unique=True))


def enc(t):
    """Tensor / list / bool -> JSON-ready nested lists of float32 values."""
    if isinstance(t, torch.Tensor):
        t = t.detach().to(torch.float32).cpu().numpy()
    if isinstance(t, np.ndarray):
        if t.ndim == 0:
            return f32(t)
        return [enc(r) for r in t]
    if isinstance(t, (list, tuple)):
        return [enc(r) for r in t]
    if isinstance(t, (bool, np.bool_)):
        return bool(t)
    return f32(t)


def write(name, cases, extra=None):
    doc = {
        "generator": "tests/golden/make_golden.py",
        "torch": torch.__version__,
        "seed": SEED,
        "conventions": CONVENTIONS,
    }
    doc.update(extra or {})
    doc["cases"] = cases
    path = os.path.join(HERE, name)
    with open(path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print(f"{name}: {len(cases)} cases, {os.path.getsize(path)} bytes")


def randn(*shape):
    return torch.randn(*shape, dtype=torch.float32)


def entropy(w):
    """-Σ w log w per row, 0 log 0 = 0.   w: (n, m) -> (n,)"""
    logw = torch.where(w > 0, torch.log(w), torch.zeros_like(w))
    return -(w * logw).sum(dim=-1)


# ---- 1. softmax ------------------------------------------------------------------------

def softmax_cases():
    cases = []

    def add(name, scores, temperature=1.0, stable=True):
        weights = F.softmax(scores / temperature, dim=-1)
        assert torch.allclose(weights.sum(-1), torch.ones(scores.shape[0]), atol=1e-6)
        cases.append({
            "name": name,
            "inputs": {"scores": enc(scores)},
            "options": {"temperature": temperature, "stable": stable},
            "expected": {"weights": enc(weights), "entropy": enc(entropy(weights))},
        })

    hand = torch.tensor([[2.6, 1.2, 6.1, 2.0]])
    add("hand_2.6_1.2_6.1_2.0", hand)
    add("hand_naive", hand, stable=False)          # small logits: naive exp is exact enough
    add("random_rows_5x7", randn(5, 7) * 3)
    add("random_rows_temperature_2", randn(3, 6) * 3, temperature=2.0)
    add("random_rows_temperature_0.5", randn(3, 6), temperature=0.5)
    add("large_logits_90_100", torch.rand(3, 9) * 10 + 90)   # naive exp overflows here
    add("single_column", randn(4, 1))
    return cases


def jacobian_cases():
    """d softmax(x)_i / d x_j by autograd, recorded with p = softmax(x)."""
    cases = []
    for name, x in (("hand_2.6_1.2_6.1_2.0", torch.tensor([2.6, 1.2, 6.1, 2.0])),
                    ("random_6", randn(6) * 2),
                    ("wide_scores_5", randn(5) * 8)):
        p = F.softmax(x, dim=-1)
        J = torch.autograd.functional.jacobian(lambda t: F.softmax(t, dim=-1), x)  # (n, n)
        cases.append({"name": name, "inputs": {"p": enc(p)},
                      "expected": {"jacobian": enc(J)}})
    return cases


# ---- 2. scaled dot-product attention, composed from torch ops --------------------------

def build_mask(n_q, n_k, causal=False, key_padding=None, explicit=None):
    """Engine convention: 1 = may attend.   -> (n_q, n_k) float"""
    mask = torch.ones(n_q, n_k)
    if explicit is not None:
        mask = mask * explicit
    if causal:
        mask = mask * torch.tril(torch.ones(n_q, n_k))     # key j <= query i
    if key_padding is not None:
        mask = mask * (~torch.tensor(key_padding)).float()[None, :]
    return mask


def pipeline(scores, scale, value, mask, fill, temperature=1.0):
    """scale -> mask -> softmax -> @V, every stage kept."""
    scaled = scores / scale / temperature                    # (n_q, n_k)
    masked = scaled.masked_fill(mask == 0, NEG_FILL[fill])   # (n_q, n_k)
    weights = F.softmax(masked, dim=-1)
    fully = [i for i in range(mask.shape[0]) if mask[i].sum() == 0]
    if fill == "neg-inf":
        # torch: NaN on a fully masked row; engine: zeros (documented difference)
        weights = torch.nan_to_num(weights, nan=0.0)
    output = weights @ value                                 # (n_q, d_v)
    return scaled, masked, weights, output, fully


def attention_case(name, q, k, v, score="scaled-dot", causal=False, key_padding=None,
                   explicit=None, fill="neg-inf", temperature=1.0, additive=None, general=None):
    n_q, n_k = q.shape[0], k.shape[0]
    if score in ("dot", "scaled-dot"):
        scores = q @ k.T                                     # (n_q, n_k)
    elif score == "additive":
        Wq, Wk, vv = additive
        hidden = torch.tanh((q @ Wq.T)[:, None, :] + (k @ Wk.T)[None, :, :])  # (n_q, n_k, h)
        scores = hidden @ vv                                 # (n_q, n_k)
    elif score == "general":
        scores = q @ general @ k.T                           # (n_q, n_k)
    scale = math.sqrt(k.shape[1]) if score == "scaled-dot" else 1.0
    mask = build_mask(n_q, n_k, causal, key_padding, explicit)
    scaled, masked, weights, output, fully = pipeline(scores, scale, v, mask, fill, temperature)

    inputs = {"query": enc(q), "key": enc(k), "value": enc(v)}
    if explicit is not None:
        inputs["mask"] = enc(explicit)
    if additive is not None:
        inputs["additive"] = {"Wq": enc(additive[0]), "Wk": enc(additive[1]),
                              "v": enc(additive[2])}
    if general is not None:
        inputs["general"] = {"W": enc(general)}
    options = {"score": score, "causal": causal, "maskFill": fill, "temperature": temperature}
    if key_padding is not None:
        options["keyPadding"] = list(key_padding)
    return {
        "name": name,
        "inputs": inputs,
        "options": options,
        "expected": {
            "scores": enc(scores), "scaled": enc(scaled), "mask": enc(mask),
            "masked": enc(masked), "weights": enc(weights), "output": enc(output),
            "entropy": enc(entropy(weights)), "fullyMaskedRows": fully,
        },
    }


def attention_cases():
    cases = []
    # self-attention: n = 5, d_k = 4, d_v = 3
    x_q, x_k, x_v = randn(5, 4), randn(5, 4), randn(5, 3)
    cases.append(attention_case("self_plain", x_q, x_k, x_v))
    cases.append(attention_case("self_causal", x_q, x_k, x_v, causal=True))
    pad = [False, False, False, False, True]
    for fill in ("neg-inf", "large-negative", "zero"):
        cases.append(attention_case(f"self_causal_padding_{fill}", x_q, x_k, x_v,
                                    causal=True, key_padding=pad, fill=fill))
    # cross-attention: n_q = 3, n_k = 6, d_k = 4, d_v = 5
    c_q, c_k, c_v = randn(3, 4), randn(6, 4), randn(6, 5)
    cpad = [False, False, False, False, True, True]
    for fill in ("neg-inf", "large-negative", "zero"):
        cases.append(attention_case(f"cross_padding_{fill}", c_q, c_k, c_v,
                                    key_padding=cpad, fill=fill))
    # causal with n_q != n_k: query i sees keys j <= i
    cases.append(attention_case("cross_causal_padding_neg-inf", c_q, c_k, c_v,
                                causal=True, key_padding=[False, True, False, False, False, False]))
    # a custom (clicked) mask, combined with padding
    custom = torch.tensor([[1, 0, 1, 1, 0, 1], [0, 1, 1, 0, 1, 1], [1, 1, 0, 1, 1, 0]],
                          dtype=torch.float32)
    cases.append(attention_case("cross_custom_mask_padding", c_q, c_k, c_v, explicit=custom,
                                key_padding=[False, False, False, True, False, False]))
    # plain dot product and a temperature
    cases.append(attention_case("self_dot_unscaled", x_q, x_k, x_v, score="dot"))
    cases.append(attention_case("cross_scaled_temperature_0.5", c_q, c_k, c_v, temperature=0.5))
    # larger head size: d_k = 16, scores spread wider
    cases.append(attention_case("self_dk16_causal", randn(6, 16), randn(6, 16), randn(6, 4),
                                causal=True))
    # the two-token check: block one of two keys and the output is the other one's value
    t_q, t_k, t_v = randn(2, 4), randn(2, 4), randn(2, 3)
    cases.append(attention_case("two_tokens_first_padded", t_q, t_k, t_v,
                                key_padding=[True, False]))
    assert cases[-1]["expected"]["output"] == enc(t_v[[1, 1]])
    # left padding + causal: query 0 sees only key 0, which is padding -> fully masked row
    cases.append(attention_case("self_causal_left_padding_fully_masked_row", x_q, x_k, x_v,
                                causal=True, key_padding=[True, False, False, False, False]))
    return cases


# ---- 3. nn.MultiheadAttention ----------------------------------------------------------

def mha_case(name, embed, heads, n_q, n_k, kdim=None, vdim=None, causal=False,
             key_padding=None, explicit=None):
    """explicit: an (n_q, n_k) 0/1 mask in the engine's convention (1 = may attend), or None."""
    kdim, vdim = kdim or embed, vdim or embed
    mha = torch.nn.MultiheadAttention(embed, heads, dropout=0.0, bias=True, batch_first=True,
                                      kdim=kdim, vdim=vdim)
    with torch.no_grad():   # non-zero biases so they are really tested
        for p in (mha.in_proj_bias, mha.out_proj.bias):
            p.copy_(randn(*p.shape) * 0.5)
    mha.eval()
    query = randn(n_q, embed)
    if kdim == embed and vdim == embed and n_q == n_k:
        key = value = query                                  # self-attention
    else:
        key, value = randn(n_k, kdim), randn(n_k, vdim)

    # split the projections into Wq, Wk, Wv (torch packs them when kdim == vdim == embed)
    if mha._qkv_same_embed_dim:
        Wq, Wk, Wv = mha.in_proj_weight.chunk(3)
    else:
        Wq, Wk, Wv = mha.q_proj_weight, mha.k_proj_weight, mha.v_proj_weight
    bq, bk, bv = mha.in_proj_bias.chunk(3)
    Wo, bo = mha.out_proj.weight, mha.out_proj.bias

    attn_mask = torch.triu(torch.ones(n_q, n_k, dtype=torch.bool), 1) if causal else None
    if explicit is not None:    # torch: True = blocked
        blocked = explicit == 0
        attn_mask = blocked if attn_mask is None else attn_mask | blocked
    kpm = torch.tensor([key_padding]) if key_padding is not None else None
    with torch.no_grad():
        out, w = mha(query[None], key[None], value[None], key_padding_mask=kpm,
                     attn_mask=attn_mask, need_weights=True, average_attn_weights=False)
    out, w = out[0], w[0]                                    # (n_q, embed), (heads, n_q, n_k)
    assert torch.isfinite(w).all(), "avoid fully masked rows in MHA cases"

    # concat of head outputs, from torch ops; checked against the module's own output
    with torch.no_grad():
        vp = value @ Wv.T + bv                               # (n_k, embed)
        dh = embed // heads
        concat = torch.cat([w[h] @ vp[:, h * dh:(h + 1) * dh] for h in range(heads)], dim=1)
        assert torch.allclose(concat @ Wo.T + bo, out, atol=1e-5)

    options = {"heads": heads, "causal": causal}
    if key_padding is not None:
        options["keyPadding"] = list(key_padding)
    inputs = {
        "query": enc(query), "key": enc(key), "value": enc(value),
        "Wq": enc(Wq), "Wk": enc(Wk), "Wv": enc(Wv), "Wo": enc(Wo),
        "bq": enc(bq), "bk": enc(bk), "bv": enc(bv), "bo": enc(bo),
    }
    if explicit is not None:
        inputs["mask"] = enc(explicit)
    return {
        "name": name,
        "inputs": inputs,
        "options": options,
        "expected": {"headWeights": enc(w), "concat": enc(concat), "output": enc(out)},
    }


def multihead_cases():
    return [
        mha_case("self_causal_e8_h2", embed=8, heads=2, n_q=5, n_k=5, causal=True),
        mha_case("self_causal_padding_e12_h3", embed=12, heads=3, n_q=6, n_k=6, causal=True,
                 key_padding=[False, False, False, False, True, True]),
        mha_case("cross_kdim6_vdim5_e8_h4_padding", embed=8, heads=4, n_q=3, n_k=5, kdim=6,
                 vdim=5, key_padding=[False, False, False, True, True]),
        mha_case("cross_e8_h1", embed=8, heads=1, n_q=4, n_k=7, kdim=8, vdim=8),
    ]


def multihead_mask_cases():
    """Self and cross attention with causal, key-padding and explicit masks, at widths
    d_model that are not powers of two (6, 9, 10, 12, 20, 24)."""
    torch.manual_seed(SEED + 3)   # its own stream: the files written before stay byte for byte
    explicit = torch.tensor([[1, 0, 1, 1, 0], [1, 1, 0, 1, 1], [0, 1, 1, 0, 1],
                             [1, 1, 1, 0, 0], [0, 0, 1, 1, 1]], dtype=torch.float32)
    return [
        mha_case("self_padding_e6_h3", embed=6, heads=3, n_q=5, n_k=5,
                 key_padding=[False, True, False, False, True]),
        mha_case("self_causal_e10_h5", embed=10, heads=5, n_q=6, n_k=6, causal=True),
        mha_case("cross_causal_e10_h2_nq4_nk6", embed=10, heads=2, n_q=4, n_k=6, kdim=10, vdim=10,
                 causal=True),
        mha_case("cross_causal_padding_e9_h3_kdim5_vdim7", embed=9, heads=3, n_q=3, n_k=5, kdim=5,
                 vdim=7, causal=True, key_padding=[False, False, True, False, False]),
        mha_case("self_mask_padding_e12_h4", embed=12, heads=4, n_q=5, n_k=5,
                 key_padding=[False, False, False, False, True], explicit=explicit),
        mha_case("cross_padding_e20_h4_kdim3_nq2_nk8", embed=20, heads=4, n_q=2, n_k=8, kdim=3,
                 vdim=20, key_padding=[False, False, True, False, False, False, True, True]),
        mha_case("self_causal_padding_e24_h6", embed=24, heads=6, n_q=7, n_k=7, causal=True,
                 key_padding=[False, False, False, False, False, True, True]),
    ]


# ---- 4 & 5. additive (Bahdanau) and general scores -------------------------------------

def scores_cases():
    cases = []
    # additive: d_q = 3, d_k = 5, hidden h = 4
    q, k, v = randn(3, 3), randn(4, 5), randn(4, 2)
    add = (randn(4, 3), randn(4, 5), randn(4))
    cases.append(attention_case("additive_dq3_dk5_h4", q, k, v, score="additive", additive=add))
    cases.append(attention_case("additive_padding", q, k, v, score="additive", additive=add,
                                key_padding=[False, True, False, False]))
    # general: q W kᵀ, d_q = 3, d_k = 4
    q, k, v = randn(3, 3), randn(5, 4), randn(5, 3)
    W = randn(3, 4)
    cases.append(attention_case("general_dq3_dk4", q, k, v, score="general", general=W))
    cases.append(attention_case("general_causal", q, k, v, score="general", general=W,
                                causal=True))
    return cases


# ---- 6. positional encodings -----------------------------------------------------------

def sinusoidal(n, d, base=10000.0):
    """PE[p, 2i] = sin(p / base^(2i/d)), PE[p, 2i+1] = cos(p / base^(2i/d)).  -> (n, d)"""
    pos = torch.arange(n, dtype=torch.float64)[:, None]
    two_i = torch.arange(0, d, 2, dtype=torch.float64)
    angle = pos / base ** (two_i / d)                        # (n, ceil(d/2))
    pe = torch.zeros(n, d, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle[:, : d // 2])
    return pe


def rope(x, first=0, base=10000.0):
    """Rotate pairs (2i, 2i+1) of row r by (first + r) * base^(-2i/d).   x: (n, d)"""
    n, d = x.shape
    xd = x.to(torch.float64)
    pos = torch.arange(first, first + n, dtype=torch.float64)[:, None]
    theta = pos * base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)  # (n, d/2)
    c, s = torch.cos(theta), torch.sin(theta)
    out = torch.empty_like(xd)
    out[:, 0::2] = xd[:, 0::2] * c - xd[:, 1::2] * s
    out[:, 1::2] = xd[:, 0::2] * s + xd[:, 1::2] * c
    return out


def positional_cases():
    # Angles reach ~60 rad, so the reference is computed in double from the float32 inputs
    # and stored rounded to float32.
    sin_cases = [{"name": f"sinusoidal_n{n}_d{d}", "options": {"n": n, "d": d},
                  "expected": {"pe": enc(sinusoidal(n, d))}}
                 for n, d in ((6, 8), (4, 2), (60, 16), (5, 7))]
    rope_cases = []
    for name, n, d, first in (("rope_n4_d8_first0", 4, 8, 0), ("rope_n3_d6_first5", 3, 6, 5),
                              ("rope_n8_d16_first50", 8, 16, 50)):
        x = randn(n, d)
        rope_cases.append({"name": name, "inputs": {"x": enc(x)}, "options": {"first": first},
                           "expected": {"out": enc(rope(x, first))}})
    # relative-position property: (R_m q)·(R_n k) depends only on m - n
    q, k = randn(1, 8), randn(1, 8)
    a = rope(q, 7)[0] @ rope(k, 4)[0]
    b = rope(q, 13)[0] @ rope(k, 10)[0]
    assert abs(a - b) < 1e-9
    return sin_cases + rope_cases


def main():
    torch.manual_seed(SEED)
    torch.set_default_dtype(torch.float32)
    write("softmax.json", softmax_cases())
    write("softmax_jacobian.json", jacobian_cases())
    write("attention.json", attention_cases())
    write("multihead.json", multihead_cases())
    write("scores.json", scores_cases())
    write("positional.json", positional_cases())
    write("multihead_masks.json", multihead_mask_cases())


if __name__ == "__main__":
    main()
