// Reading a GPT-2 checkpoint from safetensors as its bytes arrive (see gpt2_loader.h).
#include "core/gpt2_loader.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace attn::gpt2 {

using safetensors::DType;

namespace {

constexpr std::size_t kBatch = 4096;  // elements converted at a time

Error fail(const std::string& what) { return "source: " + what; }
std::string quoted(const std::string& name) { return "'" + name + "'"; }

// A tensor the architecture needs.
struct Wanted {
  std::string name;  // without the prefix
  Slot slot;
  std::vector<std::uint64_t> shape;
  const char* meaning;  // "(n_embd, 3 n_embd)"
  bool seen = false;
};

std::vector<Wanted> wanted(const Model& m) {
  const Config& c = m.config();
  const std::uint64_t d = c.n_embd, inner = c.n_inner;
  std::vector<Wanted> w;
  w.push_back(
      {"wte.weight", m.wte, {static_cast<std::uint64_t>(c.vocab_size), d}, "(vocab_size, n_embd)"});
  w.push_back({"wpe.weight",
               m.wpe,
               {static_cast<std::uint64_t>(c.n_positions), d},
               "(n_positions, n_embd)"});
  for (int l = 0; l < c.n_layer; l++) {
    const std::string p = "h." + std::to_string(l) + ".";
    const Block& b = m.h[l];
    w.push_back({p + "ln_1.weight", b.ln_1_weight, {d}, "(n_embd)"});
    w.push_back({p + "ln_1.bias", b.ln_1_bias, {d}, "(n_embd)"});
    w.push_back({p + "attn.c_attn.weight", b.attn_weight, {d, 3 * d}, "(n_embd, 3 n_embd)"});
    w.push_back({p + "attn.c_attn.bias", b.attn_bias, {3 * d}, "(3 n_embd)"});
    w.push_back({p + "attn.c_proj.weight", b.proj_weight, {d, d}, "(n_embd, n_embd)"});
    w.push_back({p + "attn.c_proj.bias", b.proj_bias, {d}, "(n_embd)"});
    w.push_back({p + "ln_2.weight", b.ln_2_weight, {d}, "(n_embd)"});
    w.push_back({p + "ln_2.bias", b.ln_2_bias, {d}, "(n_embd)"});
    w.push_back({p + "mlp.c_fc.weight", b.fc_weight, {d, inner}, "(n_embd, n_inner)"});
    w.push_back({p + "mlp.c_fc.bias", b.fc_bias, {inner}, "(n_inner)"});
    w.push_back({p + "mlp.c_proj.weight", b.mlp_weight, {inner, d}, "(n_inner, n_embd)"});
    w.push_back({p + "mlp.c_proj.bias", b.mlp_bias, {d}, "(n_embd)"});
  }
  w.push_back({"ln_f.weight", m.ln_f_weight, {d}, "(n_embd)"});
  w.push_back({"ln_f.bias", m.ln_f_bias, {d}, "(n_embd)"});
  return w;
}

// "h.<i>.<rest>" -> i (and rest); -1 for any other name.
int block_of(const std::string& name, std::string* rest) {
  if (name.compare(0, 2, "h.") != 0) return -1;
  std::size_t at = 2;
  long i = 0;
  while (at < name.size() && name[at] >= '0' && name[at] <= '9' && at < 9)
    i = i * 10 + (name[at++] - '0');
  if (at == 2 || at >= name.size() || name[at] != '.' || (name[2] == '0' && at > 3)) return -1;
  *rest = name.substr(at + 1);
  return static_cast<int>(i);
}

bool is_float(DType t) { return t == DType::F32 || t == DType::F16 || t == DType::BF16; }

// "row 3, column 7" of a (rows, cols) tensor, "entry 7" of a vector
std::string where(const Slot& s, std::uint64_t e) {
  if (s.rows == 1) return "entry " + std::to_string(e);
  return "row " + std::to_string(e / s.cols) + ", column " + std::to_string(e % s.cols);
}

}  // namespace

Loader::Loader(const Config& config, const safetensors::Header& header)
    : config_(config), model_(std::make_unique<Model>(config)) {
  error_ = header.error.empty() ? plan(header) : header.error;
  data_bytes_ = header.data_bytes;
  if (!error_.empty()) model_.reset();
}

