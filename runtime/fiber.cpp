#include "runtime/fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <new>

#ifdef MLUSIM_ASAN
#include <sanitizer/asan_interface.h>
#endif
#ifdef MLUSIM_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace mlusim {
namespace {
thread_local Fiber *t_running = nullptr;

// Sanitizer hooks, empty without sanitizers. Always inlined: TSan's own
// function-exit hook must not run between a switch and the jump.
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

#ifdef MLUSIM_TSAN
void Fiber::reset(std::function<void()> body) {
  body_ = std::move(body);
  finished_ = false;
  getcontext(&context_);
  context_.uc_stack.ss_sp = static_cast<char *>(stack_) + guard_bytes_;
  context_.uc_stack.ss_size = mapped_bytes_ - guard_bytes_;
  context_.uc_link = nullptr;  // entry() never returns: it switches back itself
  makecontext(&context_, &Fiber::entry, 0);
}
// Leaves the running side for the other, which returns from its own switch.
#define MLUSIM_SWITCH_TO_RESUMER(self) swapcontext(&self->context_, &self->resumer_)
#define MLUSIM_SWITCH_TO_FIBER(self) swapcontext(&self->resumer_, &self->context_)
void Fiber::entry() {
  Fiber *self = t_running;
#else
namespace fcontext = boost::context::detail;

void Fiber::reset(std::function<void()> body) {
  body_ = std::move(body);
  finished_ = false;
  // The stack grows down from the end of the mapping towards the guard page.
  context_ = fcontext::make_fcontext(static_cast<char *>(stack_) + mapped_bytes_,
                                     mapped_bytes_ - guard_bytes_, &Fiber::entry);
}
// Each side's jump returns where the other side was saved.
#define MLUSIM_SWITCH_TO_RESUMER(self) (self->resumer_ = fcontext::jump_fcontext(self->resumer_, nullptr).fctx)
#define MLUSIM_SWITCH_TO_FIBER(self) (self->context_ = fcontext::jump_fcontext(self->context_, nullptr).fctx)
void Fiber::entry(fcontext::transfer_t from) {
  Fiber *self = t_running;
  self->resumer_ = from.fctx;
#endif
  // First instructions on the new stack: ASan learns where the resumer's stack is.
  asan_finish_switch(nullptr, &self->resumer_stack_, &self->resumer_stack_bytes_);
  self->body_();  // the body catches everything: no exception leaves a fiber
  self->finished_ = true;
  // This stack is done: a null save slot lets ASan drop its fake frames.
  asan_start_switch(nullptr, self->resumer_stack_, self->resumer_stack_bytes_);
  tsan_switch_to(self->tsan_resumer_);
  MLUSIM_SWITCH_TO_RESUMER(self);
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
  MLUSIM_SWITCH_TO_FIBER(this);  // back when it parks or ends
  asan_finish_switch(fake_stack, nullptr, nullptr);
  t_running = previous;
  return finished_;
}

void Fiber::park() {
  Fiber *self = t_running;
  void *fake_stack = nullptr;
  asan_start_switch(&fake_stack, self->resumer_stack_, self->resumer_stack_bytes_);
  tsan_switch_to(self->tsan_resumer_);
  MLUSIM_SWITCH_TO_RESUMER(self);
  asan_finish_switch(fake_stack, &self->resumer_stack_, &self->resumer_stack_bytes_);
}

}  // namespace mlusim
