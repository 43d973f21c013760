// A simulated core's own stack and context, so that many cores can share a few
// host threads: a core that reaches a barrier parks (swaps back to its worker)
// and the worker runs another core. Fibers never migrate between threads, so
// thread_local state (the current core) stays valid across a park.
//
// On x86-64 a switch saves the callee-saved registers on the stack it leaves
// and loads the other's (fiber.cpp): ucontext's swapcontext also sets the
// signal mask, a system call per switch (about 160 per launch of the whole
// device), which fibers of one thread never need. Elsewhere, ucontext.
//
// Under AddressSanitizer and ThreadSanitizer every switch is announced to the
// sanitizer (fiber.cpp), so that ASan knows which stack is live when a kernel
// fault unwinds one, and TSan keeps a separate shadow stack per simulated core.
#pragma once

#include <ucontext.h>

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
  [[noreturn]] static void entry();

#if defined(__x86_64__)
  void *context_sp_ = nullptr, *resumer_sp_ = nullptr;  // where each side's registers lie
#else
  ucontext_t context_{}, resumer_{};
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
