// The playground's toy tasks: what a sequence looks like, which positions carry a target, and
// the generator that draws a batch of them from the engine's RNG (so a seed reproduces the data).
//
// Every task but random-induction uses sequences of kTaskLength tokens (random-induction uses
// kLongTaskLength: its spec's length). A target of -1 means "no prediction here";
// accuracy is the share of target positions where the model's top token is the target.
#pragma once

#include <cstdint>
#include <vector>

#include "core/check.h"
#include "core/rng.h"

namespace attn {

enum class TrainTask { PreviousToken, Reverse, Sort, Induction, RandomInduction };

inline constexpr ChoiceOption<TrainTask, 5> kTaskOption{
    "task",
    {{"previous-token", TrainTask::PreviousToken},
     {"reverse", TrainTask::Reverse},
     {"sort", TrainTask::Sort},
     {"induction", TrainTask::Induction},
     {"random-induction", TrainTask::RandomInduction}}};

constexpr int kTaskLength = 16;      // tokens in the sequences of the short tasks
constexpr int kLongTaskLength = 32;  // ... and of random-induction
constexpr int kNoTarget = -1;

struct TaskSpec {
  int vocab;         // tokens are 0 .. vocab - 1
  int length;        // tokens in every sequence of the task
  int separator;     // the separator token of reverse and sort; -1 when the task has none
  const char* rule;  // one line: what the model must learn
};

TaskSpec task_spec(TrainTask task);

// A batch of sequences: tokens and targets are (size, length), row-major.
struct Batch {
  int size = 0;
  int length = 0;
  std::vector<int> tokens;
  std::vector<int> targets;  // kNoTarget where nothing is predicted; empty: nothing anywhere
};

// One batch of `size` sequences of `task`, drawn from rng's uniform draws:
//   previous-token  16 random tokens of 0..15; at t >= 1 predict token t - 1.
//   reverse         8 digits, the separator 10, then the digits reversed; from the separator
//                   on, predict the digits in reverse order (a8 a7 ... a1).
//   sort            8 digits, the separator 10, then the digits sorted; from the separator
//                   on, predict them in ascending order.
//   induction       a block of m (5..8) distinct tokens of 0..15, repeated to fill 16 tokens;
//                   from the first repeat on (t >= m), predict the token that followed this
//                   token's earlier occurrence (t + 1 - m), up to t = 14.
//   random-induction  (Olsson et al. 2022) 32 random tokens of 0..63 in which a segment of m
//                   (6..12) distinct tokens appears twice, the second copy starting at least m
//                   after the first; in the second copy, predict the token that followed this
//                   one in the first (nothing else is predictable: the rest is random).
Batch make_batch(TrainTask task, Rng& rng, int size);

// The fixed sequence the page draws every head's attention on (the same for every seed).
Batch probe_batch(TrainTask task);

// `size` sequences of `length` tokens of 0..vocab - 1: a run of length / 2 random tokens (distinct
// when vocab allows) written twice, from a stream of its own (the same for every seed): the
// batch a head's induction score is measured on. No targets.
Batch repeated_random_batch(int vocab, int length, int size);

}  // namespace attn
