#!/usr/bin/env python3
"""Seed inputs for the flash, trainer and safetensors fuzz harnesses (tests/fuzz/corpus/<name>).

Each seed is written as the values the harness decodes, in its order (flash_fuzz.cpp,
trainer_fuzz.cpp, fuzz_input.h), encoded the way libFuzzer's FuzzedDataProvider reads them:
integers from the end of the input backwards, the first byte read the most significant; a value
in [lo, hi] is (value - lo) in as many bytes as hi - lo needs; a bool is the low bit of one byte;
a number is either one of fuzz_input.h's special values (selector 0 and its index) or a float in
[-10, 10] (selector 2 and a uint32 fraction). Each file is named by the SHA-1 of its bytes, as
libFuzzer names its own. Small, valid inputs: every check in the harness accepts them.
The safetensors harness reads its three first bytes itself (a tiny GPT-2 configuration and how
the file arrives: safetensors_fuzz.cpp, setup()) and the rest is a checkpoint file of that shape.

    python3 tests/fuzz/make_seeds.py        (rewrites the three folders)
"""
import hashlib
import json
import pathlib
import struct

ROOT = pathlib.Path(__file__).resolve().parent / "corpus"

# fuzz_input.h, any_float(): kSpecial
SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, 1e-45, -1e-45, "FLT_MIN", 1e-38, 1e-30, 1e-6, 88.72, 89.0,
           100.0, 1e4, 1e9, -1e9, 1e10, 1e19, 1e20, -1e20, 1e30, 1e38, "FLT_MAX", "-FLT_MAX",
           "inf", "-inf", "nan"]


class Seed:
    def __init__(self):
        self.read = []  # bytes in the order the harness reads them

    def _int(self, lo, hi, value):
        assert lo <= value <= hi, (lo, hi, value)
        span, width = hi - lo, 0
        while width < 8 and (span >> (8 * width)) > 0:
            width += 1
        self.read += list((value - lo).to_bytes(width, "big")) if width else []

    def range(self, lo, hi, value):
        self._int(lo, hi, value)
        return value

    def flag(self, value):
        self.read.append(1 if value else 0)
        return value

    def u64(self, value):
        self.read += list(value.to_bytes(8, "big"))

    def number(self, x):
        if x in SPECIAL:
            self.range(0, 7, 0)
            self.range(0, len(SPECIAL) - 1, SPECIAL.index(x))
        else:
            assert -10 <= x <= 10, x
            self.range(0, 7, 2)
            fraction = round((x + 10) / 20 * 0xFFFFFFFF)
            self.read += list(fraction.to_bytes(4, "big"))

    def matrix(self, rows):  # rows: lists of numbers; no entry added or dropped
        for row in rows:
            for x in row:
                self.number(x)
        self.range(0, 63, 1)

    def near(self, expected):  # the expected count, neither one more nor one less
        self.range(0, 15, 2)
        return expected

    def flags(self, values):  # each True one time in four
        for v in values:
            self.range(0, 3, 0 if v else 1)

    def data(self):
        return bytes(reversed(self.read))


