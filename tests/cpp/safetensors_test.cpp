// The safetensors reader (core/json.h, core/safetensors.h) and the GPT-2 loader's checks
// (core/gpt2_loader.h): the JSON reader's strictness, F16 and BF16 against their definitions,
// every refusal of a header or a file with the message that names what is wrong, and the buffers
// real checkpoints carry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/gpt2_loader.h"
#include "core/json.h"
#include "core/safetensors.h"

using namespace attn;

namespace {

// ---- JSON ------------------------------------------------------------------------------------

json::Parsed parse(const std::string& s) { return json::parse(s.data(), s.size()); }

TEST(Json, ReadsValuesAndKeepsNumbersAsWritten) {
  const json::Parsed p =
      parse(R"( {"a": [1, -2.5e3, true, false, null], "b": {"c": "x\u00e9\n\ud83d\ude00"}} )");
  ASSERT_EQ(p.error, "");
  const json::Value* a = p.value.find("a");
  ASSERT_TRUE(a && a->is(json::Value::Kind::Array));
  EXPECT_EQ(a->items[1].text, "-2.5e3");
  EXPECT_TRUE(a->items[2].boolean);
  EXPECT_TRUE(a->items[4].is(json::Value::Kind::Null));
  EXPECT_EQ(p.value.find("b")->find("c")->text, "x\xc3\xa9\n\xf0\x9f\x98\x80");
}

TEST(Json, RefusesWhatIsNotJsonAtTheByteWhereItStops) {
  const std::pair<const char*, const char*> bad[] = {
      {"{\"a\":1,}", "invalid JSON at byte 7 (expected a member name)"},
      {"[1 2]", "invalid JSON at byte 3 (expected ',' or ']')"},
      {"{\"a\":1} x", "invalid JSON at byte 8 (expected the end of the text)"},
      {"{\"a\":1,\"a\":2}",
       "invalid JSON at byte 7 (expected a member name not seen before in this object, not 'a' "
       "again)"},
      {"\"a\tb\"", "invalid JSON at byte 2 (expected no raw control character inside a string)"},
      {"\"\xc0\xaf\"", "invalid JSON at byte 1 (expected UTF-8 text)"},      // overlong '/'
      {"\"\xed\xa0\x80\"", "invalid JSON at byte 1 (expected UTF-8 text)"},  // a surrogate
      {"\"\\ud800x\"", "invalid JSON at byte 7 (expected a low surrogate after a high one)"},
      {"01", "invalid JSON at byte 1 (expected the end of the text)"},
      {"1.", "invalid JSON at byte 2 (expected a digit after '.')"},
      {"tru", "invalid JSON at byte 0 (expected true)"},
      {"", "invalid JSON at byte 0 (expected a value)"},
  };
  for (const auto& [text, message] : bad) EXPECT_EQ(parse(text).error, message) << text;
}

TEST(Json, LimitsDepthAndValues) {
  EXPECT_EQ(parse(std::string(16, '[') + std::string(16, ']')).error, "");
  EXPECT_EQ(parse(std::string(17, '[') + std::string(17, ']')).error,
            "invalid JSON at byte 16 (expected values nested less deeply)");
  std::string many = "[0";
  for (int i = 0; i < 10; i++) many += ",0";
  many += "]";  // 12 values: the array and 11 numbers
  EXPECT_EQ(json::parse(many.data(), many.size(), 16, 12).error, "");
  EXPECT_EQ(json::parse(many.data(), many.size(), 16, 11).error,
            "invalid JSON at byte 21 (expected fewer values)");
}

TEST(Json, ToUint64TakesPlainIntegersBelow2To64) {
  std::uint64_t v = 0;
  EXPECT_TRUE(json::to_uint64("18446744073709551615", &v));
  EXPECT_EQ(v, UINT64_MAX);
  EXPECT_TRUE(json::to_uint64("9007199254740993", &v));  // past 2^53, exact
  EXPECT_EQ(v, 9007199254740993ULL);
  for (const char* bad : {"18446744073709551616", "-1", "1.0", "1e3", "", "99999999999999999999"})
    EXPECT_FALSE(json::to_uint64(bad, &v)) << bad;
}

// ---- element conversion ------------------------------------------------------------------------

TEST(Safetensors, F16IsIeeeHalfEveryValue) {
  for (std::uint32_t h = 0; h < 65536; h++) {
    const int sign = h >> 15, exponent = h >> 10 & 31, mantissa = h & 1023;
    const double magnitude =
        exponent == 0 ? std::ldexp(mantissa, -24) : std::ldexp(1024 + mantissa, exponent - 25);
    const float got = safetensors::f16_to_f32(static_cast<std::uint16_t>(h));
    if (exponent == 31) {
      EXPECT_TRUE(mantissa ? std::isnan(got) : std::isinf(got)) << h;
    } else {
      EXPECT_EQ(got, sign ? -magnitude : magnitude) << h;
      EXPECT_EQ(std::signbit(got), sign == 1) << h;
    }
  }
}

TEST(Safetensors, Bf16IsTheTopHalfOfAFloat) {
  EXPECT_EQ(safetensors::bf16_to_f32(0x3f80), 1.0f);
  EXPECT_EQ(safetensors::bf16_to_f32(0xc000), -2.0f);
  EXPECT_EQ(safetensors::bf16_to_f32(0x3e80), 0.25f);
  EXPECT_EQ(safetensors::bf16_to_f32(0x7f7f), 3.3895313892515355e38f);  // the largest bfloat16
  EXPECT_EQ(safetensors::bf16_to_f32(0x0001), std::ldexp(1.0f, -133));  // the smallest
  EXPECT_TRUE(std::isinf(safetensors::bf16_to_f32(0xff80)));
}

// ---- headers -----------------------------------------------------------------------------------

std::vector<unsigned char> le64(std::uint64_t n) {
  std::vector<unsigned char> b(8);
  for (int i = 0; i < 8; i++) b[i] = static_cast<unsigned char>(n >> (8 * i));
  return b;
}

TEST(Safetensors, HeaderLengthIsCheckedAgainstTheFormatAndTheFile) {
  std::uint64_t n = 0;
  EXPECT_EQ(safetensors::header_length(le64(64).data(), 100, &n), "");
  EXPECT_EQ(n, 64u);
  EXPECT_EQ(safetensors::header_length(le64(64).data(), -1, &n), "");  // a stream: not known yet
  EXPECT_EQ(safetensors::header_length(le64(100000001).data(), -1, &n),
            "source: not a safetensors file (its first 8 bytes give a header of 100000001 bytes; "
            "the format allows at most 100000000)");
  EXPECT_EQ(
      safetensors::header_length(le64(93).data(), 100, &n),
      "source: truncated, or not a safetensors file (its header of 93 bytes runs past the end "
      "of the file, which has 100 bytes)");
  EXPECT_EQ(safetensors::header_length(le64(0).data(), 100, &n),
            "source: not a safetensors file (its header of 0 bytes cannot hold a JSON object)");
  EXPECT_EQ(safetensors::header_length(le64(1).data(), 5, &n),
            "source: not a safetensors file (it has 5 bytes; the format starts with an 8-byte "
            "header length)");
}

safetensors::Header header(const std::string& text, double data_bytes = -1) {
  return safetensors::parse_header(text.data(), text.size(),
                                   data_bytes < 0 ? -1 : 8 + text.size() + data_bytes);
}

TEST(Safetensors, HeaderEntriesAreReadInFileOrder) {
  const safetensors::Header h = header(
      R"({"b":{"dtype":"F16","shape":[2,3],"data_offsets":[8,20]},)"
      R"("__metadata__":{"format":"pt"},"a":{"dtype":"U8","shape":[],"data_offsets":[20,21]},)"
      R"("c":{"dtype":"BF16","shape":[4],"data_offsets":[0,8]}}    )",
      21);
  ASSERT_EQ(h.error, "");
  ASSERT_EQ(h.tensors.size(), 3u);
  EXPECT_EQ(h.tensors[0].name, "c");
  EXPECT_EQ(h.tensors[1].name, "b");
  EXPECT_EQ(h.tensors[1].shape, (std::vector<std::uint64_t>{2, 3}));
  EXPECT_EQ(h.tensors[2].elements(), 1u);  // a scalar
  EXPECT_EQ(h.data_bytes, 21u);
}

TEST(Safetensors, EveryLieOfAHeaderIsRefusedByName) {
  const std::string t = R"("x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]})";
  const std::pair<std::string, std::string> bad[] = {
      {"[1]", "source: not a safetensors file (its header does not start with '{')"},
      {"{\"x\":", "source: the header is invalid JSON at byte 5 (expected a value)"},
      {R"({"x":[]})",
       "source: tensor 'x' is an array in the header (expected { dtype, shape, data_offsets })"},
      {R"({"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8],"crc":1}})",
       "source: tensor 'x' has a field 'crc' (expected only dtype, shape and data_offsets)"},
      {R"({"x":{"dtype":"F33","shape":[2],"data_offsets":[0,8]}})",
       "source: tensor 'x' has dtype 'F33' (expected one of BOOL, U8, I8, F8_E4M3, F8_E5M2, I16, "
       "U16, F16, BF16, I32, U32, F32, F64, I64, U64)"},
      {R"({"x":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})",
       "source: tensor 'x' has a shape entry -2 (expected non-negative integers below 2^64)"},
      {R"({"x":{"dtype":"F32","shape":[2],"data_offsets":[0]}})",
       "source: tensor 'x' has no data_offsets [begin, end] of non-negative integers below 2^64"},
      {R"({"x":{"dtype":"F32","shape":[2],"data_offsets":[8,0]}})",
       "source: tensor 'x' ends before it begins (data_offsets [8, 0])"},
      {R"({"x":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})",
       "source: tensor 'x' has 8 bytes at [0, 8), expected 12 (shape [3] of F32)"},
      {R"({"x":{"dtype":"F64","shape":[4294967296,4294967296],"data_offsets":[0,8]}})",
       "source: tensor 'x' has shape [4294967296, 4294967296], more bytes than 2^64"},
      {"{" + t + R"(,"y":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
       "source: tensors 'x' at [0, 8) and 'y' at [4, 12) overlap"},
      {"{" + t +
           R"(,"y":{"dtype":"F32","shape":[2],"data_offsets":[9007199254740992,9007199254741000]}})",
       "source: bytes [8, 9007199254740992) of the data belong to no tensor (the format allows "
       "no gaps; 'y' begins at 9007199254740992)"},
      {R"({"x":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
       "source: bytes [0, 4) of the data belong to no tensor (the format allows no gaps; 'x' "
       "begins at 4)"},
      {R"({"__metadata__":{"format":1}})",
       "source: the header's __metadata__ entry 'format' is a number (expected a string)"},
  };
  for (const auto& [text, message] : bad) EXPECT_EQ(header(text).error, message) << text;
  // against the file's length, once it is known
  EXPECT_EQ(header("{" + t + "}", 7).error,
            "source: tensor 'x' ends at byte 8 of the data, past the end of the file (the data has "
            "7 bytes)");
  EXPECT_EQ(header("{" + t + "}", 9).error,
            "source: the file has 1 bytes after the last tensor's data (the format allows none)");
  EXPECT_EQ(header("{" + t + "}", 8).error, "");
}

