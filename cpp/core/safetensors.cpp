// The safetensors format: the header's length, the header's fields and offsets, and the element
// conversions (see safetensors.h). Every message starts with "source: " (the file is loadModel's
// source argument) and names the tensor or field that is wrong.
#include "core/safetensors.h"

#include <algorithm>
#include <cstring>

#include "core/json.h"

namespace attn::safetensors {

namespace {

struct DTypeInfo {
  DType type;
  const char* name;
  int size;
};

constexpr DTypeInfo kDTypes[] = {
    {DType::Bool, "BOOL", 1},       {DType::U8, "U8", 1},           {DType::I8, "I8", 1},
    {DType::F8_E4M3, "F8_E4M3", 1}, {DType::F8_E5M2, "F8_E5M2", 1}, {DType::I16, "I16", 2},
    {DType::U16, "U16", 2},         {DType::F16, "F16", 2},         {DType::BF16, "BF16", 2},
    {DType::I32, "I32", 4},         {DType::U32, "U32", 4},         {DType::F32, "F32", 4},
    {DType::F64, "F64", 8},         {DType::I64, "I64", 8},         {DType::U64, "U64", 8}};

std::string dtype_list() {
  std::string s;
  for (const DTypeInfo& d : kDTypes) s += (s.empty() ? "" : ", ") + std::string(d.name);
  return s;
}

Error fail(const std::string& what) { return "source: " + what; }

std::string quoted(const std::string& name) { return "'" + name + "'"; }

// The entry `name` of the header: its fields checked one by one.
Error read_entry(const std::string& name, const json::Value& v, Entry* e) {
  using K = json::Value::Kind;
  const std::string tensor = "tensor " + quoted(name);
  if (!v.is(K::Object))
    return fail(tensor + " is " + json::kind_name(v.kind) +
                " in the header (expected { dtype, shape, data_offsets })");
  for (const auto& m : v.members) {
    if (m.first != "dtype" && m.first != "shape" && m.first != "data_offsets")
      return fail(tensor + " has a field " + quoted(m.first) +
                  " (expected only dtype, shape and data_offsets)");
  }
  e->name = name;
  const json::Value* dtype = v.find("dtype");
  if (!dtype || !dtype->is(K::String))
    return fail(tensor + " has no dtype string (expected one of " + dtype_list() + ")");
  bool known = false;
  for (const DTypeInfo& d : kDTypes) {
    if (dtype->text == d.name) {
      e->dtype = d.type;
      known = true;
    }
  }
  if (!known)
    return fail(tensor + " has dtype " + quoted(dtype->text) + " (expected one of " + dtype_list() +
                ")");
  const json::Value* shape = v.find("shape");
  if (!shape || !shape->is(K::Array))
    return fail(tensor + " has no shape (expected an array of non-negative integers)");
  for (const json::Value& d : shape->items) {
    std::uint64_t n;
    if (!d.is(K::Number) || !json::to_uint64(d.text, &n))
      return fail(tensor + " has a shape entry " +
                  (d.is(K::Number) ? d.text : json::kind_name(d.kind)) +
                  " (expected non-negative integers below 2^64)");
    e->shape.push_back(n);
  }
  const json::Value* offsets = v.find("data_offsets");
  if (!offsets || !offsets->is(K::Array) || offsets->items.size() != 2 ||
      !offsets->items[0].is(K::Number) || !offsets->items[1].is(K::Number) ||
      !json::to_uint64(offsets->items[0].text, &e->begin) ||
      !json::to_uint64(offsets->items[1].text, &e->end))
    return fail(tensor + " has no data_offsets [begin, end] of non-negative integers below 2^64");
  if (e->end < e->begin)
    return fail(tensor + " ends before it begins (data_offsets [" + std::to_string(e->begin) +
                ", " + std::to_string(e->end) + "])");
  // elements * size, stopping before it passes 2^64
  std::uint64_t bytes = static_cast<std::uint64_t>(dtype_size(e->dtype));
  for (std::uint64_t d : e->shape) {
    if (d != 0 && bytes > UINT64_MAX / d)
      return fail(tensor + " has shape " + shape_text(e->shape) + ", more bytes than 2^64");
    bytes *= d;
  }
  if (bytes != e->end - e->begin)
    return fail(tensor + " has " + std::to_string(e->end - e->begin) + " bytes at [" +
                std::to_string(e->begin) + ", " + std::to_string(e->end) + "), expected " +
                std::to_string(bytes) + " (shape " + shape_text(e->shape) + " of " +
                dtype_name(e->dtype) + ")");
  return {};
}

// The offsets tile [0, data_bytes) exactly, in order; with the file's length known, the data
// ends where the file does.
Error check_offsets(const std::vector<Entry>& t, double data_in_file) {
  std::uint64_t at = 0;
  for (std::size_t i = 0; i < t.size(); i++) {
    if (t[i].begin < at)
      return fail("tensors " + quoted(t[i - 1].name) + " at [" + std::to_string(t[i - 1].begin) +
                  ", " + std::to_string(t[i - 1].end) + ") and " + quoted(t[i].name) + " at [" +
                  std::to_string(t[i].begin) + ", " + std::to_string(t[i].end) + ") overlap");
    if (t[i].begin > at)
      return fail("bytes [" + std::to_string(at) + ", " + std::to_string(t[i].begin) +
                  ") of the data belong to no tensor (the format allows no gaps; " +
                  quoted(t[i].name) + " begins at " + std::to_string(t[i].begin) + ")");
    at = t[i].end;
  }
  if (data_in_file >= 0) {
    if (static_cast<double>(at) > data_in_file)
      return fail("tensor " + quoted(t.back().name) + " ends at byte " + std::to_string(at) +
                  " of the data, past the end of the file (the data has " +
                  std::to_string(static_cast<std::uint64_t>(data_in_file)) + " bytes)");
    if (static_cast<double>(at) < data_in_file)
      return fail("the file has " + std::to_string(static_cast<std::uint64_t>(data_in_file) - at) +
                  " bytes after the last tensor's data (the format allows none)");
  }
  return {};
}

}  // namespace

const char* dtype_name(DType t) {
  for (const DTypeInfo& d : kDTypes)
    if (d.type == t) return d.name;
  return "";
}

int dtype_size(DType t) {
  for (const DTypeInfo& d : kDTypes)
    if (d.type == t) return d.size;
  return 0;
}

std::uint64_t Entry::elements() const {
  std::uint64_t n = 1;
  for (std::uint64_t d : shape) n *= d;  // read_entry checked that the bytes fit in 64 bits
  return n;
}

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); i++) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

