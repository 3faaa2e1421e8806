// The encoder–decoder's tasks: pairs of a source sequence and its target, drawn from the engine's
// RNG so a seed reproduces the data, with every input length from 2 to the model's longest drawn
// equally often.
//
//   copy       random digits 0..9; the target is the same digits
//   reverse    random digits 0..9; the target is the digits in reverse order
//   translate  an English sentence of a small grammar over the lessons' words and its Chinese
//              translation. A relative clause moves before its noun ("the cat that eats fish" ->
//              "吃 鱼 的 猫"), so the alignment is not a diagonal.
//
// Target token 0 is "</s>": the decoder's first input and the token that ends every target.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/check.h"
#include "core/rng.h"

namespace attn {

enum class Seq2SeqTask { Copy, Reverse, Translate };

inline constexpr ChoiceOption<Seq2SeqTask, 3> kSeq2SeqTaskOption{
    "task",
    {{"copy", Seq2SeqTask::Copy},
     {"reverse", Seq2SeqTask::Reverse},
     {"translate", Seq2SeqTask::Translate}}};

constexpr int kEndToken = 0;         // "</s>" in every target vocabulary
constexpr int kMinSourceLength = 2;  // the shortest input of every task

struct Seq2SeqTaskSpec {
  const std::vector<std::string>* source_words;  // token i of the source is source_words[i]
  const std::vector<std::string>* target_words;  // target_words[0] is "</s>"
  const char* rule;                              // one line: what the model must learn
};

Seq2SeqTaskSpec seq2seq_task_spec(Seq2SeqTask task);

// A batch of pairs; each has its own lengths. target holds no "</s>" (the model adds it).
struct PairBatch {
  std::vector<std::vector<int>> source;  // tokens 0 .. source vocab - 1
  std::vector<std::vector<int>> target;  // tokens 1 .. target vocab - 1
  int size() const { return static_cast<int>(source.size()); }
};

// The target of a source sentence (copy, reverse, or the grammar's translation); false if the
// tokens are not a sentence of the task (translate only: every digit string is a copy source).
bool seq2seq_target(Seq2SeqTask task, const std::vector<int>& source, std::vector<int>* target);

// `size` pairs whose source lengths are drawn uniformly from 2 .. max_length.
PairBatch make_pair_batch(Seq2SeqTask task, Rng& rng, int size, int max_length);
// One pair of each source length 2 .. max_length, `per_length` times over (a held-out set).
PairBatch make_length_set(Seq2SeqTask task, Rng& rng, int per_length, int max_length);
// The fixed pair the page draws the alignment of (the same for every seed). For translate it is
// "the cat that eats fish chases the mouse" -> "吃 鱼 的 猫 追 老鼠".
PairBatch seq2seq_probe(Seq2SeqTask task, int max_length);

}  // namespace attn
