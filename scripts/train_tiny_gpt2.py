#!/usr/bin/python3
"""The small GPT-2 that the real-model lesson opens on: its corpus, tokenizer, training and golden.

Run with Debian's system Python (python3-torch, PyTorch 1.13, CPU, no other package):

    /usr/bin/python3 scripts/train_tiny_gpt2.py              # everything
    /usr/bin/python3 scripts/train_tiny_gpt2.py --tokenizer  # the tokenizer's files only (seconds)

It writes (one thread, fixed seeds; the SHA-256 of each file is printed at the end):

    web/src/chapters/model/tiny/model.safetensors  the weights, F16, Hugging Face GPT-2 names
    web/src/chapters/model/tiny/config.json        Hugging Face's GPT-2 configuration keys
    web/src/chapters/model/tiny/tiktoken.json      its byte-level BPE, in js-tiktoken's format
    tests/golden/tiny_tokenizer.json               the tokenizer's ids for a few texts
    tests/golden/tiny_gpt2.json                    PyTorch's numbers for the tests

Debian's torch multiplies matrices with the reference BLAS (libblas3), about 1 GFLOP/s: with
OpenBLAS (libopenblas0-pthread, which Debian then gives torch) training takes minutes instead of
hours. Another BLAS, or another OpenBLAS kernel (OPENBLAS_CORETYPE), sums in another order and
gives other bytes.

1. The corpus. A small grammar writes English and Chinese sentences: names that come back
   (who has what, who gives it to whom), agreement (the cat sees / the cats see; 一本书, 一只猫:
   the measure word agrees with its noun), brackets of three kinds nested up to three deep, and
   lists said twice. Every training row repeats something (training_rows): sentences whose
   names come back, one sentence said again and again, or (60 % of the rows) a run of distinct
   random tokens (any id of the vocabulary) said again and again, scored on the repeats: the kind
   of sequence the induction score is measured on.
2. The tokenizer. GPT-2's own scheme at a small size: the text is split by GPT-2's regular
   expression, each piece is read as UTF-8 bytes, and byte pairs are merged in the order learned
   here from the corpus (512 tokens in all: the 256 bytes, 255 merges, <|endoftext|>). A token's
   id is its rank, so js-tiktoken's encoder (the one that reads GPT-2's own file) reads this one
   too: the merge with the lowest rank goes first. A Chinese character the grammar never uses
   stays as its three bytes.
3. The model. GPT-2's architecture as Hugging Face names it: wte, wpe, h.{i}.ln_1,
   h.{i}.attn.c_attn (Q, K, V fused, Conv1D layout (in, out)), h.{i}.attn.c_proj, h.{i}.ln_2,
   h.{i}.mlp.c_fc, h.{i}.mlp.c_proj (GELU, tanh form), ln_f, logits through the tied wte
   (CONFIG below), trained with Adam for STEPS steps. Positions start as sines and cosines whose
   periods run from 4 to 256 tokens (POSITION_PERIODS). With the original Transformer's (2π to
   about 50,000 tokens, two thirds of them longer than the 128 positions) a head tells i − 1
   from i and i − 2 only with large weights, and the previous-token heads stayed blurred: the
   best scored 0.40 (0.18 on i, 0.16 on i − 2), and three heads of layer 0 shared the work.
   Every 50 steps the head scores are printed. Here: 2,000 steps in 341 s with OpenBLAS on one
   thread (the induction heads form between steps 850 and 1,000); 572,936 bytes as F16. On the
   grid the lesson shows (engine.loadModel's model.headScores(), the page's seed 42), layer 0
   head 1 is a previous-token head (0.53) and every head of layer 1 an induction head (0.91 to
   0.95); no duplicate-token head forms (0.01 at most).
4. The golden. The F16 weights read back and run in float64 by the same module: the top 10 next
   tokens after every position, every head's weights, one head's five stages, the residual
   stream's norm after each block, the top 10 with two heads ablated, on one English and one
   Chinese sentence; and the head-score grid (printed too).
"""

import os

