// mluOpDeformRoiPoolForward: input [B,H,W,C], rois [R,5], offset [R,2,ph,pw] or
// NULL -> output [R,ph,pw,C].
#include <cmath>

#include "fuzz/harness.h"

namespace {

// The most samples a valid call can pool: rois x ph x pw bins, each of a grid
// of sampling_ratio^2, or with sampling_ratio 0 of ceil(roi extent / bins)^2
// (a roi spans at most `extent` before scaling). A bin costs one sample more.
double work_bound(int rois, int ph, int pw, int sampling_ratio, float spatial_scale,
                  double extent) {
  if (rois <= 0 || ph <= 0 || pw <= 0 || sampling_ratio < 0) return 0;  // rejected by the host
  const double scaled = extent * std::fabs(spatial_scale);
  const auto grid = [&](int bins) {
    if (sampling_ratio > 0) return static_cast<double>(sampling_ratio);
    return std::isnan(scaled) ? 0.0 : std::ceil(scaled / bins);
  };
  return static_cast<double>(rois) * ph * pw * (1 + grid(ph) * grid(pw));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::Call call(data, size);
  const mluOpDataType_t dtype = call.bytes().ConsumeBool() ? MLUOP_DTYPE_HALF : MLUOP_DTYPE_FLOAT;
  const bool with_offset = call.bytes().ConsumeBool();
  const int b = call.count(1, 2), h = call.count(1, 8), w = call.count(1, 8), c = call.count(1, 9);
  const int rois = call.count(1, 5), ph = call.count(1, 4), pw = call.count(1, 4);
  const int sampling_ratio = call.count(0, 3);
  const float spatial_scale = call.real({1.0f, 0.5f, 0.25f, 2.0f});
  const float gamma = call.real({0.1f, 0.0f, 1.0f});
  mluOpTensorDescriptor_t input_desc = call.tensor(MLUOP_LAYOUT_NHWC, dtype, {b, h, w, c});
  mluOpTensorDescriptor_t rois_desc = call.tensor(MLUOP_LAYOUT_ARRAY, dtype, {rois, 5});
  mluOpTensorDescriptor_t offset_desc =
      with_offset ? call.tensor(MLUOP_LAYOUT_ARRAY, dtype, {rois, 2, ph, pw}) : nullptr;
  mluOpTensorDescriptor_t output_desc = call.tensor(MLUOP_LAYOUT_NHWC, dtype, {rois, ph, pw, c});
  mluOpHandle_t handle = call.handle();
  // Batch indices and corners both drawn around the map: some rois fall off it.
  const double extent = (std::max(h, w) + 2.0) / 0.25;
  if (work_bound(rois, ph, pw, sampling_ratio, spatial_scale, extent + 2) > fuzz::kMaxSteps) return 0;
  const void *input = call.pointer(input_desc, fuzz::Role::kInput);
  const void *rois_data = call.pointer(rois_desc, fuzz::Role::kInput, {-2, extent});
  const void *offset = with_offset ? call.pointer(offset_desc, fuzz::Role::kInput) : nullptr;
  void *output = call.pointer(output_desc, fuzz::Role::kOutput);
  call.check(mluOpDeformRoiPoolForward(handle, input_desc, input, rois_desc, rois_data, offset_desc,
                                       offset, ph, pw, spatial_scale, sampling_ratio, gamma,
                                       output_desc, output),
             fuzz::kOperatorStatuses);
  return 0;
}