// ---- the loader
// ----------------------------------------------------------------------------------

// A tiny GPT-2 (1 layer, 1 head, n_embd 2, vocabulary 3, 2 positions, n_inner 2) as a file.
gpt2::Config tiny() {
  gpt2::Config c;
  c.n_layer = 1;
  c.n_head = 1;
  c.n_embd = 2;
  c.n_positions = 2;
  c.vocab_size = 3;
  c.n_inner = 2;
  return c;
}

struct Tensor {
  std::string name, dtype;
  std::vector<std::uint64_t> shape;
  std::vector<float> values;  // as floats; U8 and BOOL as their byte
};

std::vector<Tensor> tiny_tensors(const std::string& prefix = "") {
  std::vector<Tensor> t;
  auto add = [&](const std::string& name, std::vector<std::uint64_t> shape) {
    std::size_t n = 1;
    for (auto d : shape) n *= d;
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; i++) v[i] = 0.25f * static_cast<float>(i % 7) - 0.5f;
    t.push_back({prefix + name, "F32", shape, v});
  };
  add("wte.weight", {3, 2});
  add("wpe.weight", {2, 2});
  for (const char* ln : {"h.0.ln_1", "h.0.ln_2", "ln_f"}) {
    add(std::string(ln) + ".weight", {2});
    add(std::string(ln) + ".bias", {2});
  }
  add("h.0.attn.c_attn.weight", {2, 6});
  add("h.0.attn.c_attn.bias", {6});
  add("h.0.attn.c_proj.weight", {2, 2});
  add("h.0.attn.c_proj.bias", {2});
  add("h.0.mlp.c_fc.weight", {2, 2});
  add("h.0.mlp.c_fc.bias", {2});
  add("h.0.mlp.c_proj.weight", {2, 2});
  add("h.0.mlp.c_proj.bias", {2});
  return t;
}

