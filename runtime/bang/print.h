// The launch's side of kernel printf (runtime/bang/print.cpp).
#pragma once

#include <cstddef>

namespace mlusim::bang {

// What a launch's cores (the first `cores` physical ones) printed without a
// final newline, printed after it ends.
void flush_unfinished_lines(size_t cores);

}  // namespace mlusim::bang