Error Loader::plan(const safetensors::Header& header) {
  std::vector<Wanted> want = wanted(*model_);
  // one naming for every tensor: all with "transformer." or none (lm_head.weight never has it)
  const std::string prefix = "transformer.";
  const safetensors::Entry *with = nullptr, *without = nullptr;  // the first of each, in file order
  for (const safetensors::Entry& e : header.tensors) {
    if (e.name == "lm_head.weight") continue;
    const safetensors::Entry*& first =
        e.name.compare(0, prefix.size(), prefix) == 0 ? with : without;
    if (!first) first = &e;
  }
  if (with && without)
    return fail("tensor " + quoted(without->name) + " has no 'transformer.' prefix but " +
                quoted(with->name) + " has (expected one naming for every tensor)");
  const std::string file_prefix = with ? prefix : "";
  const std::string layers = "the config has n_layer = " + std::to_string(config_.n_layer);

  bool embedding_stored = false;  // wte and lm_head.weight: the first stores, the second compares
  for (const safetensors::Entry& e : header.tensors) {
    Part part{e, Use::Store, {}};
    const std::string name =
        e.name == "lm_head.weight" ? e.name : e.name.substr(file_prefix.size());
    const std::string tensor = "tensor " + quoted(e.name);
    auto found =
        std::find_if(want.begin(), want.end(), [&](const Wanted& w) { return w.name == name; });
    std::string rest;
    const int block = block_of(name, &rest);
    if (name == "lm_head.weight" || found != want.end()) {
      const Wanted& w = name == "lm_head.weight" ? want[0] : *found;  // want[0]: wte
      if (!is_float(e.dtype))
        return fail(tensor + " has dtype " + safetensors::dtype_name(e.dtype) +
                    " (expected F32, F16 or BF16)");
      if (e.shape != w.shape)
        return fail(tensor + " has shape " + safetensors::shape_text(e.shape) + ", expected " +
                    safetensors::shape_text(w.shape) + " " + w.meaning + " for the config");
      part.slot = w.slot;
      if (name == "lm_head.weight" || name == "wte.weight") {  // written once, maybe twice
        part.use = embedding_stored ? Use::CompareTied : Use::Store;
        embedding_stored = true;
      }
      if (found != want.end()) found->seen = true;
    } else if (block >= 0 && block < config_.n_layer && rest == "attn.bias") {
      const std::uint64_t p = static_cast<std::uint64_t>(config_.n_positions);
      if (!is_float(e.dtype) && e.dtype != DType::U8 && e.dtype != DType::Bool)
        return fail(tensor + " has dtype " + safetensors::dtype_name(e.dtype) +
                    " (expected the causal-mask buffer in F32, F16, BF16, U8 or BOOL)");
      if (e.shape != std::vector<std::uint64_t>{1, 1, p, p})
        return fail(tensor + " has shape " + safetensors::shape_text(e.shape) +
                    ", expected [1, 1, " + std::to_string(p) + ", " + std::to_string(p) +
                    "] (the causal-mask buffer: 1, 1, n_positions, n_positions)");
      part.use = Use::CausalMask;
    } else if (block >= 0 && block < config_.n_layer && rest == "attn.masked_bias") {
      if (!is_float(e.dtype) || e.elements() != 1 || e.shape.size() > 1)
        return fail(tensor + " has dtype " + safetensors::dtype_name(e.dtype) + " and shape " +
                    safetensors::shape_text(e.shape) +
                    " (expected the mask's fill: one F32, F16 or BF16 number, shape [] or [1])");
      part.use = Use::MaskFill;
    } else if (block >= config_.n_layer) {
      return fail("unexpected tensor " + quoted(e.name) + " (" + layers + ": blocks 0 to " +
                  std::to_string(config_.n_layer - 1) + ")");
    } else {
      return fail("unexpected tensor " + quoted(e.name) +
                  " (GPT-2 has wte, wpe, h.{i}.ln_1, h.{i}.attn.c_attn, h.{i}.attn.c_proj, "
                  "h.{i}.ln_2, h.{i}.mlp.c_fc, h.{i}.mlp.c_proj, ln_f, and the buffers "
                  "h.{i}.attn.bias, h.{i}.attn.masked_bias and lm_head.weight)");
    }
    parts_.push_back(std::move(part));
  }
  for (const Wanted& w : want) {
    if (!w.seen)
      return fail("tensor " + quoted(file_prefix + w.name) + " is missing (GPT-2 has it; " +
                  layers + ")");
  }
  return {};
}

bool Loader::allocate() {
  if (!error_.empty() || !model_) return false;
  allocated_ = model_->allocate();
  if (allocated_) floats_.resize(kBatch);
  return allocated_;
}