Error header_length(const unsigned char first8[8], double file_bytes, std::uint64_t* length) {
  if (file_bytes >= 0 && file_bytes < 8)
    return fail("not a safetensors file (it has " + std::to_string(static_cast<int>(file_bytes)) +
                " bytes; the format starts with an 8-byte header length)");
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; i--) n = n << 8 | first8[i];
  *length = n;
  if (n > kMaxHeaderBytes)
    return fail("not a safetensors file (its first 8 bytes give a header of " + std::to_string(n) +
                " bytes; the format allows at most " + std::to_string(kMaxHeaderBytes) + ")");
  if (n < 2)
    return fail("not a safetensors file (its header of " + std::to_string(n) +
                " bytes cannot hold a JSON object)");
  if (file_bytes >= 0 && static_cast<double>(n) > file_bytes - 8)
    return fail("truncated, or not a safetensors file (its header of " + std::to_string(n) +
                " bytes runs past the end of the file, which has " +
                std::to_string(static_cast<std::uint64_t>(file_bytes)) + " bytes)");
  return {};
}

Header parse_header(const char* text, std::size_t n, double file_bytes) {
  Header h;
  if (n == 0 || text[0] != '{') {
    h.error = fail("not a safetensors file (its header does not start with '{')");
    return h;
  }
  json::Parsed p = json::parse(text, n);
  if (!p.error.empty()) {
    h.error = fail("the header is " + p.error);
    return h;
  }
  for (const auto& m : p.value.members) {
    if (m.first == "__metadata__") {  // free-form strings (the writer's format, a licence, ...)
      if (!m.second.is(json::Value::Kind::Object)) {
        h.error =
            fail("the header's __metadata__ is " + std::string(json::kind_name(m.second.kind)) +
                 " (expected an object of strings)");
        return h;
      }
      for (const auto& kv : m.second.members) {
        if (!kv.second.is(json::Value::Kind::String)) {
          h.error = fail("the header's __metadata__ entry " + quoted(kv.first) + " is " +
                         json::kind_name(kv.second.kind) + " (expected a string)");
          return h;
        }
      }
      continue;
    }
    Entry e;
    h.error = read_entry(m.first, m.second, &e);
    if (!h.error.empty()) return h;
    h.tensors.push_back(std::move(e));
  }
  std::stable_sort(h.tensors.begin(), h.tensors.end(), [](const Entry& a, const Entry& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  const double data_in_file = file_bytes < 0 ? -1 : file_bytes - 8 - static_cast<double>(n);
  h.error = check_offsets(h.tensors, data_in_file);
  if (h.error.empty() && !h.tensors.empty()) h.data_bytes = h.tensors.back().end;
  return h;
}

// ---- element conversion ------------------------------------------------------------------------

float f16_to_f32(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1f;
  std::uint32_t mantissa = h & 0x3ff;
  std::uint32_t bits;
  if (exponent == 0x1f) {  // infinity or NaN
    bits = sign | 0x7f800000u | mantissa << 13;
  } else if (exponent != 0) {  // normal: rebias 15 -> 127
    bits = sign | (exponent + 112) << 23 | mantissa << 13;
  } else if (mantissa == 0) {  // +-0
    bits = sign;
  } else {  // subnormal: m 2^-24, normalised
    int e = -1;
    do {
      e++;
      mantissa <<= 1;
    } while ((mantissa & 0x400) == 0);
    bits = sign | static_cast<std::uint32_t>(112 - e) << 23 | (mantissa & 0x3ff) << 13;
  }
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

void to_floats(DType t, const unsigned char* src, std::size_t count, float* out) {
  switch (t) {
    case DType::F32:
      std::memcpy(out, src, count * 4);  // little-endian, as wasm and x86 are
      return;
    case DType::F16:
      for (std::size_t i = 0; i < count; i++)
        out[i] = f16_to_f32(static_cast<std::uint16_t>(src[2 * i] | src[2 * i + 1] << 8));
      return;
    case DType::BF16:
      for (std::size_t i = 0; i < count; i++)
        out[i] = bf16_to_f32(static_cast<std::uint16_t>(src[2 * i] | src[2 * i + 1] << 8));
      return;
    case DType::U8:
    case DType::Bool:
      for (std::size_t i = 0; i < count; i++) out[i] = src[i];
      return;
    default:  // the loader accepts no other dtype
      std::fill(out, out + count, 0.0f);
  }
}

}  // namespace attn::safetensors
