// Conversions shared by the Embind files: JS argument objects -> core types, core results ->
// JS-owned copies, and errors as values. No maths here.
#pragma once

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/attention.h"
#include "core/check.h"
#include "core/matrix.h"

namespace attn::bindings {

using emscripten::typed_memory_view;
using emscripten::val;

// ---- each entry point's option table (engine.options) -------------------------------------

// While an entry point is being described, its Reader reads nothing: each read records the
// option it would read (name, type, range, default) in this table and returns an empty value,
// and the call ends as an error. So the table an entry point exports is the one it reads by.
inline val*& describing() {
  static val* table = nullptr;
  return table;
}

// { type: 'number', min, max, integer, default } (no default: the option is required).
inline val number_entry(double min, double max, bool integer, double fallback) {
  val e = val::object();
  e.set("type", std::string("number"));
  e.set("min", min);
  e.set("max", max);
  e.set("integer", integer);
  if (fallback == fallback) e.set("default", fallback);
  return e;
}

// The names of a choice option, in the core's order (engine.choices.<option>).
template <typename E, std::size_t N>
val choice_names(const ChoiceOption<E, N>& o) {
  val list = val::array();
  for (const auto& c : o.choices) list.call<void>("push", std::string(c.name));
  return list;
}

inline val typed_entry(const char* type) {
  val e = val::object();
  e.set("type", std::string(type));
  return e;
}

// ---- JS -> C++ ----------------------------------------------------------------------------

// How a JS value reads in a message: 'cosine', 2.5, 1e+300, true, null, an array, an object.
// (The same words as describe() in web/src/engine/args.js.)
inline std::string describe(const val& v) {
  std::string type = v.typeOf().as<std::string>();
  if (type == "string") return "'" + v.as<std::string>() + "'";
  if (type == "number") return format_number(v.as<double>());
  if (type == "boolean") return v.isTrue() ? "true" : "false";
  if (type == "undefined") return "undefined";
  if (v.isNull()) return "null";
  if (type == "symbol") return "a symbol";
  if (type == "bigint") return "a BigInt";
  if (type == "function") return "a function";
  if (val::global("Array").call<bool>("isArray", v)) return "an array";
  if (val::global("ArrayBuffer").call<bool>("isView", v)) return "a typed array";
  return "an object";
}

// The fields of one argument object, read one at a time; the first problem is kept and
// every later read returns an empty value, so an entry point checks `in.error` once.
// The object comes from web/src/engine.js (a plain snapshot: no getters run here).
struct Reader {
  val obj;
  Error error;

  val field(const char* name) const { return obj[name]; }
  bool has(const char* name) const {
    if (describing()) return true;  // so that an option read only when given is described too
    val v = field(name);
    return !v.isUndefined() && !v.isNull();
  }
  void fail(const std::string& message) {
    if (error.empty()) error = message;
  }

  // While describing (only then): records option `name` as `entry` (a nested one,
  // "additive.Wq", among the fields of its first part: { type: 'object', fields: { Wq } })
  // and returns true, so the read returns at once.
  bool note(const char* name, const val& entry) {
    val* table = describing();
    fail("describing the options");
    const std::string full = name;
    const std::size_t dot = full.find_first_of(".[");
    if (dot == std::string::npos) {
      table->set(full, entry);
    } else {
      const std::string top = full.substr(0, dot);
      if ((*table)[top].isUndefined()) {
        val object = typed_entry("object");
        object.set("fields", val::object());
        table->set(top, object);
      }
      (*table)[top]["fields"].set(full.substr(full[dot] == '.' ? dot + 1 : dot), entry);
    }
    return true;
  }

  // A number, as it is (no range).
  double number(const char* name) {
    if (describing() && note(name, typed_entry("number"))) return 0;
    val v = field(name);
    if (!v.isNumber()) {
      fail(expected(name, "a number", describe(v)));
      return 0;
    }
    return v.as<double>();
  }

  // A scalar option of the core's table; absent -> its fallback (or an error if required).
  double number(const NumberOption& o) {
    if (describing() && note(o.name, number_entry(o.min, o.max, o.integer, o.fallback))) {
      return o.fallback == o.fallback ? o.fallback : o.min;
    }
    if (!error.empty()) return o.fallback == o.fallback ? o.fallback : o.min;
    val v = field(o.name);
    if ((v.isUndefined() || v.isNull()) && o.fallback == o.fallback) return o.fallback;
    if (!v.isNumber()) {
      fail(expected(o.name, expectation(o), describe(v)));
      return o.min;
    }
    double x = v.as<double>();
    Error e = check_number(o, x);
    if (!e.empty()) {
      fail(e);
      return o.min;
    }
    return x;
  }

