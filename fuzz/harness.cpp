#include "fuzz/harness.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "cnrt.h"

namespace fuzz {
namespace {

constexpr double kMaxPayloadBytes = 1 << 18;       // larger tensors get an undersized buffer
constexpr size_t kUndersizedMaxBytes = 64;

// A selector byte below this keeps the intended value; above it, an edge case.
constexpr uint8_t kUsual = 224;

std::byte guard_byte(size_t i) { return static_cast<std::byte>(0xA5 ^ (i * 131)); }

size_t dtype_bytes(mluOpDataType_t dtype) {
  size_t bytes = 0;
  return mluOpGetSizeOfDataType(dtype, &bytes) == MLUOP_STATUS_SUCCESS ? bytes : 0;
}

// What the fuzzer set on a descriptor, since descriptors are opaque.
struct DescriptorInfo {
  mluOpDataType_t dtype = MLUOP_DTYPE_INVALID;
  double elements = 0;
};
thread_local std::vector<std::pair<mluOpTensorDescriptor_t, DescriptorInfo>> t_described;

}  // namespace

int product(std::initializer_list<int> factors) {
  int64_t p = 1;
  for (int f : factors) p = std::clamp<int64_t>(p * f, INT_MIN, INT_MAX);
  return static_cast<int>(p);
}

// Quiet logs: every rejected call would print a line.
extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  setenv("MLUSIM_LOG", "off", 0);
  return 0;
}

void fail(const char *what) {
  std::fprintf(stderr, "fuzz property broken: %s\n", what);
  std::abort();
}

struct Call::Buffer {
  std::byte *base = nullptr;  // the allocation: [guard | payload | guard]
  size_t bytes = 0, guard = 0, payload = 0;
  bool on_device = true;
  Role role = Role::kInput;
  std::vector<std::byte> before;  // the allocation's bytes as the call received them

  std::byte *data() const { return base + guard; }
};

Call::Call(const uint8_t *data, size_t size) : in_(data, size) {
  random_.seed(in_.ConsumeIntegral<uint32_t>());
}

Call::~Call() {
  for (mluOpTensorDescriptor_t d : descriptors_) mluOpDestroyTensorDescriptor(d);
  t_described.clear();
  for (auto &b : buffers_) {
    if (b->on_device)
      cnrtFree(b->base);
    else
      std::free(b->base);
  }
}

mluOpHandle_t Call::handle() {
  static mluOpHandle_t shared = [] {
    mluOpHandle_t h = nullptr;
    if (mluOpCreate(&h) != MLUOP_STATUS_SUCCESS) fail("mluOpCreate failed");
    return h;
  }();
  return in_.ConsumeIntegral<uint8_t>() < 250 ? shared : nullptr;
}

int Call::count(int lo, int hi) {
  const uint8_t pick = in_.ConsumeIntegral<uint8_t>();
  if (pick < kUsual) return hi <= lo ? lo : static_cast<int>(lo + pick % (int64_t{hi} - lo + 1));
  static constexpr int kEdges[] = {0, -1, 1, 1 << 16, INT_MAX, INT_MIN, 3, 64};
  return kEdges[pick % std::size(kEdges)];
}

float Call::real(std::initializer_list<float> usual) {
  const uint8_t pick = in_.ConsumeIntegral<uint8_t>();
  if (pick < kUsual) return usual.begin()[pick % usual.size()];
  static constexpr float kEdges[] = {0.0f, -1.0f, 1e-30f, 1e30f, -1e30f,
                                     std::numeric_limits<float>::quiet_NaN(),
                                     std::numeric_limits<float>::infinity(),
                                     -std::numeric_limits<float>::infinity()};
  return kEdges[pick % std::size(kEdges)];
}

