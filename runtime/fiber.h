// A simulated core's own stack and context, so that many cores can share a few
// host threads: a core that reaches a barrier parks (swaps back to its worker)
// and the worker runs another core. Fibers never migrate between threads, so
// thread_local state (the current core) stays valid across a park.
//
// A switch is Boost.Context's fcontext jump: it saves the callee-saved
// registers and control words on the stack it leaves and loads the other's.
// (ucontext's swapcontext also sets the signal mask, a system call per switch,
// about 160 per launch of the whole device, which fibers of one thread never
// need.) The fcontext calls are Boost.Context's low-level layer: its fiber
// class would unwind an abandoned stack by exception on destruction, and a
// core's body catches everything, while a deadlocked launch abandons parked
// cores' stacks and reuses them.
//
// Under AddressSanitizer and ThreadSanitizer every switch is announced to the
// sanitizer (fiber.cpp), so that ASan knows which stack is live when a kernel
// fault unwinds one, and TSan keeps a separate shadow stack per simulated core.
#pragma once

// Which sanitizers are on: GCC defines __SANITIZE_*__, Clang answers __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define MLUSIM_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#define MLUSIM_TSAN 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MLUSIM_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define MLUSIM_TSAN 1
#endif
#endif

#ifdef MLUSIM_TSAN
// Under ThreadSanitizer a core's fault recovery (siglongjmp out of the SIGSEGV
// handler, runtime/memory_fault.cpp) crashes the process after an fcontext
// jump but not after swapcontext: TSan builds switch with ucontext.
#include <ucontext.h>
#else
#include <boost/context/detail/fcontext.hpp>
#endif

#include <cstddef>
#include <functional>

namespace mlusim {

class Fiber {
 public:
  explicit Fiber(size_t stack_bytes);
  ~Fiber();
  Fiber(const Fiber &) = delete;
  Fiber &operator=(const Fiber &) = delete;

  // Prepares the fiber to run `body` from the start on its next resume().
  void reset(std::function<void()> body);
  // Runs the fiber until it parks or its body returns; true once finished.
  bool resume();
  // From inside the running fiber: back to the thread that resumed it.
  static void park();

 private:
#ifdef MLUSIM_TSAN
  [[noreturn]] static void entry();
  ucontext_t context_{}, resumer_{};
#else
  // A new fiber's first function; `from` names the resumer's saved context.
  [[noreturn]] static void entry(boost::context::detail::transfer_t from);

  // Where each side's registers lie while it is switched out.
  boost::context::detail::fcontext_t context_ = nullptr, resumer_ = nullptr;
#endif
  void *stack_ = nullptr;
  size_t mapped_bytes_ = 0, guard_bytes_ = 0;
  std::function<void()> body_;
  bool finished_ = false;
  // Sanitizer bookkeeping (unused without sanitizers): the resumer's stack
  // bounds for ASan, and TSan's handles of this fiber and of its resumer.
  const void *resumer_stack_ = nullptr;
  size_t resumer_stack_bytes_ = 0;
  void *tsan_fiber_ = nullptr, *tsan_resumer_ = nullptr;
};

}  // namespace mlusim
