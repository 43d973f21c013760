// Runs psamask (COLLECT) through cnrt.h + mlu_op.h, checks it against a few
// lines of CPU code, and prints the simulated device time the notifiers saw.
#include <cstdio>
#include <vector>

#include <cnrt.h>
#include <mlu_op.h>
#include <mlusim.h>

#define MLUOP_CHECK_OK(call)                                                   \
  do {                                                                         \
    mluOpStatus_t s_ = (call);                                                 \
    if (s_ != MLUOP_STATUS_SUCCESS) {                                          \
      std::fprintf(stderr, "%s failed: %s\n", #call, mluOpGetErrorString(s_)); \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  const int n = 2, h = 16, w = 16, hm = 7, wm = 7;
  const int ci = hm * wm, co = h * w;
  std::vector<float> x(size_t(n) * h * w * ci), y(size_t(n) * h * w * co);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(i % 97) - 48.0f;

  cnrtQueue_t queue;
  CNRT_CHECK(cnrtQueueCreate(&queue));
  mluOpHandle_t handle;
  MLUOP_CHECK_OK(mluOpCreate(&handle));
  MLUOP_CHECK_OK(mluOpSetQueue(handle, queue));
  mluOpTensorDescriptor_t x_desc, y_desc;
  const int x_dims[] = {n, h, w, ci}, y_dims[] = {n, h, w, co};
  MLUOP_CHECK_OK(mluOpCreateTensorDescriptor(&x_desc));
  MLUOP_CHECK_OK(mluOpCreateTensorDescriptor(&y_desc));
  MLUOP_CHECK_OK(mluOpSetTensorDescriptor(x_desc, MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, 4, x_dims));
  MLUOP_CHECK_OK(mluOpSetTensorDescriptor(y_desc, MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, 4, y_dims));

  void *x_dev, *y_dev;
  CNRT_CHECK(cnrtMalloc(&x_dev, x.size() * sizeof(float)));
  CNRT_CHECK(cnrtMalloc(&y_dev, y.size() * sizeof(float)));
  CNRT_CHECK(cnrtMemcpy(x_dev, x.data(), x.size() * sizeof(float), cnrtMemcpyHostToDev));

  cnrtNotifier_t start, end;
  CNRT_CHECK(cnrtNotifierCreate(&start));
  CNRT_CHECK(cnrtNotifierCreate(&end));
  CNRT_CHECK(cnrtPlaceNotifier(start, queue));
  MLUOP_CHECK_OK(mluOpPsamaskForward(handle, 0, x_desc, x_dev, hm, wm, y_desc, y_dev));
  CNRT_CHECK(cnrtPlaceNotifier(end, queue));
  CNRT_CHECK(cnrtQueueSync(queue));
  float us = 0;
  CNRT_CHECK(cnrtNotifierDuration(start, end, &us));
  CNRT_CHECK(cnrtMemcpy(y.data(), y_dev, y.size() * sizeof(float), cnrtMemcpyDevToHost));

  // COLLECT: y[n,h,w, (hi+h-hm/2)*W + (wi+w-wm/2)] = x[n,h,w, hi*wm + wi]; the rest 0.
  int mismatches = 0;
  for (int b = 0; b < n; ++b)
    for (int i = 0; i < h; ++i)
      for (int j = 0; j < w; ++j)
        for (int c = 0; c < co; ++c) {
          const int hi = c / w - i + (hm - 1) / 2, wi = c % w - j + (wm - 1) / 2;
          const bool inside = hi >= 0 && hi < hm && wi >= 0 && wi < wm;
          const size_t pix = (size_t(b) * h + i) * w + j;
          const float want = inside ? x[pix * ci + hi * wm + wi] : 0.0f;
          mismatches += y[pix * co + c] != want;
        }

  mlusimReport_t report;
  CNRT_CHECK(mlusimGetLastOpReport(queue, &report));
  std::printf("psamask_forward COLLECT [%d,%d,%d,%d]: %s, %.2f us simulated (notifiers), "
              "IO efficiency %.1f%%\n",
              n, h, w, ci, mismatches == 0 ? "matches the CPU" : "MISMATCH", us,
              100 * report.io_efficiency);

  cnrtNotifierDestroy(start);
  cnrtNotifierDestroy(end);
  cnrtFree(x_dev);
  cnrtFree(y_dev);
  mluOpDestroyTensorDescriptor(x_desc);
  mluOpDestroyTensorDescriptor(y_desc);
  mluOpDestroy(handle);
  cnrtQueueDestroy(queue);
  return mismatches == 0 && us > 0 ? 0 : 1;
}
