/* Group commit (region-format.md §7.4): staged batches reach the media only through
 * nvm_sync; a crash at any barrier of a sync leaves exactly the state after some
 * group's last batch (a prefix of the staged batches, never a gap); a group ends before
 * a batch whose FRESH data would land on a page an earlier batch of the group changed
 * in place; a handle whose commit failed refuses to stage. */
#include <stdio.h>

#include "test_util.h"

#define MAXB 64

static uint64_t root, dir_a, dir_b, file_f;
static const char *base_path, *work_path;

/* The pages every run reserves first, in the same order (allocation is deterministic
 * for a given image), so that the batches target the same pages in every run. */
static uint64_t page_g, page_h, page_p;

static void reserve_all(nvm_region *r) {
  CHECK_OK(nvm_reserve_pages(r, 1, &page_g));
  CHECK_OK(nvm_reserve_pages(r, 1, &page_h));
  CHECK_OK(nvm_reserve_pages(r, 1, &page_p));
}

/* A new file page as the NameNode writes one: PENDING, then LIVE in place (or, with
 * `live`, written LIVE at once: a batch that commits itself). */
static void fresh_file_as(tu_batch *b, uint64_t page, uint64_t id, uint64_t parent, uint64_t pid,
                          const char *name, int live) {
  tu_inode in = {NVM_KIND_FILE, id, parent, pid, name, 0, 0, 0, 0, 1};
  uint8_t img[NVM_PAGE_SIZE];
  tu_inode_image(img, &in, live ? NVM_STATE_LIVE : NVM_STATE_PENDING, 0, 0);
  tb_add(b, NVM_OP_FRESH, NVM_F_PAGE, page, img, NVM_PAGE_SIZE);
  if (!live)
    tb_add64(b, NVM_F_STATE, page + NVM_PG_STATE, NVM_STATE_WORD(NVM_KIND_FILE, NVM_STATE_LIVE));
}

static void fresh_file(tu_batch *b, uint64_t page, uint64_t id, uint64_t parent, uint64_t pid,
                       const char *name) {
  fresh_file_as(b, page, id, parent, pid, name, 0);
}

/* Four batches of different kinds: a create, a rename, a create, a delete. */
static int small_batches(tu_batch *bs) {
  for (int i = 0; i < 4; i++) tb_init(&bs[i]);
  fresh_file(&bs[0], page_g, 100, dir_a, NVM_ROOT_INODE_ID + 1, "g");
  tb_add64(&bs[0], NVM_F_MTIME, dir_a + NVM_IN_MTIME, 5001);
  tb_add64(&bs[0], NVM_F_COUNTER, NVM_SB_LAST_INODE_ID, 100);
  static const char newname[16] = "renamed-file";
  tb_add(&bs[1], NVM_OP_INPLACE, NVM_F_NAME, file_f + NVM_IN_NAME_INLINE, newname, 12);
  tb_add64(&bs[1], NVM_F_NAME, file_f + NVM_IN_NAME_LEN, 12);
  tb_add64(&bs[1], NVM_F_PARENT, file_f + NVM_IN_PARENT_PAGE, dir_b);
  tb_add64(&bs[1], NVM_F_PARENT, file_f + NVM_IN_PARENT_ID, NVM_ROOT_INODE_ID + 2);
  tb_add64(&bs[1], NVM_F_MTIME, dir_a + NVM_IN_MTIME, 5002);
  tb_add64(&bs[1], NVM_F_MTIME, dir_b + NVM_IN_MTIME, 5003);
  tb_add64(&bs[1], NVM_F_COUNTER, NVM_SB_LAST_TXID, 99);
  fresh_file(&bs[2], page_h, 101, dir_b, NVM_ROOT_INODE_ID + 2, "h");
  tb_add64(&bs[2], NVM_F_COUNTER, NVM_SB_LAST_INODE_ID, 101);
  tb_add64(&bs[2], NVM_F_MTIME, dir_b + NVM_IN_MTIME, 5004);
  /* a delete as the NameNode makes one: the page INVALID in place, then freed */
  tb_add64(&bs[3], NVM_F_STATE, page_g + NVM_PG_STATE,
           NVM_STATE_WORD(NVM_KIND_FILE, NVM_STATE_INVALID));
  tb_add(&bs[3], NVM_OP_FREE, NVM_F_PAGE, page_g, NULL, 0);
  tb_add64(&bs[3], NVM_F_MTIME, dir_a + NVM_IN_MTIME, 5005);
  return 4;
}

