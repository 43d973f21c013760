#include "runtime/last_error.h"

namespace mlusim {
namespace {
thread_local cnrtRet_t t_last_error = cnrtSuccess;
thread_local std::string t_last_message;
}  // namespace

cnrtRet_t note_error(cnrtRet_t ret) {
  if (ret != cnrtSuccess) t_last_error = ret;
  return ret;
}

cnrtRet_t take_last_error() {
  const cnrtRet_t ret = t_last_error;
  t_last_error = cnrtSuccess;
  return ret;
}

cnrtRet_t peek_last_error() { return t_last_error; }

const std::string &last_error_message() { return t_last_message; }
void set_last_error_message(std::string message) { t_last_message = std::move(message); }

}  // namespace mlusim
