#include "runtime/fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <new>

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

#ifdef MLUSIM_ASAN
#include <sanitizer/asan_interface.h>
#endif
#ifdef MLUSIM_TSAN
#include <sanitizer/tsan_interface.h>
#endif

#if defined(__x86_64__)
// mlusim_switch_stack(&save, load): pushes the callee-saved registers and the
// SSE and x87 control words, stores the stack pointer in *save, takes `load`
// as the stack pointer and pops what was pushed there, returning where that
// stack's last switch was called (or to a new fiber's start).
extern "C" void mlusim_switch_stack(void **save, void *load);
asm(R"(
  .text
  .p2align 4
  .globl mlusim_switch_stack
  .hidden mlusim_switch_stack
  .type mlusim_switch_stack, @function
mlusim_switch_stack:
  .cfi_startproc
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .cfi_endproc
  .size mlusim_switch_stack, .-mlusim_switch_stack
  .section .note.GNU-stack,"",@progbits
  .text
)");
#endif

namespace mlusim {
namespace {
thread_local Fiber *t_running = nullptr;

// Sanitizer hooks, empty without sanitizers. Always inlined: TSan's own
// function-exit hook must not run between a switch and the swapcontext.
#define MLUSIM_HOOK [[gnu::always_inline]] inline
#ifdef MLUSIM_ASAN
MLUSIM_HOOK void asan_start_switch(void **fake_stack, const void *bottom, size_t bytes) {
  __sanitizer_start_switch_fiber(fake_stack, bottom, bytes);
}
MLUSIM_HOOK void asan_finish_switch(void *fake_stack, const void **from_bottom, size_t *from_bytes) {
  __sanitizer_finish_switch_fiber(fake_stack, from_bottom, from_bytes);
}
#else
MLUSIM_HOOK void asan_start_switch(void **, const void *, size_t) {}
MLUSIM_HOOK void asan_finish_switch(void *, const void **, size_t *) {}
#endif

#ifdef MLUSIM_TSAN
MLUSIM_HOOK void *tsan_create() { return __tsan_create_fiber(0); }
MLUSIM_HOOK void tsan_destroy(void *fiber) { __tsan_destroy_fiber(fiber); }
MLUSIM_HOOK void *tsan_current() { return __tsan_get_current_fiber(); }
MLUSIM_HOOK void tsan_switch_to(void *fiber) { __tsan_switch_to_fiber(fiber, 0); }
#else
MLUSIM_HOOK void *tsan_create() { return nullptr; }
MLUSIM_HOOK void tsan_destroy(void *) {}
MLUSIM_HOOK void *tsan_current() { return nullptr; }
MLUSIM_HOOK void tsan_switch_to(void *) {}
#endif
#undef MLUSIM_HOOK

}  // namespace

Fiber::Fiber(size_t stack_bytes) {
  guard_bytes_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  mapped_bytes_ = stack_bytes + guard_bytes_;
  stack_ = mmap(nullptr, mapped_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (stack_ == MAP_FAILED) throw std::bad_alloc();
  mprotect(stack_, guard_bytes_, PROT_NONE);  // a guard page: overflow faults, never corrupts
  tsan_fiber_ = tsan_create();
}

Fiber::~Fiber() {
  tsan_destroy(tsan_fiber_);
  munmap(stack_, mapped_bytes_);
}

void Fiber::reset(std::function<void()> body) {
  body_ = std::move(body);
  finished_ = false;
#if defined(__x86_64__)
  // What mlusim_switch_stack pops on the first switch here: the control words
  // (the thread's own), six registers, then the address it returns to,
  // entry(), as if called (16-byte aligned after it), with a null return
  // address above for debuggers' backtraces (entry() never returns).
  auto *top = reinterpret_cast<uint64_t *>(
      (reinterpret_cast<uintptr_t>(stack_) + mapped_bytes_) & ~uintptr_t{15});
  uint64_t *sp = top - 9;
  uint32_t mxcsr = 0;
  uint16_t fpu_control = 0;
  asm volatile("stmxcsr %0; fnstcw %1" : "=m"(mxcsr), "=m"(fpu_control));
  sp[0] = mxcsr | uint64_t{fpu_control} << 32;
  for (int r = 1; r <= 6; ++r) sp[r] = 0;
  sp[7] = reinterpret_cast<uint64_t>(&Fiber::entry);
  sp[8] = 0;
  context_sp_ = sp;
#else
  getcontext(&context_);
  context_.uc_stack.ss_sp = static_cast<char *>(stack_) + guard_bytes_;
  context_.uc_stack.ss_size = mapped_bytes_ - guard_bytes_;
  context_.uc_link = nullptr;  // entry() never returns: it switches back itself
  makecontext(&context_, &Fiber::entry, 0);
#endif
}

// Leaves the running stack for the other side's (saved in `save` for later).
#if defined(__x86_64__)
#define MLUSIM_SWITCH(save, load) mlusim_switch_stack(&(save##_sp_), load##_sp_)
#else
#define MLUSIM_SWITCH(save, load) swapcontext(&(save##_), &(load##_))
#endif

void Fiber::entry() {
  Fiber *self = t_running;
  // First instructions on the new stack: ASan learns where the resumer's stack is.
  asan_finish_switch(nullptr, &self->resumer_stack_, &self->resumer_stack_bytes_);
  self->body_();  // the body catches everything: no exception leaves a fiber
  self->finished_ = true;
  // This stack is done: a null save slot lets ASan drop its fake frames.
  asan_start_switch(nullptr, self->resumer_stack_, self->resumer_stack_bytes_);
  tsan_switch_to(self->tsan_resumer_);
#if defined(__x86_64__)
  mlusim_switch_stack(&self->context_sp_, self->resumer_sp_);
#else
  setcontext(&self->resumer_);
#endif
  __builtin_unreachable();
}

bool Fiber::resume() {
  Fiber *previous = t_running;
  t_running = this;
  void *fake_stack = nullptr;
  asan_start_switch(&fake_stack, static_cast<char *>(stack_) + guard_bytes_,
                    mapped_bytes_ - guard_bytes_);
  tsan_resumer_ = tsan_current();
  tsan_switch_to(tsan_fiber_);
  MLUSIM_SWITCH(resumer, context);
  asan_finish_switch(fake_stack, nullptr, nullptr);
  t_running = previous;
  return finished_;
}

void Fiber::park() {
  Fiber *self = t_running;
  void *fake_stack = nullptr;
  asan_start_switch(&fake_stack, self->resumer_stack_, self->resumer_stack_bytes_);
  tsan_switch_to(self->tsan_resumer_);
  MLUSIM_SWITCH(self->context, self->resumer);
  asan_finish_switch(fake_stack, &self->resumer_stack_, &self->resumer_stack_bytes_);
}

}  // namespace mlusim
