#include "runtime/fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <new>

namespace mlusim {
namespace {
thread_local Fiber *t_running = nullptr;
}

Fiber::Fiber(size_t stack_bytes) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  mapped_bytes_ = stack_bytes + page;
  stack_ = mmap(nullptr, mapped_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (stack_ == MAP_FAILED) throw std::bad_alloc();
  mprotect(stack_, page, PROT_NONE);  // a guard page: overflow faults, never corrupts
}

Fiber::~Fiber() { munmap(stack_, mapped_bytes_); }

void Fiber::reset(std::function<void()> body) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  body_ = std::move(body);
  finished_ = false;
  getcontext(&context_);
  context_.uc_stack.ss_sp = static_cast<char *>(stack_) + page;
  context_.uc_stack.ss_size = mapped_bytes_ - page;
  context_.uc_link = &resumer_;  // returning from entry() resumes the worker
  makecontext(&context_, &Fiber::entry, 0);
}

void Fiber::entry() {
  Fiber *self = t_running;
  self->body_();  // the body catches everything: no exception leaves a fiber
  self->finished_ = true;
}

bool Fiber::resume() {
  Fiber *previous = t_running;
  t_running = this;
  swapcontext(&resumer_, &context_);
  t_running = previous;
  return finished_;
}

void Fiber::park() {
  Fiber *self = t_running;
  swapcontext(&self->context_, &self->resumer_);
}

}  // namespace mlusim