# One thread everywhere: the same sums in the same order on every run (and on a busy machine one
# thread is faster than two that wait for each other).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import hashlib  # noqa: E402
import json
import math
import random
import struct
import sys
import time
import unicodedata

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "web/src/chapters/model/tiny")
GOLDEN = os.path.join(ROOT, "tests/golden/tiny_gpt2.json")
TOKENIZER_GOLDEN = os.path.join(ROOT, "tests/golden/tiny_tokenizer.json")
# the golden's sentences (the first two: the lesson's example sentences) and the tokenizer's texts
TOKENIZER_TEXTS = ["Alice has a red book. Bob has a blue pen. Alice gives the red book to",
                   "小明有一本红色的书。小红有一支笔。小明把红色的书给了",
                   "The cats near the dog see the", "猫喜欢鱼。", "Alice says: one two three. Bob says again: one two",
                   "你好，世界！Hello, world!", "it's 2026 (the year)  and\nthe 象 said 𝄞"]

SEED = 31
VOCAB = 512  # 256 bytes + 255 merges + <|endoftext|>
EOT = "<|endoftext|>"
CONFIG = dict(n_layer=2, n_head=4, n_embd=96, n_positions=128, layer_norm_epsilon=1e-5)
STEPS, LR, WARMUP = 2000, 5e-3, 100
POSITION_PERIODS = (4, 256)  # the positions' first sines and cosines: periods in tokens, geometric
ROWS = 16  # each step: 16 rows of 128 tokens (row kinds: training_rows) …
TEXT_SHARE = 0.4  # … 40 % of them sentences of the grammar, the rest random runs said again and again
SCORE_LENGTH = 50  # head scores: 50 distinct random tokens said twice (engine's default length)
# GPT-2's split (the same string as js-tiktoken's gpt2 ranks carry).
PAT_STR = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


# ---- 1. The corpus ---------------------------------------------------------------------------

EN_NAMES = ["Alice", "Bob", "Carol", "David", "Emma", "Frank", "Grace", "Henry", "Lily", "Jack",
            "Kate", "Leo", "Mia", "Nina", "Oscar", "Paul", "Rose", "Sam", "Tom", "Vera"]
# noun: (singular, plural)
EN_NOUNS = [("book", "books"), ("pen", "pens"), ("apple", "apples"), ("cat", "cats"),
            ("dog", "dogs"), ("box", "boxes"), ("cup", "cups"), ("key", "keys"),
            ("letter", "letters"), ("ball", "balls"), ("bird", "birds"), ("fish", "fish")]
EN_ADJS = ["red", "blue", "green", "small", "big", "old", "new", "yellow"]
# verb: (with a singular subject, with a plural one)
EN_VERBS = [("sees", "see"), ("likes", "like"), ("wants", "want"), ("finds", "find"),
            ("eats", "eat"), ("chases", "chase"), ("holds", "hold")]
EN_WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "sun", "moon", "star", "tree", "rain", "snow", "road", "door"]
EN_BRACKETS = [("(", ")"), ("[", "]"), ("{", "}")]

ZH_NAMES = ["小明", "小红", "张伟", "李娜", "王芳", "刘洋", "陈静", "杨磊", "赵敏", "黄勇",
            "周杰", "吴丽"]
# noun with its measure word
ZH_NOUNS = [("书", "本"), ("笔", "支"), ("猫", "只"), ("狗", "条"), ("苹果", "个"), ("茶", "杯"),
            ("钥匙", "把"), ("信", "封"), ("车", "辆"), ("鱼", "条"), ("鸟", "只"), ("花", "朵")]
ZH_ADJS = ["红色的", "蓝色的", "绿色的", "小", "大", "旧", "新"]
ZH_VERBS = ["看见了", "喜欢", "想要", "找到了", "拿着"]
ZH_WORDS = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "山", "水", "月", "星",
            "风", "雨", "门", "路"]
ZH_BRACKETS = [("（", "）"), ("《", "》"), ("「", "」")]