// The file's header and data, tensors in the order given.
std::vector<unsigned char> file_of(const std::vector<Tensor>& ts) {
  std::string h = "{";
  std::vector<unsigned char> data;
  for (const Tensor& t : ts) {
    const std::size_t begin = data.size();
    for (float v : t.values) {
      if (t.dtype == "F32") {
        unsigned char b[4];
        std::memcpy(b, &v, 4);
        data.insert(data.end(), b, b + 4);
      } else {
        data.push_back(static_cast<unsigned char>(v));
      }
    }
    h += (h.size() > 1 ? "," : "") +
         ("\"" + t.name + "\":{\"dtype\":\"" + t.dtype +
          "\",\"shape\":" + safetensors::shape_text(t.shape) + ",\"data_offsets\":[" +
          std::to_string(begin) + "," + std::to_string(data.size()) + "]}");
  }
  h += "}";
  std::vector<unsigned char> f(8 + h.size() + data.size());
  const std::vector<unsigned char> length = le64(h.size());
  std::copy(length.begin(), length.end(), f.begin());
  std::copy(h.begin(), h.end(), f.begin() + 8);
  std::copy(data.begin(), data.end(), f.begin() + 8 + static_cast<std::ptrdiff_t>(h.size()));
  return f;
}

// Loads f in pieces of `piece` bytes: the first error, or "".
Error load(const std::vector<unsigned char>& f, const gpt2::Config& c = tiny(),
           std::size_t piece = 5) {
  std::uint64_t n = 0;
  Error e = safetensors::header_length(f.data(), static_cast<double>(f.size()), &n);
  if (!e.empty()) return e;
  gpt2::Loader loader(c, safetensors::parse_header(reinterpret_cast<const char*>(f.data()) + 8, n,
                                                   static_cast<double>(f.size())));
  if (!loader.error().empty()) return loader.error();
  if (!loader.allocate()) return "no memory";
  for (std::size_t at = 8 + n; at < f.size(); at += piece) {
    e = loader.feed(f.data() + at, std::min(piece, f.size() - at));
    if (!e.empty()) return e;
  }
  return loader.finish();
}