  // A finite number.
  float real(const char* name) {
    double x = number(name);
    if (!std::isfinite(x)) {
      fail(expected(name, "a finite number", format_number(x)));
      return 1;
    }
    return static_cast<float>(x);
  }

  // An integer in [lo, hi].
  double integer(const char* name, double lo, double hi) {
    if (describing() && note(name, number_entry(lo, hi, true, kRequired))) return lo;
    val v = field(name);
    double x = v.isNumber() ? v.as<double>() : lo - 1;
    if (!(x >= lo && x <= hi) || std::floor(x) != x) {
      fail(expected(name, "an integer from " + format_number(lo) + " to " + format_number(hi),
                    describe(v)));
      return lo;
    }
    return x;
  }

  // true or false; absent -> fallback.
  bool flag(const char* name, bool fallback = false) {
    if (describing()) {
      val entry = typed_entry("flag");
      entry.set("default", fallback);
      note(name, entry);
      return fallback;
    }
    val v = field(name);
    if (v.isUndefined() || v.isNull()) return fallback;
    if (!v.isTrue() && !v.isFalse()) {
      fail(expected(name, "true or false", describe(v)));
      return fallback;
    }
    return v.isTrue();
  }

  // A flag of the core's table; absent -> its fallback.
  bool flag(const FlagOption& o) { return flag(o.name, o.fallback); }

  // One of the names of a choice option; absent -> the table's fallback.
  template <typename E, std::size_t N>
  E choice(const ChoiceOption<E, N>& o) {
    return choice(o, o.fallback);
  }

  // One of the names of a choice option; absent -> fallback.
  template <typename E, std::size_t N>
  E choice(const ChoiceOption<E, N>& o, E fallback) {
    if (describing()) {
      val entry = typed_entry("choice");
      entry.set("values", choice_names(o));
      entry.set("default", std::string(o.name_of(fallback)));
      note(o.name, entry);
      return fallback;
    }
    val v = field(o.name);
    if (v.isUndefined() || v.isNull()) return fallback;
    E out = fallback;
    if (!v.isString() || !o.parse(v.as<std::string>(), &out)) fail(o.error(describe(v)));
    return out;
  }

  // The number of entries of an array argument, read once: a typed array's own length through
  // the %TypedArray%.prototype getter (no subclass getter or own property can change what it
  // says), anything else through its `length`. Every later step uses this number, so a length
  // that would say something else on a second read costs nothing and reads nothing past it.
  // NaN (and the error) when v is not an array.
  double count(const char* name, const val& v, bool* typed) {
    *typed = is_typed_array(v);
    if (*typed) return typed_length().call<double>("call", v);
    val n = v.isNull() || v.isUndefined() ? val::undefined() : v["length"];
    if (!n.isNumber()) {
      fail(expected(name, "an array", describe(v)));
      return std::nan("");
    }
    return n.as<double>();
  }

  // Length of an array-like field, read once (count) and checked against max before anything
  // is allocated.
  int length(const char* name, const val& v, int max, bool* typed) {
    double n = count(name, v, typed);
    if (!error.empty()) return 0;
    if (!(n >= 0 && n <= max) || std::floor(n) != n) {
      fail(expected(name, "at most " + std::to_string(max) + " entries", format_number(n)));
      return 0;
    }
    return static_cast<int>(n);
  }

  int length(const char* name, const val& v, int max) {
    bool typed = false;
    return length(name, v, max, &typed);
  }

  // Exactly n entries of v as T: a typed array in one copy (set() reads its own length, which
  // count() read), an array entry by entry (numbers only, and true and false as 1 and 0 when
  // `booleans`: flags), nothing read past n.
  template <typename T>
  std::vector<T> copy_numbers(const char* name, const val& v, std::size_t n, bool typed,
                              bool booleans = false) {
    std::vector<T> out(n);
    if (n == 0) return out;
    if (typed) {
      val(typed_memory_view(n, out.data())).call<void>("set", v);
      return out;
    }
    for (std::size_t i = 0; i < n; i++) {
      val x = v[static_cast<double>(i)];
      if (x.isNumber()) {
        out[i] = static_cast<T>(clamp_for<T>(x.as<double>()));
      } else if (booleans && (x.isTrue() || x.isFalse())) {
        out[i] = static_cast<T>(x.isTrue() ? 1 : 0);
      } else {
        fail(std::string(name) + ": entry " + std::to_string(i) + " is " + describe(x) +
             " (expected numbers)");
        return {};
      }
    }
    return out;
  }

  // The array-like field `name` (present): its length checked against max, then copy_numbers.
  template <typename T>
  std::vector<T> read_array(const char* name, int max, bool booleans = false) {
    val v = field(name);
    bool typed = false;
    const int n = length(name, v, max, &typed);
    if (!error.empty()) return {};
    return copy_numbers<T>(name, v, n, typed, booleans);
  }

