// The playground's transformer: its gradients against central finite differences of an
// independent double-precision model (Eigen, written from the maths in transformer.h), the
// task generators, Adam, determinism of a seeded run, the argument checks, and learning.
#include <gtest/gtest.h>

#include "heap.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/positional.h"
#include "core/train.h"

namespace {

using attn::Batch;
using attn::ModelConfig;
using attn::PositionKind;
using attn::TrainConfig;
using attn::Trainer;
using attn::TrainTask;
using attn::Transformer;
using Mat = Eigen::MatrixXd;

// ---- the double-precision reference model ------------------------------------------------------

// The parameters by name, as double matrices (read from a flat vector through the names).
struct RefParams {
  std::map<std::string, Mat> m;
  const Mat& operator[](const std::string& name) const { return m.at(name); }
};

RefParams ref_params(const Transformer& model, const std::vector<double>& flat) {
  RefParams p;
  for (const attn::Tensor& t : model.tensors()) {
    Mat x(t.rows, t.cols);
    for (int r = 0; r < t.rows; r++)
      for (int c = 0; c < t.cols; c++)
        x(r, c) = flat[t.offset + static_cast<std::size_t>(r) * t.cols + c];
    p.m[t.name] = x;
  }
  return p;
}

// The loss of transformer.h's model, in double, one sequence at a time.
double ref_loss(const ModelConfig& cfg, const RefParams& p, const Batch& b) {
  const int D = cfg.d_model, H = cfg.heads, dk = D / H, T = b.length;
  Mat sinus;
  if (cfg.position == PositionKind::Sinusoidal) {  // sin / cos of p / 10000^(2i/D), in double
    sinus = Mat(T, D);
    for (int t = 0; t < T; t++)
      for (int c = 0; c < D; c++) {
        double angle = t / std::pow(10000.0, static_cast<double>(c - c % 2) / D);
        sinus(t, c) = c % 2 == 0 ? std::sin(angle) : std::cos(angle);
      }
  }
  double loss = 0;
  int count = 0;
  for (int s = 0; s < b.size; s++) {
    Mat x(T, D);
    for (int t = 0; t < T; t++) {
      x.row(t) = p["embedding"].row(b.tokens[s * T + t]);
      if (cfg.position == PositionKind::Learned) x.row(t) += p["position"].row(t);
      if (cfg.position == PositionKind::Sinusoidal) x.row(t) += sinus.row(t);
    }
    for (int l = 0; l < cfg.layers; l++) {
      const std::string n = "layers." + std::to_string(l) + ".";
      auto linear = [&](const char* w, const char* bias) {
        Mat y = x * p[n + w].transpose();
        y.rowwise() += p[n + bias].row(0);
        return y;
      };
      Mat q = linear("Wq", "bq"), k = linear("Wk", "bk"), v = linear("Wv", "bv");
      Mat z(T, D);
      for (int h = 0; h < H; h++) {
        Mat s_ = q.middleCols(h * dk, dk) * k.middleCols(h * dk, dk).transpose();
        if (cfg.scale) s_ /= std::sqrt(static_cast<double>(dk));
        Mat a = Mat::Zero(T, T);
        for (int i = 0; i < T; i++) {
          double mx = s_.row(i).head(i + 1).maxCoeff(), sum = 0;
          for (int j = 0; j <= i; j++) sum += a(i, j) = std::exp(s_(i, j) - mx);
          a.row(i) /= sum;
        }
        z.middleCols(h * dk, dk) = a * v.middleCols(h * dk, dk);
      }
      Mat out = z * p[n + "Wo"].transpose();
      out.rowwise() += p[n + "bo"].row(0);
      x += out;
    }
    Mat logits = x * p["unembedding"].transpose();
    logits.rowwise() += p["unembeddingBias"].row(0);
    for (int t = 0; t < T; t++) {
      const int target = b.targets[s * T + t];
      if (target == attn::kNoTarget) continue;
      double mx = logits.row(t).maxCoeff();
      double lse = mx + std::log((logits.row(t).array() - mx).exp().sum());
      loss += lse - logits(t, target);
      count++;
    }
  }
  return loss / count;
}

struct GradCase {
  const char* name;
  TrainTask task;
  int layers, heads, d_model;
  bool scale;
  PositionKind position;
};

class GradientCheck : public ::testing::TestWithParam<GradCase> {};

// Every parameter's gradient against (L(p + h) - L(p - h)) / 2h of the double model, h = 1e-5.
TEST_P(GradientCheck, MatchesCentralFiniteDifferencesOfADoubleModel) {
  const GradCase& g = GetParam();
  TrainConfig c;
  c.task = g.task;
  c.layers = g.layers;
  c.heads = g.heads;
  c.d_model = g.d_model;
  c.scale = g.scale;
  c.position = g.position;
  c.seed = 7;
  c.batch = 3;
  ASSERT_EQ(attn::check_train_config(c), "");
  Trainer trainer(c);
  // A few steps first, so the gradients are not those of the symmetric start.
  for (int i = 0; i < 5; i++) trainer.step();
  attn::Rng rng(99, 5);
  Batch batch = attn::make_batch(c.task, rng, c.batch);
  attn::ForwardStats f = trainer.gradients_on(batch);
  const Transformer& model = trainer.model();
  const std::vector<float>& grads = model.gradients();
  std::vector<double> p(model.parameters().begin(), model.parameters().end());

  const ModelConfig cfg = model.config();
  EXPECT_NEAR(f.loss, ref_loss(cfg, ref_params(model, p), batch), 1e-5 * std::max(1.0, f.loss));

  const double h = 1e-5;
  double worst = 0, largest = 0;
  std::string worst_at;
  for (const attn::Tensor& t : model.tensors()) {
    for (std::size_t i = t.offset; i < t.offset + t.size(); i++) {
      const double keep = p[i];
      p[i] = keep + h;
      const double up = ref_loss(cfg, ref_params(model, p), batch);
      p[i] = keep - h;
      const double down = ref_loss(cfg, ref_params(model, p), batch);
      p[i] = keep;
      const double fd = (up - down) / (2 * h);
      const double err = std::fabs(grads[i] - fd) / (1e-3 + std::fabs(fd));
      largest = std::max(largest, std::fabs(fd));
      if (err > worst) {
        worst = err;
        worst_at = t.name + "[" + std::to_string(i - t.offset) + "]: engine " +
                   std::to_string(grads[i]) + ", finite difference " + std::to_string(fd);
      }
    }
  }
  EXPECT_GT(largest, 1e-3);  // the check sees real gradients
  EXPECT_LT(worst, 1e-3) << worst_at;
  RecordProperty("worst_relative_error", std::to_string(worst));
  std::printf("worst relative error %.3g (%s)\n", worst, worst_at.c_str());
}

INSTANTIATE_TEST_SUITE_P(
    Models, GradientCheck,
    ::testing::Values(
        GradCase{"two_layers_learned", TrainTask::PreviousToken, 2, 2, 8, true,
                 PositionKind::Learned},
        GradCase{"one_layer_unscaled_sinusoidal", TrainTask::Reverse, 1, 1, 8, false,
                 PositionKind::Sinusoidal},
        GradCase{"four_heads_no_position", TrainTask::Induction, 2, 4, 8, true, PositionKind::None},
        GradCase{"sort_three_heads", TrainTask::Sort, 1, 3, 12, true, PositionKind::Learned}),
    [](const ::testing::TestParamInfo<GradCase>& info) { return std::string(info.param.name); });

// ---- tasks ---------------------------------------------------------------------------------

TEST(TrainTasks, PreviousTokenTargetsTheTokenBefore) {
  attn::Rng rng(3, 2);
  Batch b = attn::make_batch(TrainTask::PreviousToken, rng, 20);
  std::set<int> seen;
  for (int s = 0; s < b.size; s++) {
    const int* x = &b.tokens[s * b.length];
    const int* y = &b.targets[s * b.length];
    EXPECT_EQ(y[0], attn::kNoTarget);
    for (int t = 1; t < b.length; t++) EXPECT_EQ(y[t], x[t - 1]);
    for (int t = 0; t < b.length; t++) {
      EXPECT_GE(x[t], 0);
      EXPECT_LT(x[t], 16);
      seen.insert(x[t]);
    }
  }
  EXPECT_EQ(seen.size(), 16u);  // every token drawn somewhere in 320 draws
}

TEST(TrainTasks, ReverseAndSortAnswerAfterTheSeparator) {
  for (TrainTask task : {TrainTask::Reverse, TrainTask::Sort}) {
    attn::Rng rng(4, 2);
    Batch b = attn::make_batch(task, rng, 20);
    for (int s = 0; s < b.size; s++) {
      const int* x = &b.tokens[s * 16];
      const int* y = &b.targets[s * 16];
      std::vector<int> digits(x, x + 8), answer(y + 8, y + 16);
      for (int t = 0; t < 8; t++) EXPECT_EQ(y[t], attn::kNoTarget);
      EXPECT_EQ(x[8], 10);
      for (int i = 0; i < 7; i++) EXPECT_EQ(x[9 + i], answer[i]);  // the answer so far is the input
      std::vector<int> want = digits;
      if (task == TrainTask::Sort)
        std::sort(want.begin(), want.end());
      else
        std::reverse(want.begin(), want.end());
      EXPECT_EQ(answer, want);
    }
  }
}

TEST(TrainTasks, InductionRepeatsABlockOfDistinctTokens) {
  attn::Rng rng(5, 2);
  Batch b = attn::make_batch(TrainTask::Induction, rng, 50);
  std::set<int> blocks;
  for (int s = 0; s < b.size; s++) {
    const int* x = &b.tokens[s * 16];
    const int* y = &b.targets[s * 16];
    int m = 0;
    while (y[m] == attn::kNoTarget) m++;  // the first target is at the first repeat
    blocks.insert(m);
    ASSERT_GE(m, 5);
    ASSERT_LE(m, 8);
    EXPECT_EQ(std::set<int>(x, x + m).size(), static_cast<std::size_t>(m));  // distinct
    for (int t = m; t < 16; t++) EXPECT_EQ(x[t], x[t - m]);
    for (int t = m; t < 15; t++) {
      // the token after this token's first occurrence
      const int first = static_cast<int>(std::find(x, x + m, x[t]) - x);
      EXPECT_EQ(y[t], x[first + 1]);
    }
    EXPECT_EQ(y[15], attn::kNoTarget);
  }
  EXPECT_EQ(blocks.size(), 4u);  // m = 5, 6, 7 and 8 all occur
}

// Olsson et al.'s form: 32 random tokens of 0..63, a segment of 6..12 distinct tokens written
// twice (the second copy at least a segment after the first), and targets only in the second
// copy: the token that followed this one in the first.
TEST(TrainTasks, RandomInductionRepeatsARandomSegment) {
  attn::Rng rng(7, 2);
  const attn::TaskSpec spec = attn::task_spec(TrainTask::RandomInduction);
  ASSERT_EQ(spec.length, 32);
  ASSERT_EQ(spec.vocab, 64);
  Batch b = attn::make_batch(TrainTask::RandomInduction, rng, 400);
  ASSERT_EQ(b.length, 32);
  std::set<int> lengths;
  for (int s = 0; s < b.size; s++) {
    const int* x = &b.tokens[s * 32];
    const int* y = &b.targets[s * 32];
    int second = 0;
    while (second < 32 && y[second] == attn::kNoTarget) second++;
    ASSERT_LT(second, 32);
    int m = 0;
    while (second + m < 32 && y[second + m] != attn::kNoTarget) m++;
    m += 1;  // the copy's last token has no target
    lengths.insert(m);
    ASSERT_GE(m, 6);
    ASSERT_LE(m, 12);
    for (int t = second + m; t < 32; t++) EXPECT_EQ(y[t], attn::kNoTarget);
    // the first copy: the latest earlier run of the same m tokens, ending at least m before
    int first = -1;
    for (int p = second - m; p >= 0 && first < 0; p--)
      if (std::equal(x + p, x + p + m, x + second)) first = p;
    ASSERT_GE(first, 0) << "sequence " << s;
    EXPECT_EQ(std::set<int>(x + second, x + second + m).size(), static_cast<std::size_t>(m));
    for (int i = 0; i + 1 < m; i++) EXPECT_EQ(y[second + i], x[first + i + 1]);
    for (int t = 0; t < 32; t++) {
      ASSERT_GE(x[t], 0);
      ASSERT_LT(x[t], 64);
    }
  }
  EXPECT_EQ(lengths.size(), 7u);  // every segment length 6..12 occurs
}

// The batch the scores are measured on: half random distinct tokens, then the same again.
TEST(TrainTasks, RepeatedRandomBatchIsAHalfWrittenTwice) {
  Batch b = attn::repeated_random_batch(64, 32, 8);
  EXPECT_TRUE(b.targets.empty());
  std::set<std::vector<int>> rows;
  for (int s = 0; s < 8; s++) {
    const int* x = &b.tokens[s * 32];
    EXPECT_EQ(std::set<int>(x, x + 16).size(), 16u);
    for (int t = 16; t < 32; t++) EXPECT_EQ(x[t], x[t - 16]);
    rows.insert(std::vector<int>(x, x + 32));
  }
  EXPECT_EQ(rows.size(), 8u);
  EXPECT_EQ(attn::repeated_random_batch(64, 32, 8).tokens, b.tokens);  // the same for every run
  Batch small = attn::repeated_random_batch(11, 16, 4);  // more half than vocabulary: still tokens
  for (int x : small.tokens) EXPECT_LT(x, 11);
}

// ---- what a head does ------------------------------------------------------------------------

// The scores in double, written from their definitions with other loops: the previous token by
// the diagonal below the main one, the induction target through a table of each token's last
// position so far.
attn::PatternScores reference_scores(const std::vector<std::vector<double>>& a,
                                     const std::vector<int>& tokens) {
  const int T = static_cast<int>(tokens.size());
  attn::PatternScores s;
  double prev = 0;
  for (int i = 0; i + 1 < T; i++) prev += a[i + 1][i];
  s.previous_token = prev / (T - 1);
  std::map<int, int> last;
  double ind = 0;
  for (int i = 0; i < T; i++) {
    auto it = last.find(tokens[i]);
    if (it != last.end()) {
      ind += a[i][it->second + 1];
      s.induction_rows++;
    }
    last[tokens[i]] = i;
  }
  s.induction = s.induction_rows ? ind / s.induction_rows : 0;
  return s;
}

TEST(HeadScores, MatchTheDoubleReferenceOnHandBuiltPatterns) {
  // tokens with repeats, one of them three times (the latest occurrence counts)
  const std::vector<int> tokens = {5, 9, 2, 5, 7, 9, 5, 3, 2, 7};
  const int T = static_cast<int>(tokens.size());
  attn::Rng rng(3, 1);
  for (int trial = 0; trial < 20; trial++) {
    std::vector<float> u(T * T);
    rng.uniform(u.data(), T * T);
    std::vector<std::vector<double>> ref(T, std::vector<double>(T, 0.0));
    attn::Matrix a(T, T);
    for (int i = 0; i < T; i++) {
      double sum = 0;
      for (int j = 0; j <= i; j++) sum += ref[i][j] = 0.05 + u[i * T + j];
      for (int j = 0; j <= i; j++) {
        a.at(i, j) = static_cast<float>(ref[i][j] / sum);
        ref[i][j] = a.at(i, j);  // the reference reads the same float weights
      }
    }
    const attn::PatternScores got = attn::pattern_scores(a, tokens.data());
    const attn::PatternScores want = reference_scores(ref, tokens);
    EXPECT_NEAR(got.previous_token, want.previous_token, 1e-9);
    EXPECT_NEAR(got.induction, want.induction, 1e-9);
    EXPECT_EQ(got.induction_rows, 5);  // positions 3, 5, 6, 8, 9
  }
  // pure patterns: all on the position before; all on the token after the last occurrence
  attn::Matrix prev(T, T), ind(T, T);
  prev.at(0, 0) = 1;
  for (int i = 1; i < T; i++) prev.at(i, i - 1) = 1;
  const int after[] = {0, 1, 2, 1, 4, 2, 4, 7, 3, 5};  // by hand: the latest earlier occurrence + 1
  for (int i = 0; i < T; i++) ind.at(i, after[i]) = 1;
  EXPECT_DOUBLE_EQ(attn::pattern_scores(prev, tokens.data()).previous_token, 1.0);
  EXPECT_DOUBLE_EQ(attn::pattern_scores(ind, tokens.data()).induction, 1.0);
  // no repeat: no induction rows, score 0
  const std::vector<int> distinct = {0, 1, 2, 3};
  attn::Matrix d(4, 4);
  for (int i = 0; i < 4; i++) d.at(i, 0) = 1;
  EXPECT_EQ(attn::pattern_scores(d, distinct.data()).induction_rows, 0);
  EXPECT_EQ(attn::pattern_scores(d, distinct.data()).induction, 0.0);
  EXPECT_NEAR(attn::pattern_scores(d, distinct.data()).previous_token, 1.0 / 3, 1e-12);
}

// A trainer's scores are those of its own attention on the repeated random batch, every head
// averaged over the batch's sequences (the reference reads the same patterns in double).
TEST(HeadScores, TrainerAveragesTheScoreBatch) {
  TrainConfig c;
  c.task = TrainTask::RandomInduction;
  c.d_model = 16;
  c.batch = 4;
  Trainer t(c);
  for (int i = 0; i < 3; i++) t.step();
  const attn::HeadScores s = t.head_scores();
  ASSERT_EQ(s.error, "");
  ASSERT_EQ(s.previous_token.size(), 4u);
  Batch b = attn::repeated_random_batch(64, 32, attn::kScoreSequences);
  t.run(b);
  for (int l = 0; l < 2; l++)
    for (int h = 0; h < 2; h++) {
      double prev = 0, ind = 0;
      for (int q = 0; q < b.size; q++) {
        attn::Matrix a = t.model().attention(l, h, q);
        std::vector<std::vector<double>> ref(32, std::vector<double>(32));
        for (int i = 0; i < 32; i++)
          for (int j = 0; j < 32; j++) ref[i][j] = a.at(i, j);
        const attn::PatternScores r =
            reference_scores(ref, std::vector<int>(&b.tokens[q * 32], &b.tokens[q * 32] + 32));
        EXPECT_EQ(r.induction_rows, 16);
        prev += r.previous_token / b.size;
        ind += r.induction / b.size;
      }
      EXPECT_NEAR(s.previous_token[l * 2 + h], prev, 1e-9);
      EXPECT_NEAR(s.induction[l * 2 + h], ind, 1e-9);
    }
}

// Ablating a head (its output zeroed) is the same model as the one with that head's d_k columns
// of W_o set to zero: the same loss, probabilities and later attention.
TEST(Ablation, EqualsZeroingTheHeadsBlockOfWo) {
  TrainConfig c;
  c.task = TrainTask::RandomInduction;
  c.d_model = 16;
  c.heads = 2;
  c.batch = 4;
  Trainer t(c);
  for (int i = 0; i < 5; i++) t.step();
  const int dk = 8;
  for (int l = 0; l < 2; l++)
    for (int h = 0; h < 2; h++) {
      std::vector<char> ablated(4, 0);
      ablated[l * 2 + h] = 1;
      const attn::ForwardStats a = t.evaluate(ablated);
      const std::vector<float> probs = t.model().probabilities();
      const attn::Matrix later = t.model().attention(1, 0, 3);
      Trainer zeroed(c);
      zeroed.model().parameters() = t.model().parameters();
      const attn::Tensor* wo = zeroed.model().tensor("layers." + std::to_string(l) + ".Wo");
      ASSERT_NE(wo, nullptr);
      for (int r = 0; r < wo->rows; r++)
        for (int k = h * dk; k < (h + 1) * dk; k++)
          zeroed.model().parameters()[wo->offset + r * wo->cols + k] = 0.0f;
      const attn::ForwardStats z = zeroed.evaluate();
      EXPECT_NEAR(a.loss, z.loss, 1e-6 * std::max(1.0, z.loss)) << l << " " << h;
      EXPECT_EQ(a.accuracy, z.accuracy);
      const std::vector<float>& zp = zeroed.model().probabilities();
      ASSERT_EQ(probs.size(), zp.size());
      double worst = 0;
      for (std::size_t i = 0; i < probs.size(); i++)
        worst = std::max(worst, std::fabs(double(probs[i]) - zp[i]));
      EXPECT_LT(worst, 1e-6);
      if (l == 0) {
        const attn::Matrix zl = zeroed.model().attention(1, 0, 3);
        for (std::size_t i = 0; i < later.data.size(); i++)
          EXPECT_NEAR(later.data[i], zl.data[i], 1e-6);
      }
      // and the ablation lasts one pass: the next evaluation is the whole model again
      const attn::ForwardStats whole = t.evaluate();
      const attn::ForwardStats whole_again = t.evaluate();
      EXPECT_EQ(whole.loss, whole_again.loss);
      EXPECT_NE(whole.loss, a.loss);
    }
}

TEST(TrainTasks, TheProbeIsFixed) {
  Batch a = attn::probe_batch(TrainTask::Induction), b = attn::probe_batch(TrainTask::Induction);
  EXPECT_EQ(a.tokens, b.tokens);
  EXPECT_NE(attn::probe_batch(TrainTask::PreviousToken).tokens,
            attn::probe_batch(TrainTask::Sort).tokens);
}

// ---- Adam ----------------------------------------------------------------------------------

// ---- finite in, finite out --------------------------------------------------------------------

// A step whose gradient is past float32 is refused whole: the moments, the step count and the
// parameters stay as they were, and the next finite step is Adam's first.
TEST(Adam, RefusesAStepThatWouldLeaveFloat32AndChangesNothing) {
  attn::Adam adam(2, 0.1f);
  std::vector<float> p = {1.0f, -2.0f};
  EXPECT_FALSE(adam.update(p, {0.5f, std::numeric_limits<float>::infinity()}));
  EXPECT_FALSE(adam.update(p, {0.5f, 3e38f}));  // g * g passes float32
  EXPECT_EQ(p, (std::vector<float>{1.0f, -2.0f}));
  EXPECT_EQ(adam.steps(), 0);
  EXPECT_TRUE(adam.update(p, {0.5f, -4.0f}));
  EXPECT_NEAR(p[0], 0.9, 1e-6);  // as the first step of FollowsTorchsUpdate
  EXPECT_NEAR(p[1], -1.9, 1e-6);
}

TrainConfig small_config() {
  TrainConfig c;
  c.d_model = 16;
  c.batch = 8;
  return c;
}

// The case: finite weights (embedding filled with 1e20, 1e10 or 3e38) that made the
// held-out loss and every step's loss NaN are refused by set_parameters, naming the tensor,
// and nothing changes.
TEST(TrainerRange, SetParametersRefusesWeightsThatTakeTheForwardPassPastFloat32) {
  for (float fill : {1e10f, 1e20f, 3e38f}) {
    Trainer t(small_config());
    const std::vector<float> before = t.model().parameters();
    const attn::Tensor* e = t.model().tensor("embedding");
    attn::Matrix big(e->rows, e->cols, fill);
    ASSERT_EQ(attn::check_parameter(t.model(), "embedding", big), "");
    attn::Error err = t.set_parameters({{e, big}});
    EXPECT_EQ(err.rfind("embedding: with these values training leaves float32", 0), 0u) << err;
    EXPECT_NE(err.find("nothing was changed"), std::string::npos) << err;
    EXPECT_EQ(t.model().parameters(), before) << fill;
    attn::ForwardStats f = t.evaluate();
    EXPECT_EQ(f.error, "");
    EXPECT_TRUE(std::isfinite(f.loss));
  }
  Trainer t(small_config());  // ordinary values are kept
  const attn::Tensor* e = t.model().tensor("embedding");
  attn::Matrix ones(e->rows, e->cols, 0.5f);
  EXPECT_EQ(t.set_parameters({{e, ones}}), "");
  EXPECT_EQ(t.model().parameters()[e->offset], 0.5f);
}

// Weights past what the forward pass can carry (written straight into the model, as no
// checked call can) make evaluate, run, gradients and step errors naming the cause, never a
// NaN loss; a refused step keeps the weights.
TEST(TrainerRange, ANonFiniteForwardPassIsAnErrorAndTheStepIsNotTaken) {
  Trainer t(small_config());
  const attn::Tensor* e = t.model().tensor("embedding");
  std::fill_n(t.model().parameters().begin() + static_cast<std::ptrdiff_t>(e->offset), e->size(),
              1e20f);
  const std::vector<float> before = t.model().parameters();
  attn::ForwardStats f = t.evaluate();
  EXPECT_EQ(f.error,
            "evaluate: the forward pass leaves float32 with these weights (the largest |weight| "
            "is 1e+20, in embedding); expected weights that keep every activation within "
            "float32");
  attn::StepStats s = t.step();
  EXPECT_EQ(s.error.rfind("step: the forward pass leaves float32", 0), 0u) << s.error;
  EXPECT_NE(s.error.find("the weights are unchanged"), std::string::npos);
  EXPECT_EQ(t.steps(), 0);
  EXPECT_EQ(t.model().parameters(), before);
  Batch b = attn::probe_batch(t.config().task);
  EXPECT_NE(t.run(b).error, "");
  EXPECT_NE(t.gradients_on(b).error, "");
}

// run_steps(n) is n step() calls of the same run; a refused step ends it, saying how many were
// taken, and the weights stay the last good ones.
TEST(TrainerRange, StepRunsAreStepsAndStopAtARefusedOne) {
  Trainer one(small_config()), many(small_config());
  std::vector<float> losses, accuracies;
  for (int i = 0; i < 3; i++) {
    attn::StepStats s = one.step();
    losses.push_back(static_cast<float>(s.loss));
    accuracies.push_back(static_cast<float>(s.accuracy));
  }
  attn::StepsRun r = many.run_steps(3);
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.losses, losses);
  EXPECT_EQ(r.accuracies, accuracies);
  EXPECT_EQ(many.model().parameters(), one.model().parameters());
  const attn::Tensor* e = many.model().tensor("embedding");
  std::fill_n(many.model().parameters().begin() + static_cast<std::ptrdiff_t>(e->offset), e->size(),
              1e20f);
  r = many.run_steps(5);
  EXPECT_EQ(r.error.rfind("step: the forward pass leaves float32", 0), 0u) << r.error;
  EXPECT_NE(r.error.find("(after 0 of 5 steps, at step 3)"), std::string::npos) << r.error;
  EXPECT_EQ(many.steps(), 3);
}

