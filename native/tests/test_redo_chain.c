/* Chained redo records (region-format.md §4.1, REDO_SPAN 3): a batch whose log is larger than
 * the whole log area commits atomically, its record's payload in chain pages. A crash at any
 * barrier of its sync, and every cache-line image of its barrier, recovers to the state before
 * it or after it, never in between; its chain pages come back to the allocator two records
 * later; a region that cannot give them refuses the batch at staging, with nothing changed. */
#include <stdio.h>

#include "test_util.h"

#define NFILES 400

static uint64_t root, files[NFILES], root_mtime0, mtime0[NFILES], atime0[NFILES];
static const char *base_path, *work_path;

/* Every file's mtime and atime: a page per file, two words and a seal each (48 bytes of log per
 * word with its entry header, 24 per seal): about 29 KiB of log, 3.5 times the log area. */
static void big_batch(tu_batch *b, uint64_t stamp) {
  tb_init(b);
  for (int i = 0; i < NFILES; i++) {
    tb_add64(b, NVM_F_MTIME, files[i] + NVM_IN_MTIME, stamp + (uint64_t)i);
    tb_add64(b, NVM_F_ATIME, files[i] + NVM_IN_ATIME, stamp + 2 * (uint64_t)i);
  }
  tb_add64(b, NVM_F_COUNTER, NVM_SB_LAST_TXID, stamp);
}

static void small_batch(tu_batch *b, uint64_t txid) {
  tb_init(b);
  tb_add64(b, NVM_F_MTIME, root + NVM_IN_MTIME, txid);
  tb_add64(b, NVM_F_COUNTER, NVM_SB_LAST_TXID, txid);
}

/* Which of the states the image holds: 0 = before the batches, 1 = after the first small one,
 * 2 = after the big one, 3 = after the last small one; -1 = none of them (a torn big batch). */
static int state_of(const char *img) {
  nvm_region *r = tu_open(img);
  uint64_t txid = tu_counter(r, NVM_SB_LAST_TXID), rm = tu_ld64(r, root + NVM_IN_MTIME);
  int big = 0, old = 0;
  for (int i = 0; i < NFILES; i++) {
    uint64_t m = tu_ld64(r, files[i] + NVM_IN_MTIME), a = tu_ld64(r, files[i] + NVM_IN_ATIME);
    big += m == 50000 + (uint64_t)i && a == 50000 + 2 * (uint64_t)i;
    old += m == mtime0[i] && a == atime0[i];
  }
  tu_close(r);
  if (old == NFILES && txid == 0 && rm == root_mtime0) return 0;
  if (old == NFILES && txid == 7 && rm == 7) return 1;
  if (big == NFILES && txid == 50000 && rm == 7) return 2;
  if (big == NFILES && txid == 9 && rm == 9) return 3;
  printf("  (txid %llu, root mtime %llu, %d files after the big batch, %d before)\n",
         (unsigned long long)txid, (unsigned long long)rm, big, old);
  return -1;
}

/* Stages small, big, small and syncs them, with a crash at barrier k (0: none); returns the
 * barriers the sync took. */
static uint64_t staged_sync(uint64_t k, const char *prefix) {
  tu_copy(base_path, work_path);
  nvm_region *r = tu_open(work_path);
  tu_batch b[3];
  small_batch(&b[0], 7);
  big_batch(&b[1], 50000);
  small_batch(&b[2], 9);
  uint64_t seq;
  for (int i = 0; i < 3; i++) CHECK_OK(nvm_stage(r, b[i].buf, b[i].len, &seq));
  uint64_t b0 = nvm_barrier_count(r);
  if (k) CHECK_OK(nvm_debug_crash_at(r, k, prefix));
  int rc = nvm_sync(r, NULL);
  uint64_t took = nvm_barrier_count(r) - b0;
  if (k && k <= took) {
    CHECK_RC(rc, NVM_ECRASHED);
  } else {
    CHECK_OK(rc);
    CHECK(memcmp(nvm_region_base(r) + NVM_DATA_OFFSET, nvm_region_view(r) + NVM_DATA_OFFSET,
                 nvm_region_size(r) - NVM_DATA_OFFSET) == 0);
  }
  for (int i = 0; i < 3; i++) tb_free(&b[i]);
  tu_close(r);
  return took;
}