def write(name, seeds):
    folder = ROOT / name
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    for s in seeds:
        data = s.data()
        (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
    print(f"{name}: {len(seeds)} seeds in {folder}")


def grid(rows, cols, f):
    return [[f(i, j) for j in range(cols)] for i in range(rows)]


# ---- flash_fuzz.cpp ----------------------------------------------------------------------------
def flash(q, k, v, causal=False, padding=None, window=None, stride=None, block=0, offset=-1,
          trace=False, scale=(0, 0, 0)):
    s = Seed()
    n_q, d, n_k, d_v = len(q), len(q[0]), len(k), len(v[0])
    for side in (n_q, n_k, d, d_v):
        s.range(1, 32, side)
    s.matrix(q)
    s.near(n_k)
    s.near(d)
    s.matrix(k)
    s.near(n_k)
    s.matrix(v)
    for index in scale:  # maybe_scale: 0 keeps the numbers, 4 is 1e19, 8 is 1e37
        s.range(0, 8, index)
    s.flag(causal)
    if s.flag(padding is not None):
        s.near(n_k)
        s.flags(padding)
    if window is not None:
        s.range(0, 3, 0)
        s.range(-2, 40, window)
    elif stride is not None:
        s.range(0, 3, 1)
        s.range(-1, 40, stride)
    else:
        s.range(0, 3, 2)
    s.range(0, 40, block)
    s.range(-1, 40, offset)
    s.flag(trace)
    return s


def flash_seeds():
    q4 = grid(4, 4, lambda i, j: ((i + 2 * j) % 5 - 2) / 2)
    k4 = grid(4, 4, lambda i, j: ((3 * i + j) % 7 - 3) / 3)
    v3 = grid(4, 3, lambda i, j: float(i - j))
    big = [[1e19, 1e19], [1e20, -1e20]]
    return [
        flash(q4, k4, v3),  # plain attention, one block
        flash(q4, k4, v3, causal=True, block=2, trace=True),  # causal, two blocks, the trace
        flash(q4, k4, v3, padding=[False, False, True, True], block=3),  # padded keys
        flash(q4, k4, v3, window=1, offset=0),  # a sliding window
        flash(q4, k4, v3, stride=2, trace=True),  # a strided pattern, the trace
        flash([[1.0, 0.5]], big, [[1e38, "-FLT_MAX"], [1.0, 89.0]]),  # float32's edge
        flash(q4, k4, v3, scale=(4, 0, 8), block=1),  # whole matrices scaled toward the edge
        flash([[0.0]], [[0.0]], [[1.0]], padding=[True]),  # every key blocked
    ]


# ---- trainer_fuzz.cpp --------------------------------------------------------------------------


def trainer(task=0, position=0, layers=1, heads=1, d_model=4, seed=7, batch=1, scale=True,
            calls=(), limits=False):
    s = Seed()
    s.range(0, 5, task)
    s.range(0, 3, position)
    s.range(0, 3, layers)
    s.range(0, 5, heads)
    s.range(3, 17, d_model)
    s.flag(True)  # learning rate 0.003
    s.u64(seed)
    s.range(0, 4, batch)
    s.flag(scale)
    s.range(0, 15, 15 if limits else 0)  # 15: every size at its limit, for one call
    if not limits:
        s.range(1, 6, len(calls))
    for call in calls:
        kind = call[0]
        index = {"step": 1, "step_on": 2, "gradients": 3, "run": 4, "scores": 5, "evaluate": 6}[kind]
        s.range(2, 4, index) if limits else s.range(0, 6, index)  # at the limits: step_on, gradients, run
        if kind == "scores":
            s.flag(True)  # the heads' scores (not an ablated evaluation)
        if kind in ("step_on", "gradients", "run"):
            size, length, tokens, targets = call[1:]
            s.range(0, 3, size)
            s.range(1, 20, length)
            s.near(length)
            s.near(len(tokens))
            for t in tokens:
                s.range(-1, 2, t)  # read as range(-1, vocab): one byte, value + 1
            if s.range(0, 7, 1 if targets is not None else 0):
                s.near(len(targets))
                for t in targets:
                    s.range(-2, 2, t)  # range(-2, vocab): one byte, value + 2
    return s


def trainer_seeds():
    seq = [0, 1, 1, 0]
    return [
        trainer(calls=[("step",), ("evaluate",)]),
        trainer(task=1, layers=2, heads=2, d_model=8, calls=[("step",), ("step",), ("scores",), ("evaluate",)]),
        trainer(task=2, position=1, calls=[("step_on", 1, 4, seq, [1, -1, 0, 1])]),
        trainer(task=3, heads=2, d_model=6, batch=2, calls=[("gradients", 2, 2, seq, [-1, 0, 1, -1])]),
        trainer(position=2, scale=False, calls=[("run", 1, 4, seq, [1, 1, 0, -1]), ("evaluate",)]),
        trainer(layers=2, heads=4, d_model=16, batch=4, calls=[("step",), ("run", 1, 3, [1, 0, 1], [0, 1, 0])]),
        trainer(task=4, limits=True, calls=[("run", 1, 5, [1, 2, 0, 1, 2], [2, 0, 1, 2, -1])]),  # the largest
    ]


def checkpoint(layers, heads, d_head, vocab, positions, inner, dtype="F32", prefix="", piece=7,
               size_known=True, buffers=False, tied=False, values=None):
    """A tiny GPT-2 checkpoint, after the three bytes that give its shape to the harness.
    values: {tensor name: its values} for tensors whose values are given, not the pattern."""
    d = heads * d_head
    b0 = (layers - 1) | (heads - 1) << 1 | (d_head - 1) << 2
    b1 = (vocab - 1) | (positions - 1) << 2 | (inner - 1) << 4
    b2 = (piece - 1) | (0 if size_known else 0x80)
    shapes = {"wte.weight": [vocab, d], "wpe.weight": [positions, d], "ln_f.weight": [d], "ln_f.bias": [d]}
    for i in range(layers):
        p = f"h.{i}."
        shapes.update({p + "ln_1.weight": [d], p + "ln_1.bias": [d], p + "ln_2.weight": [d],
                       p + "ln_2.bias": [d], p + "attn.c_attn.weight": [d, 3 * d],
                       p + "attn.c_attn.bias": [3 * d], p + "attn.c_proj.weight": [d, d],
                       p + "attn.c_proj.bias": [d], p + "mlp.c_fc.weight": [d, inner],
                       p + "mlp.c_fc.bias": [inner], p + "mlp.c_proj.weight": [inner, d],
                       p + "mlp.c_proj.bias": [d]})
    tensors = []  # (name, dtype, shape, values)
    for k, (name, shape) in enumerate(sorted(shapes.items())):
        n = 1
        for s in shape:
            n *= s
        ones = name.endswith(("ln_1.weight", "ln_2.weight", "ln_f.weight"))
        pattern = [1.0 if ones else ((i + k) % 5 - 2) / 4 for i in range(n)]
        tensors.append((prefix + name, dtype, shape, (values or {}).get(name, pattern)))
    if buffers:
        for i in range(layers):
            mask = [1.0 if c <= r else 0.0 for r in range(positions) for c in range(positions)]
            tensors.append((f"{prefix}h.{i}.attn.bias", "BOOL", [1, 1, positions, positions], mask))
            tensors.append((f"{prefix}h.{i}.attn.masked_bias", "F32", [], [-1e4]))
    if tied:  # first in the file, as in real ones: wte is then compared with it
        wte = next(t[3] for t in tensors if t[0].endswith("wte.weight"))
        tensors.insert(0, ("lm_head.weight", dtype, [vocab, d], wte))
    pack = {"F32": lambda v: struct.pack("<f", v), "F16": lambda v: struct.pack("<e", v),
            "BF16": lambda v: struct.pack("<f", v)[2:], "BOOL": lambda v: bytes([int(v)])}
    header, data = {}, b""
    for name, dt, shape, values in tensors:
        blob = b"".join(pack[dt](v) for v in values)
        header[name] = {"dtype": dt, "shape": shape, "data_offsets": [len(data), len(data) + len(blob)]}
        data += blob
    text = json.dumps(header, separators=(",", ":")).encode()
    seed = bytes([b0, b1, b2]) + struct.pack("<Q", len(text)) + text + data
    assert len(seed) <= 2048, (len(seed), "tests/fuzz/run.sh reads inputs of at most 2048 bytes")
    return Raw(seed)


class Raw:  # a seed written as it is
    def __init__(self, data):
        self._data = data

    def data(self):
        return self._data


def safetensors_seeds():
    return [
        checkpoint(1, 1, 2, vocab=3, positions=4, inner=2),
        checkpoint(1, 2, 1, vocab=4, positions=2, inner=4, dtype="F16", prefix="transformer.", piece=13,
                   size_known=False),
        checkpoint(1, 1, 1, vocab=2, positions=2, inner=1, dtype="BF16", buffers=True, tied=True, piece=1),
        checkpoint(1, 1, 1, vocab=2, positions=4, inner=1, dtype="F16", piece=128),
        # finite weights whose arithmetic leaves float32 where the residual stream does not: q·k of
        # q = 1e20 and k = -1e20 is -inf (a causal row of -inf scores has no weights), and logits
        # of ln_f's 1e30 and wte's 1e30 are inf
        checkpoint(1, 1, 2, vocab=3, positions=4, inner=2,
                   values={"h.0.attn.c_attn.bias": [1e20, 1e20, -1e20, -1e20, 0, 0]}),
        checkpoint(1, 1, 2, vocab=3, positions=4, inner=2,
                   values={"wte.weight": [1e30] * 6, "ln_f.bias": [1e30] * 2}),
    ]  # (two blocks take more than the 2048 bytes of an input)


if __name__ == "__main__":
    write("flash", flash_seeds())
    write("trainer", trainer_seeds())
    write("safetensors", safetensors_seeds())
