// Decimal text of doubles, exact, without printf or strtod (they and the long-double arithmetic
// they pull in are a large part of a wasm module, and the engine only needs them for messages).
// Each function gives the same result as the C library call named beside it, for every finite
// double: tests/cpp/decimal_test.cpp checks that against the C library natively and in wasm.
#pragma once

#include <string>

namespace attn {

// snprintf("%.0f", x) for an integer-valued x: "-3", "268435456", "100000000000000000000".
std::string integer_text(double x);

// snprintf("%.*g", digits, x), with the exponent spelled as JavaScript spells it: no leading
// zeros ("1e-7", "1e+20", "1.5e+300", "0.0001", "123.5"). digits from 1 to 17; x finite.
std::string g_text(double x, int digits);

// strtod(snprintf("%.*g", digits, x)): x rounded to that many significant decimal digits,
// read back as the nearest double. x finite.
double round_to_digits(double x, int digits);

// The smallest digits from 1 to 17 for which round_to_digits(x, digits) == x, or (as_float)
// gives the same float as x; 17 if none does. x finite.
int shortest_digits(double x, bool as_float);

}  // namespace attn
