// Reading a GPT-2 checkpoint from safetensors as its bytes arrive, so the file never needs to be
// whole in memory: each piece of the data is converted to float32 (F16 and BF16 exactly) and put
// where the model keeps it (core/gpt2.h), and nothing is kept of the piece itself.
//
//   Loader loader(config, header);   loader.error(): the header against GPT-2's architecture
//   loader.allocate();               false when the engine cannot have the memory
//   loader.feed(bytes, n); ...       the data after the header, in file order, in any pieces
//   loader.finish();                 every byte arrived; then take() gives the model
//
// The architecture as Hugging Face names it, every tensor with or without the "transformer."
// prefix: wte, wpe, h.{i}.ln_1, h.{i}.attn.c_attn, h.{i}.attn.c_proj, h.{i}.ln_2, h.{i}.mlp.c_fc,
// h.{i}.mlp.c_proj (each .weight and .bias), ln_f, each in F32, F16 or BF16 with the shape the
// config gives it. Real checkpoints carry three more kinds, accepted once checked against what
// they must be: h.{i}.attn.bias (the causal-mask buffer: 1 on and below the diagonal, 0 above),
// h.{i}.attn.masked_bias (the mask's fill, -1e4) and lm_head.weight (the unembedding, tied: equal
// to wte). Anything else is refused by name, and so is a weight that is NaN or infinite.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/gpt2.h"
#include "core/safetensors.h"

namespace attn::gpt2 {

class Loader {
 public:
  // What the loader does with a tensor's elements.
  enum class Use {
    Store,        // a weight: into its slot
    CompareTied,  // lm_head.weight or wte.weight, whichever comes second: equal to the first
    CausalMask,   // h.{i}.attn.bias
    MaskFill      // h.{i}.attn.masked_bias
  };
  struct Part {  // one tensor of the file, in file order
    safetensors::Entry entry;
    Use use = Use::Store;
    Slot slot;  // Store and CompareTied
  };

  // Plans the load: which tensor goes where. Requires check_config(config) to be empty.
  Loader(const Config& config, const safetensors::Header& header);
  const Error& error() const { return error_; }  // empty when the header fits GPT-2

  double weight_bytes() const { return model_ ? 4.0 * static_cast<double>(model_->floats()) : 0; }
  double data_bytes() const { return static_cast<double>(data_bytes_); }
  double received() const { return static_cast<double>(at_); }
  const std::vector<Part>& parts() const { return parts_; }

  // The model's storage; false (and nothing held) when the memory cannot be had.
  bool allocate();
  // The next n bytes of the data. After an error nothing more is read (the error stays).
  Error feed(const unsigned char* bytes, std::size_t n);
  // Every byte arrived: empty, and take() gives the model.
  Error finish();
  std::unique_ptr<Model> take() { return std::move(model_); }

 private:
  Error plan(const safetensors::Header& header);
  // count whole elements of the current part, from element `first`, as floats
  Error place(const Part& p, std::uint64_t first, const float* x, std::size_t count);
  Error consume(const unsigned char* bytes, std::size_t count);  // whole elements of one part

  Config config_;
  std::unique_ptr<Model> model_;
  std::vector<Part> parts_;
  std::uint64_t data_bytes_ = 0;
  std::size_t part_ = 0;         // the part the next byte belongs to
  std::uint64_t at_ = 0;         // bytes of the data read
  unsigned char carry_[8] = {};  // an element split between two pieces
  int carried_ = 0;
  std::vector<float> floats_;  // one batch of converted elements
  bool allocated_ = false;
  Error error_;
};

}  // namespace attn::gpt2