std::vector<Tensor> with(std::vector<Tensor> ts, const Tensor& extra) {
  ts.push_back(extra);
  return ts;
}

Tensor causal_mask(const std::string& dtype, std::vector<float> values = {1, 0, 1, 1}) {
  return {"h.0.attn.bias", dtype, {1, 1, 2, 2}, values};
}

TEST(Gpt2Loader, TakesTheArchitectureWithOrWithoutThePrefixAndItsBuffers) {
  EXPECT_EQ(load(file_of(tiny_tensors())), "");
  EXPECT_EQ(load(file_of(tiny_tensors("transformer."))), "");
  std::vector<Tensor> ts = tiny_tensors("transformer.");
  ts.push_back(causal_mask("U8"));
  ts.back().name = "transformer." + ts.back().name;
  ts.push_back({"transformer.h.0.attn.masked_bias", "F32", {}, {-1e4f}});
  ts.push_back({"lm_head.weight", "F32", {3, 2}, tiny_tensors()[0].values});
  EXPECT_EQ(load(file_of(ts), tiny(), 1), "");
  EXPECT_EQ(load(file_of(with(tiny_tensors(), causal_mask("BOOL")))), "");
  EXPECT_EQ(load(file_of(with(tiny_tensors(), causal_mask("F32")))), "");
}

TEST(Gpt2Loader, RefusesEveryTensorThatIsNotGpt2sByName) {
  std::vector<Tensor> ts = tiny_tensors();
  ts.erase(ts.begin() + 5);  // h.0.ln_2.bias
  EXPECT_EQ(load(file_of(ts)),
            "source: tensor 'h.0.ln_2.bias' is missing (GPT-2 has it; the config has n_layer = 1)");
  EXPECT_EQ(
      load(file_of(with(tiny_tensors(), {"h.0.attn.rotary", "F32", {2}, {0, 0}}))),
      "source: unexpected tensor 'h.0.attn.rotary' (GPT-2 has wte, wpe, h.{i}.ln_1, "
      "h.{i}.attn.c_attn, h.{i}.attn.c_proj, h.{i}.ln_2, h.{i}.mlp.c_fc, h.{i}.mlp.c_proj, ln_f, "
      "and the buffers h.{i}.attn.bias, h.{i}.attn.masked_bias and lm_head.weight)");
  EXPECT_EQ(
      load(file_of(with(tiny_tensors(), {"h.1.ln_1.weight", "F32", {2}, {0, 0}}))),
      "source: unexpected tensor 'h.1.ln_1.weight' (the config has n_layer = 1: blocks 0 to 0)");
  ts = tiny_tensors();
  ts[1].name = "transformer.wpe.weight";
  EXPECT_EQ(load(file_of(ts)),
            "source: tensor 'wte.weight' has no 'transformer.' prefix but "
            "'transformer.wpe.weight' has (expected one naming for every tensor)");
  ts = tiny_tensors();
  ts[8].dtype = "U8";  // h.0.attn.c_attn.weight
  EXPECT_EQ(load(file_of(ts)),
            "source: tensor 'h.0.attn.c_attn.weight' has dtype U8 (expected F32, F16 or BF16)");
  gpt2::Config wide = tiny();
  wide.n_inner = 3;
  EXPECT_EQ(load(file_of(tiny_tensors()), wide),
            "source: tensor 'h.0.mlp.c_fc.weight' has shape [2, 2], expected [2, 3] (n_embd, "
            "n_inner) for the config");
}