  // { rows, cols, data } -> Matrix, sized by the core's table (check_size) before anything is
  // allocated; data (a Float32Array from engine.js) reaches the heap with one copy (set()).
  // Missing and optional -> empty Matrix.
  // A nested name ("selfAttention.Wq") has the limits of its last part (nested_matrix_option).
  Matrix matrix(const char* name, bool optional = false) {
    MatrixOption o;
    return read_matrix(name, nested_matrix_option(name, &o) ? &o : nullptr, optional);
  }

  // The same with the entry point's own row and column limits.
  Matrix matrix(const char* name, int max_rows, int max_cols, bool optional = false) {
    MatrixOption o = matrix_option(name, max_rows, max_cols);
    return read_matrix(name, &o, optional);
  }

  Matrix read_matrix(const char* name, const MatrixOption* o, bool optional) {
    Matrix m;
    if (describing()) {
      val entry = typed_entry("matrix");
      entry.set("optional", optional);
      note(name, entry);
      return m;
    }
    if (!error.empty()) return m;
    if (!has(name)) {
      if (!optional) fail(expected(name, "a matrix { rows, cols, data }", describe(field(name))));
      return m;
    }
    val x = field(name);
    val rows_v = x["rows"], cols_v = x["cols"];
    if (!o || !rows_v.isNumber() || !cols_v.isNumber()) {
      fail(expected(name, "a matrix { rows, cols, data }", describe(x)));
      return m;
    }
    val data = x["data"];
    bool typed = false;
    const double count_read = count(name, data, &typed);  // read once
    if (!error.empty()) {
      error.clear();
      fail(expected(name, "a matrix { rows, cols, data }", describe(x)));
      return m;
    }
    double rows = rows_v.as<double>(), cols = cols_v.as<double>();
    Error e = check_size(*o, rows, cols, count_read);
    if (!e.empty()) {
      fail(e);
      return m;
    }
    m.rows = static_cast<int>(rows);
    m.cols = static_cast<int>(cols);
    m.data = copy_numbers<float>(name, data, static_cast<std::size_t>(count_read), typed);
    return m;
  }

  // Array-like of numbers -> floats.
  std::vector<float> floats(const char* name, int max) {
    if (describing() && note(name, typed_entry("array"))) return {};
    if (!error.empty() || !has(name)) return {};
    return read_array<float>(name, max);
  }

  // Array-like of 0/1 (or booleans) -> flags. Missing -> empty (no padding mask).
  std::vector<bool> flags(const char* name, int max) {
    if (describing() && note(name, typed_entry("array"))) return {};
    if (!error.empty() || !has(name)) return {};
    std::vector<std::uint8_t> bytes = read_array<std::uint8_t>(name, max, true);
    return std::vector<bool>(bytes.begin(), bytes.end());
  }

  // Array-like of numbers -> a vector of T (integers for counts, floats for values).
  template <typename T>
  std::vector<T> numbers(const char* name, int max) {
    if (describing() && note(name, typed_entry("array"))) return {};
    if (!error.empty()) return {};
    if (!has(name)) {
      fail(expected(name, "an array", describe(field(name))));
      return {};
    }
    return read_array<T>(name, max);
  }

