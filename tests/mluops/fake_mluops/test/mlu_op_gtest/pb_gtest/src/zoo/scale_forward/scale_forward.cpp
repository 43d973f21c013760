// The test of scale_forward: y = alpha * x on the device against the host.
#include <cmath>
#include <vector>

#include "cnrt.h"
#include "harness.h"

namespace fake_harness {

bool scale_forward(mluOpHandle_t handle, const Case &c, Figures *figures) {
  const int n = static_cast<int>(c.number("n"));
  const float alpha = static_cast<float>(c.number("alpha"));
  std::vector<float> x(n > 0 ? n : 1), y(x.size());
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.25f * static_cast<float>(i % 17) - 1.0f;
  float *dx = nullptr, *dy = nullptr;
  cnrtMalloc(reinterpret_cast<void **>(&dx), x.size() * sizeof(float));
  cnrtMalloc(reinterpret_cast<void **>(&dy), y.size() * sizeof(float));
  cnrtMemcpy(dx, x.data(), x.size() * sizeof(float), cnrtMemcpyHostToDev);
  cnrtQueue_t queue = mluOpGetQueue(handle);
  cnrtNotifier_t start, end;
  cnrtNotifierCreate(&start);
  cnrtNotifierCreate(&end);
  cnrtPlaceNotifier(start, queue);
  const mluOpStatus_t status = mluOpScaleForward(handle, n, alpha, dx, dy);
  cnrtPlaceNotifier(end, queue);
  cnrtQueueSync(queue);
  float us = 0;
  cnrtNotifierDuration(start, end, &us);
  figures->hardware_time_us = us;
  figures->io_bytes = 2.0 * n * sizeof(float);
  cnrtMemcpy(y.data(), dy, y.size() * sizeof(float), cnrtMemcpyDevToHost);
  cnrtNotifierDestroy(start);
  cnrtNotifierDestroy(end);
  cnrtFree(dx);
  cnrtFree(dy);
  if (status != MLUOP_STATUS_SUCCESS) {
    figures->error = "mluOpScaleForward returned " + std::to_string(status);
    return false;
  }
  for (int i = 0; i < n; ++i)
    if (std::fabs(y[i] - alpha * x[i]) > 1e-6f) {
      figures->error = "y[" + std::to_string(i) + "] is wrong";
      return false;
    }
  return true;
}

}  // namespace fake_harness