TEST(Gpt2Loader, ChecksTheBuffersAgainstWhatTheyMustBe) {
  EXPECT_EQ(
      load(file_of(with(tiny_tensors(), causal_mask("U8", {1, 1, 1, 1})))),
      "source: tensor 'h.0.attn.bias' has 1 at row 0, column 1 (expected GPT-2's causal mask: "
      "1 on and below the diagonal, 0 above)");
  EXPECT_EQ(load(file_of(with(tiny_tensors(),
                              {"h.0.attn.bias", "F32", {1, 1, 3, 3}, std::vector<float>(9)}))),
            "source: tensor 'h.0.attn.bias' has shape [1, 1, 3, 3], expected [1, 1, 2, 2] (the "
            "causal-mask buffer: 1, 1, n_positions, n_positions)");
  EXPECT_EQ(
      load(file_of(with(tiny_tensors(), {"h.0.attn.masked_bias", "F32", {}, {-1.0f}}))),
      "source: tensor 'h.0.attn.masked_bias' is -1 (expected GPT-2's mask fill: -10000 or below)");
  std::vector<float> other = tiny_tensors()[0].values;
  other[5] = 9;
  // lm_head first (it sorts first by name in real files): it is stored, and wte compared with it
  std::vector<Tensor> ts = tiny_tensors();
  ts.insert(ts.begin(), {"lm_head.weight", "F32", {3, 2}, other});
  EXPECT_EQ(load(file_of(ts)),
            "source: tensor 'wte.weight' has 0.75 at row 2, column 1 where the embedding has 9 "
            "(expected lm_head.weight tied to wte.weight: equal)");
}

TEST(Gpt2Loader, RefusesNonFiniteWeightsAndDataThatDoesNotAddUp) {
  std::vector<Tensor> ts = tiny_tensors();
  ts[9].values[1] = std::nanf("");  // h.0.attn.c_attn.bias
  EXPECT_EQ(load(file_of(ts)),
            "source: tensor 'h.0.attn.c_attn.bias' has NaN at entry 1 (expected finite weights)");
  ts = tiny_tensors();
  ts[8].values[7] = -INFINITY;
  EXPECT_EQ(load(file_of(ts)),
            "source: tensor 'h.0.attn.c_attn.weight' has -Infinity at row 1, column 1 (expected "
            "finite weights)");
  // a stream that ends early, or goes on past the last tensor
  const std::vector<unsigned char> f = file_of(tiny_tensors());
  std::uint64_t n = 0;
  ASSERT_EQ(safetensors::header_length(f.data(), -1, &n), "");
  const safetensors::Header h =
      safetensors::parse_header(reinterpret_cast<const char*>(f.data()) + 8, n, -1);
  gpt2::Loader short_read(tiny(), h);
  ASSERT_TRUE(short_read.allocate());
  EXPECT_EQ(short_read.feed(f.data() + 8 + n, 10), "");
  EXPECT_EQ(short_read.finish(), "source: truncated: the data ends after 10 of its " +
                                     std::to_string(f.size() - 8 - n) + " bytes, in tensor '" +
                                     h.tensors[0].name + "'");
  gpt2::Loader long_read(tiny(), h);
  ASSERT_TRUE(long_read.allocate());
  std::vector<unsigned char> more(f.begin() + 8 + n, f.end());
  more.push_back(0);
  EXPECT_EQ(long_read.feed(more.data(), more.size()),
            "source: the file goes on after its last tensor's data (the format allows nothing "
            "there; the header describes " +
                std::to_string(f.size() - 8 - n) + " bytes of data)");
}

}  // namespace
