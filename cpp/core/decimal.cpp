// Decimal text of doubles, exact: a double is m * 2^q, so its decimal expansion is finite and
// a natural number of a few thousand bits holds it. Rounding to a number of digits is done on
// those exact digits (half to even, as printf does), and reading a decimal back compares it
// exactly with doubles (as strtod does: the nearest double, ties to the even one).
#include "core/decimal.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace attn {
namespace {

// ---- natural numbers of any size: base 2^32 limbs, least significant first, no leading zero ----

using Big = std::vector<std::uint32_t>;

Big big(std::uint64_t v) {
  Big r;
  for (; v; v >>= 32) r.push_back(static_cast<std::uint32_t>(v));
  return r;
}

void multiply_add(Big& a, std::uint32_t m, std::uint32_t add) {  // a = a * m + add
  std::uint64_t carry = add;
  for (auto& limb : a) {
    std::uint64_t p = static_cast<std::uint64_t>(limb) * m + carry;
    limb = static_cast<std::uint32_t>(p);
    carry = p >> 32;
  }
  if (carry) a.push_back(static_cast<std::uint32_t>(carry));
  while (!a.empty() && a.back() == 0) a.pop_back();
}

void multiply_pow5(Big& a, int k) {                          // a *= 5^k
  for (; k >= 13; k -= 13) multiply_add(a, 1220703125u, 0);  // 5^13 < 2^32
  std::uint32_t rest = 1;
  while (k-- > 0) rest *= 5;
  multiply_add(a, rest, 0);
}

Big product(const Big& a, const Big& b) {
  if (a.empty() || b.empty()) return {};
  Big r(a.size() + b.size(), 0);
  for (std::size_t i = 0; i < a.size(); i++) {
    std::uint64_t carry = 0;
    for (std::size_t j = 0; j < b.size(); j++) {
      std::uint64_t t = static_cast<std::uint64_t>(a[i]) * b[j] + r[i + j] + carry;
      r[i + j] = static_cast<std::uint32_t>(t);
      carry = t >> 32;
    }
    r[i + b.size()] = static_cast<std::uint32_t>(carry);
  }
  while (!r.empty() && r.back() == 0) r.pop_back();
  return r;
}

Big shifted(Big a, int bits) {  // a * 2^bits
  if (a.empty()) return a;
  int words = bits / 32, b = bits % 32;
  if (b) {
    std::uint32_t carry = 0;
    for (auto& limb : a) {
      std::uint32_t next = limb >> (32 - b);
      limb = (limb << b) | carry;
      carry = next;
    }
    if (carry) a.push_back(carry);
  }
  a.insert(a.begin(), static_cast<std::size_t>(words), 0u);
  return a;
}

int compare(const Big& a, const Big& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  for (std::size_t i = a.size(); i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

std::uint32_t divide(Big& a, std::uint32_t d) {  // a /= d, returns the remainder
  std::uint64_t r = 0;
  for (std::size_t i = a.size(); i-- > 0;) {
    std::uint64_t cur = (r << 32) | a[i];
    a[i] = static_cast<std::uint32_t>(cur / d);
    r = cur % d;
  }
  while (!a.empty() && a.back() == 0) a.pop_back();
  return static_cast<std::uint32_t>(r);
}

std::string decimal_digits(Big a) {  // a > 0
  std::string out;
  while (!a.empty()) {
    std::uint32_t chunk = divide(a, 1000000000u);
    for (int i = 0; i < 9 && (chunk || !a.empty()); i++, chunk /= 10)
      out.push_back('0' + chunk % 10);
  }
  return std::string(out.rbegin(), out.rend());
}

// ---- doubles as m * 2^q ----------------------------------------------------------------------

struct Binary {
  std::uint64_t m;
  int q;
};

std::uint64_t bits_of(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

double double_of(std::uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

// The value of a positive bit pattern; the pattern of +Infinity counts as 2^1024, the value
// past which a decimal rounds to Infinity.
Binary binary(std::uint64_t bits) {
  int e = static_cast<int>(bits >> 52) & 0x7ff;
  std::uint64_t f = bits & ((std::uint64_t{1} << 52) - 1);
  if (e == 0) return {f, -1074};
  return {f | (std::uint64_t{1} << 52), e - 1075};
}

// Halfway between the patterns b and b + 1.
Binary midpoint(std::uint64_t b) {
  Binary lo = binary(b), hi = binary(b + 1);
  return {lo.m + (hi.m << (hi.q - lo.q)), lo.q - 1};
}

constexpr std::uint64_t kInfinityBits = 0x7ff0000000000000ull;

// ---- decimals: 0.d1 d2 d3 ... * 10^point, no leading or trailing zero digit ---------------------

struct Decimal {
  std::string digits;
  int point;
};

Decimal exact_decimal(double x) {  // x > 0, finite
  Binary b = binary(bits_of(x));
  Big n = big(b.m);
  Decimal d;
  if (b.q >= 0) {
    d.digits = decimal_digits(shifted(n, b.q));
    d.point = static_cast<int>(d.digits.size());
  } else {  // m / 2^-q = m * 5^-q / 10^-q
    multiply_pow5(n, -b.q);
    d.digits = decimal_digits(n);
    d.point = static_cast<int>(d.digits.size()) + b.q;
  }
  while (d.digits.back() == '0') d.digits.pop_back();
  return d;
}

// To that many significant digits, half to even.
Decimal rounded(Decimal d, int digits) {
  if (static_cast<int>(d.digits.size()) <= digits) return d;
  char next = d.digits[digits];
  bool beyond = d.digits.find_first_not_of('0', digits + 1) != std::string::npos;
  d.digits.resize(digits);
  bool up = next > '5' || (next == '5' && (beyond || (d.digits.back() - '0') % 2 == 1));
  if (up) {
    int i = digits - 1;
    while (i >= 0 && d.digits[i] == '9') d.digits[i--] = '0';
    if (i < 0) {
      d.digits.insert(d.digits.begin(), '1');
      d.point++;
    } else {
      d.digits[i]++;
    }
  }
  while (!d.digits.empty() && d.digits.back() == '0') d.digits.pop_back();
  return d;
}

// The nearest double to d (d > 0, at most 17 digits), ties to the even pattern, as strtod.
double to_double(const Decimal& d) {
  // d = s * 10^e = s * 5^e * 2^e
  std::uint64_t s = 0;
  for (char c : d.digits) s = s * 10 + static_cast<std::uint64_t>(c - '0');
  int e = d.point - static_cast<int>(d.digits.size());
  Big scaled = big(s), pow5 = big(1);
  if (e >= 0) {
    multiply_pow5(scaled, e);
  } else {
    multiply_pow5(pow5, -e);
  }
  // sign of d - v, v = m * 2^q: compare scaled * 2^e with m * 5^-e * 2^q (e < 0) or m * 2^q
  auto compare_to = [&](Binary v) {
    Big right = product(big(v.m), pow5);
    int low = e < v.q ? e : v.q;
    return compare(shifted(scaled, e - low), shifted(right, v.q - low));
  };
  // A first guess in double arithmetic (a few patterns off at most), then exact steps.
  static const double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                  1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  double guess = static_cast<double>(s);
  int k = e;
  for (; k > 22; k -= 22) guess *= 1e22;
  for (; k < -22; k += 22) guess /= 1e22;
  guess = k >= 0 ? guess * kPow10[k] : guess / kPow10[-k];
  std::uint64_t b = bits_of(guess);
  if (b > kInfinityBits) b = kInfinityBits;
  // b = the smallest pattern whose value is at least d
  while (b < kInfinityBits && compare_to(binary(b)) > 0) b++;
  while (b > 0 && compare_to(binary(b - 1)) <= 0) b--;
  if (b > 0 && compare_to(binary(b)) != 0) {  // d is between b - 1 and b: the nearer, or the even
    int c = compare_to(midpoint(b - 1));
    if (c < 0 || (c == 0 && (b - 1) % 2 == 0)) b--;
  }
  return double_of(b);
}

std::string fixed_text(const Decimal& d) {  // the %g fixed form, d.point - 1 >= -4
  if (d.point <= 0) return "0." + std::string(static_cast<std::size_t>(-d.point), '0') + d.digits;
  std::string whole = d.digits.substr(0, static_cast<std::size_t>(d.point));
  whole.resize(static_cast<std::size_t>(d.point), '0');
  if (static_cast<int>(d.digits.size()) <= d.point) return whole;
  return whole + "." + d.digits.substr(static_cast<std::size_t>(d.point));
}

std::string exponent_text(const Decimal& d) {  // d.ddd e+X, the exponent without leading zeros
  std::string s(1, d.digits[0]);
  if (d.digits.size() > 1) s += "." + d.digits.substr(1);
  int x = d.point - 1;
  return s + (x < 0 ? "e-" : "e+") + std::to_string(x < 0 ? -x : x);
}

}  // namespace

std::string integer_text(double x) {
  std::string sign = std::signbit(x) ? "-" : "";
  if (x == 0) return sign + "0";
  Decimal d = exact_decimal(std::fabs(x));
  return sign + fixed_text(d);
}

std::string g_text(double x, int digits) {
  std::string sign = std::signbit(x) ? "-" : "";
  if (x == 0) return sign + "0";
  Decimal d = rounded(exact_decimal(std::fabs(x)), digits);
  int exponent = d.point - 1;
  return sign + (exponent >= -4 && exponent < digits ? fixed_text(d) : exponent_text(d));
}

double round_to_digits(double x, int digits) {
  if (x == 0) return x;
  double v = to_double(rounded(exact_decimal(std::fabs(x)), digits));
  return x < 0 ? -v : v;
}

int shortest_digits(double x, bool as_float) {
  if (x == 0) return 1;
  Decimal exact = exact_decimal(std::fabs(x));
  for (int digits = 1; digits < 17; digits++) {
    double back = to_double(rounded(exact, digits));
    if (x < 0) back = -back;
    if (back == x || (as_float && static_cast<float>(back) == static_cast<float>(x))) return digits;
  }
  return 17;
}

}  // namespace attn