mluOpTensorDescriptor_t Call::tensor(mluOpTensorLayout_t layout, mluOpDataType_t dtype,
                                     std::vector<int> dims) {
  const uint8_t pick = in_.ConsumeIntegral<uint8_t>();
  if (pick >= kUsual) {
    intact_ = false;
    switch (pick % 6) {
      case 0: return nullptr;
      case 1: layout = static_cast<mluOpTensorLayout_t>(in_.ConsumeIntegralInRange(0, 7)); break;
      case 2: dtype = static_cast<mluOpDataType_t>(in_.ConsumeIntegralInRange(0, 15)); break;
      case 3:
        if (in_.ConsumeBool() && !dims.empty())
          dims.pop_back();
        else
          dims.push_back(in_.ConsumeIntegralInRange(0, 3));
        break;
      case 4:
        if (!dims.empty())
          dims[in_.ConsumeIntegralInRange<size_t>(0, dims.size() - 1)] = count(INT_MAX, INT_MAX);
        break;
      case 5: dims.clear(); break;  // created but never set: rank 0, invalid dtype
    }
  }
  mluOpTensorDescriptor_t desc = nullptr;
  if (mluOpCreateTensorDescriptor(&desc) != MLUOP_STATUS_SUCCESS) fail("descriptor creation failed");
  descriptors_.push_back(desc);
  DescriptorInfo info;
  if (!dims.empty() &&
      mluOpSetTensorDescriptor(desc, layout, dtype, static_cast<int>(dims.size()), dims.data()) ==
          MLUOP_STATUS_SUCCESS) {
    info.dtype = dtype;
    info.elements = 1;
    for (int d : dims) info.elements *= d;
  }
  t_described.emplace_back(desc, info);
  return desc;
}

void *Call::pointer(mluOpTensorDescriptor_t desc, Role role, Fill fill) {
  DescriptorInfo info;
  for (auto &[d, i] : t_described)
    if (d == desc) info = i;
  if (desc == nullptr) {  // no descriptor to size it: any small buffer of floats
    info.dtype = MLUOP_DTYPE_FLOAT;
    info.elements = in_.ConsumeIntegralInRange(0, 64);
  }
  const double bytes = info.elements * static_cast<double>(dtype_bytes(info.dtype));
  // Too large to allocate here: only the host checks may see it, with a small buffer.
  if (bytes > kMaxPayloadBytes) return make_pointer(kUndersizedMaxBytes, MLUOP_DTYPE_INVALID, role, fill);
  return make_pointer(static_cast<size_t>(bytes), info.dtype, role, fill);
}

void *Call::pointer_bytes(size_t bytes, Role role) {
  if (static_cast<double>(bytes) > kMaxPayloadBytes) bytes = kUndersizedMaxBytes;
  return make_pointer(bytes, MLUOP_DTYPE_INVALID, role, {});
}

void *Call::make_pointer(size_t bytes, mluOpDataType_t dtype, Role role, Fill fill) {
  const uint8_t pick = in_.ConsumeIntegral<uint8_t>();
  if (pick >= kUsual) {
    switch (pick % 4) {
      case 0: return nullptr;
      case 1: return allocate(bytes, false, role).data();  // host memory, never to be touched
      case 2:  // a device buffer too small by at least one byte, ending where its allocation ends
        // Its elements drawn like a whole buffer's: guard bytes read as rois
        // are huge coordinates, unbounded work for deform_roi_pool's
        // adaptive sampling before it reaches the end of the buffer.
        if (bytes > 0)
          return filled(allocate(in_.ConsumeIntegralInRange<size_t>(0, bytes - 1), true, role, 0),
                        dtype, fill);
        break;
      case 3:  // somewhere inside the data of a buffer made earlier
        if (!buffers_.empty()) {
          Buffer &other = *buffers_[in_.ConsumeIntegralInRange<size_t>(0, buffers_.size() - 1)];
          // Within its payload and on an element boundary: guard bytes, or an
          // element's bytes read across two elements, are arbitrary values, and
          // arbitrary rois make deform_roi_pool's adaptive sampling unbounded work.
          if (other.payload < bytes) break;
          aliased_ = true;
          const size_t element = std::max<size_t>(1, dtype_bytes(dtype));
          return other.data() +
                 in_.ConsumeIntegralInRange<size_t>(0, (other.payload - bytes) / element) * element;
        }
        break;
    }
  }
  return filled(allocate(bytes, true, role), dtype, fill);
}

// A device buffer's payload drawn from the fill range (its guard bands kept).
void *Call::filled(Buffer &b, mluOpDataType_t dtype, Fill fill) {
  fill_elements(b.before.data() + b.guard, b.payload, dtype, fill);
  if (cnrtMemcpy(b.base, b.before.data(), b.bytes, cnrtMemcpyHostToDev) != cnrtSuccess)
    fail("cnrtMemcpy to a fresh buffer failed");
  return b.data();
}