// ---- resources ------------------------------------------------------------------------------

// Room for one more model: at most kMaxTrainers trainers (kMaxSeq2Seqs encoder–decoders) live,
// kMaxModelBytes for all of them together; the message names the bound and what is in use.
TEST(ModelRoom, OneBudgetForBothKinds) {
  const TrainConfig c = small_config();
  const double need = attn::trainer_bytes(c);
  const double bound = attn::limits::kMaxModelBytes;
  EXPECT_EQ(bound, 800.0 * 1024 * 1024);
  EXPECT_EQ(attn::check_model_room(attn::kTrainerKind, 0, need, 0), "");
  EXPECT_EQ(attn::check_model_room(attn::kTrainerKind, 50, need, 0),
            "trainer: at most 50 live trainers at once (delete() one you no longer need)");
  EXPECT_EQ(attn::check_model_room(attn::kTrainerKind, 1, need, bound - need), "");
  EXPECT_EQ(attn::check_model_room(attn::kTrainerKind, 1, 84.0 * 1048576, 760.0 * 1048576),
            "trainer: the live trainers and encoder–decoders hold up to 760 MiB and this one needs "
            "84 MiB, past the 800 MiB they may use together (delete() one you no longer need, or "
            "make a smaller one)");
}

// trainer_bytes bounds what a trainer holds after every kind of call (measured by the
// allocator: glibc's bytes in use, heap and mmap), and is not far above it (the module's cap on
// live trainers is counted in these numbers).
TEST(TrainerBytes, BoundWhatATrainerHoldsAfterEveryCall) {
  const TrainConfig largest = [] {
    TrainConfig c;
    c.layers = 2;
    c.heads = 4;
    c.d_model = 128;
    c.batch = 64;
    return c;
  }();
  TrainConfig small = small_config();
  TrainConfig one_layer = largest;
  one_layer.layers = 1;
  one_layer.batch = 1;
  one_layer.task = TrainTask::Induction;
  one_layer.position = PositionKind::Sinusoidal;
  TrainConfig longest = largest;  // random-induction: 32 tokens of 64
  longest.task = TrainTask::RandomInduction;
  for (const TrainConfig& c : {largest, small, one_layer, longest}) {
    const std::size_t before = heap_bytes();
    {
      Trainer t(c);
      t.step();
      t.evaluate();
      Batch probe = attn::probe_batch(c.task);
      t.run(probe);
      t.gradients_on(probe);
      attn::Rng rng(7, 0);
      Batch big = attn::make_batch(c.task, rng, 64);
      t.step_on(big);
      t.step();
      t.head_scores();
      t.evaluate({1, 0, 0, 1});
      const double held = static_cast<double>(heap_bytes() - before);
      const double bound = attn::trainer_bytes(c);
      std::printf("trainer d_model %d, %d layers, batch %d: holds %.2f MiB, bound %.2f MiB\n",
                  c.d_model, c.layers, c.batch, held / 1048576, bound / 1048576);
      EXPECT_LE(held, bound);
      EXPECT_GE(held, bound / 3);
    }
  }
  // the module's caps: 50 trainers of the largest config fit in the models' budget
  EXPECT_LE(attn::limits::kMaxTrainers * attn::trainer_bytes(largest),
            attn::limits::kMaxModelBytes);
  std::printf("50 of the largest random-induction trainers: %.0f MiB\n",
              attn::limits::kMaxTrainers * attn::trainer_bytes(longest) / 1048576);
}