/* Many renames back and forth: their records do not fit one slot. */
static int many_batches(tu_batch *bs, int n) {
  for (int i = 0; i < n; i++) {
    tb_init(&bs[i]);
    uint64_t to = i % 2 ? dir_a : dir_b;
    tb_add64(&bs[i], NVM_F_PARENT, file_f + NVM_IN_PARENT_PAGE, to);
    tb_add64(&bs[i], NVM_F_PARENT, file_f + NVM_IN_PARENT_ID, NVM_ROOT_INODE_ID + (i % 2 ? 1 : 2));
    for (int k = 0; k < 8; k++) tb_add64(&bs[i], NVM_F_MTIME, to + NVM_IN_MTIME, 6000 + i);
    tb_add64(&bs[i], NVM_F_COUNTER, NVM_SB_LAST_TXID, 1000 + (uint64_t)i);
  }
  return n;
}

/* A rename, a batch writing an inode LIVE in its FRESH data (it commits itself: a group
 * alone), another in-place change. */
static int self_committing_batches(tu_batch *bs, int n) {
  (void)n;
  for (int i = 0; i < 3; i++) tb_init(&bs[i]);
  tb_add64(&bs[0], NVM_F_PARENT, file_f + NVM_IN_PARENT_PAGE, dir_b);
  tb_add64(&bs[0], NVM_F_PARENT, file_f + NVM_IN_PARENT_ID, NVM_ROOT_INODE_ID + 2);
  fresh_file_as(&bs[1], page_h, 101, dir_b, NVM_ROOT_INODE_ID + 2, "h", 1);
  tb_add64(&bs[2], NVM_F_MTIME, dir_a + NVM_IN_MTIME, 7001);
  tb_add64(&bs[2], NVM_F_MTIME, dir_b + NVM_IN_MTIME, 7002);
  return 3;
}

static void free_batches(tu_batch *bs, int n) {
  for (int i = 0; i < n; i++) tb_free(&bs[i]);
}

/* Two images hold the same namespace: the same LIVE pages byte for byte, the same
 * inode id and txid counters (uncommitted FRESH residue and the redo slots aside). */
static int same_state(const char *x, const char *y) {
  nvm_region *a = tu_open(x), *b = tu_open(y);
  const uint8_t *pa = nvm_region_base(a), *pb = nvm_region_base(b);
  int same = tu_counter(a, NVM_SB_LAST_INODE_ID) == tu_counter(b, NVM_SB_LAST_INODE_ID) &&
             tu_counter(a, NVM_SB_LAST_TXID) == tu_counter(b, NVM_SB_LAST_TXID);
  for (uint64_t off = NVM_DATA_OFFSET; same && off < nvm_region_size(a); off += NVM_PAGE_SIZE) {
    uint64_t wa, wb;
    memcpy(&wa, pa + off, 8);
    memcpy(&wb, pb + off, 8);
    int la = NVM_STATE_OF(wa) == NVM_STATE_LIVE, lb = NVM_STATE_OF(wb) == NVM_STATE_LIVE;
    same = la == lb && (!la || memcmp(pa + off, pb + off, NVM_PAGE_SIZE) == 0);
  }
  tu_close(a);
  tu_close(b);
  return same;
}