def en_sentence(r):
    a, b, c = r.sample(EN_NAMES, 3)
    (n1, n1s), (n2, n2s) = r.sample(EN_NOUNS, 2)
    j1, j2 = r.sample(EN_ADJS, 2)
    (v1, v1p), (v2, v2p) = r.sample(EN_VERBS, 2)
    kind = r.randrange(6)
    if kind == 0:  # names and objects that come back
        return f"{a} has a {j1} {n1}. {b} has a {j2} {n2}. {a} gives the {j1} {n1} to {b}."
    if kind == 1:  # agreement, also across a prepositional phrase
        if r.random() < 0.5:
            return f"The {n1} near the {n2s} {v1} the {j1} {n2}."
        return f"The {n1s} near the {n2} {v1p} the {j1} {n2}."
    if kind == 2:  # agreement with a name or two
        if r.random() < 0.5:
            return f"{a} {v1} the {n1s}, and {b} {v2} the {n2}."
        return f"{a} and {b} {v1p} the {n1s}. {c} {v2} them too."
    if kind == 3:  # brackets, nested up to three deep
        inner = f"{c} {v2} the {n2}"
        for depth in range(r.randint(1, 3)):
            o, cl = r.choice(EN_BRACKETS)
            inner = f"{o}{inner}{cl}" if depth == 0 else f"{o}{r.choice(EN_NAMES)} says {inner}{cl}"
        return f"{a} {v1} the {n1} {inner}."
    if kind == 4:  # a list said twice
        words = " ".join(r.choice(EN_WORDS) for _ in range(r.randint(3, 7)))
        return f"{a} says: {words}. {b} says again: {words}."
    # who gets it: the name that was not said twice
    return f"{a} and {b} went to the park. {b} gave a {n1} to {a}."


def zh_sentence(r):
    a, b, c = r.sample(ZH_NAMES, 3)
    (n1, m1), (n2, m2) = r.sample(ZH_NOUNS, 2)
    j1, j2 = r.sample(ZH_ADJS, 2)
    v1, v2 = r.sample(ZH_VERBS, 2)
    kind = r.randrange(6)
    if kind == 0:
        return f"{a}有一{m1}{j1}{n1}。{b}有一{m2}{j2}{n2}。{a}把{j1}{n1}给了{b}。"
    if kind == 1:  # the measure word agrees with its noun
        return f"{a}{v1}一{m1}{n1}，{b}{v2}两{m2}{n2}。"
    if kind == 2:
        return f"{a}{v1}{b}，{b}也{v1}{a}。"
    if kind == 3:
        inner = f"{c}{v2}那{m2}{n2}"
        for depth in range(r.randint(1, 3)):
            o, cl = r.choice(ZH_BRACKETS)
            inner = f"{o}{inner}{cl}" if depth == 0 else f"{o}{r.choice(ZH_NAMES)}说{inner}{cl}"
        return f"{a}{v1}那{m1}{n1}{inner}。"
    if kind == 4:
        words = "".join(r.choice(ZH_WORDS) for _ in range(r.randint(3, 7)))
        return f"{a}说：{words}。{b}又说：{words}。"
    return f"{a}和{b}去了公园。{b}把一{m1}{n1}给了{a}。"


def paragraph(r, lang, count):
    if lang == "en":
        return " ".join(en_sentence(r) for _ in range(count))
    return "".join(zh_sentence(r) for _ in range(count))


# ---- 2. The tokenizer ------------------------------------------------------------------------

def is_letter(ch):
    return unicodedata.category(ch).startswith("L")


def is_number(ch):
    return unicodedata.category(ch).startswith("N")


def split_pieces(text):
    """GPT-2's regular expression (PAT_STR), written out: Python's re has no \\p{L}."""
    pieces, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "'":
            m = next((s for s in ("s", "t", "re", "ve", "m", "ll", "d") if text.startswith(s, i + 1)), None)
            if m:
                pieces.append(text[i:i + 1 + len(m)])
                i += 1 + len(m)
                continue
        j = i + 1 if ch == " " and i + 1 < n else i
        nxt = text[j]
        for cls in (is_letter, is_number):
            if cls(nxt):
                k = j + 1
                while k < n and cls(text[k]):
                    k += 1
                break
        else:
            cls = None
        if cls is None and not nxt.isspace():
            k = j + 1
            while k < n and not (text[k].isspace() or is_letter(text[k]) or is_number(text[k])):
                k += 1
        elif cls is None:  # whitespace: \s+(?!\S), else \s+
            k = i
            while k < n and text[k].isspace():
                k += 1
            if k < n and k - 1 > i:
                k -= 1
        pieces.append(text[i:k])
        i = k
    return pieces