// Two steps by hand: m, v averages, bias corrections as torch.optim.Adam.
TEST(Adam, FollowsTorchsUpdate) {
  attn::Adam adam(2, 0.1f);
  std::vector<float> p = {1.0f, -2.0f};
  adam.update(p, {0.5f, -4.0f});
  // step 1: m = 0.1 g, v = 0.001 g^2, m^ = g, v^ = g^2: p -= 0.1 * sign(g) (up to eps)
  EXPECT_NEAR(p[0], 0.9, 1e-6);
  EXPECT_NEAR(p[1], -1.9, 1e-6);
  adam.update(p, {0.5f, 2.0f});
  double m = 0.9 * (0.1 * -4.0) + 0.1 * 2.0, v = 0.999 * 0.001 * 16 + 0.001 * 4;
  double expect = -1.9 - 0.1 * (m / (1 - 0.81)) / (std::sqrt(v / (1 - 0.999 * 0.999)) + 1e-8);
  EXPECT_NEAR(p[1], expect, 1e-6);
  EXPECT_NEAR(p[0], 0.8, 1e-6);
}

// ---- a seeded run --------------------------------------------------------------------------

TEST(Trainer, ASeedReproducesTheRun) {
  TrainConfig c;
  c.d_model = 16;
  c.seed = 42;
  c.batch = 8;
  Trainer a(c), b(c);
  for (int i = 0; i < 10; i++) {
    attn::StepStats sa = a.step(), sb = b.step();
    EXPECT_EQ(sa.loss, sb.loss);
    EXPECT_EQ(sa.accuracy, sb.accuracy);
  }
  EXPECT_EQ(a.model().parameters(), b.model().parameters());
  c.seed = 43;
  Trainer other(c);
  EXPECT_NE(other.model().parameters(), a.model().parameters());
}