 private:
  // Is v a typed array (Float32Array, Int32Array, ...)? The %TypedArray%.prototype
  // @@toStringTag getter says so from the object's internal slot, whatever its prototype or
  // own properties claim (a DataView or a look-alike object gives undefined).
  static bool is_typed_array(const val& v) {
    if (v.isNull() || v.isUndefined()) return false;
    static const val tag = typed_getter(val::global("Symbol")["toStringTag"]);
    return tag.call<val>("call", v).isString();
  }
  // %TypedArray%.prototype's `length` getter.
  static const val& typed_length() {
    static const val getter = typed_getter(val("length"));
    return getter;
  }
  static val typed_getter(const val& key) {
    val proto =
        val::global("Object").call<val>("getPrototypeOf", val::global("Uint8Array")["prototype"]);
    return val::global("Reflect").call<val>("getOwnPropertyDescriptor", proto, key)["get"];
  }
  // A double as the typed array of T would store it (ToInt32 / ToUint8 wrap; a float rounds).
  template <typename T>
  static double clamp_for(double x) {
    if constexpr (std::is_floating_point_v<T>) {
      return x;
    } else {
      if (!std::isfinite(x)) return 0;
      const double range = std::pow(2.0, 8.0 * sizeof(T));
      double t = std::fmod(std::trunc(x), range);
      if (t < 0) t += range;
      if (std::is_signed_v<T> && t >= range / 2) t -= range;
      return t;
    }
  }
};

// Token ids read as numbers (at most `most`), each an integer from lowest to vocab - 1 before it
// becomes an int (so 2^32 + 3 is refused, not read as 3); lowest -1 lets -1 say "none". A bad one
// is "<where> <i> is <x> (expected <noun> from <lowest> to <vocab - 1>)", where naming the list
// ("tokens: entry", "source, sentence 2, token").
inline std::vector<int> read_tokens(Reader& in, const char* name, int most, int lowest, int vocab,
                                    const std::string& where, const char* noun) {
  const std::vector<double> x = in.numbers<double>(name, most);
  std::vector<int> out(x.size());
  for (std::size_t i = 0; i < x.size() && in.error.empty(); i++) {
    if (!(x[i] >= lowest && x[i] < vocab) || std::floor(x[i]) != x[i])
      in.fail(where + " " + std::to_string(i) + " is " + format_number(x[i]) + " (expected " +
              (lowest < 0 ? "-1 = none, or " : "") + noun + " from " +
              std::to_string(lowest < 0 ? 0 : lowest) + " to " + std::to_string(vocab - 1) + ")");
    out[i] = in.error.empty() ? static_cast<int>(x[i]) : 0;
  }
  return in.error.empty() ? out : std::vector<int>();
}

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

// An attend() result as JS copies: every stage, or (stages = false) only what the output-only
// path computes.
inline val attend_to_js(const AttendResult& r, bool stages) {
  val out = val::object();
  if (stages) {
    out.set("scores", to_js(r.scores));
    out.set("scaled", to_js(r.scaled));
    out.set("mask", to_js(r.mask));
    out.set("masked", to_js(r.masked));
    out.set("weights", to_js(r.weights));
  }
  out.set("output", to_js(r.output));
  out.set("overflow", r.overflow);
  out.set("entropy", copy_out(r.entropy));
  out.set("fullyMaskedRows", copy_out(r.fully_masked_rows));
  return out;
}

inline val failure(const Error& message) {
  val out = val::object();
  out.set("error", message);
  return out;
}

// ---- objects kept between calls -------------------------------------------------------------

// A variance run or a trainer lives in the module between calls; JS holds it as a number (its
// address), and every call looks that number up among the live ones (a map: a lookup costs
// the same with 1 or 1,000 live), so a stale or made-up one is an error, not a crash. (Embind's
// class_ would hand JS an object instead, at about 3 KB gzipped of glue per module.) At most
// `max` live at once: add() refuses more (full()). When the last one goes, the map's own
// storage goes too, so the allocator's count is back where it was.
template <typename T>
class Live {
 public:
  explicit Live(std::size_t max = std::numeric_limits<std::size_t>::max()) : max_(max) {}
  bool full() const { return items_.size() >= max_; }
  std::size_t size() const { return items_.size(); }
  std::size_t max() const { return max_; }
  // Requires !full().
  double add(std::unique_ptr<T> p) {
    const double handle = id(p.get());
    items_.emplace(handle, std::move(p));
    return handle;
  }
  T* find(double handle) const {
    auto it = items_.find(handle);
    return it == items_.end() ? nullptr : it->second.get();
  }
  void remove(double handle) {
    items_.erase(handle);
    if (items_.empty()) std::map<double, std::unique_ptr<T>>().swap(items_);
  }
  template <typename F>
  void each(F f) const {
    for (const auto& [handle, p] : items_) f(*p);
  }

 private:
  static double id(const T* p) { return static_cast<double>(reinterpret_cast<std::uintptr_t>(p)); }
  std::size_t max_;
  std::map<double, std::unique_ptr<T>> items_;
};

// ---- the registry of described entry points ---------------------------------------------

using EntryPoint = val (*)(val);

inline std::vector<std::pair<const char*, EntryPoint>>& entry_points() {
  static std::vector<std::pair<const char*, EntryPoint>> all;
  return all;
}

// Registers `fn` as the module's function `name`, and its options in engine.options.
inline void entry_point(const char* name, EntryPoint fn) {
  emscripten::function(name, fn);
  entry_points().emplace_back(name, fn);
}

// Registers `read` as the options of the module's function `name`, one that takes a live object
// (a handle) before its options: read(args) reads them as that function does, without one, and
// is called only while the options are described.
inline void described(const char* name, EntryPoint read) {
  entry_points().emplace_back(name, read);
}

// { <entry point>: { <option>: { type, ... } } } for every registered entry point: each one is
// called once on an empty object while describing (see Reader::note).
inline val describe_options() {
  val out = val::object();
  for (const auto& [name, fn] : entry_points()) {
    val table = val::object();
    describing() = &table;
    fn(val::object());
    describing() = nullptr;
    out.set(name, table);
  }
  return out;
}

}  // namespace attn::bindings
