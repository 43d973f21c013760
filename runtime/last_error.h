// CNRT's per-thread error record: what cnrtGetLastError and cnrtPeekAtLastError
// return, and the message mlusimGetLastError adds. Every failing CNRT call and
// every failing launch records its code on the calling host thread; a success
// leaves the code alone (so a later successful call does not hide an earlier
// failure).
#pragma once

#include <string>

#include "cnrt.h"

namespace mlusim {

// Records `ret` on this host thread when it is an error; returns `ret`, so
// that an entry point can end in `return note_error(...)`.
cnrtRet_t note_error(cnrtRet_t ret);
// The last recorded code (cnrtSuccess if none), reset to cnrtSuccess.
cnrtRet_t take_last_error();
// The last recorded code, left in place.
cnrtRet_t peek_last_error();

// The message of the last launch error or kernel fault on this host thread
// ("" after a successful launch): what mlusimGetLastError returns.
const std::string &last_error_message();
void set_last_error_message(std::string message);

}  // namespace mlusim