TEST(Trainer, InitialisationHasTheDocumentedScales) {
  TrainConfig c;
  c.d_model = 128;
  c.heads = 1;
  Trainer t(c);
  const Transformer& m = t.model();
  auto stddev = [&](const std::string& name) {
    const attn::Tensor* x = m.tensor(name);
    double sum = 0, sq = 0;
    for (std::size_t i = x->offset; i < x->offset + x->size(); i++) {
      sum += m.parameters()[i];
      sq += double(m.parameters()[i]) * m.parameters()[i];
    }
    double n = static_cast<double>(x->size());
    return std::sqrt(sq / n - (sum / n) * (sum / n));
  };
  EXPECT_NEAR(stddev("embedding"), 1.0, 0.05);
  EXPECT_NEAR(stddev("layers.0.Wq"), 1.0 / std::sqrt(128.0), 0.005);
  EXPECT_NEAR(stddev("unembedding"), 1.0 / std::sqrt(128.0), 0.01);
  const attn::Tensor* bq = m.tensor("layers.0.bq");
  for (std::size_t i = bq->offset; i < bq->offset + bq->size(); i++)
    EXPECT_EQ(m.parameters()[i], 0.0f);
}

// Attention rows are causal distributions.
TEST(Trainer, AttentionIsCausalAndSumsToOne) {
  TrainConfig c;
  c.d_model = 16;
  Trainer t(c);
  t.run(attn::probe_batch(c.task));
  for (int l = 0; l < 2; l++)
    for (int h = 0; h < 2; h++) {
      attn::Matrix a = t.model().attention(l, h, 0);
      for (int i = 0; i < a.rows; i++) {
        double sum = 0;
        for (int j = 0; j < a.cols; j++) {
          if (j > i) {
            EXPECT_EQ(a.at(i, j), 0.0f);
          }
          sum += a.at(i, j);
        }
        EXPECT_NEAR(sum, 1.0, 1e-5);
      }
    }
}