static void crash_at_every_barrier(void) {
  char prefix[600];
  snprintf(prefix, sizeof prefix, "%s.crash", work_path);
  uint64_t barriers = staged_sync(0, prefix);
  CHECK(state_of(work_path) == 3);
  unsigned seen = 0;
  for (uint64_t k = 1; k <= barriers; k++) {
    staged_sync(k, prefix);
    const char *ends[2] = {".lost", ".present"};
    for (int e = 0; e < 2; e++) {
      char img[700];
      snprintf(img, sizeof img, "%s%s", prefix, ends[e]);
      int s = state_of(img);
      printf("  barrier %llu%s: state %d\n", (unsigned long long)k, ends[e], s);
      CHECK(s >= 0);
      seen |= 1u << s;
    }
  }
  CHECK(seen == 0xfu); /* three groups: each end reached, nothing in between */
}

/* The big batch's commit barrier in capture mode (one barrier: nothing it writes is LIVE in its
 * FRESH data): the image with every store of it present recovers to after the big batch; the
 * image with every store present but one chain page, or but the slot's header, as it was before
 * (the crash came before that page or that line reached the media) recovers to before it: a
 * chained record is whole or torn, never replayed in part. (Its barrier flushes more lines than
 * the hook makes line images of, so the pages are varied here.) */
static void page_images(void) {
  tu_copy(base_path, work_path);
  nvm_region *r = tu_open(work_path);
  tu_batch s, b;
  small_batch(&s, 7);
  big_batch(&b, 50000);
  CHECK_OK(nvm_apply(r, s.buf, s.len));
  char cap[600];
  snprintf(cap, sizeof cap, "%s.cap", work_path);
  CHECK_OK(nvm_debug_capture(r, cap, NULL));
  CHECK_OK(nvm_apply(r, b.buf, b.len));
  uint64_t n = 0;
  CHECK_OK(nvm_debug_capture(r, NULL, &n));
  CHECK(n == 1);
  tb_free(&s);
  tb_free(&b);
  tu_close(r);
  char lost[700], present[700], img[700];
  snprintf(lost, sizeof lost, "%s.1.lost", cap);
  snprintf(present, sizeof present, "%s.1.present", cap);
  snprintf(img, sizeof img, "%s.1.varied", cap);
  size_t nl, np;
  uint8_t *l = tu_read_file(lost, &nl), *p = tu_read_file(present, &np); /* before recovery */
  CHECK(nl == np);
  uint8_t *present0 = malloc(np);
  memcpy(present0, p, np);
  CHECK(state_of(lost) == 1 && state_of(present) == 2); /* recovers them in place */
  int chain = 0;
  for (uint64_t off = NVM_DATA_OFFSET; off < np; off += NVM_PAGE_SIZE) {
    uint64_t w;
    memcpy(&w, p + off, 8);
    if (w != NVM_STATE_WORD(NVM_KIND_REDO_CHAIN, NVM_STATE_INVALID) ||
        memcmp(l + off, p + off, NVM_PAGE_SIZE) == 0)
      continue;
    memcpy(p + off, l + off, NVM_PAGE_SIZE); /* this page not on the media */
    tu_write_file(img, p, np);
    int st = state_of(img);
    if (st != 1) printf("  chain page at %llu missing: state %d\n", (unsigned long long)off, st);
    CHECK(st == 1);
    memcpy(p + off, present0 + off, NVM_PAGE_SIZE); /* the page there again */
    chain++;
  }
  uint64_t seq = 0;
  for (int k = 0; k < 2; k++) { /* the slot holding the chained record */
    uint64_t slot = k ? NVM_REDO_SLOT1 : NVM_REDO_SLOT0, sq;
    uint32_t span;
    memcpy(&sq, p + slot + NVM_REDO_SEQ, 8);
    memcpy(&span, p + slot + NVM_REDO_SPAN, 4);
    if (span != 3 || sq <= seq) continue;
    seq = sq;
    memcpy(p + slot, l + slot, NVM_REDO_PAYLOAD + NVM_REDO_CHAIN_HEAD);
    tu_write_file(img, p, np);
    CHECK(state_of(img) == 1);
    memcpy(p + slot, present0 + slot, NVM_REDO_PAYLOAD + NVM_REDO_CHAIN_HEAD);
  }
  printf("  %d chain pages, each missing alone: before the big batch; all there: after it\n",
         chain);
  CHECK(chain > 100 && seq > 0);
  tu_write_file(img, p, np); /* and the whole image once more: after the big batch */
  CHECK(state_of(img) == 2);
  free(l);
  free(p);
  free(present0);
}

