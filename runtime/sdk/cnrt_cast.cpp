// cnrtCastDataType_V2 and its quantization parameters: element conversions
// between CNRT's host data types with an explicit rounding mode. Every source
// value is first widened exactly to long double (64-bit significand: every
// supported type fits), then rounded once to the destination, so no value is
// rounded twice.
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "cnrt.h"
#include "runtime/handles.h"
#include "runtime/last_error.h"
#include "runtime/logging.h"

// quantized = real * scale / 2^pos + offset (CNRT's quantization).
struct cnrtQuantizedParam {
  int pos;
  float scale;
  int offset;
};

using namespace mlusim;

namespace {

HandleRegistry<cnrtQuantizedParam> &quantized_params() {
  static HandleRegistry<cnrtQuantizedParam> registry;
  return registry;
}

using Real = long double;
static_assert(std::numeric_limits<Real>::digits >= 64, "int64 must widen exactly");

enum class Kind { floating, signed_int, unsigned_int, boolean };

// A binary floating-point format: significand bits (with the implicit one)
// and the exponent range of normal numbers.
struct FloatFormat {
  int digits, min_exp, max_exp;
};

struct TypeInfo {
  cnrtDataType_V2_t type;
  const char *name;
  size_t bytes;
  Kind kind;
  FloatFormat format;  // floating only
};

constexpr TypeInfo kTypes[] = {
    {cnrtDouble, "double", 8, Kind::floating, {53, -1022, 1023}},
    {cnrtFloat, "float", 4, Kind::floating, {24, -126, 127}},
    {cnrtHalf, "half", 2, Kind::floating, {11, -14, 15}},
    {cnrtBfloat, "bfloat16", 2, Kind::floating, {8, -126, 127}},
    {cnrtUlonglong, "uint64", 8, Kind::unsigned_int, {}},
    {cnrtUint, "uint32", 4, Kind::unsigned_int, {}},
    {cnrtUshort, "uint16", 2, Kind::unsigned_int, {}},
    {cnrtUchar, "uint8", 1, Kind::unsigned_int, {}},
    {cnrtLonglong, "int64", 8, Kind::signed_int, {}},
    {cnrtInt, "int32", 4, Kind::signed_int, {}},
    {cnrtShort, "int16", 2, Kind::signed_int, {}},
    {cnrtChar, "int8", 1, Kind::signed_int, {}},
    {cnrtBoolean, "bool", 1, Kind::boolean, {}},
};

const TypeInfo *find_type(cnrtDataType_V2_t type) {
  for (const TypeInfo &t : kTypes)
    if (t.type == type) return &t;
  return nullptr;
}

template <typename T>
T load_as(const void *base, size_t i) {
  T v;
  std::memcpy(&v, static_cast<const char *>(base) + i * sizeof(T), sizeof(T));
  return v;
}

template <typename T>
void store_as(void *base, size_t i, T v) {
  std::memcpy(static_cast<char *>(base) + i * sizeof(T), &v, sizeof(T));
}

float bfloat16_to_float(uint16_t bits) {
  const uint32_t wide = uint32_t{bits} << 16;
  float f;
  std::memcpy(&f, &wide, sizeof(f));
  return f;
}

// Every element type widens to Real without rounding.
Real load(const TypeInfo &t, const void *src, size_t i) {
  switch (t.type) {
    case cnrtDouble: return load_as<double>(src, i);
    case cnrtFloat: return load_as<float>(src, i);
    case cnrtHalf: return static_cast<Real>(load_as<_Float16>(src, i));
    case cnrtBfloat: return bfloat16_to_float(load_as<uint16_t>(src, i));
    case cnrtUlonglong: return load_as<uint64_t>(src, i);
    case cnrtUint: return load_as<uint32_t>(src, i);
    case cnrtUshort: return load_as<uint16_t>(src, i);
    case cnrtUchar: return load_as<uint8_t>(src, i);
    case cnrtLonglong: return load_as<int64_t>(src, i);
    case cnrtInt: return load_as<int32_t>(src, i);
    case cnrtShort: return load_as<int16_t>(src, i);
    case cnrtChar: return load_as<int8_t>(src, i);
    case cnrtBoolean: return load_as<uint8_t>(src, i) != 0 ? 1 : 0;
    default: return 0;  // unreachable: types are checked before
  }
}

// x rounded to an integer in `mode`.
Real round_integral(Real x, cnrtRoundingMode_t mode) {
  const Real whole = std::trunc(x);
  const Real fraction = x - whole;  // exact
  if (fraction == 0) return whole;
  const Real away = whole + (x > 0 ? 1 : -1);
  switch (mode) {
    case cnrtRounding_rz: return whole;
    case cnrtRounding_rd: return x > 0 ? whole : away;
    case cnrtRounding_ru: return x > 0 ? away : whole;
    case cnrtRounding_ro: return away;
    case cnrtRounding_rm: return std::fabs(fraction) < 0.5L ? whole : away;
    default: {  // rn
      const Real distance = std::fabs(fraction);
      if (distance != 0.5L) return distance < 0.5L ? whole : away;
      return std::fmod(whole, 2.0L) == 0 ? whole : away;
    }
  }
}

// x rounded in `mode` to the nearest value of format f (subnormals included);
// beyond the largest finite value: infinity, or the largest finite value for
// the modes that round toward it.
Real round_to_format(Real x, const FloatFormat &f, cnrtRoundingMode_t mode) {
  if (x == 0 || !std::isfinite(x)) return x;
  const int exponent = std::max(std::ilogb(x), f.min_exp);
  const int quantum = exponent - (f.digits - 1);
  const Real rounded = std::scalbn(round_integral(std::scalbn(x, -quantum), mode), quantum);
  const Real largest = std::scalbn(std::scalbn(Real{1}, f.digits) - 1, f.max_exp - f.digits + 1);
  if (std::fabs(rounded) <= largest) return rounded;
  const bool to_largest = mode == cnrtRounding_rz || (mode == cnrtRounding_rd && x > 0) ||
                          (mode == cnrtRounding_ru && x < 0);
  const Real magnitude = to_largest ? largest : std::numeric_limits<Real>::infinity();
  return x > 0 ? magnitude : -magnitude;
}

template <typename T>
T saturate(Real r) {
  if (std::isnan(r)) return 0;
  if (r <= static_cast<Real>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  if (r >= static_cast<Real>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(r);
}

uint16_t float_to_bfloat16_bits(float exact) {
  uint32_t bits;
  std::memcpy(&bits, &exact, sizeof(bits));
  if (std::isnan(exact)) bits |= 0x00400000u;  // stays a quiet NaN in the upper half
  return static_cast<uint16_t>(bits >> 16);
}

// Stores r, a value of the destination type (or one to saturate) as it is.
void store_exact(const TypeInfo &t, void *dst, size_t i, Real r) {
  switch (t.type) {
    case cnrtDouble: return store_as<double>(dst, i, static_cast<double>(r));
    case cnrtFloat: return store_as<float>(dst, i, static_cast<float>(r));
    case cnrtHalf: return store_as<_Float16>(dst, i, static_cast<_Float16>(r));
    case cnrtBfloat:
      return store_as<uint16_t>(dst, i, float_to_bfloat16_bits(static_cast<float>(r)));
    case cnrtUlonglong: return store_as<uint64_t>(dst, i, saturate<uint64_t>(r));
    case cnrtUint: return store_as<uint32_t>(dst, i, saturate<uint32_t>(r));
    case cnrtUshort: return store_as<uint16_t>(dst, i, saturate<uint16_t>(r));
    case cnrtUchar: return store_as<uint8_t>(dst, i, saturate<uint8_t>(r));
    case cnrtLonglong: return store_as<int64_t>(dst, i, saturate<int64_t>(r));
    case cnrtInt: return store_as<int32_t>(dst, i, saturate<int32_t>(r));
    case cnrtShort: return store_as<int16_t>(dst, i, saturate<int16_t>(r));
    case cnrtChar: return store_as<int8_t>(dst, i, saturate<int8_t>(r));
    case cnrtBoolean: return store_as<uint8_t>(dst, i, r != 0 ? 1 : 0);
    default: return;  // unreachable: types are checked before
  }
}

void store(const TypeInfo &t, void *dst, size_t i, Real x, cnrtRoundingMode_t mode) {
  const Real r = t.kind == Kind::floating ? round_to_format(x, t.format, mode)
                 : t.kind == Kind::boolean ? x
                                           : round_integral(x, mode);
  store_exact(t, dst, i, r);
}

bool is_integer(const TypeInfo &t) {
  return t.kind == Kind::signed_int || t.kind == Kind::unsigned_int;
}

// True when every value of `from` is a value of the floating type `to` (half
// or bfloat16 to float, float to double, int16 to float, ...): no rounding.
bool widens_exactly(const TypeInfo &from, const TypeInfo &to) {
  if (to.kind != Kind::floating) return false;
  if (from.kind != Kind::floating) return static_cast<int>(from.bytes * 8) <= to.format.digits;
  const FloatFormat &a = from.format, &b = to.format;
  return a.digits <= b.digits && a.max_exp <= b.max_exp &&
         a.min_exp - a.digits >= b.min_exp - b.digits;  // smallest subnormals
}

// With a quantization parameter one side must be floating, the other an integer.
bool quantizable(const TypeInfo &from, const TypeInfo &to) {
  return (from.kind == Kind::floating && is_integer(to)) ||
         (is_integer(from) && to.kind == Kind::floating);
}

Real quantize(Real real, const cnrtQuantizedParam &q) {
  return real * q.scale / std::ldexp(Real{1}, q.pos) + q.offset;
}

Real dequantize(Real quantized, const cnrtQuantizedParam &q) {
  return (quantized - q.offset) * std::ldexp(Real{1}, q.pos) / q.scale;
}

cnrtRet_t check_cast(const void *src, const TypeInfo *from, cnrtDataType_V2_t src_type,
                     const void *dst, const TypeInfo *to, cnrtDataType_V2_t dst_type, int count,
                     cnrtRoundingMode_t mode) {
  const char *api = "cnrtCastDataType_V2";
  if (count < 0) {
    log::runtime().error("{}: count is {}", api, count);
    return cnrtErrorArgsInvalid;
  }
  if (from == nullptr || to == nullptr) {
    log::runtime().error("{}: {:#x} is not a cnrtDataType_V2_t element type", api,
                         static_cast<int>(from == nullptr ? src_type : dst_type));
    return cnrtErrorArgsInvalid;
  }
  if (mode < cnrtRounding_rn || mode >= cnrtRounding_max) {
    log::runtime().error("{}: {} is not a cnrtRoundingMode_t value", api, static_cast<int>(mode));
    return cnrtErrorArgsInvalid;
  }
  if (count > 0 && (src == nullptr || dst == nullptr)) {
    log::runtime().error("{}: null {} pointer", api, src == nullptr ? "src" : "dst");
    return cnrtErrorArgsInvalid;
  }
  return cnrtSuccess;
}

}  // namespace

cnrtRet_t cnrtCreateQuantizedParam(cnrtQuantizedParam_t *param, int pos, float scale,
                                   int offset) {
  if (param == nullptr || !std::isfinite(scale) || scale == 0) {
    log::runtime().error("cnrtCreateQuantizedParam: {}",
                         param == nullptr ? "null output pointer"
                                          : fmt::format("scale {} is not finite and non-zero",
                                                        scale));
    return note_error(cnrtErrorArgsInvalid);
  }
  *param = quantized_params().create(cnrtQuantizedParam{pos, scale, offset});
  return cnrtSuccess;
}

cnrtRet_t cnrtDestroyQuantizedParam(cnrtQuantizedParam_t param) {
  if (!quantized_params().destroy(param)) {
    log::runtime().error("cnrtDestroyQuantizedParam: {} is not a live quantization parameter",
                         static_cast<void *>(param));
    return note_error(cnrtErrorArgsInvalid);
  }
  return cnrtSuccess;
}

cnrtRet_t cnrtCastDataType_V2(void *src, cnrtDataType_V2_t srcDataType, void *dst,
                              cnrtDataType_V2_t dstDataType, int count,
                              cnrtQuantizedParam_t param, cnrtRoundingMode_t roundingMode) {
  const TypeInfo *from = find_type(srcDataType), *to = find_type(dstDataType);
  if (cnrtRet_t ret = check_cast(src, from, srcDataType, dst, to, dstDataType, count,
                                 roundingMode);
      ret != cnrtSuccess)
    return note_error(ret);
  std::shared_ptr<cnrtQuantizedParam> q;
  if (param != nullptr) {
    q = quantized_params().find(param);
    if (q == nullptr || !quantizable(*from, *to)) {
      log::runtime().error("cnrtCastDataType_V2: {}",
                           q == nullptr ? fmt::format("{} is not a live quantization parameter",
                                                      static_cast<void *>(param))
                                        : fmt::format("quantization needs a floating and an "
                                                      "integer type, not {} to {}",
                                                      from->name, to->name));
      return note_error(cnrtErrorArgsInvalid);
    }
  }
  const size_t n = static_cast<size_t>(count);
  if (q == nullptr && widens_exactly(*from, *to)) {
    for (size_t i = 0; i < n; ++i) store_exact(*to, dst, i, load(*from, src, i));
    return cnrtSuccess;
  }
  for (size_t i = 0; i < n; ++i) {
    Real x = load(*from, src, i);
    if (q != nullptr) x = is_integer(*to) ? quantize(x, *q) : dequantize(x, *q);
    store(*to, dst, i, x, roundingMode);
  }
  return cnrtSuccess;
}
