// The launch's side of kernel printf (runtime/bang/print.cpp).
#pragma once

namespace mlusim::bang {

// What a launch's cores printed without a final newline, printed after it ends.
void flush_unfinished_lines();

}  // namespace mlusim::bang
