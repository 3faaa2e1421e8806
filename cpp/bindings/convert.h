// Conversions shared by the Embind files: JS argument objects -> core types, core results ->
// JS-owned copies, and errors as values. No maths here.
#pragma once

#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/matrix.h"

namespace attn::bindings {

using emscripten::typed_memory_view;
using emscripten::val;

// ---- JS -> C++ ----------------------------------------------------------------------------

// The fields of one argument object, read one at a time; the first problem is kept and
// every later read returns an empty value, so an entry point checks `in.error` once.
struct Reader {
  val obj;
  Error error;

  val field(const char* name) const { return obj[name]; }
  bool has(const char* name) const {
    val v = field(name);
    return !v.isUndefined() && !v.isNull();
  }
  void fail(const std::string& message) {
    if (error.empty()) error = message;
  }

  double number(const char* name) {
    val v = field(name);
    if (!v.isNumber()) {
      fail(std::string(name) + ": expected a number");
      return 0;
    }
    return v.as<double>();
  }

  // A finite number.
  float real(const char* name) {
    double x = number(name);
    if (!std::isfinite(x)) {
      fail(std::string(name) + ": expected a finite number");
      return 1;
    }
    return static_cast<float>(x);
  }

  // An integer in [lo, hi].
  double integer(const char* name, double lo, double hi) {
    double x = number(name);
    if (!(x >= lo && x <= hi) || std::floor(x) != x) {
      fail(std::string(name) + ": expected an integer from " + std::to_string(static_cast<long long>(lo)) +
           " to " + std::to_string(static_cast<long long>(hi)));
      return lo;
    }
    return x;
  }

  bool flag(const char* name) { return field(name).isTrue(); }

  // Length of an array-like field, checked against max before anything is allocated.
  int length(const char* name, const val& v, int max) {
    if (!v["length"].isNumber()) {
      fail(std::string(name) + ": expected an array");
      return 0;
    }
    double n = v["length"].as<double>();
    if (!(n >= 0 && n <= max)) {
      fail(std::string(name) + ": more than " + std::to_string(max) + " entries");
      return 0;
    }
    return static_cast<int>(n);
  }

  // { rows, cols, data } -> Matrix. Missing and optional -> empty Matrix.
  Matrix matrix(const char* name, int max_rows, int max_cols, bool optional = false) {
    Matrix m;
    if (!error.empty()) return m;
    if (!has(name)) {
      if (!optional) fail(std::string(name) + ": required");
      return m;
    }
    Reader in{field(name), {}};
    int rows = static_cast<int>(in.integer("rows", 0, max_rows));
    int cols = static_cast<int>(in.integer("cols", 0, max_cols));
    int n = in.length("data", in.field("data"), max_rows * max_cols);
    if (in.error.empty() && n != rows * cols) in.fail("data: length is not rows * cols");
    if (!in.error.empty()) {
      fail(std::string(name) + "." + in.error);
      return m;
    }
    m.rows = rows;
    m.cols = cols;
    m.data = emscripten::convertJSArrayToNumberVector<float>(in.field("data"));
    return m;
  }

  // Array-like of numbers -> floats.
  std::vector<float> floats(const char* name, int max) {
    if (!error.empty() || !has(name)) return {};
    val v = field(name);
    length(name, v, max);
    if (!error.empty()) return {};
    return emscripten::convertJSArrayToNumberVector<float>(v);
  }

  // Array-like of 0/1 (or booleans) -> flags. Missing -> empty (no padding mask).
  std::vector<bool> flags(const char* name, int max) {
    if (!error.empty() || !has(name)) return {};
    val v = field(name);
    length(name, v, max);
    if (!error.empty()) return {};
    std::vector<std::uint8_t> bytes = emscripten::convertJSArrayToNumberVector<std::uint8_t>(v);
    return std::vector<bool>(bytes.begin(), bytes.end());
  }

  // Array-like of numbers -> a vector of T (integers for counts, floats for values).
  template <typename T>
  std::vector<T> numbers(const char* name, int max) {
    if (!error.empty()) return {};
    if (!has(name)) {
      fail(std::string(name) + ": expected an array");
      return {};
    }
    val v = field(name);
    length(name, v, max);
    if (!error.empty()) return {};
    return emscripten::convertJSArrayToNumberVector<T>(v);
  }
};

// ---- C++ -> JS ----------------------------------------------------------------------------

// A JS-owned copy of the vector (Float32Array / Int32Array): safe across heap growth.
template <typename T>
inline val copy_out(const std::vector<T>& v) {
  return val(typed_memory_view(v.size(), v.data())).call<val>("slice");
}

inline val to_js(const Matrix& m) {
  val out = val::object();
  out.set("rows", m.rows);
  out.set("cols", m.cols);
  out.set("data", copy_out(m.data));
  return out;
}

inline val failure(const Error& message) {
  val out = val::object();
  out.set("error", message);
  return out;
}

}  // namespace attn::bindings