Error Loader::place(const Part& p, std::uint64_t first, const float* x, std::size_t count) {
  const std::string tensor = "tensor " + quoted(p.entry.name);
  switch (p.use) {
    case Use::Store: {
      // one pass over the bits for the usual case, all finite; the first culprit otherwise
      std::uint32_t non_finite = 0;
      for (std::size_t i = 0; i < count; i++) {
        std::uint32_t bits;
        std::memcpy(&bits, x + i, sizeof bits);
        non_finite |= (bits & 0x7f800000u) == 0x7f800000u;
      }
      for (std::size_t i = 0; non_finite && i < count; i++) {
        if (!std::isfinite(x[i]))
          return fail(tensor + " has " + format_float(x[i]) + " at " + where(p.slot, first + i) +
                      " (expected finite weights)");
      }
      model_->store(p.slot, first, x, count);
      return {};
    }
    case Use::CompareTied: {
      const float* stored = model_->at(p.slot);
      int r = static_cast<int>(first / p.slot.cols), c = static_cast<int>(first % p.slot.cols);
      for (std::size_t i = 0; i < count; i++) {
        if (!(x[i] == stored[p.slot.index(r, c)]))
          return fail(tensor + " has " + format_float(x[i]) + " at row " + std::to_string(r) +
                      ", column " + std::to_string(c) + " where the embedding has " +
                      format_float(stored[p.slot.index(r, c)]) +
                      " (expected lm_head.weight tied to wte.weight: equal)");
        if (++c == p.slot.cols) c = 0, r++;
      }
      return {};
    }
    case Use::CausalMask: {
      const std::uint64_t n = static_cast<std::uint64_t>(config_.n_positions);
      for (std::size_t i = 0; i < count; i++) {
        const std::uint64_t e = first + i, r = e / n % n, c = e % n;
        if (x[i] != (c <= r ? 1.0f : 0.0f))
          return fail(tensor + " has " + format_float(x[i]) + " at row " + std::to_string(r) +
                      ", column " + std::to_string(c) +
                      " (expected GPT-2's causal mask: 1 on and below the diagonal, 0 above)");
      }
      return {};
    }
    case Use::MaskFill:
      if (!(x[0] <= -1e4f))
        return fail(tensor + " is " + format_float(x[0]) +
                    " (expected GPT-2's mask fill: -10000 or below)");
      return {};
  }
  return {};
}

Error Loader::consume(const unsigned char* bytes, std::size_t count) {
  const Part& p = parts_[part_];
  const int size = safetensors::dtype_size(p.entry.dtype);
  std::uint64_t first = (at_ - p.entry.begin) / size;
  for (std::size_t done = 0; done < count;) {
    const std::size_t n = std::min(kBatch, (count - done) / size);
    safetensors::to_floats(p.entry.dtype, bytes + done, n, floats_.data());
    Error e = place(p, first, floats_.data(), n);
    if (!e.empty()) return e;
    first += n;
    done += n * size;
  }
  return {};
}

Error Loader::feed(const unsigned char* bytes, std::size_t n) {
  if (!error_.empty()) return error_;
  if (!allocated_) return error_ = "source: the model's memory was not allocated";
  while (n > 0) {
    while (part_ < parts_.size() && parts_[part_].entry.end == at_) part_++;  // done, or empty
    if (part_ == parts_.size())
      return error_ = fail(
                 "the file goes on after its last tensor's data (the format allows "
                 "nothing there; the header describes " +
                 std::to_string(data_bytes_) + " bytes of data)");
    const Part& p = parts_[part_];
    const std::size_t size = static_cast<std::size_t>(safetensors::dtype_size(p.entry.dtype));
    if (carried_ > 0 || n < size) {  // an element split between pieces: gather it
      const std::size_t take = std::min(size - carried_, n);
      std::memcpy(carry_ + carried_, bytes, take);
      carried_ += static_cast<int>(take);
      bytes += take;
      n -= take;
      if (static_cast<std::size_t>(carried_) == size) {
        error_ = consume(carry_, size);
        if (!error_.empty()) return error_;
        carried_ = 0;
        at_ += size;
      }
      continue;
    }
    const std::uint64_t left = p.entry.end - at_;
    const std::size_t whole =
        static_cast<std::size_t>(std::min<std::uint64_t>(n, left)) / size * size;
    error_ = consume(bytes, whole);
    if (!error_.empty()) return error_;
    at_ += whole;
    bytes += whole;
    n -= whole;
  }
  return {};
}

Error Loader::finish() {
  if (!error_.empty()) return error_;
  if (at_ != data_bytes_ || carried_ > 0) {
    while (part_ < parts_.size() && parts_[part_].entry.end <= at_) part_++;
    return error_ = fail("truncated: the data ends after " + std::to_string(at_ + carried_) +
                         " of its " + std::to_string(data_bytes_) + " bytes" +
                         (part_ < parts_.size() ? ", in tensor " + quoted(parts_[part_].entry.name)
                                                : std::string()));
  }
  if (!allocated_) return error_ = "source: the model's memory was not allocated";
  return {};
}

}  // namespace attn::gpt2
