// The contents of the GDRAM allocations a launch may touch, so that it can be
// run again from the same inputs and its outputs compared (MLUSIM_SCHEDULES,
// runtime/core_order.h).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "mlusim/bang/detail/gdram_table.h"

namespace mlusim {

class GdramImage {
 public:
  explicit GdramImage(const GdramSnapshot &allocations);
  // Writes the captured contents back.
  void restore() const;
  // "" if both images hold the same bytes, else which allocation differs
  // where (the images are of the same allocations), naming the two runs.
  std::string difference(const GdramImage &other, const std::string &mine,
                         const std::string &theirs) const;

 private:
  const GdramSnapshot &allocations_;
  std::vector<std::vector<std::byte>> contents_;
};

}  // namespace mlusim