/* The chain pages go back to the allocator two records after theirs (rule 3), not before: a
 * chained record right after another takes new pages above the high-water mark, one two
 * records later takes the first one's pages again. A read-only open checks a valid chained
 * record; recovery replays it. */
static void pages_come_back(void) {
  tu_copy(base_path, work_path);
  nvm_region *r = tu_open(work_path);
  nvm_usage u0, u1, u2, u3;
  nvm_region_usage(r, &u0);
  tu_batch b, s;
  big_batch(&b, 50000);
  uint64_t seq0 = tu_counter(r, NVM_SB_COMMIT_SEQ);
  CHECK_OK(nvm_apply(r, b.buf, b.len));
  CHECK(tu_counter(r, NVM_SB_COMMIT_SEQ) == seq0 + 1); /* one record */
  uint64_t slot = (seq0 + 1) % 2 ? NVM_REDO_SLOT1 : NVM_REDO_SLOT0;
  CHECK((uint32_t)tu_ld64(r, slot + NVM_REDO_SPAN) == 3); /* chained */
  nvm_region_usage(r, &u1);
  uint64_t chain = u1.high_water - u0.high_water;
  printf("  the record took %llu chain pages\n", (unsigned long long)chain);
  CHECK(chain > 100 && chain < 200 && u1.pages_free == u0.pages_free);
  big_batch(&b, 51000);
  CHECK_OK(nvm_apply(r, b.buf, b.len)); /* the first one's pages are held back */
  nvm_region_usage(r, &u2);
  CHECK(u2.high_water == u1.high_water + chain);
  small_batch(&s, 7);
  CHECK_OK(nvm_apply(r, s.buf, s.len));
  small_batch(&s, 8);
  CHECK_OK(nvm_apply(r, s.buf, s.len));
  big_batch(&b, 52000);
  CHECK_OK(nvm_apply(r, b.buf, b.len)); /* both earlier chains are back: no new page */
  nvm_region_usage(r, &u3);
  CHECK(u3.high_water == u2.high_water && u3.pages_free == u0.pages_free);
  /* the chained record again, then a crash right after its commit point (its in-place bytes
   * not durable): a read-only open accepts the record, recovery replays it */
  big_batch(&b, 60000);
  char prefix[600];
  snprintf(prefix, sizeof prefix, "%s.ro", work_path);
  CHECK_OK(nvm_debug_crash_at(r, 2, prefix)); /* the commit's barrier, then the next record's */
  small_batch(&s, 9);
  CHECK_OK(nvm_apply(r, b.buf, b.len));
  CHECK_RC(nvm_apply(r, s.buf, s.len), NVM_ECRASHED);
  tu_close(r);
  char img[700];
  snprintf(img, sizeof img, "%s.lost", prefix);
  nvm_region *ro = NULL;
  CHECK_OK(nvm_region_open(img, NVM_MODE_AUTO, NVM_OPEN_READONLY, &ro));
  nvm_region_close(ro);
  r = tu_open(img);
  nvm_recovery rec;
  nvm_recovery_report(r, &rec);
  CHECK(rec.undo_rolled_back == 1 && rec.undo_entries > 800);
  CHECK(tu_ld64(r, files[NFILES - 1] + NVM_IN_MTIME) == 60000 + NFILES - 1);
  tu_close(r);
  tb_free(&b);
  tb_free(&s);
}

