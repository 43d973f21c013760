#include "harness/harness.h"

#include <cmath>

namespace mlusim::harness {

Diffs compare(const std::vector<double> &result, const std::vector<double> &baseline,
              double eps) {
  if (result.size() != baseline.size())
    throw std::runtime_error("compare: result and baseline differ in size");
  double abs_err = 0, abs_base = 0, sq_err = 0, sq_base = 0, max_rel = 0;
  for (size_t i = 0; i < result.size(); ++i) {
    const double err = std::fabs(result[i] - baseline[i]);
    const double base = std::fabs(baseline[i]);
    abs_err += err;
    abs_base += base;
    sq_err += err * err;
    sq_base += base * base;
    const double rel = base < eps ? err : err / (base + 1e-9);
    if (!(rel <= max_rel)) max_rel = rel;  // NaN propagates
  }
  return Diffs{abs_err / (abs_base + 1e-9), std::sqrt(sq_err / (sq_base + 1e-9)), max_rel};
}

void check_cnrt(cnrtRet_t ret, const char *what) {
  if (ret != cnrtSuccess)
    throw std::runtime_error(std::string(what) + " failed: " + cnrtGetErrorStr(ret));
}

TensorDesc::TensorDesc(mluOpTensorLayout_t layout, mluOpDataType_t dtype,
                       const std::vector<int> &dims) {
  if (mluOpCreateTensorDescriptor(&desc_) != MLUOP_STATUS_SUCCESS ||
      mluOpSetTensorDescriptor(desc_, layout, dtype, static_cast<int>(dims.size()),
                               dims.data()) != MLUOP_STATUS_SUCCESS)
    throw std::runtime_error("TensorDesc: descriptor rejected");
}

Handle::Handle() {
  check_cnrt(cnrtQueueCreate(&queue_), "cnrtQueueCreate");
  if (mluOpCreate(&handle_) != MLUOP_STATUS_SUCCESS ||
      mluOpSetQueue(handle_, queue_) != MLUOP_STATUS_SUCCESS)
    throw std::runtime_error("Handle: mluOpCreate/mluOpSetQueue failed");
}

Handle::~Handle() {
  mluOpDestroy(handle_);
  cnrtQueueDestroy(queue_);
}

mlusimReport_t Handle::last_op_report() const {
  mlusimReport_t r{};
  check_cnrt(mlusimGetLastOpReport(queue_, &r), "mlusimGetLastOpReport");
  return r;
}

ScopedDevice::ScopedDevice(const mlusimDeviceSpec_t &spec) {
  check_cnrt(mlusimGetDeviceSpec(&saved_), "mlusimGetDeviceSpec");
  check_cnrt(mlusimSetDeviceSpec(&spec), "mlusimSetDeviceSpec");
}

std::vector<_Float16> to_half(const std::vector<float> &v) {
  return std::vector<_Float16>(v.begin(), v.end());
}

}  // namespace mlusim::harness