def train_bpe(texts, merges):
    """Byte-pair merges learned from the pieces' counts; returns the tokens (bytes) in rank order."""
    counts = {}
    for t in texts:
        for p in split_pieces(t):
            counts[p] = counts.get(p, 0) + 1
    words = [[bytes([b]) for b in p.encode("utf-8")] for p in counts]
    freq = list(counts.values())
    vocab = [bytes([b]) for b in range(256)]
    known = set(vocab)
    pairs, where = {}, {}
    for w, word in enumerate(words):
        for a, b in zip(word, word[1:]):
            pairs[(a, b)] = pairs.get((a, b), 0) + freq[w]
            where.setdefault((a, b), set()).add(w)
    while len(vocab) < 256 + merges and pairs:
        best = max(pairs.items(), key=lambda kv: (kv[1], kv[0]))[0]
        merged = best[0] + best[1]
        if merged not in known:
            vocab.append(merged)
            known.add(merged)
        for w in sorted(where.get(best, ())):
            word, f = words[w], freq[w]
            for a, b in zip(word, word[1:]):
                pairs[(a, b)] -= f
                if pairs[(a, b)] == 0:
                    del pairs[(a, b)]
            out, i = [], 0
            while i < len(word):
                if i + 1 < len(word) and (word[i], word[i + 1]) == best:
                    out.append(merged)
                    i += 2
                else:
                    out.append(word[i])
                    i += 1
            words[w] = out
            for a, b in zip(out, out[1:]):
                pairs[(a, b)] = pairs.get((a, b), 0) + f
                where.setdefault((a, b), set()).add(w)
        where.pop(best, None)
    return vocab


class Tokenizer:
    """js-tiktoken's encoder, written out: in a piece of bytes, merge the adjacent pair whose
    merged bytes have the lowest rank, until no pair is a token."""

    def __init__(self, tokens):
        self.tokens = tokens
        self.rank = {t: i for i, t in enumerate(tokens)}
        self.eot = len(tokens)
        self.cache = {}

    def encode_piece(self, piece):
        data = piece.encode("utf-8")
        if data in self.rank:
            return [self.rank[data]]
        parts = [data[i:i + 1] for i in range(len(data))]
        while len(parts) > 1:
            best = None
            for i in range(len(parts) - 1):
                r = self.rank.get(parts[i] + parts[i + 1])
                if r is not None and (best is None or r < best[0]):
                    best = (r, i)
            if best is None:
                break
            i = best[1]
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        return [self.rank[p] for p in parts]

    def encode(self, text):
        ids = []
        for p in split_pieces(text):
            if p not in self.cache:
                self.cache[p] = self.encode_piece(p)
            ids.extend(self.cache[p])
        return ids

    def ranks_json(self, n_vocab):
        """The file js-tiktoken's Tiktoken reads: one line '! <first rank> <base64 token> …'."""
        import base64
        line = " ".join(["!", "0"] + [base64.b64encode(t).decode("ascii") for t in self.tokens])
        return {"pat_str": PAT_STR, "special_tokens": {EOT: self.eot}, "bpe_ranks": line,
                "explicit_n_vocab": n_vocab}


# ---- 3. The model ----------------------------------------------------------------------------

class Conv1D(nn.Module):
    """Hugging Face's Conv1D: y = x W + b with W stored as (in, out)."""

    def __init__(self, n_in, n_out, std):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_in, n_out) * std)
        self.bias = nn.Parameter(torch.zeros(n_out))

    def forward(self, x):
        return x @ self.weight + self.bias


class Attention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        d, self.n_head = cfg["n_embd"], cfg["n_head"]
        self.c_attn = Conv1D(d, 3 * d, 1 / math.sqrt(d))
        self.c_proj = Conv1D(d, d, 0.02 / math.sqrt(2 * cfg["n_layer"]))

    def forward(self, x, keep=None, record=None):
        n, d = x.shape[-2], x.shape[-1]
        dh = d // self.n_head
        q, k, v = self.c_attn(x).split(d, dim=-1)
        heads = lambda t: t.view(*t.shape[:-1], self.n_head, dh).transpose(-3, -2)  # (…, h, n, dh)
        q, k, v = heads(q), heads(k), heads(v)
        scores = q @ k.transpose(-1, -2)  # (…, h, n, n)
        scaled = scores / math.sqrt(dh)
        causal = torch.ones(n, n, dtype=torch.bool).tril()
        masked = scaled.masked_fill(~causal, float("-inf"))
        weights = torch.softmax(masked, dim=-1)
        out = weights @ v  # (…, h, n, dh)
        if record is not None:
            record.update(scores=scores, scaled=scaled, masked=masked, weights=weights, output=out)
        if keep is not None:  # ablation: zero a head's output before c_proj
            out = out * keep.view(-1, 1, 1).to(out.dtype)
        out = out.transpose(-3, -2).reshape(*x.shape)
        return self.c_proj(out)


