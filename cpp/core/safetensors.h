// The safetensors format (Hugging Face): a file is
//     8 bytes     N, the header's length, a little-endian unsigned 64-bit integer
//     N bytes     the header: a JSON object { name: { dtype, shape, data_offsets: [begin, end] },
//                 ..., "__metadata__": { string: string } } (may end in spaces)
//     the rest    the data: each tensor's bytes, row-major, little-endian, at [begin, end)
// Nothing in a header is trusted before it is checked: its length against the format's limit
// and the file, every field's type, each tensor's byte count against its dtype and shape, and
// the offsets, which must tile the data exactly (no gap, no overlap, nothing past the end).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/matrix.h"

namespace attn::safetensors {

// The format's own limit on a header (the reference implementation refuses more).
constexpr std::uint64_t kMaxHeaderBytes = 100000000;

// Element types of the format.
enum class DType {
  Bool,
  U8,
  I8,
  F8_E4M3,
  F8_E5M2,
  I16,
  U16,
  F16,
  BF16,
  I32,
  U32,
  F32,
  F64,
  I64,
  U64
};

// "F32", "BF16", ...
const char* dtype_name(DType t);
// Bytes per element.
int dtype_size(DType t);

struct Entry {
  std::string name;
  DType dtype = DType::F32;
  std::vector<std::uint64_t> shape;  // [] for a scalar
  std::uint64_t begin = 0, end = 0;  // byte offsets into the data (after the header)
  std::uint64_t elements() const;    // product of the shape (1 for a scalar)
};

struct Header {
  std::vector<Entry> tensors;    // sorted by begin: the order of their bytes in the file
  std::uint64_t data_bytes = 0;  // the data's length the header implies (the last end)
  Error error;                   // empty when the header is valid
};

// The header's length from the file's first 8 bytes. file_bytes: the file's length, or a
// negative number when it is not known yet (a stream). Empty when the length is acceptable.
Error header_length(const unsigned char first8[8], double file_bytes, std::uint64_t* length);

// Parses and checks the header text (n bytes, after the first 8 of the file). file_bytes as in
// header_length: when known, the data must end exactly where the file does.
Header parse_header(const char* text, std::size_t n, double file_bytes);

// "[768, 2304]"
std::string shape_text(const std::vector<std::uint64_t>& shape);

// ---- element conversion ----------------------------------------------------------------------

// IEEE half and bfloat16 to float (exact: every value of both is a float).
float f16_to_f32(std::uint16_t h);
inline float bf16_to_f32(std::uint16_t b) {
  const std::uint32_t bits = static_cast<std::uint32_t>(b) << 16;
  float x;
  static_assert(sizeof x == sizeof bits);
  __builtin_memcpy(&x, &bits, sizeof x);
  return x;
}

// count elements of dtype t (F32, F16, BF16, U8 or Bool) at src -> out as floats.
void to_floats(DType t, const unsigned char* src, std::size_t count, float* out);

}  // namespace attn::safetensors
