/* group_commit_bench [N_OPS [DIR]] — the cost of a create's batch committed one by one
 * (nvm_apply) against staged and committed in groups of 1, 4, 16 and 64 (nvm_stage +
 * nvm_sync), on a region in DIR (/dev/shm; with PMEM_IS_PMEM_FORCE=1 emulated persistence,
 * without it msync mode: a directory on a disk measures msync there). Prints wall and
 * CPU time per batch and the barriers issued. Not a test: numbers for docs/benchmarks.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

static double seconds(clockid_t c) {
  struct timespec t;
  clock_gettime(c, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* group 0: nvm_apply per batch; otherwise nvm_stage per batch and nvm_sync every `group`. */
static void run(int group, int n, const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/group-commit-bench.region", dir);
  unlink(path);
  nvm_region *r = tu_create(path, 256u << 20);
  uint64_t root = tu_make_dir(r, NVM_ROOT_INODE_ID, 0, 0, "");
  tu_set_root(r, root);
  tu_batch b;
  tb_init(&b);
  uint64_t barriers0 = nvm_barrier_count(r);
  double w0 = seconds(CLOCK_MONOTONIC), c0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
  for (int i = 0; i < n; i++) {
    uint64_t off; /* a create: a PENDING page made LIVE, the parent's mtime, the id counter */
    CHECK_OK(nvm_reserve_pages(r, 1, &off));
    tu_inode in = {NVM_KIND_FILE, 100 + (uint64_t)i, root, NVM_ROOT_INODE_ID, "f", 0, 0, 0, 0, 1};
    uint8_t img[NVM_PAGE_SIZE];
    tu_inode_image(img, &in, NVM_STATE_PENDING, 0, 0);
    tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, off, img, NVM_PAGE_SIZE);
    tb_add64(&b, NVM_F_STATE, off, NVM_STATE_WORD(NVM_KIND_FILE, NVM_STATE_LIVE));
    tb_add64(&b, NVM_F_MTIME, root + NVM_IN_MTIME, 1000 + (uint64_t)i);
    tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_INODE_ID, 100 + (uint64_t)i);
    if (group == 0) {
      CHECK_OK(nvm_apply(r, b.buf, b.len));
    } else {
      uint64_t seq;
      CHECK_OK(nvm_stage(r, b.buf, b.len, &seq));
      if (i % group == group - 1) CHECK_OK(nvm_sync(r, NULL));
    }
    memset(b.buf, 0, b.cap);
    b.len = NVM_BATCH_HEADER;
  }
  CHECK_OK(nvm_sync(r, NULL));
  double w = seconds(CLOCK_MONOTONIC) - w0, c = seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
  char label[64];
  if (group == 0)
    snprintf(label, sizeof label, "nvm_apply each");
  else
    snprintf(label, sizeof label, "stage, sync every %d", group);
  printf("%-22s %6.2f us/batch wall %6.2f us/batch cpu %5.2f barriers/batch\n", label, w * 1e6 / n,
         c * 1e6 / n, (double)(nvm_barrier_count(r) - barriers0) / n);
  tb_free(&b);
  tu_close(r);
  unlink(path);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000;
  const char *dir = argc > 2 ? argv[2] : "/dev/shm";
  int groups[] = {0, 1, 4, 16, 64};
  for (size_t i = 0; i < sizeof groups / sizeof *groups; i++) run(groups[i], n, dir);
  return 0;
}