class MLP(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        d = cfg["n_embd"]
        self.c_fc = Conv1D(d, 4 * d, 0.02)
        self.c_proj = Conv1D(4 * d, d, 0.02 / math.sqrt(2 * cfg["n_layer"]))

    def forward(self, x):
        return self.c_proj(F.gelu(self.c_fc(x), approximate="tanh"))


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        d, eps = cfg["n_embd"], cfg["layer_norm_epsilon"]
        self.ln_1, self.attn = nn.LayerNorm(d, eps=eps), Attention(cfg)
        self.ln_2, self.mlp = nn.LayerNorm(d, eps=eps), MLP(cfg)

    def forward(self, x, keep=None, record=None):
        x = x + self.attn(self.ln_1(x), keep, record)
        return x + self.mlp(self.ln_2(x))


class GPT2(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.wte = nn.Embedding(cfg["vocab_size"], cfg["n_embd"])
        self.wpe = nn.Embedding(cfg["n_positions"], cfg["n_embd"])
        nn.init.normal_(self.wte.weight, std=0.1)
        # positions start as sines and cosines (then learned like the rest): "the token before
        # this one" is then one linear map away from the start, and the previous-token heads that
        # induction heads build on form in hundreds of steps, not thousands; the short periods
        # (POSITION_PERIODS) let such a head read i − 1 alone, not i and i − 2 beside it
        pos = torch.arange(cfg["n_positions"], dtype=torch.float32)[:, None]
        periods = torch.logspace(*map(math.log10, POSITION_PERIODS), cfg["n_embd"] // 2)
        freq = 2 * math.pi / periods
        with torch.no_grad():
            self.wpe.weight[:, 0::2] = torch.sin(pos * freq) * 0.14
            self.wpe.weight[:, 1::2] = torch.cos(pos * freq) * 0.14
        self.h = nn.ModuleList(Block(cfg) for _ in range(cfg["n_layer"]))
        self.ln_f = nn.LayerNorm(cfg["n_embd"], eps=cfg["layer_norm_epsilon"])

    def forward(self, ids, keep=None, records=None, residual=None):
        """ids (…, n) -> logits (…, n, vocab). keep: (layer, head) -> 0/1; records: a dict per
        layer for the attention stages; residual: a list to collect the stream after each block."""
        x = self.wte(ids) + self.wpe(torch.arange(ids.shape[-1]))
        if residual is not None:
            residual.append(x)
        for i, block in enumerate(self.h):
            x = block(x, None if keep is None else keep[i], None if records is None else records[i])
            if residual is not None:
                residual.append(x)
        return self.ln_f(x) @ self.wte.weight.T


# ---- 4. The files ----------------------------------------------------------------------------

def safetensors_bytes(tensors):
    """A safetensors file by hand: 8-byte little-endian header length, the JSON header (padded
    with spaces to 8 bytes), then each tensor's little-endian data in the header's order."""
    header, blobs, offset = {"__metadata__": {"format": "pt"}}, [], 0
    for name, t in tensors:
        data = t.detach().contiguous().numpy().astype("<f2").tobytes()
        header[name] = {"dtype": "F16", "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def f32(x):
    """A float32 as the shortest decimal that reads back to it; -inf as None."""
    x = np.float32(x)
    if np.isneginf(x):
        return None
    return float(np.format_float_scientific(x, unique=True))


def enc(t):
    a = t.detach().to(torch.float64).numpy()
    return [f32(v) for v in a.ravel()]


def top_k(logits, k):
    p = torch.softmax(logits, dim=-1)
    vals, ids = p.topk(k, dim=-1)
    return {"k": k, "ids": ids.ravel().tolist(), "probabilities": enc(vals)}


# ---- 5. Head scores (the definitions of engine.loadModel's model.headScores) -------------------

def head_scores(model, cfg, tokens):
    """Each score in [0, 1], on the distinct tokens given (L of them) said twice, as
    engine.loadModel's model.headScores computes them:
      previousToken  mean weight of row i on column i − 1 (rows 1 … 2L − 1)
      induction      mean weight of a second-half row i on i − L + 1, the token after its first
                     occurrence (rows L … 2L − 1)
      duplicateToken mean weight of a second-half row i on i − L, its first occurrence
      firstToken     mean weight on column 0 (rows 1 … 2L − 1): the attention sink
      entropy        mean of each row's entropy over its maximum log(i + 1) (rows 1 … 2L − 1)"""
    L = len(tokens)
    records = [{} for _ in range(cfg["n_layer"])]
    with torch.no_grad():
        model(torch.tensor(tokens + tokens), records=records)
    rows = torch.arange(1, 2 * L)
    second = torch.arange(L, 2 * L)
    grid = {k: [] for k in ("previousToken", "induction", "duplicateToken", "firstToken", "entropy")}
    for rec in records:
        w = rec["weights"].double()  # (head, 2L, 2L)
        grid["previousToken"].append(w[:, rows, rows - 1].mean(dim=1))
        grid["induction"].append(w[:, second, second - L + 1].mean(dim=1))
        grid["duplicateToken"].append(w[:, second, second - L].mean(dim=1))
        grid["firstToken"].append(w[:, rows, 0].mean(dim=1))
        ent = -(w * torch.log(w.clamp_min(1e-300))).sum(-1)[:, rows]
        grid["entropy"].append((ent / torch.log(rows.double() + 1)).mean(dim=1).clamp_max(1))
    return {k: torch.stack(v).tolist() for k, v in grid.items()}


def print_grid(grid):
    for name, m in grid.items():
        print(f"  {name}")
        for l, row in enumerate(m):
            print(f"    layer {l}: " + "  ".join(f"{x:.2f}" for x in row))


# ---- 6. Training -----------------------------------------------------------------------------

def training_rows(r, tok, n_rows, n, vocab):
    """n_rows rows of n + 1 tokens and their targets (-100: not scored). Every kind repeats:
      20 %  sentences of the grammar (its names and lists come back);
      20 %  one sentence of the grammar said again and again;
      60 %  a few tokens of the grammar, then a run of 4 to 48 distinct random tokens (any id)
            said again and again, scored on the repeats only (nothing could predict the first
            run): the kind of sequence the induction score is measured on."""
    rows, targets = [], []
    for _ in range(n_rows):
        lang = "en" if r.random() < 0.5 else "zh"
        kind = r.random()
        if kind < TEXT_SHARE:
            row = []
            while len(row) < n + 1:
                said = tok.encode(paragraph(r, lang, 1) + (" " if lang == "en" else ""))
                row += said * (r.randint(2, 4) if kind < TEXT_SHARE / 2 else 1)
            row = row[:n + 1]
            target = row[1:]
        else:
            prefix = tok.encode(paragraph(r, lang, 1))[:r.randrange(n // 4)]
            run = r.sample(range(vocab), r.randint(4, 48))
            row = (prefix + run * (n // len(run) + 2))[:n + 1]
            target = [-100] * (len(prefix) + len(run) - 1) + row[len(prefix) + len(run):]
        rows.append(row[:-1])
        targets.append(target)
    return torch.tensor(rows), torch.tensor(targets)


def main():
    t0 = time.time()
    torch.set_num_threads(1)
    torch.manual_seed(SEED)
    r = random.Random(SEED)

    tokens = train_bpe([paragraph(r, lang, 40) for lang in ("en", "zh") for _ in range(150)], VOCAB - 257)
    tok = Tokenizer(tokens)
    cfg = dict(CONFIG, vocab_size=len(tokens) + 1)
    print(f"tokenizer: {len(tokens)} byte tokens and merges + {EOT} = {cfg['vocab_size']} ids ({time.time() - t0:.0f} s)")
    files = {
        os.path.join(OUT, "tiktoken.json"): (json.dumps(tok.ranks_json(cfg["vocab_size"]), ensure_ascii=False) + "\n").encode(),
        TOKENIZER_GOLDEN: (json.dumps({"about": "scripts/train_tiny_gpt2.py: the shipped tokenizer's ids (its own encoder)",
                                       "cases": [{"text": t, "ids": tok.encode(t)} for t in TOKENIZER_TEXTS]},
                                      ensure_ascii=False, indent=1) + "\n").encode(),
    }
    if "--tokenizer" in sys.argv:  # the tokenizer's files only (seconds): the corpus and merges, no training
        write(files)
        return

    model = GPT2(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=LR, betas=(0.9, 0.98))
    n = cfg["n_positions"]
    # the head scores' tokens: engine.loadModel's default length, drawn once here (the golden keeps them)
    score_tokens = random.Random(SEED + 1).sample(range(cfg["vocab_size"]), SCORE_LENGTH)
    steps = int(sys.argv[sys.argv.index("--steps") + 1]) if "--steps" in sys.argv else STEPS
    for step in range(steps):
        lr = LR * min(1, (step + 1) / WARMUP) * 0.5 * (1 + math.cos(math.pi * step / steps))
        for g in opt.param_groups:
            g["lr"] = lr
        rows, targets = training_rows(r, tok, ROWS, n, cfg["vocab_size"])
        loss = F.cross_entropy(model(rows).reshape(-1, cfg["vocab_size"]), targets.reshape(-1), ignore_index=-100)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if step % 50 == 49 or step == steps - 1:
            g = head_scores(model, cfg, score_tokens)
            best = {k: max(map(max, g[k])) for k in ("previousToken", "induction", "duplicateToken")}
            print(f"step {step + 1:4d}  loss {loss.item():.3f}  best " + ", ".join(f"{k} {v:.2f}" for k, v in best.items())
                  + f"  ({time.time() - t0:.0f} s)", flush=True)

    # The shipped weights are F16: everything below runs on them, read back, in float64.
    state = [(k, v.detach().half()) for k, v in model.state_dict().items()]
    blob = safetensors_bytes(state)
    model.load_state_dict({k: v.float() for k, v in state})
    model = model.double()

    os.makedirs(OUT, exist_ok=True)
    config = {"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "activation_function": "gelu_new",
              "n_layer": cfg["n_layer"], "n_head": cfg["n_head"], "n_embd": cfg["n_embd"],
              "n_positions": n, "n_ctx": n, "vocab_size": cfg["vocab_size"],
              "layer_norm_epsilon": cfg["layer_norm_epsilon"], "bos_token_id": tok.eot,
              "eos_token_id": tok.eot, "torch_dtype": "float16"}
    files.update({
        os.path.join(OUT, "model.safetensors"): blob,
        os.path.join(OUT, "config.json"): (json.dumps(config, indent=2) + "\n").encode(),
    })

    grid = head_scores(model, cfg, score_tokens)
    print(f"head scores on {SCORE_LENGTH} distinct random tokens said twice:")
    print_grid(grid)

    cases = []
    last, heads = cfg["n_layer"] - 1, cfg["n_head"]
    for text, head, ablate in ((TOKENIZER_TEXTS[0], [last, 0], [[0, 1], [last, 0]]),
                               (TOKENIZER_TEXTS[1], [last, heads - 1], [[0, 0], [last, heads - 1]])):
        ids = tok.encode(text)
        records, residual = [{} for _ in range(cfg["n_layer"])], []
        x = torch.tensor(ids)
        with torch.no_grad():
            logits = model(x, records=records, residual=residual)
            keep = torch.ones(cfg["n_layer"], cfg["n_head"], dtype=torch.float64)
            for l, h in ablate:
                keep[l, h] = 0
            ablated = model(x, keep=keep)
        rec = records[head[0]]
        cases.append({
            "text": text, "ids": ids,
            "topK": top_k(logits, 10),
            "attention": [[enc(rec_["weights"][h]) for h in range(cfg["n_head"])] for rec_ in records],
            "head": head,
            "stages": {s: enc(rec[s][head[1]]) for s in ("scores", "scaled", "masked", "weights", "output")},
            "residualNorms": [enc(t.norm(dim=-1)) for t in residual],
            "ablate": ablate,
            "ablatedTopK": top_k(ablated, 10),
        })
    golden = {
        "about": "scripts/train_tiny_gpt2.py: PyTorch (float64) on the F16 weights of "
                 "web/src/chapters/model/tiny/model.safetensors. Matrices are row-major flat lists; "
                 "-inf is null.",
        "sha256": {os.path.relpath(p, ROOT): hashlib.sha256(b).hexdigest() for p, b in files.items()},
        "config": config,
        "headScores": {"tokens": score_tokens, "grid": grid},
        "cases": cases,
    }
    files[GOLDEN] = (json.dumps(golden, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
    write(files)
    print(f"done in {time.time() - t0:.0f} s")


def write(files):
    for path, data in files.items():
        with open(path, "wb") as f:
            f.write(data)
        print(f"{os.path.relpath(path, ROOT)}  {len(data):,} bytes  sha256 {hashlib.sha256(data).hexdigest()}")


if __name__ == "__main__":
    main()