/* states[j]: the image after applying batches 1..j one at a time (nvm_apply). */
static void reference_states(int (*make)(tu_batch *, int), int n, char states[][256]) {
  for (int j = 0; j <= n; j++) {
    snprintf(states[j], 256, "%s.s%d", work_path, j);
    tu_copy(base_path, states[j]);
    nvm_region *r = tu_open(states[j]);
    reserve_all(r);
    tu_batch bs[MAXB];
    int k = make(bs, n);
    for (int i = 0; i < j; i++) CHECK_OK(nvm_apply(r, bs[i].buf, bs[i].len));
    free_batches(bs, k);
    tu_close(r);
  }
}

static int state_of(const char *img, char states[][256], int n) {
  for (int j = 0; j <= n; j++)
    if (same_state(img, states[j])) return j;
  return -1;
}

static int wrap_small(tu_batch *bs, int n) {
  (void)n;
  return small_batches(bs);
}

/* Stages all n batches, syncs with a crash at barrier k (0: none); returns the
 * barriers the sync took. */
static uint64_t staged_sync(int (*make)(tu_batch *, int), int n, uint64_t k, const char *prefix) {
  tu_copy(base_path, work_path);
  nvm_region *r = tu_open(work_path);
  reserve_all(r);
  tu_batch bs[MAXB];
  make(bs, n);
  size_t before_len;
  uint8_t *before = tu_read_file(work_path, &before_len);
  for (int i = 0; i < n; i++) {
    uint64_t seq = 0;
    CHECK_OK(nvm_stage(r, bs[i].buf, bs[i].len, &seq));
    CHECK(seq == (uint64_t)i + 1);
  }
  /* staging wrote nothing to the region file */
  size_t after_len;
  uint8_t *after = tu_read_file(work_path, &after_len);
  CHECK(before_len == after_len && memcmp(before, after, before_len) == 0);
  free(before);
  free(after);
  CHECK(nvm_durable_seq(r) == 0);
  uint64_t b0 = nvm_barrier_count(r), durable = 0;
  if (k) CHECK_OK(nvm_debug_crash_at(r, k, prefix));
  int rc = nvm_sync(r, &durable);
  uint64_t took = nvm_barrier_count(r) - b0;
  if (k && k <= took) {
    CHECK_RC(rc, NVM_ECRASHED);
    uint64_t seq;
    CHECK_RC(nvm_stage(r, bs[0].buf, bs[0].len, &seq), NVM_ECRASHED);
  } else {
    CHECK_OK(rc);
    CHECK(durable == (uint64_t)n && nvm_durable_seq(r) == (uint64_t)n);
    /* committed: the media and the working copy agree on every data page */
    CHECK(memcmp(nvm_region_base(r) + NVM_DATA_OFFSET, nvm_region_view(r) + NVM_DATA_OFFSET,
                 nvm_region_size(r) - NVM_DATA_OFFSET) == 0);
  }
  free_batches(bs, n);
  tu_close(r);
  return took;
}

/* Crash at every barrier of one sync of n staged batches: each image (lost and present)
 * recovers to a state in `allowed`; returns a bit per state seen. */
static unsigned sweep(int (*make)(tu_batch *, int), int n, char states[][256], const int *allowed,
                      int nallowed) {
  char prefix[512];
  snprintf(prefix, sizeof prefix, "%s.crash", work_path);
  uint64_t barriers = staged_sync(make, n, 0, prefix);
  CHECK(state_of(work_path, states, n) == n);
  unsigned seen = 0;
  for (uint64_t k = 1; k <= barriers; k++) {
    staged_sync(make, n, k, prefix);
    const char *ends[2] = {".lost", ".present"};
    for (int e = 0; e < 2; e++) {
      char img[600];
      snprintf(img, sizeof img, "%s%s", prefix, ends[e]);
      int s = state_of(img, states, n);
      int ok = 0;
      for (int i = 0; i < nallowed; i++) ok |= s == allowed[i];
      printf("  barrier %llu%s: state after batch %d\n", (unsigned long long)k, ends[e], s);
      CHECK(ok);
      seen |= 1u << (s < 32 ? s : 31);
    }
  }
  return seen;
}

