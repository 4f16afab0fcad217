// Lets valgrind 3.19 run the benchmark's recordings (and any Swift program whose asynchronous
// main ends in libdispatch's dispatch_main()): dispatch_main() calls sigsuspend() with a mask
// in read-only memory, and valgrind 3.19 writes into that mask, crashing with "VALGRIND
// INTERNAL ERROR ... SIGSEGV" (thread 1 in syscall 130). This copy of the mask is writable.
//
//   gcc -shared -fPIC -O2 -o /tmp/sigsuspend_shim.so Benchmarks/valgrind/sigsuspend_shim.c
//   LD_PRELOAD=/tmp/sigsuspend_shim.so valgrind --tool=callgrind --separate-threads=yes \
//     .build/release/reactor-trace-bench child runtime counter-sync live 20000 /tmp
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
  sigset_t copy = *mask;
  return (int)syscall(SYS_rt_sigsuspend, &copy, 8);
}
