// A strict JSON reader (see json.h): recursive descent over the bytes, one function per kind of
// value, every error naming the byte where the text stops being JSON.
#include "core/json.h"

namespace attn::json {

const Value* Value::find(const std::string& name) const {
  for (const auto& m : members)
    if (m.first == name) return &m.second;
  return nullptr;
}

const char* kind_name(Value::Kind k) {
  switch (k) {
    case Value::Kind::Null:
      return "null";
    case Value::Kind::Bool:
      return "a boolean";
    case Value::Kind::Number:
      return "a number";
    case Value::Kind::String:
      return "a string";
    case Value::Kind::Array:
      return "an array";
    case Value::Kind::Object:
      return "an object";
  }
  return "";
}

bool to_uint64(const std::string& number, std::uint64_t* out) {
  if (number.empty() || number.size() > 20) return false;
  std::uint64_t v = 0;
  for (char c : number) {
    if (c < '0' || c > '9') return false;
    const std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - digit) / 10) return false;  // past 2^64 - 1
    v = v * 10 + digit;
  }
  *out = v;
  return true;
}

namespace {

class Reader {
 public:
  Reader(const char* text, std::size_t n, int max_depth, std::size_t max_values)
      : s_(text), n_(n), max_depth_(max_depth), values_left_(max_values) {}

  Parsed document() {
    Parsed p;
    skip_space();
    if (value(&p.value, 0) && (skip_space(), at_ < n_)) fail("the end of the text");
    if (!error_.empty()) p = Parsed{Value(), error_};
    return p;
  }

 private:
  bool fail(const char* expectation) {
    if (error_.empty())
      error_ = "invalid JSON at byte " + std::to_string(at_) + " (expected " + expectation + ")";
    return false;
  }
  void skip_space() {
    while (at_ < n_ && (s_[at_] == ' ' || s_[at_] == '\t' || s_[at_] == '\n' || s_[at_] == '\r'))
      at_++;
  }
  bool literal(const char* word) {
    for (std::size_t i = 0; word[i]; i++)
      if (at_ + i >= n_ || s_[at_ + i] != word[i]) return fail(word);
    while (*word++) at_++;
    return true;
  }

  bool value(Value* v, int depth) {
    if (at_ >= n_) return fail("a value");
    if (values_left_-- == 0) return fail("fewer values");
    switch (s_[at_]) {
      case '{':
        return object(v, depth + 1);
      case '[':
        return array(v, depth + 1);
      case '"':
        v->kind = Value::Kind::String;
        return string(&v->text);
      case 't':
        v->kind = Value::Kind::Bool;
        v->boolean = true;
        return literal("true");
      case 'f':
        v->kind = Value::Kind::Bool;
        return literal("false");
      case 'n':
        return literal("null");
      default:
        v->kind = Value::Kind::Number;
        return number(&v->text);
    }
  }

  bool object(Value* v, int depth) {
    if (depth > max_depth_) return fail("values nested less deeply");
    v->kind = Value::Kind::Object;
    at_++;  // '{'
    skip_space();
    if (at_ < n_ && s_[at_] == '}') return ++at_, true;
    for (;;) {
      skip_space();
      std::string name;
      if (at_ >= n_ || s_[at_] != '"') return fail("a member name");
      const std::size_t name_at = at_;
      if (!string(&name)) return false;
      if (v->find(name)) {
        at_ = name_at;
        return fail(
            ("a member name not seen before in this object, not '" + name + "' again").c_str());
      }
      skip_space();
      if (at_ >= n_ || s_[at_] != ':') return fail("':'");
      at_++;
      skip_space();
      v->members.emplace_back(std::move(name), Value());
      if (!value(&v->members.back().second, depth)) return false;
      skip_space();
      if (at_ < n_ && s_[at_] == ',') {
        at_++;
        continue;
      }
      if (at_ < n_ && s_[at_] == '}') return ++at_, true;
      return fail("',' or '}'");
    }
  }

  bool array(Value* v, int depth) {
    if (depth > max_depth_) return fail("values nested less deeply");
    v->kind = Value::Kind::Array;
    at_++;  // '['
    skip_space();
    if (at_ < n_ && s_[at_] == ']') return ++at_, true;
    for (;;) {
      skip_space();
      v->items.emplace_back();
      if (!value(&v->items.back(), depth)) return false;
      skip_space();
      if (at_ < n_ && s_[at_] == ',') {
        at_++;
        continue;
      }
      if (at_ < n_ && s_[at_] == ']') return ++at_, true;
      return fail("',' or ']'");
    }
  }