/* nvm_sync_upto commits a prefix and leaves the rest staged. */
static void sync_upto_commits_a_prefix(char states[][256]) {
  tu_copy(base_path, work_path);
  nvm_region *r = tu_open(work_path);
  reserve_all(r);
  tu_batch bs[MAXB];
  small_batches(bs);
  uint64_t seq, durable = 0;
  for (int i = 0; i < 4; i++) CHECK_OK(nvm_stage(r, bs[i].buf, bs[i].len, &seq));
  CHECK_OK(nvm_sync_upto(r, 2, &durable));
  CHECK(durable == 2 && nvm_durable_seq(r) == 2);
  CHECK_OK(nvm_sync_upto(r, 1, &durable)); /* already there: nothing to do */
  CHECK(durable == 2);
  char img[600];
  snprintf(img, sizeof img, "%s.prefix", work_path);
  tu_write_file(img, nvm_region_base(r), nvm_region_size(r));
  CHECK(state_of(img, states, 4) == 2);
  CHECK_OK(nvm_sync(r, &durable));
  CHECK(durable == 4);
  free_batches(bs, 4);
  tu_close(r);
  CHECK(state_of(work_path, states, 4) == 4);
}

/* A rename, then a create (FRESH page made LIVE in place, the parent's mtime, a counter). */
static int rename_then_create(tu_batch *bs, int n) {
  (void)n;
  for (int i = 0; i < 2; i++) tb_init(&bs[i]);
  tb_add64(&bs[0], NVM_F_PARENT, file_f + NVM_IN_PARENT_PAGE, dir_b);
  tb_add64(&bs[0], NVM_F_PARENT, file_f + NVM_IN_PARENT_ID, NVM_ROOT_INODE_ID + 2);
  tb_add64(&bs[0], NVM_F_MTIME, dir_a + NVM_IN_MTIME, 5002);
  fresh_file(&bs[1], page_g, 100, dir_a, NVM_ROOT_INODE_ID + 1, "g");
  tb_add64(&bs[1], NVM_F_MTIME, dir_a + NVM_IN_MTIME, 5001);
  tb_add64(&bs[1], NVM_F_COUNTER, NVM_SB_LAST_INODE_ID, 100);
  return 2;
}

/* The create's barrier in capture mode, right after the rename's commit: the images a crash
 * there can leave, with any one flushed cache line alone or missing (the rename's in-place
 * bytes, the create's FRESH page, its record), each recover to the state after the rename
 * or after the create. An image where the record is whole but a line of the FRESH page is
 * missing is the create not committed (its seal does not match), not a refused region. */
static void line_images_of_a_create(char states[][256]) {
  reference_states(rename_then_create, 2, states);
  tu_copy(base_path, work_path);
  nvm_region *r = tu_open(work_path);
  reserve_all(r);
  tu_batch bs[MAXB];
  rename_then_create(bs, 2);
  CHECK_OK(nvm_apply(r, bs[0].buf, bs[0].len));
  char cap[600];
  snprintf(cap, sizeof cap, "%s.cap", work_path);
  CHECK_OK(nvm_debug_capture(r, cap, NULL));
  CHECK_OK(nvm_apply(r, bs[1].buf, bs[1].len));
  uint64_t n = 0;
  CHECK_OK(nvm_debug_capture(r, NULL, &n));
  CHECK(n == 1); /* the create: one barrier */
  free_batches(bs, 2);
  tu_close(r);
  int images = 0, seen[3] = {0, 0, 0};
  const char *kinds[2] = {"only", "missing"};
  for (int j = -1;; j++) {
    char img[700];
    int found = 0;
    for (int k = 0; k < 2; k++) {
      if (j < 0)
        snprintf(img, sizeof img, "%s.1.%s", cap, k ? "present" : "lost");
      else
        snprintf(img, sizeof img, "%s.1.line%d-%s", cap, j, kinds[k]);
      FILE *f = fopen(img, "r");
      if (!f) continue;
      fclose(f);
      found = 1;
      int st = state_of(img, states, 2);
      CHECK(st == 1 || st == 2);
      seen[st]++;
      images++;
    }
    if (j >= 0 && !found) break;
  }
  printf("  %d images of a create's barrier: %d after the rename, %d after the create\n", images,
         seen[1], seen[2]);
  CHECK(images > 4 && seen[1] > 0 && seen[2] > 0);
}

