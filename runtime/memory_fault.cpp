#include "runtime/memory_fault.h"

#include <setjmp.h>
#include <signal.h>
#include <ucontext.h>

#include <array>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <new>

#include <spdlog/fmt/fmt.h>

#include "runtime/asan.h"
#include "runtime/gdram.h"
#include "runtime/onchip_memory.h"
#include "runtime/watchdog.h"

namespace mlusim {
namespace {

constexpr size_t kAltStackBytes = 64 * 1024;
// A fault this far below the interrupted stack pointer is taken for a stack overflow.
constexpr uintptr_t kStackReach = 64 * 1024;
// Below the stack pointer, the x86-64 red zone a leaf function may use.
constexpr uintptr_t kRedZoneBytes = 128;
// How deep a fiber's stack may be: the interrupted stack pointer must lie this
// close below the task's frame to count as the core's own code.
constexpr uintptr_t kFiberStackReach = 16 * 1024 * 1024;

// One core's recovery point; only its own fiber sets it, only the handler on
// the thread running that fiber jumps to it.
struct Recovery {
  sigjmp_buf env;
  volatile sig_atomic_t armed = 0;
  uintptr_t task_frame = 0;  // the fiber's stack above every frame of the task
  // What the handler saw.
  int signal = 0;
  uintptr_t address = 0, stack_pointer = 0;
  int write = -1;  // 1 write, 0 read, -1 unknown
};

std::array<Recovery, MLUSIM_MAX_CORES> g_recovery;
struct sigaction g_previous_segv, g_previous_bus, g_previous_watchdog;

uintptr_t interrupted_sp(void *uctx) {
  auto *uc = static_cast<ucontext_t *>(uctx);
#if defined(__x86_64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.sp);
#else
  (void)uc;
  return 0;
#endif
}

int is_write(void *uctx) {
#if defined(__x86_64__)
  return (static_cast<ucontext_t *>(uctx)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
  (void)uctx;
  return -1;
#endif
}

const struct sigaction &previous(int sig) {
  return sig == SIGSEGV ? g_previous_segv : sig == SIGBUS ? g_previous_bus : g_previous_watchdog;
}

// Not kernel code: what the signal would have done without mlusim.
void pass_on(int sig, siginfo_t *info, void *uctx) {
  const struct sigaction &old = previous(sig);
  if ((old.sa_flags & SA_SIGINFO) != 0 && old.sa_sigaction != nullptr) {
    old.sa_sigaction(sig, info, uctx);
    return;
  }
  if (old.sa_handler == SIG_IGN) return;
  if (old.sa_handler != SIG_DFL) {
    old.sa_handler(sig);
    return;
  }
  if (sig == watchdog_signal()) return;  // the watchdog will try again
  signal(sig, SIG_DFL);                  // a real crash: die as without mlusim
  if (info->si_code <= 0) raise(sig);    // sent by kill(): returning would not repeat it
}

void on_signal(int sig, siginfo_t *info, void *uctx) {
  CoreContext *c = detail::tls_core;
  if (c != nullptr) {
    Recovery &r = g_recovery[c->physical_core];
    const uintptr_t sp = interrupted_sp(uctx);
    const bool on_fiber = sp <= r.task_frame && r.task_frame - sp < kFiberStackReach;
    // The watchdog's signal waits while the core holds heap memory or
    // unwinds an exception (a fault of its own: the jump would leak the
    // exception); it retries, and the core also stops at its next instruction.
    const bool wanted = sig != watchdog_signal() ||
                        (core_watch(c->physical_core).interrupt.load() && c->holds_heap == 0 &&
                         std::uncaught_exceptions() == 0);
    if (r.armed && on_fiber && wanted) {
      r.armed = 0;
      r.signal = sig;
      r.address = reinterpret_cast<uintptr_t>(info->si_addr);
      r.stack_pointer = sp;
      r.write = is_write(uctx);
      siglongjmp(r.env, 1);  // SA_NODEFER: nothing to unblock
    }
  }
  pass_on(sig, info, uctx);
}

void install_handlers() {
  struct sigaction sa {};
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &g_previous_segv);
  sigaction(SIGBUS, &sa, &g_previous_bus);
  sigaction(watchdog_signal(), &sa, &g_previous_watchdog);
}

// The alternate signal stack of this thread: freed when the thread ends (held
// in thread-local storage, where a leak checker also sees it).
struct AltStack {
  std::unique_ptr<char[]> memory;
  ~AltStack() {
    if (memory == nullptr) return;
    stack_t off{};
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
  }
};

// Each worker thread handles signals on its own stack: a fiber that overflowed
// its stack has none left.
void ensure_alt_stack() {
  thread_local AltStack alt;
  thread_local bool installed = false;
  if (installed) return;
  installed = true;
  stack_t current{};
  sigaltstack(nullptr, &current);
  if ((current.ss_flags & SS_DISABLE) == 0 && current.ss_size >= kAltStackBytes) return;
  alt.memory.reset(new (std::nothrow) char[kAltStackBytes]);
  if (alt.memory == nullptr) return;
  stack_t ss{};
  ss.ss_sp = alt.memory.get();
  ss.ss_size = kAltStackBytes;
  sigaltstack(&ss, nullptr);
}

std::string where(const Recovery &r) {
  std::string what;
  if (onchip_describe(r.address, &what) || gdram_describe_address(r.address, &what)) return what;
  if (r.address <= r.stack_pointer && r.stack_pointer - r.address < kStackReach)
    return "the core's stack guard: the kernel's stack overflowed (deep recursion or large "
           "local arrays)";
  if (r.address < 65536) return "a null pointer (no memory there)";
  return "no device memory (an unmapped host address)";
}

std::string signal_message(const CoreContext &c, const Recovery &r) {
  const char *access = r.write == 1 ? "write to" : r.write == 0 ? "read of" : "access to";
  const char *last = c.last_op.load(std::memory_order_relaxed);
  return fmt::format("{} in kernel code: {} {:#x}, which is {} (a raw access in the kernel's own "
                     "code, {}{})",
                     r.signal == SIGBUS ? "SIGBUS" : "SIGSEGV", access, r.address, where(r),
                     last != nullptr ? "after the intrinsic " : "before any intrinsic",
                     last != nullptr ? last : "");
}

}  // namespace

void run_guarded(CoreContext &c, const std::function<void()> &body) {
  Recovery &r = g_recovery[c.physical_core];
  CoreWatch &w = core_watch(c.physical_core);
  if (sigsetjmp(r.env, 0) != 0) {
    // The frames the jump abandoned keep their redzones: clear them, or ASan
    // takes the next frames built there for overflows.
    asan::unpoison(reinterpret_cast<void *>(r.stack_pointer - kRedZoneBytes),
                   r.task_frame - r.stack_pointer + kRedZoneBytes);
    w.state = CoreWatch::kBetweenTasks;
    if (r.signal == watchdog_signal()) detail::fault(c, watchdog_report());
    detail::fault(c, signal_message(c, r));
  }
  struct Disarm {  // on return and on a KernelFault leaving body()
    Recovery &r;
    CoreWatch &w;
    ~Disarm() {
      r.armed = 0;
      w.state.store(CoreWatch::kBetweenTasks, std::memory_order_release);
    }
  } disarm{r, w};
  r.task_frame = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  w.task.store(c.task_id, std::memory_order_relaxed);
  w.state.store(CoreWatch::kInTask, std::memory_order_release);
  r.armed = 1;
  body();
}

void enter_worker() {
  static std::once_flag once;
  std::call_once(once, install_handlers);
  ensure_alt_stack();
}

// The watchdog's view needs no fence: a release store publishes the thread
// and context with on_thread, and the watchdog copes with a view a moment old.
void enter_core(CoreContext &c) {
  CoreWatch &w = core_watch(c.physical_core);
  w.thread = pthread_self();
  w.ctx.store(&c, std::memory_order_relaxed);
  w.on_thread.store(true, std::memory_order_release);
  detail::tls_core = &c;
}

void leave_core(CoreContext &c) {
  detail::tls_core = nullptr;
  core_watch(c.physical_core).on_thread.store(false, std::memory_order_release);
}

}  // namespace mlusim