// ---- learning ------------------------------------------------------------------------------

// The previous-token task is learned, and a previous-token head forms: on the probe, some head
// puts most of every row's weight on the position before.
TEST(Trainer, LearnsThePreviousTokenTask) {
  TrainConfig c;
  c.layers = 1;
  c.heads = 2;
  c.d_model = 32;
  c.learning_rate = 0.01;
  c.seed = 1;
  int steps = 0;
  Trainer t(c);
  double accuracy = 0;
  while (steps < 400 && accuracy < 0.99) {
    for (int i = 0; i < 25; i++, steps++) t.step();
    accuracy = t.evaluate().accuracy;
  }
  EXPECT_GE(accuracy, 0.99) << "after " << steps << " steps";
  t.run(attn::probe_batch(c.task));
  double best = 0;
  for (int h = 0; h < c.heads; h++) {
    attn::Matrix a = t.model().attention(0, h, 0);
    double on_previous = 0;
    for (int i = 1; i < a.rows; i++) on_previous += a.at(i, i - 1);
    best = std::max(best, on_previous / (a.rows - 1));
  }
  EXPECT_GT(best, 0.8);
  // ... and the head's previous-token score on the repeated random batch says the same
  const attn::HeadScores scores = t.head_scores();
  EXPECT_GT(*std::max_element(scores.previous_token.begin(), scores.previous_token.end()), 0.8);
}