static void fresh_after_inplace_splits(void) {
  tu_copy(base_path, work_path);
  nvm_region *r = tu_open(work_path);
  reserve_all(r);
  uint64_t seq;
  tu_batch b1, b2;
  tb_init(&b1);
  tb_init(&b2);
  tb_add64(&b1, NVM_F_MTIME, page_p + NVM_IN_MTIME, 777); /* a reserved page, in place */
  tb_add64(&b1, NVM_F_COUNTER, NVM_SB_LAST_TXID, 5);
  fresh_file(&b2, page_p, 102, dir_a, NVM_ROOT_INODE_ID + 1, "p"); /* then FRESH over it */
  CHECK_OK(nvm_stage(r, b1.buf, b1.len, &seq));
  CHECK_OK(nvm_stage(r, b2.buf, b2.len, &seq));
  uint8_t want[NVM_PAGE_SIZE];
  memcpy(want, nvm_region_view(r) + page_p, NVM_PAGE_SIZE);
  CHECK(tu_ld64(r, page_p + NVM_IN_MTIME) == 0); /* not on the media yet */
  CHECK_OK(nvm_sync(r, NULL));
  /* as if applied one after the other: the FRESH page, not the earlier in-place word */
  CHECK(memcmp(nvm_region_base(r) + page_p, want, NVM_PAGE_SIZE) == 0);
  CHECK(tu_ld64(r, page_p + NVM_IN_MTIME) != 777);
  tb_free(&b1);
  tb_free(&b2);
  tu_close(r);
}

/* Across groups: an in-place word on a reserved page committed in one sync, FRESH data on that
 * page in the next. Record 1 would replay the word over the FRESH page if it were still valid
 * when record 2 is, so the second commit empties the slots first (region-format.md §7.4). A
 * crash at the barrier of a third commit (the lost image: record 2 durable, its in-place bytes
 * not) recovers the FRESH page whole. */
static void fresh_after_inplace_across_groups(void) {
  tu_copy(base_path, work_path);
  nvm_region *r = tu_open(work_path);
  reserve_all(r);
  tu_batch b1, b2, b3;
  tb_init(&b1);
  tb_init(&b2);
  tb_init(&b3);
  tb_add64(&b1, NVM_F_MTIME, page_p + NVM_IN_MTIME, 777); /* a reserved page, in place */
  tb_add64(&b1, NVM_F_COUNTER, NVM_SB_LAST_TXID, 5);
  fresh_file(&b2, page_p, 102, dir_a, NVM_ROOT_INODE_ID + 1, "p"); /* FRESH over it, next group */
  tb_add64(&b3, NVM_F_COUNTER, NVM_SB_LAST_TXID, 6);
  CHECK_OK(nvm_apply(r, b1.buf, b1.len));
  uint64_t b0 = nvm_barrier_count(r);
  CHECK_OK(nvm_apply(r, b2.buf, b2.len));
  CHECK(nvm_barrier_count(r) - b0 == 3); /* the settle's two, the record's one */
  uint8_t want[NVM_PAGE_SIZE];
  memcpy(want, nvm_region_base(r) + page_p, NVM_PAGE_SIZE);
  CHECK(tu_ld64(r, page_p + NVM_IN_MTIME) != 777);
  char prefix[600];
  snprintf(prefix, sizeof prefix, "%s.across", work_path);
  CHECK_OK(nvm_debug_crash_at(r, 1, prefix));
  CHECK_RC(nvm_apply(r, b3.buf, b3.len), NVM_ECRASHED);
  tu_close(r);
  char img[700];
  snprintf(img, sizeof img, "%s.lost", prefix);
  r = tu_open(img);
  nvm_recovery rec;
  nvm_recovery_report(r, &rec);
  CHECK(rec.undo_rolled_back == 1); /* record 2 replayed */
  CHECK(memcmp(nvm_region_base(r) + page_p, want, NVM_PAGE_SIZE) == 0);
  tu_close(r);
  printf(
      "  FRESH data over the last group's in-place word: the slots emptied first, the page "
      "whole\n");
  tb_free(&b1);
  tb_free(&b2);
  tb_free(&b3);
}

