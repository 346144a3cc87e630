/* Capture mode: one run of a batch writes, for every barrier k, the same two
 * images that a crash armed at barrier k writes (byte for byte), and the batch
 * still completes; disarming stops the capture. */
#include "test_util.h"

#include <stdio.h>
#include <unistd.h>

/* a batch with two in-place words at different places: one redo record, one barrier */
static void build_batch(tu_batch *b, uint64_t dir) {
  tb_add64(b, NVM_F_MTIME, dir + NVM_IN_MTIME, 4242);
  tb_add64(b, NVM_F_COUNTER, NVM_SB_LAST_TXID, 77);
}

static void image_name(char *out, size_t n, const char *prefix, int k, const char *kind) {
  if (k > 0)
    snprintf(out, n, "%s.%d.%s", prefix, k, kind);
  else
    snprintf(out, n, "%s.%s", prefix, kind);
}

int main(void) {
  const char *base = tu_path("cap-base"), *work = tu_path("cap-work");
  const char *cap = tu_path("cap-img"), *crash = tu_path("cap-crash");
  nvm_region *r = tu_create(base, NVM_MIN_REGION_SIZE);
  uint64_t root = tu_make_dir(r, NVM_ROOT_INODE_ID, 0, 0, "");
  tu_set_root(r, root);
  uint64_t dir = tu_make_dir(r, NVM_ROOT_INODE_ID + 1, root, NVM_ROOT_INODE_ID, "d");
  tu_close(r);

  /* one run in capture mode */
  tu_copy(base, work);
  r = tu_open(work);
  uint64_t n = 99;
  CHECK_OK(nvm_debug_capture(r, cap, &n));
  CHECK(n == 0);
  tu_batch b;
  tb_init(&b);
  build_batch(&b, dir);
  uint64_t b0 = nvm_barrier_count(r);
  CHECK_OK(tb_apply(r, &b));
  uint64_t nbarriers = nvm_barrier_count(r) - b0;
  CHECK(nbarriers == 1);
  CHECK(!nvm_debug_crashed(r));
  CHECK(tu_ld64(r, dir + NVM_IN_MTIME) == 4242 && tu_counter(r, NVM_SB_LAST_TXID) == 77);
  CHECK_OK(nvm_debug_capture(r, NULL, &n)); /* disarm */
  CHECK(n == nbarriers);
  /* the state after the whole batch, at its last barrier, equals the live mapping */
  char applied[4400];
  snprintf(applied, sizeof applied, "%s.%llu.applied", cap, (unsigned long long)nbarriers);
  tu_close(r);
  /* ... and recovers to the cleanly closed region: replay, then the slots emptied */
  tu_close(tu_open(applied));
  CHECK(tu_same_file(applied, work));
  unlink(applied);
  r = tu_open(work);
  /* disarmed: a further batch captures nothing */
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_TXID, 78);
  CHECK_OK(tb_apply(r, &b));
  char path[4400];
  image_name(path, sizeof path, cap, (int)nbarriers + 1, "lost");
  CHECK(access(path, F_OK) != 0);
  /* a crash cannot be armed on top of a capture, and vice versa */
  CHECK_OK(nvm_debug_capture(r, cap, NULL));
  CHECK_RC(nvm_debug_crash_at(r, 1, crash), NVM_OK); /* crash_at replaces the hook */
  CHECK_RC(nvm_debug_capture(r, cap, NULL), NVM_EINVAL);
  CHECK_OK(nvm_debug_crash_at(r, 0, NULL));
  tu_close(r);
  tb_free(&b);

  /* per-line images: "only" = lost + one flushed line of present, "missing" = present minus it */
  int line_images = 0;
  for (int k = 1; k <= (int)nbarriers; k++) {
    char lost[4400], present[4400], only[4400], missing[4400];
    image_name(lost, sizeof lost, cap, k, "lost");
    image_name(present, sizeof present, cap, k, "present");
    for (int j = 0;; j++) {
      snprintf(only, sizeof only, "%s.%d.line%d-only", cap, k, j);
      snprintf(missing, sizeof missing, "%s.%d.line%d-missing", cap, k, j);
      if (access(only, F_OK) != 0) break;
      size_t nl, np, no, nm;
      uint8_t *L = tu_read_file(lost, &nl), *P = tu_read_file(present, &np);
      uint8_t *O = tu_read_file(only, &no), *M = tu_read_file(missing, &nm);
      CHECK(nl == np && no == nl && nm == nl);
      /* O differs from L in at most one 64-byte line, and there it equals P; M likewise from P */
      long first = -1;
      for (size_t i = 0; i < nl; i++) {
        if (O[i] != L[i]) {
          if (first < 0) first = (long)(i / 64 * 64);
          CHECK((long)i < first + 64 && O[i] == P[i]);
        }
        if (M[i] != P[i]) CHECK(i / 64 * 64 == (size_t)first && M[i] == L[i]);
      }
      CHECK(first >= 0); /* the line did change in this interval */
      free(L);
      free(P);
      free(O);
      free(M);
      unlink(only);
      unlink(missing);
      line_images++;
    }
  }
  CHECK(line_images > 0); /* the record spans several lines */
  printf("  %d per-line image pairs checked\n", line_images);

  /* every captured image equals the one a real crash at that barrier leaves */
  for (int k = 1; k <= (int)nbarriers; k++) {
    tu_copy(base, work);
    r = tu_open(work);
    tb_init(&b);
    build_batch(&b, dir);
    CHECK_OK(nvm_debug_crash_at(r, (uint64_t)k, crash));
    CHECK_RC(tb_apply(r, &b), NVM_ECRASHED);
    tu_close(r);
    tb_free(&b);
    for (int kind = 0; kind < 2; kind++) {
      const char *suffix = kind ? "present" : "lost";
      char a[4400], c[4400];
      image_name(a, sizeof a, cap, k, suffix);
      image_name(c, sizeof c, crash, 0, suffix);
      CHECK(tu_same_file(a, c));
      unlink(a);
      unlink(c);
    }
    printf("  barrier %d: captured images equal the crash images\n", k);
  }
  printf("capture ok\n");
  return 0;
}