// Without positional information the same model cannot tell which token came before.
TEST(Trainer, WithoutPositionsPreviousTokenIsNotLearned) {
  TrainConfig c;
  c.layers = 1;
  c.d_model = 32;
  c.position = PositionKind::None;
  c.batch = 16;
  Trainer t(c);
  for (int i = 0; i < 100; i++) t.step();
  EXPECT_LT(t.evaluate().accuracy, 0.6);
}

// ---- argument checks -----------------------------------------------------------------------

TEST(TrainChecks, NameTheArgument) {
  TrainConfig c;
  EXPECT_EQ(attn::check_train_config(c), "");
  c.layers = 3;
  EXPECT_EQ(attn::check_train_config(c), "layers: expected 1 or 2, got 3");
  c = TrainConfig();
  c.heads = 3;
  EXPECT_EQ(attn::check_train_config(c), "dModel: expected a multiple of heads (3), got 64");
  c = TrainConfig();
  c.d_model = 256;
  EXPECT_EQ(attn::check_train_config(c), "dModel: expected an integer from 4 to 128, got 256");
  c = TrainConfig();
  c.learning_rate = 2;
  EXPECT_EQ(attn::check_train_config(c), "learningRate: expected a number from 1e-5 to 1, got 2");
  c = TrainConfig();
  c.task = static_cast<TrainTask>(9);
  EXPECT_EQ(attn::check_train_config(c),
            "task: expected one of 'previous-token', 'reverse', 'sort', 'induction', "
            "'random-induction', got 9");
}

TEST(TrainChecks, BatchesAreCheckedAgainstTheModel) {
  ModelConfig m;
  m.vocab = 11;
  Batch b;
  b.size = 1;
  b.length = 3;
  b.tokens = {1, 2, 11};
  EXPECT_EQ(attn::check_batch(b, m, false),
            "tokens: entry 2 is 11 (expected a token from 0 to 10)");
  b.tokens = {1, 2, 3};
  EXPECT_EQ(attn::check_batch(b, m, false), "");
  EXPECT_EQ(attn::check_batch(b, m, true), "targets: expected 3 targets, got 0");
  b.targets = {-1, 4, -2};
  EXPECT_EQ(attn::check_batch(b, m, true),
            "targets: entry 2 is -2 (expected -1 = none, or a token from 0 to 10)");
  b.length = 17;
  EXPECT_EQ(attn::check_batch(b, m, false), "tokens: expected sequences of 1 to 16 tokens, got 17");
}

}  // namespace
