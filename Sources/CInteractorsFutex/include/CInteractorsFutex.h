// The futex system call for `Lock`, and for callers parked on a response (`ParkingWord`), on Linux, and the
// naming of the library's threads. Swift cannot
// call the variadic `syscall(2)`, so these fixed-arity wrappers call it for it.
// Nothing here on other platforms: Darwin's `Lock` uses `os_unfair_lock`.
#ifndef C_INTERACTORS_FUTEX_H
#define C_INTERACTORS_FUTEX_H

#if defined(__linux__)
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/// Sleeps while `*word == expected` (checked atomically by the kernel), until a wake on `word`, a signal or a
/// spurious wake-up. The caller re-checks the word in every case.
static inline void interactors_futex_wait(uint32_t *word, uint32_t expected) {
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

/// As `interactors_futex_wait`, for at most `nanoseconds`.
static inline void interactors_futex_wait_for(uint32_t *word, uint32_t expected, uint64_t nanoseconds) {
    struct timespec timeout = {(time_t)(nanoseconds / 1000000000u), (long)(nanoseconds % 1000000000u)};
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, &timeout, NULL, 0);
}

/// Wakes one thread sleeping in `interactors_futex_wait` on `word`, if any.
static inline void interactors_futex_wake_one(uint32_t *word) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/// Names the calling thread (at most 15 bytes; a longer name is refused). glibc declares `pthread_setname_np` only
/// under _GNU_SOURCE, which the C library's module is not built with, so the prototype is given here.
int pthread_setname_np(pthread_t thread, const char *name);
static inline void interactors_name_current_thread(const char *name) {
    pthread_setname_np(pthread_self(), name);
}

/// Wakes every thread sleeping on `word`.
static inline void interactors_futex_wake_all(uint32_t *word) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
}
#endif

/// Tells the core that this is a spin-wait loop (x86 `pause`, ARM `yield`): it saves power and lets a sibling
/// hyperthread run.
static inline void interactors_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

#endif
