// The safetensors reader and the GPT-2 loader on any file: the input is three bytes that choose a
// tiny GPT-2 configuration and how the file arrives, then the file itself (the committed seeds are
// valid checkpoints for their configuration, so mutations give truncated files, lying header
// lengths, broken JSON, offsets past the end or overlapping, 2^53 and 2^64 offsets, wrong dtypes
// and shapes, unknown and missing tensors, NaN and infinite weights, shapes that disagree with the
// config). The file is read as loadModel reads it: the header length, the header, then the data
// in pieces of 1 to 128 bytes, with the file's length known or not (a stream).
// Invariants: every refusal starts with the argument at fault ("source: " for the file,
// "config." for the configuration) and says what is wrong; an accepted file gives a model whose
// run, ablated run and head scores are finite and in range, or a refusal naming ids.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/gpt2.h"
#include "core/gpt2_loader.h"
#include "core/safetensors.h"
#include "fuzz_input.h"

using namespace attn;

namespace {

void expect_named(const Error& e, const char* prefix, const char* step) {
  FUZZ_EXPECT(e.rfind(prefix, 0) == 0 && e.size() > std::string(prefix).size() + 8,
              std::string(step) + " refused without naming the argument: " + e);
}

// The first three bytes: the configuration and the way the file arrives.
struct Setup {
  gpt2::Config config;
  std::size_t piece = 1;
  bool size_known = true;
};

Setup setup(const std::uint8_t* b) {
  Setup s;
  gpt2::Config& c = s.config;
  c.n_layer = 1 + (b[0] & 1);
  c.n_head = (b[0] >> 3 & 7) == 7 ? 3 : 1 + (b[0] >> 1 & 1);  // 3 divides no width here
  c.n_embd = (1 + (b[0] >> 1 & 1)) * (1 + (b[0] >> 2 & 1));
  c.vocab_size = 1 + (b[1] & 3);
  c.n_positions = 1 + (b[1] >> 2 & 3);
  c.n_inner = 1 + (b[1] >> 4 & 3);
  c.layer_norm_epsilon = (b[1] >> 6) == 3 ? 0 : 1e-5;  // 0 is out of range
  s.piece = 1 + (b[2] & 0x7f);
  s.size_known = (b[2] & 0x80) == 0;
  return s;
}

void check_run(const gpt2::Model& m) {
  const gpt2::Config& c = m.config();
  gpt2::RunArgs a;
  for (int t = 0; t < std::min(c.n_positions, 3); t++) a.ids.push_back(t % c.vocab_size);
  a.top_k = c.vocab_size;
  a.stage_layer = c.n_layer - 1;
  a.stage_head = 0;
  FUZZ_EXPECT(gpt2::check_run(c, a).empty(), "a valid run was refused");
  const gpt2::Run r = gpt2::run(m, a);
  if (!r.error.empty()) {
    expect_named(r.error, "ids: ", "run");
    return;
  }
  const int n = static_cast<int>(a.ids.size());
  for (int t = 0; t < n; t++) {
    double sum = 0;
    for (int j = 0; j < r.k; j++) {
      const float p = r.top_probs[t * r.k + j];
      FUZZ_EXPECT(p >= 0 && p <= 1, "a probability outside [0, 1]");
      if (j > 0) FUZZ_EXPECT(p <= r.top_probs[t * r.k + j - 1], "top k out of order");
      sum += p;
    }
    FUZZ_EXPECT(std::fabs(sum - 1) < 1e-3, "the probabilities of every token do not sum to 1");
  }
  for (const Matrix& w : r.attention) {
    for (int i = 0; i < n; i++) {
      double sum = 0;
      for (int j = 0; j < n; j++) {
        FUZZ_EXPECT(j <= i || w.at(i, j) == 0, "a weight on a later token");
        sum += w.at(i, j);
      }
      FUZZ_EXPECT(std::fabs(sum - 1) < 1e-4, "a row of attention weights does not sum to 1");
    }
  }
  for (float x : r.residual_norms.data)
    FUZZ_EXPECT(std::isfinite(x), "a residual norm is not finite");
  FUZZ_EXPECT(r.stages.weights.data == r.attention[(c.n_layer - 1) * c.n_head].data,
              "the stages are not the run's own head");
  // every head ablated, replaced by its mean: the same ids are ranked, the baseline is the run
  a.ablated.assign(static_cast<std::size_t>(c.n_layer) * c.n_head, 1);
  a.ablation = gpt2::Ablation::Mean;
  const gpt2::Run ablated = gpt2::run(m, a);
  if (!ablated.error.empty()) return expect_named(ablated.error, "ids: ", "ablated run");
  const gpt2::Baseline b = gpt2::baseline(m, a, ablated);
  if (!b.error.empty()) return expect_named(b.error, "ids: ", "baseline");
  FUZZ_EXPECT(b.top_ids == r.top_ids && b.top_probs == r.top_probs, "the baseline is not the run");
  if (c.vocab_size >= 2 && c.n_positions >= 4) {
    const gpt2::HeadScores s = gpt2::head_scores(m, gpt2::distinct_tokens(1, 2, c.vocab_size));
    if (!s.error.empty()) return expect_named(s.error, "ids: ", "head scores");
    for (const Matrix* x :
         {&s.previous_token, &s.induction, &s.duplicate_token, &s.first_token, &s.entropy})
      for (float v : x->data) FUZZ_EXPECT(v >= 0 && v <= 1, "a head score outside [0, 1]");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const Setup s = setup(data);
  const std::uint8_t* file = data + 3;
  const std::size_t bytes = size - 3;
  Error e = gpt2::check_config(s.config);
  if (!e.empty()) {
    expect_named(e, "config.", "the config");
    return 0;
  }
  const double known = s.size_known ? static_cast<double>(bytes) : -1;
  std::uint8_t first[8] = {};
  std::copy_n(file, std::min<std::size_t>(8, bytes), first);
  if (bytes < 8 && !s.size_known) return 0;  // loadModel says "truncated" itself
  std::uint64_t n = 0;
  e = safetensors::header_length(first, known, &n);
  if (!e.empty()) {
    expect_named(e, "source: ", "the header length");
    return 0;
  }
  FUZZ_EXPECT(n <= safetensors::kMaxHeaderBytes, "a header length past the limit was accepted");
  if (n > bytes - 8) {
    FUZZ_EXPECT(!s.size_known, "a header past the end of the file was accepted");
    return 0;  // loadModel says "truncated" itself
  }
  const safetensors::Header h =
      safetensors::parse_header(reinterpret_cast<const char*>(file) + 8, n, known);
  gpt2::Loader loader(s.config, h);
  if (!loader.error().empty()) {
    expect_named(loader.error(), "source: ", "the header");
    return 0;
  }
  FUZZ_EXPECT(loader.allocate(), "a tiny model could not be allocated");
  for (std::size_t at = 8 + n; at < bytes; at += s.piece) {
    e = loader.feed(file + at, std::min(s.piece, bytes - at));
    if (!e.empty()) {
      expect_named(e, "source: ", "the data");
      return 0;
    }
  }
  e = loader.finish();
  if (!e.empty()) {
    expect_named(e, "source: ", "the end of the data");
    return 0;
  }
  FUZZ_EXPECT(s.size_known || loader.received() == loader.data_bytes(), "bytes missing");
  std::unique_ptr<gpt2::Model> m = loader.take();
  check_run(*m);
  return 0;
}