/* A region without the pages a chained record needs refuses the batch when it is staged (the
 * NameNode's memory is not changed yet), and the working copy is unchanged. */
static void full_region_refuses_at_staging(void) {
  tu_copy(base_path, work_path);
  nvm_region *r = tu_open(work_path);
  nvm_usage u;
  nvm_region_usage(r, &u);
  uint64_t keep = 50, n = u.pages_free - keep, *offs = malloc(n * sizeof *offs);
  CHECK_OK(nvm_reserve_pages(r, (uint32_t)n, offs));
  uint8_t before[NVM_PAGE_SIZE];
  memcpy(before, nvm_region_view(r) + files[0], NVM_PAGE_SIZE);
  tu_batch b;
  big_batch(&b, 50000);
  uint64_t seq;
  CHECK_RC(nvm_stage(r, b.buf, b.len, &seq), NVM_EFULL);
  CHECK_MSG("pages for its redo record");
  CHECK(memcmp(before, nvm_region_view(r) + files[0], NVM_PAGE_SIZE) == 0);
  /* with the pages released it goes through */
  CHECK_OK(nvm_release_pages(r, (uint32_t)n, offs));
  CHECK_OK(nvm_apply(r, b.buf, b.len));
  /* a reservation may not take pages promised to a staged chained record */
  nvm_region_usage(r, &u);
  n = u.pages_free - keep;
  CHECK_OK(nvm_reserve_pages(r, (uint32_t)n, offs));
  CHECK_OK(nvm_release_pages(r, (uint32_t)n, offs));
  big_batch(&b, 70000);
  CHECK_OK(nvm_stage(r, b.buf, b.len, &seq));
  nvm_region_usage(r, &u);
  CHECK_RC(nvm_reserve_pages(r, (uint32_t)(u.pages_free - keep), offs), NVM_EFULL);
  CHECK_MSG("promised to chained redo records");
  CHECK_OK(nvm_sync(r, NULL));
  CHECK(tu_ld64(r, files[0] + NVM_IN_MTIME) == 70000);
  free(offs);
  tb_free(&b);
  tu_close(r);
  printf("  refused at staging with %llu pages left\n", (unsigned long long)keep);
}

int main(void) {
  base_path = tu_path("chain-base");
  work_path = tu_path("chain-work");
  nvm_region *r = tu_create(base_path, NVM_MIN_REGION_SIZE);
  root = tu_make_dir(r, NVM_ROOT_INODE_ID, 0, 0, "");
  tu_set_root(r, root);
  for (int i = 0; i < NFILES; i++) {
    char name[16];
    snprintf(name, sizeof name, "f%d", i);
    tu_inode fi = {NVM_KIND_FILE,
                   NVM_ROOT_INODE_ID + 1 + (uint64_t)i,
                   root,
                   NVM_ROOT_INODE_ID,
                   name,
                   0,
                   0,
                   0,
                   0,
                   1};
    files[i] = tu_make_inode(r, &fi);
    mtime0[i] = tu_ld64(r, files[i] + NVM_IN_MTIME);
    atime0[i] = tu_ld64(r, files[i] + NVM_IN_ATIME);
  }
  root_mtime0 = tu_ld64(r, root + NVM_IN_MTIME);
  tu_close(r);
  printf("small, big, small: a crash at every barrier of one sync\n");
  crash_at_every_barrier();
  printf("the big batch's barrier, a chain page or the slot missing\n");
  page_images();
  printf("chain pages come back; a replayed chained record\n");
  pages_come_back();
  printf("a full region\n");
  full_region_refuses_at_staging();
  printf("redo chain ok\n");
  return 0;
}
