// A strict JSON reader (RFC 8259) for the one JSON text the core reads itself: a safetensors
// file's header (core/safetensors.h), which arrives as bytes inside the file. It keeps numbers as
// the text they were written in, so the reader of an offset decides what an integer is (2^53 and
// beyond included) and no value passes through a double. The core stays dependency-free C++17;
// everything the page reads as JSON otherwise (config.json) JavaScript parses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/matrix.h"

namespace attn::json {

struct Value {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  std::string text;                                    // String: decoded; Number: as written
  std::vector<Value> items;                            // Array
  std::vector<std::pair<std::string, Value>> members;  // Object, in the order written

  bool is(Kind k) const { return kind == k; }
  // The member named `name`, or null when there is none.
  const Value* find(const std::string& name) const;
};

// "null", "a boolean", "a number", "a string", "an array", "an object"
const char* kind_name(Value::Kind k);

struct Parsed {
  Value value;
  Error error;  // "invalid JSON at byte 12 (expected ':')", empty when the text is valid
};

// Parses text[0..n): one value, optionally surrounded by whitespace. Strict: no comments,
// no trailing commas, strings valid UTF-8 without raw control characters, no duplicate member
// names; arrays and objects nested at most max_depth deep, and at most max_values values in all
// (each takes far more memory than the byte or two of text it can be written in).
Parsed parse(const char* text, std::size_t n, int max_depth = 16, std::size_t max_values = 1000000);

// A number's text as a non-negative integer that fits in 64 bits; false for anything else
// ("-1", "1.5", "1e3", "18446744073709551616").
bool to_uint64(const std::string& number, std::uint64_t* out);

}  // namespace attn::json
