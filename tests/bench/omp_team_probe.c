/* Counts how often a process's OpenMP team grows, loaded with LD_PRELOAD in front of libgomp. libgomp ends the surplus
   threads of a parallel region smaller than the last one and creates them anew (pthread_create, in the calling
   thread) for the next larger one, so a run whose regions alternate in size pays thread creations on every
   alternation: MobileNetV2 at 16 threads ran slower than at 1 that way. At exit it prints, to stderr, the outermost
   regions, the growths, and each size change with the function (or library and offset) that asked for the new size.
   Build and use (tests/bench/gpu_carry.sh builds it into the bundle):
     gcc -O2 -shared -fPIC -fopenmp tests/bench/omp_team_probe.c -o omp_team_probe.so -ldl
     LD_PRELOAD=./omp_team_probe.so build/app/flowscope profile MODEL --threads 16 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>

typedef void (*ParallelFn)(void (*)(void*), void*, unsigned, unsigned);

typedef struct {
  void* caller;
  unsigned from, to;
  long count;
} Change;

enum { kMaxChanges = 64 };
static Change changes[kMaxChanges];
static int changeCount = 0;
static long regions = 0, growths = 0;
static unsigned lastSize = 0;

static void record(void* caller, unsigned size) {
  ++regions;
  if (lastSize != 0 && size != lastSize) {
    if (size > lastSize) ++growths;
    int i = 0;
    while (i < changeCount && !(changes[i].caller == caller && changes[i].from == lastSize && changes[i].to == size))
      ++i;
    if (i == changeCount && changeCount < kMaxChanges) changes[changeCount++] = (Change){caller, lastSize, size, 0};
    if (i < changeCount) ++changes[i].count;
  }
  lastSize = size;
}

/* The entry point GCC compiles `#pragma omp parallel` (and a parallel loop of static schedule) to. */
void GOMP_parallel(void (*fn)(void*), void* data, unsigned threads, unsigned flags) {
  static ParallelFn next = NULL;
  if (!next) next = (ParallelFn)dlsym(RTLD_NEXT, "GOMP_parallel");
  if (!omp_in_parallel()) record(__builtin_return_address(0), threads ? threads : (unsigned)omp_get_max_threads());
  next(fn, data, threads, flags);
}

__attribute__((destructor)) static void report(void) {
  fprintf(stderr, "omp_team_probe: %ld outermost parallel regions, the team grew %ld times\n", regions, growths);
  for (int i = 0; i < changeCount; ++i) {
    Dl_info info = {0};
    const int found = dladdr(changes[i].caller, &info);
    const char* where = found && info.dli_sname ? info.dli_sname : "?";
    const long offset = found ? (long)((char*)changes[i].caller - (char*)info.dli_fbase) : 0;
    fprintf(stderr, "  %8ld x %3u -> %3u threads, asked by %s (%s+0x%lx)\n", changes[i].count, changes[i].from,
            changes[i].to, where, found ? info.dli_fname : "?", offset);
  }
}
