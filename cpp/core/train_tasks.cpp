// The playground's tasks and their generators (see train_tasks.h).
#include "core/train_tasks.h"

#include <algorithm>
#include <vector>

namespace attn {

namespace {
constexpr int kDigits = 10;     // reverse and sort draw digits 0..9
constexpr int kSeparator = 10;  // ... and mark the turn with token 10
constexpr int kHalf = kTaskLength / 2;
constexpr int kTokens = 16;                        // previous-token and induction draw tokens 0..15
constexpr int kMinBlock = 5, kMaxBlock = 8;        // induction's repeated block
constexpr std::uint64_t kProbeSeed = 0x9E3779B9u;  // the probe is the same for every run
constexpr std::uint32_t kRepeatStream = 99;        // the score batch's stream of kProbeSeed
constexpr int kLongVocab = 64;                     // random-induction's tokens
constexpr int kMinSegment = 6, kMaxSegment = 12;   // ... and its repeated segment

// An integer in [0, n) from a uniform draw in [0, 1).
int pick(float u, int n) { return std::min(n - 1, static_cast<int>(u * static_cast<float>(n))); }

void previous_token(Rng& rng, int* tokens, int* targets) {
  float u[kTaskLength];
  rng.uniform(u, kTaskLength);
  for (int t = 0; t < kTaskLength; t++) {
    tokens[t] = pick(u[t], kTokens);
    targets[t] = t == 0 ? kNoTarget : tokens[t - 1];
  }
}

// reverse (sorted = false) and sort (sorted = true): a1..a8 SEP b1..b7, targets b1..b8 from SEP on.
void digits_then_answer(Rng& rng, bool sorted, int* tokens, int* targets) {
  float u[kHalf];
  rng.uniform(u, kHalf);
  int a[kHalf], b[kHalf];
  for (int i = 0; i < kHalf; i++) a[i] = pick(u[i], kDigits);
  for (int i = 0; i < kHalf; i++) b[i] = a[kHalf - 1 - i];
  if (sorted) {
    std::copy(a, a + kHalf, b);
    std::sort(b, b + kHalf);
  }
  for (int i = 0; i < kHalf; i++) {
    tokens[i] = a[i];
    targets[i] = kNoTarget;
  }
  tokens[kHalf] = kSeparator;
  for (int i = 0; i < kHalf; i++) {
    if (i + 1 < kHalf) tokens[kHalf + 1 + i] = b[i];
    targets[kHalf + i] = b[i];
  }
}

void induction(Rng& rng, int* tokens, int* targets) {
  float u[1 + kMaxBlock];
  rng.uniform(u, 1 + kMaxBlock);
  const int m = kMinBlock + pick(u[0], kMaxBlock - kMinBlock + 1);
  int pool[kTokens];  // a partial Fisher–Yates shuffle: m distinct tokens
  for (int i = 0; i < kTokens; i++) pool[i] = i;
  for (int i = 0; i < m; i++) std::swap(pool[i], pool[i + pick(u[1 + i], kTokens - i)]);
  for (int t = 0; t < kTaskLength; t++) tokens[t] = t < m ? pool[t] : tokens[t - m];
  for (int t = 0; t < kTaskLength; t++) {
    targets[t] = (t >= m && t + 1 < kTaskLength) ? tokens[t + 1 - m] : kNoTarget;
  }
}
// tokens[0..n) from draws u[0..n): distinct tokens of 0..vocab - 1 while any are left unused
// (a partial Fisher–Yates shuffle), then any token.
void distinct_tokens(const float* u, int n, int vocab, int* out) {
  std::vector<int> pool(static_cast<std::size_t>(vocab));
  for (int i = 0; i < vocab; i++) pool[static_cast<std::size_t>(i)] = i;
  for (int i = 0; i < n; i++) {
    if (i < vocab) {
      std::swap(pool[static_cast<std::size_t>(i)],
                pool[static_cast<std::size_t>(i + pick(u[i], vocab - i))]);
      out[i] = pool[static_cast<std::size_t>(i)];
    } else {
      out[i] = pick(u[i], vocab);
    }
  }
}

void random_induction(Rng& rng, int* tokens, int* targets) {
  constexpr int T = kLongTaskLength;
  float u[3 + kMaxSegment + T];
  rng.uniform(u, 3 + kMaxSegment + T);
  const int m = kMinSegment + pick(u[0], kMaxSegment - kMinSegment + 1);
  const int first = pick(u[1], T - 2 * m + 1);                       // 0 .. T - 2m
  const int second = first + m + pick(u[2], T - 2 * m - first + 1);  // first + m .. T - m
  int segment[kMaxSegment];
  distinct_tokens(u + 3, m, kLongVocab, segment);
  for (int t = 0; t < T; t++) {
    tokens[t] = pick(u[3 + kMaxSegment + t], kLongVocab);
    targets[t] = kNoTarget;
  }
  for (int i = 0; i < m; i++) tokens[first + i] = tokens[second + i] = segment[i];
  for (int i = 0; i + 1 < m; i++) targets[second + i] = segment[i + 1];
}
}  // namespace

TaskSpec task_spec(TrainTask task) {
  switch (task) {
    case TrainTask::Reverse:
      return {kDigits + 1, kTaskLength, kSeparator,
              "after the separator, repeat the digits in reverse order"};
    case TrainTask::Sort:
      return {kDigits + 1, kTaskLength, kSeparator,
              "after the separator, write the digits in ascending order"};
    case TrainTask::Induction:
      return {kTokens, kTaskLength, -1,
              "in ... A B ... A, predict B (the token that followed A before)"};
    case TrainTask::RandomInduction:
      return {kLongVocab, kLongTaskLength, -1,
              "random tokens with a segment seen twice: in its second copy, predict what followed "
              "each token the first time"};
    case TrainTask::PreviousToken:
    default:
      return {kTokens, kTaskLength, -1, "at every position, output the token before it"};
  }
}

Batch make_batch(TrainTask task, Rng& rng, int size) {
  Batch b;
  const int T = task_spec(task).length;
  b.size = size;
  b.length = T;
  b.tokens.assign(static_cast<std::size_t>(size) * T, 0);
  b.targets.assign(b.tokens.size(), kNoTarget);
  for (int s = 0; s < size; s++) {
    int* tokens = b.tokens.data() + static_cast<std::size_t>(s) * T;
    int* targets = b.targets.data() + static_cast<std::size_t>(s) * T;
    switch (task) {
      case TrainTask::RandomInduction:
        random_induction(rng, tokens, targets);
        break;
      case TrainTask::Reverse:
        digits_then_answer(rng, false, tokens, targets);
        break;
      case TrainTask::Sort:
        digits_then_answer(rng, true, tokens, targets);
        break;
      case TrainTask::Induction:
        induction(rng, tokens, targets);
        break;
      case TrainTask::PreviousToken:
      default:
        previous_token(rng, tokens, targets);
        break;
    }
  }
  return b;
}

Batch probe_batch(TrainTask task) {
  Rng rng(kProbeSeed, static_cast<std::uint32_t>(task));
  return make_batch(task, rng, 1);
}

Batch repeated_random_batch(int vocab, int length, int size) {
  Rng rng(kProbeSeed, kRepeatStream);
  const int half = length / 2;
  Batch b;
  b.size = size;
  b.length = length;
  b.tokens.assign(static_cast<std::size_t>(size) * length, 0);
  std::vector<float> u(static_cast<std::size_t>(half));
  for (int s = 0; s < size; s++) {
    int* tokens = b.tokens.data() + static_cast<std::size_t>(s) * length;
    rng.uniform(u.data(), half);
    distinct_tokens(u.data(), half, vocab, tokens);
    for (int t = half; t < length; t++) tokens[t] = tokens[t - half];
  }
  return b;
}

}  // namespace attn