int main(void) {
  base_path = tu_path("group-base");
  work_path = tu_path("group-work");
  nvm_region *r = tu_create(base_path, NVM_MIN_REGION_SIZE);
  root = tu_make_dir(r, NVM_ROOT_INODE_ID, 0, 0, "");
  tu_set_root(r, root);
  dir_a = tu_make_dir(r, NVM_ROOT_INODE_ID + 1, root, NVM_ROOT_INODE_ID, "a");
  dir_b = tu_make_dir(r, NVM_ROOT_INODE_ID + 2, root, NVM_ROOT_INODE_ID, "b");
  tu_inode fi = {
      NVM_KIND_FILE, NVM_ROOT_INODE_ID + 3, dir_a, NVM_ROOT_INODE_ID + 1, "f", 0, 0, 0, 0, 1};
  file_f = tu_make_inode(r, &fi);
  tu_close(r);

  static char states[MAXB + 1][256];
  printf("four batches of every kind, one group:\n");
  reference_states(wrap_small, 4, states);
  int one_group[2] = {0, 4};
  unsigned seen = sweep(wrap_small, 4, states, one_group, 2);
  CHECK(seen == (1u << 0 | 1u << 4));
  sync_upto_commits_a_prefix(states);

  int n = 40;
  reference_states(many_batches, n, states);
  /* where the first group ends: the commit sequence tells how many groups there were */
  tu_copy(base_path, work_path);
  r = tu_open(work_path);
  uint64_t seq0 = tu_counter(r, NVM_SB_COMMIT_SEQ);
  tu_close(r);
  staged_sync(many_batches, n, 0, NULL);
  r = tu_open(work_path);
  uint64_t groups = tu_counter(r, NVM_SB_COMMIT_SEQ) - seq0;
  tu_close(r);
  printf("%d renames: %llu groups\n", n, (unsigned long long)groups);
  CHECK(groups >= 2 && groups <= 4); /* cut where the record would outgrow a slot */
  /* every state is allowed to the sweep; what it reaches must be one per group end and the
   * state before the batches: a crash at group g's barrier loses it or keeps it whole */
  int allowed[MAXB + 1];
  for (int j = 0; j <= n; j++) allowed[j] = j;
  seen = sweep(many_batches, n, states, allowed, n + 1);
  int distinct = 0;
  for (int j = 0; j < 32; j++) distinct += (seen >> j) & 1;
  printf("states reached:");
  for (int j = 0; j < 32; j++)
    if (seen & (1u << j)) printf(" %d", j == 31 ? n : j);
  printf("\n");
  CHECK(seen & 1u);                   /* before everything */
  CHECK(distinct == (int)groups + 1); /* each group's end, nothing in between */
  CHECK((seen >> 31) & 1u);           /* n (>= 31) lands in the last bit */

  printf("a batch that commits itself:\n");
  reference_states(self_committing_batches, 3, states);
  int any[4] = {0, 1, 2, 3};
  seen = sweep(self_committing_batches, 3, states, any, 4);
  CHECK(seen == 0xfu); /* three groups: each boundary reached, nothing else */

  printf("the line images of a create's barrier:\n");
  line_images_of_a_create(states);

  fresh_after_inplace_splits();
  fresh_after_inplace_across_groups();
  printf("group commit ok\n");
  return 0;
}