// Floats and halves uniform in the fill range, int32 integers in it; other
// dtypes keep the guard pattern.
void Call::fill_elements(std::byte *p, size_t bytes, mluOpDataType_t dtype, Fill fill) {
  // Ranges derived from edge-valued dims may be reversed or beyond int32.
  const double lo = std::clamp(std::min(fill.lo, fill.hi), double{INT32_MIN}, double{INT32_MAX});
  const double hi = std::clamp(std::max(fill.lo, fill.hi), double{INT32_MIN}, double{INT32_MAX});
  std::uniform_real_distribution<double> value(lo, hi);
  std::uniform_int_distribution<int32_t> index(static_cast<int32_t>(lo), static_cast<int32_t>(hi));
  for (size_t i = 0; i + dtype_bytes(dtype) <= bytes && dtype_bytes(dtype) > 0; i += dtype_bytes(dtype)) {
    if (dtype == MLUOP_DTYPE_FLOAT) {
      const float v = static_cast<float>(value(random_));
      std::memcpy(p + i, &v, sizeof v);
    } else if (dtype == MLUOP_DTYPE_HALF) {
      const _Float16 v = static_cast<_Float16>(value(random_));
      std::memcpy(p + i, &v, sizeof v);
    } else if (dtype == MLUOP_DTYPE_INT32) {
      const int32_t v = index(random_);
      std::memcpy(p + i, &v, sizeof v);
    }
  }
}

Call::Buffer &Call::allocate(size_t payload_bytes, bool on_device, Role role, size_t guard) {
  auto b = std::make_unique<Buffer>();
  b->guard = guard;
  b->payload = payload_bytes;
  b->bytes = std::max<size_t>(1, payload_bytes + 2 * guard);  // cnrtMalloc refuses 0 bytes
  b->on_device = on_device;
  b->role = role;
  void *p = nullptr;
  if (on_device ? cnrtMalloc(&p, b->bytes) != cnrtSuccess : (p = std::malloc(b->bytes)) == nullptr)
    fail("allocation failed");
  b->base = static_cast<std::byte *>(p);
  b->before.resize(b->bytes);
  for (size_t i = 0; i < b->bytes; ++i) b->before[i] = guard_byte(i);
  if (on_device ? cnrtMemcpy(p, b->before.data(), b->bytes, cnrtMemcpyHostToDev) != cnrtSuccess
                : (std::memcpy(p, b->before.data(), b->bytes), false))
    fail("cnrtMemcpy to a fresh buffer failed");
  buffers_.push_back(std::move(b));
  return *buffers_.back();
}

void Call::check(mluOpStatus_t status, std::initializer_list<mluOpStatus_t> documented) {
  bool known = false;
  for (mluOpStatus_t s : documented) known = known || s == status;
  if (!known) {
    std::fprintf(stderr, "status %d (%s)\n", static_cast<int>(status), mluOpGetErrorString(status));
    fail("the call returned a status its header does not document");
  }
  if (status == MLUOP_STATUS_EXECUTION_FAILED && !aliased_)
    fail("a kernel faulted on a call whose pointers do not alias: the host checks let through "
         "what the kernel cannot run");
  for (const auto &b : buffers_) {
    std::vector<std::byte> after(b->bytes);
    if (b->on_device ? cnrtMemcpy(after.data(), b->base, b->bytes, cnrtMemcpyDevToHost) != cnrtSuccess
                     : (std::memcpy(after.data(), b->base, b->bytes), false))
      fail("cnrtMemcpy back from a buffer failed");
    // Through an aliased pointer the operator may legitimately write any buffer.
    if (aliased_ && b->on_device) continue;
    const bool payload_may_change = b->on_device && b->role == Role::kOutput;
    for (size_t i = 0; i < b->bytes; ++i) {
      const bool in_payload = i >= b->guard && i < b->guard + b->payload;
      if (after[i] != b->before[i] && !(in_payload && payload_may_change)) {
        std::fprintf(stderr, "%s buffer of %zu bytes (guard %zu): byte %zu changed\n",
                     !b->on_device ? "host" : b->role == Role::kInput ? "input" : "output",
                     b->payload, b->guard, i);
        fail(in_payload ? "an input was written" : "a write landed outside the buffer");
      }
    }
  }
}

}  // namespace fuzz
