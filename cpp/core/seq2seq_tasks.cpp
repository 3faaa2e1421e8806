// The encoder–decoder's tasks and their generators (see seq2seq_tasks.h).
#include "core/seq2seq_tasks.h"

#include <algorithm>

namespace attn {

namespace {

// ---- vocabularies ---------------------------------------------------------------------------

const std::vector<std::string> kDigitWords = {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};
const std::vector<std::string> kDigitTargets = {"</s>", "0", "1", "2", "3", "4",
                                                "5",    "6", "7", "8", "9"};

// English and Chinese share the ids of the content words (a noun, verb or adjective has the
// same id on both sides); "the" has no Chinese word, "that" becomes 的.
enum Word { The = 0, That = 1, FirstNoun = 2, Fish = 5, FirstVerb = 7, FirstAdjective = 11 };
constexpr int kNouns = 5, kVerbs = 4, kAdjectives = 4;
constexpr int kDe = 1;  // 的 in the target vocabulary
const std::vector<std::string> kEnglish = {"the",   "that", "cat",   "dog",    "mouse",
                                           "fish",  "bird", "eats",  "chases", "sees",
                                           "likes", "big",  "small", "black",  "white"};
const std::vector<std::string> kChinese = {"</s>", "的", "猫",   "狗", "老鼠", "鱼", "鸟", "吃",
                                           "追",   "看", "喜欢", "大", "小",   "黑", "白"};

constexpr std::uint64_t kProbeSeed = 0x5EC25EC2u;  // the probe is the same for every run

// One uniform draw at a time from rng, as an integer in [0, n).
int pick(Rng& rng, int n) {
  float u;
  rng.uniform(&u, 1);
  return std::min(n - 1, static_cast<int>(u * static_cast<float>(n)));
}

// ---- the grammar ----------------------------------------------------------------------------
//   S   -> NP | NP V NP                       Chinese: NP' | NP' V NP'
//   NP  -> "fish" | "the" Adj* N | "the" Adj* N "that" V NP
//                                             Chinese: 鱼 | Adj* N | V NP' 的 Adj* N
// A noun phrase ends after its noun unless "that" follows, so a sentence has one parse.

// An NP of exactly `budget` >= 1 English tokens, appended to en and its translation to zh.
void noun_phrase(Rng& rng, int budget, std::vector<int>& en, std::vector<int>& zh) {
  if (budget == 1) {
    en.push_back(Fish);
    zh.push_back(Fish);
    return;
  }
  // adjectives: all of the budget past "the N" when there is no clause (at most two)
  int adjectives = budget - 2;
  int rest = 0;
  if (budget >= 5) {  // "the Adj^k N that V" + an NP of rest >= 1 tokens
    adjectives = pick(rng, std::min(3, budget - 4));
    rest = budget - 4 - adjectives;
  }
  std::vector<int> adj(adjectives);
  for (int& a : adj) a = FirstAdjective + pick(rng, kAdjectives);
  const int noun = FirstNoun + pick(rng, kNouns);
  en.push_back(The);
  en.insert(en.end(), adj.begin(), adj.end());
  en.push_back(noun);
  if (rest > 0) {
    const int verb = FirstVerb + pick(rng, kVerbs);
    en.push_back(That);
    en.push_back(verb);
    zh.push_back(verb);
    noun_phrase(rng, rest, en, zh);
    zh.push_back(kDe);
  }
  zh.insert(zh.end(), adj.begin(), adj.end());
  zh.push_back(noun);
}

// A sentence of exactly `length` >= 2 English tokens.
void sentence(Rng& rng, int length, std::vector<int>& en, std::vector<int>& zh) {
  if (length < 3 || pick(rng, 5) == 0) {  // a noun phrase alone (one in five)
    noun_phrase(rng, length, en, zh);
    return;
  }
  const int subject = 1 + pick(rng, length - 2);
  noun_phrase(rng, subject, en, zh);
  const int verb = FirstVerb + pick(rng, kVerbs);
  en.push_back(verb);
  zh.push_back(verb);
  noun_phrase(rng, length - 1 - subject, en, zh);
}

// Parses an NP from en[*at]; appends its translation. False when the tokens are not one.
bool parse_noun_phrase(const std::vector<int>& en, std::size_t* at, std::vector<int>& zh) {
  auto is = [&](int lo, int count) {
    return *at < en.size() && en[*at] >= lo && en[*at] < lo + count;
  };
  if (*at < en.size() && en[*at] == Fish) {
    zh.push_back(Fish);
    ++*at;
    return true;
  }
  if (*at >= en.size() || en[*at] != The) return false;
  ++*at;
  std::vector<int> adj;
  while (is(FirstAdjective, kAdjectives)) adj.push_back(en[(*at)++]);
  if (!is(FirstNoun, kNouns)) return false;
  const int noun = en[(*at)++];
  if (*at < en.size() && en[*at] == That) {
    ++*at;
    if (!is(FirstVerb, kVerbs)) return false;
    zh.push_back(en[(*at)++]);
    if (!parse_noun_phrase(en, at, zh)) return false;
    zh.push_back(kDe);
  }
  zh.insert(zh.end(), adj.begin(), adj.end());
  zh.push_back(noun);
  return true;
}

bool translate_sentence(const std::vector<int>& en, std::vector<int>* zh) {
  zh->clear();
  std::size_t at = 0;
  if (!parse_noun_phrase(en, &at, *zh)) return false;
  if (at == en.size()) return true;
  if (en[at] < FirstVerb || en[at] >= FirstVerb + kVerbs) return false;
  zh->push_back(en[at++]);
  return parse_noun_phrase(en, &at, *zh) && at == en.size();
}

void add_pair(Seq2SeqTask task, Rng& rng, int length, PairBatch& b) {
  std::vector<int> source, target;
  if (task == Seq2SeqTask::Translate) {
    sentence(rng, length, source, target);
  } else {
    source.resize(length);
    for (int& t : source) t = pick(rng, 10);
    seq2seq_target(task, source, &target);
  }
  b.source.push_back(std::move(source));
  b.target.push_back(std::move(target));
}

}  // namespace

Seq2SeqTaskSpec seq2seq_task_spec(Seq2SeqTask task) {
  switch (task) {
    case Seq2SeqTask::Reverse:
      return {&kDigitWords, &kDigitTargets, "write the digits in reverse order"};
    case Seq2SeqTask::Translate:
      return {&kEnglish, &kChinese,
              "translate the English sentence into Chinese (a relative clause moves before its "
              "noun)"};
    case Seq2SeqTask::Copy:
    default:
      return {&kDigitWords, &kDigitTargets, "write the digits again, in the same order"};
  }
}

bool seq2seq_target(Seq2SeqTask task, const std::vector<int>& source, std::vector<int>* target) {
  if (task == Seq2SeqTask::Translate) return translate_sentence(source, target);
  target->resize(source.size());
  for (std::size_t i = 0; i < source.size(); i++) {
    const int digit = task == Seq2SeqTask::Reverse ? source[source.size() - 1 - i] : source[i];
    (*target)[i] = digit + 1;  // target token of digit d is d + 1 (0 is "</s>")
  }
  return true;
}

PairBatch make_pair_batch(Seq2SeqTask task, Rng& rng, int size, int max_length) {
  PairBatch b;
  for (int s = 0; s < size; s++) {
    const int length = kMinSourceLength + pick(rng, max_length - kMinSourceLength + 1);
    add_pair(task, rng, length, b);
  }
  return b;
}

PairBatch make_length_set(Seq2SeqTask task, Rng& rng, int per_length, int max_length) {
  PairBatch b;
  for (int length = kMinSourceLength; length <= max_length; length++)
    for (int i = 0; i < per_length; i++) add_pair(task, rng, length, b);
  return b;
}

PairBatch seq2seq_probe(Seq2SeqTask task, int max_length) {
  PairBatch b;
  if (task == Seq2SeqTask::Translate) {
    // the cat that eats fish chases the mouse
    b.source.push_back({The, FirstNoun, That, FirstVerb, Fish, FirstVerb + 1, The, FirstNoun + 2});
    b.target.emplace_back();
    translate_sentence(b.source[0], &b.target[0]);
    return b;
  }
  Rng rng(kProbeSeed, static_cast<std::uint32_t>(task));
  add_pair(task, rng, std::min(max_length, 12), b);
  return b;
}

}  // namespace attn
