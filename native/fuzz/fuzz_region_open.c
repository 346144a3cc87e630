/*
 * fuzz_region_open.c — libFuzzer target over region images (make fuzz).
 * Each input becomes a 1 MiB region file (fuzz_input.h). Properties checked:
 *  - opening it read-only and read-write (recovery) never crashes or reads out
 *    of bounds (AddressSanitizer, UndefinedBehaviorSanitizer);
 *  - a refusal always comes with a message;
 *  - a region that recovery accepted can be written (one batch), closed, and
 *    opened again, and that second recovery finds nothing to roll back or
 *    reclaim: recovery leaves a clean region, and trusts nothing it rejects.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_input.h"

static char path[128];
static uint8_t *image;

static void fail(const char *what) {
  fprintf(stderr, "PROPERTY VIOLATED: %s (last message: %s)\n", what, nvm_errormsg());
  abort();
}

static void write_file(void) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) fail("cannot write the region file");
  size_t done = 0;
  while (done < FUZZ_REGION_SIZE) {
    ssize_t k = write(fd, image + done, FUZZ_REGION_SIZE - done);
    if (k <= 0) fail("short write of the region file");
    done += (size_t)k;
  }
  close(fd);
}

/* Touch what recovery handed out: every recovered inode and string page. */
static uint64_t walk(const nvm_region *r) {
  uint64_t n = 0, sum = 0;
  const uint64_t *ino = nvm_recovered_inodes(r, &n);
  const uint8_t *base = nvm_region_base(r);
  for (uint64_t i = 0; i < n; i++) {
    if (ino[i] < NVM_DATA_OFFSET || ino[i] + NVM_PAGE_SIZE > FUZZ_REGION_SIZE)
      fail("recovered inode outside the data area");
    for (unsigned b = 0; b < NVM_PAGE_SIZE; b += 8) sum += *(const uint64_t *)(base + ino[i] + b);
  }
  const uint64_t *str = nvm_recovered_strings(r, &n);
  for (uint64_t i = 0; i < n; i++) {
    if (str[i] < NVM_DATA_OFFSET || str[i] + NVM_PAGE_SIZE > FUZZ_REGION_SIZE)
      fail("recovered string outside the data area");
    sum += *(const uint64_t *)(base + str[i]);
  }
  return sum;
}

/* One ordinary write on the recovered region: a new mtime on the first recovered inode. */
static void write_once(nvm_region *r) {
  uint64_t n = 0;
  const uint64_t *ino = nvm_recovered_inodes(r, &n);
  if (n == 0) return;
  uint8_t batch[NVM_BATCH_HEADER + NVM_BATCH_ENTRY_HEADER + 8];
  memset(batch, 0, sizeof batch);
  uint32_t count = 1, op = NVM_OP_INPLACE, field = NVM_F_MTIME, len = 8;
  uint64_t target = ino[0] + NVM_IN_MTIME, value = 12345;
  memcpy(batch, &count, 4);
  uint8_t *e = batch + NVM_BATCH_HEADER;
  memcpy(e, &op, 4);
  memcpy(e + 4, &field, 4);
  memcpy(e + 8, &target, 8);
  memcpy(e + 16, &len, 4);
  memcpy(e + NVM_BATCH_ENTRY_HEADER, &value, 8);
  int rc = nvm_apply(r, batch, sizeof batch);
  if (rc != NVM_OK && rc != NVM_EINVAL) fail("a valid batch failed on a recovered region");
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  const char *dir = getenv("NVM_FUZZ_DIR");
  snprintf(path, sizeof path, "%s/nvmfuzz-%d.region", dir && *dir ? dir : "/dev/shm",
           (int)getpid());
  image = malloc(FUZZ_REGION_SIZE);
  return image ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > FUZZ_MAX_INPUT) return -1; /* not in the format: do not add to the corpus */
  fuzz_image_from_input(data, size, image);
  write_file();
  nvm_region *r = NULL;
  int rc = nvm_region_open(path, NVM_MODE_EMULATED, NVM_OPEN_READONLY, &r);
  if (rc == NVM_OK) {
    nvm_usage u;
    nvm_region_usage(r, &u);
    if (nvm_region_close(r) != NVM_OK) fail("closing a read-only region failed");
  } else if (!nvm_errormsg()[0]) {
    fail("read-only open refused without a message");
  }
  r = NULL;
  rc = nvm_region_open(path, NVM_MODE_EMULATED, 0, &r);
  if (rc != NVM_OK) {
    if (!nvm_errormsg()[0]) fail("open refused without a message");
    unlink(path);
    return 0;
  }
  walk(r);
  write_once(r);
  if (nvm_region_close(r) != NVM_OK) fail("closing a recovered region failed");
  r = NULL;
  if (nvm_region_open(path, NVM_MODE_EMULATED, 0, &r) != NVM_OK)
    fail("a region recovery accepted was refused on the next open");
  nvm_recovery rec;
  nvm_recovery_report(r, &rec);
  if (rec.undo_rolled_back || rec.orphans_reclaimed || rec.ext_reclaimed || rec.strings_reclaimed)
    fail("the second recovery found work the first one left");
  walk(r);
  if (nvm_region_close(r) != NVM_OK) fail("closing the reopened region failed");
  unlink(path);
  return 0;
}
