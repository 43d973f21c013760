// libmlusim_procfs.so: the driver's /proc/driver/cambricon/ files for programs
// that read them, without root. On a board the Cambricon driver publishes
// them; on mlusim this preload library serves every path under
// /proc/driver/cambricon/ from the directory MLUSIM_PROCFS_DIR names (which
// stands for /proc/driver/cambricon), and leaves every other path alone.
// mlu-ops' harness opens /proc/driver/cambricon/mlus/<bus id>/exclusive_mode
// and picks no device unless it reads '0' there; `mlusim-mluops test`
// prepares that file and runs the harness with LD_PRELOAD=libmlusim_procfs.so.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

constexpr char kDriverDir[] = "/proc/driver/cambricon";

// `path` itself, or its stand-in under MLUSIM_PROCFS_DIR (kept in a
// per-thread buffer until the thread's next call).
const char *served(const char *path) {
  const char *root = std::getenv("MLUSIM_PROCFS_DIR");
  const size_t n = sizeof(kDriverDir) - 1;
  if (path == nullptr || root == nullptr || std::strncmp(path, kDriverDir, n) != 0 ||
      (path[n] != '/' && path[n] != '\0'))
    return path;
  thread_local std::string mapped;
  mapped.assign(root).append(path + n);
  return mapped.c_str();
}

// The next definition of `name` (libc's), looked up once.
template <typename F>
F next(F *slot, const char *name) {
  if (*slot == nullptr) *slot = reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
  return *slot;
}

// open's mode argument is there only when the flags create a file.
mode_t mode_of(int flags, va_list args) {
  return (flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(args, mode_t) : 0;
}

}  // namespace

#define MLUSIM_NEXT(name) next(&name##_next, #name)

extern "C" {

static int (*open_next)(const char *, int, ...);
static int (*open64_next)(const char *, int, ...);
static int (*openat_next)(int, const char *, int, ...);
static int (*openat64_next)(int, const char *, int, ...);
static int (*__open_2_next)(const char *, int);
static int (*__open64_2_next)(const char *, int);
static FILE *(*fopen_next)(const char *, const char *);
static FILE *(*fopen64_next)(const char *, const char *);
static int (*access_next)(const char *, int);
static int (*stat_next)(const char *, struct stat *);
static int (*lstat_next)(const char *, struct stat *);

int open(const char *path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = mode_of(flags, args);
  va_end(args);
  return MLUSIM_NEXT(open)(served(path), flags, mode);
}
int open64(const char *path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = mode_of(flags, args);
  va_end(args);
  return MLUSIM_NEXT(open64)(served(path), flags, mode);
}
int openat(int dir, const char *path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = mode_of(flags, args);
  va_end(args);
  return MLUSIM_NEXT(openat)(dir, served(path), flags, mode);
}
int openat64(int dir, const char *path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = mode_of(flags, args);
  va_end(args);
  return MLUSIM_NEXT(openat64)(dir, served(path), flags, mode);
}
// What open() becomes under _FORTIFY_SOURCE.
int __open_2(const char *path, int flags) { return MLUSIM_NEXT(__open_2)(served(path), flags); }
int __open64_2(const char *path, int flags) { return MLUSIM_NEXT(__open64_2)(served(path), flags); }
FILE *fopen(const char *path, const char *mode) { return MLUSIM_NEXT(fopen)(served(path), mode); }
FILE *fopen64(const char *path, const char *mode) {
  return MLUSIM_NEXT(fopen64)(served(path), mode);
}
int access(const char *path, int mode) { return MLUSIM_NEXT(access)(served(path), mode); }
int stat(const char *path, struct stat *out) { return MLUSIM_NEXT(stat)(served(path), out); }
int lstat(const char *path, struct stat *out) { return MLUSIM_NEXT(lstat)(served(path), out); }

}  // extern "C"