  // -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, kept as written
  bool number(std::string* out) {
    const std::size_t start = at_;
    auto digits = [&] {
      const std::size_t from = at_;
      while (at_ < n_ && s_[at_] >= '0' && s_[at_] <= '9') at_++;
      return at_ > from;
    };
    if (at_ < n_ && s_[at_] == '-') at_++;
    if (at_ < n_ && s_[at_] == '0') {
      at_++;
    } else if (!digits()) {
      return fail("a value");
    }
    if (at_ < n_ && s_[at_] == '.') {
      at_++;
      if (!digits()) return fail("a digit after '.'");
    }
    if (at_ < n_ && (s_[at_] == 'e' || s_[at_] == 'E')) {
      at_++;
      if (at_ < n_ && (s_[at_] == '+' || s_[at_] == '-')) at_++;
      if (!digits()) return fail("a digit in the exponent");
    }
    out->assign(s_ + start, at_ - start);
    return true;
  }

  // Four hex digits of a \u escape.
  bool hex4(std::uint32_t* code) {
    *code = 0;
    for (int i = 0; i < 4; i++, at_++) {
      if (at_ >= n_) return fail("four hex digits after \\u");
      const char c = s_[at_];
      const int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
      if (d < 0) return fail("four hex digits after \\u");
      *code = *code * 16 + static_cast<std::uint32_t>(d);
    }
    return true;
  }

  static void put_utf8(std::uint32_t code, std::string* out) {
    if (code < 0x80) {
      out->push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      out->push_back(static_cast<char>(0xc0 | code >> 6));
      out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
    } else if (code < 0x10000) {
      out->push_back(static_cast<char>(0xe0 | code >> 12));
      out->push_back(static_cast<char>(0x80 | (code >> 6 & 0x3f)));
      out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
    } else {
      out->push_back(static_cast<char>(0xf0 | code >> 18));
      out->push_back(static_cast<char>(0x80 | (code >> 12 & 0x3f)));
      out->push_back(static_cast<char>(0x80 | (code >> 6 & 0x3f)));
      out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
    }
  }

  // One UTF-8 sequence starting at a byte >= 0x80: its well-formed forms only (no overlong
  // encodings, no surrogates, nothing past U+10FFFF).
  bool utf8(std::string* out) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s_[at_ + i]); };
    const unsigned char b0 = byte(0);
    int len = 0;
    unsigned char lo = 0x80, hi = 0xbf;  // the range of the second byte
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      len = 2;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      len = 3;
      if (b0 == 0xe0) lo = 0xa0;
      if (b0 == 0xed) hi = 0x9f;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      len = 4;
      if (b0 == 0xf0) lo = 0x90;
      if (b0 == 0xf4) hi = 0x8f;
    } else {
      return fail("UTF-8 text");
    }
    if (at_ + len > n_) return fail("UTF-8 text");
    for (int i = 1; i < len; i++) {
      const unsigned char b = byte(i);
      if (b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xbf)) return fail("UTF-8 text");
    }
    out->append(s_ + at_, len);
    at_ += len;
    return true;
  }

  bool string(std::string* out) {
    at_++;  // '"'
    for (;;) {
      if (at_ >= n_) return fail("'\"' to end the string");
      const unsigned char c = static_cast<unsigned char>(s_[at_]);
      if (c == '"') return ++at_, true;
      if (c < 0x20) return fail("no raw control character inside a string");
      if (c >= 0x80) {
        if (!utf8(out)) return false;
        continue;
      }
      if (c != '\\') {
        out->push_back(static_cast<char>(c));
        at_++;
        continue;
      }
      at_++;
      if (at_ >= n_) return fail("an escape after '\\'");
      const char e = s_[at_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out->push_back(e);
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'u': {
          std::uint32_t code;
          if (!hex4(&code)) return false;
          if (code >= 0xdc00 && code <= 0xdfff) return fail("a high surrogate before a low one");
          if (code >= 0xd800 && code <= 0xdbff) {  // a surrogate pair
            std::uint32_t low;
            if (at_ + 2 > n_ || s_[at_] != '\\' || s_[at_ + 1] != 'u')
              return fail("a low surrogate after a high one");
            at_ += 2;
            if (!hex4(&low)) return false;
            if (low < 0xdc00 || low > 0xdfff) return fail("a low surrogate after a high one");
            code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          }
          put_utf8(code, out);
          break;
        }
        default:
          at_--;
          return fail("one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u");
      }
    }
  }

  const char* s_;
  std::size_t n_;
  int max_depth_;
  std::size_t values_left_;
  std::size_t at_ = 0;
  Error error_;
};

}  // namespace

Parsed parse(const char* text, std::size_t n, int max_depth, std::size_t max_values) {
  return Reader(text, n, max_depth, max_values).document();
}

}  // namespace attn::json
