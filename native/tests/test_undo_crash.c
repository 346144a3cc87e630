/* A rename batch (name bytes, name length, parent page/id, two parent mtimes,
 * a counter) crashed at every barrier: both images recover to exactly the
 * before-state or exactly the after-state, and the undo record is empty. */
#include "test_util.h"

#include <stdio.h>

#define NF 7
static uint64_t field_off[NF];
static uint32_t field_len[NF];
static uint8_t before[NF][16], after[NF][16];

static void build_batch(tu_batch *b, uint64_t f, uint64_t a, uint64_t bdir) {
  static const char newname[16] = "renamed-file";
  uint64_t vals[6] = {12, bdir, NVM_ROOT_INODE_ID + 2, 5001, 5002, 99};
  uint64_t offs[6] = {f + NVM_IN_NAME_LEN, f + NVM_IN_PARENT_PAGE, f + NVM_IN_PARENT_ID,
                      a + NVM_IN_MTIME,    bdir + NVM_IN_MTIME,    NVM_SB_LAST_TXID};
  uint32_t fields[6] = {NVM_F_NAME,  NVM_F_PARENT, NVM_F_PARENT,
                        NVM_F_MTIME, NVM_F_MTIME,  NVM_F_COUNTER};
  field_off[0] = f + NVM_IN_NAME_INLINE;
  field_len[0] = 12;
  memcpy(after[0], newname, 12);
  tb_add(b, NVM_OP_INPLACE, NVM_F_NAME, field_off[0], newname, 12);
  for (int i = 0; i < 6; i++) {
    field_off[i + 1] = offs[i];
    field_len[i + 1] = 8;
    memcpy(after[i + 1], &vals[i], 8);
    tb_add64(b, fields[i], offs[i], vals[i]);
  }
}

/* 0 = before, 1 = after, -1 = a mix */
static int classify(const nvm_region *r) {
  int nb = 0, na = 0;
  for (int i = 0; i < NF; i++) {
    const uint8_t *cur = nvm_region_base(r) + field_off[i];
    uint64_t counter;
    if (field_off[i] < NVM_DATA_OFFSET) { /* a counter: its value, without the check bits */
      counter = tu_counter(r, field_off[i]);
      cur = (const uint8_t *)&counter;
    }
    nb += memcmp(cur, before[i], field_len[i]) == 0;
    na += memcmp(cur, after[i], field_len[i]) == 0;
  }
  return nb == NF ? 0 : na == NF ? 1 : -1;
}

static int check_image(const char *path, uint64_t seq0) {
  nvm_region *r = tu_open(path);
  int state = classify(r);
  CHECK(state >= 0);
  CHECK(tu_ld64(r, NVM_UNDO_STATE) == 0);
  CHECK(tu_counter(r, NVM_SB_COMMIT_SEQ) == seq0 + (uint64_t)state);
  nvm_recovery rec;
  nvm_recovery_report(r, &rec);
  CHECK(rec.inodes_live == 4 && rec.orphans_reclaimed == 0);
  tu_close(r);
  /* recovery left it clean: a second open rolls nothing back */
  r = tu_open(path);
  nvm_recovery_report(r, &rec);
  CHECK(rec.undo_rolled_back == 0 && classify(r) == state);
  tu_close(r);
  return state;
}

int main(void) {
  const char *base = tu_path("undo-base"), *work = tu_path("undo-work");
  const char *lost = tu_path("undo-lost"), *present = tu_path("undo-present");
  nvm_region *r = tu_create(base, NVM_MIN_REGION_SIZE);
  uint64_t root = tu_make_dir(r, NVM_ROOT_INODE_ID, 0, 0, "");
  tu_set_root(r, root);
  uint64_t a = tu_make_dir(r, NVM_ROOT_INODE_ID + 1, root, NVM_ROOT_INODE_ID, "a");
  uint64_t bdir = tu_make_dir(r, NVM_ROOT_INODE_ID + 2, root, NVM_ROOT_INODE_ID, "b");
  tu_inode fi = {
      NVM_KIND_FILE, NVM_ROOT_INODE_ID + 3, a, NVM_ROOT_INODE_ID + 1, "f", 0, 0, 0, 0, 2};
  uint64_t f = tu_make_inode(r, &fi);
  uint64_t seq0 = tu_counter(r, NVM_SB_COMMIT_SEQ);
  tu_batch b;
  tb_init(&b);
  build_batch(&b, f, a, bdir);
  tb_free(&b);
  for (int i = 0; i < NF; i++) memcpy(before[i], nvm_region_base(r) + field_off[i], field_len[i]);
  uint64_t txid = tu_counter(r, NVM_SB_LAST_TXID);
  memcpy(before[NF - 1], &txid, 8);
  tu_close(r);

  int want_present[5] = {0, 0, 0, 0, 1}; /* only barrier 4 (UNDO_STATE := 0) issued => after */
  char prefix[4200];
  snprintf(prefix, sizeof prefix, "%s", work);
  for (int k = 1; k <= 4; k++) {
    tu_copy(base, work);
    r = tu_open(work);
    tb_init(&b);
    build_batch(&b, f, a, bdir);
    CHECK_OK(nvm_debug_crash_at(r, (uint64_t)k, prefix));
    CHECK_RC(tb_apply(r, &b), NVM_ECRASHED);
    CHECK(nvm_debug_crashed(r));
    build_batch(&b, f, a, bdir);
    CHECK_RC(tb_apply(r, &b), NVM_ECRASHED);
    uint64_t off;
    CHECK_RC(nvm_reserve_pages(r, 1, &off), NVM_ECRASHED);
    tu_close(r);
    tb_free(&b);
    char src[4300];
    snprintf(src, sizeof src, "%s.lost", prefix);
    CHECK(rename(src, lost) == 0);
    snprintf(src, sizeof src, "%s.present", prefix);
    CHECK(rename(src, present) == 0);
    int sl = check_image(lost, seq0), sp = check_image(present, seq0);
    printf("  crash at barrier %d: lost -> %s, present -> %s\n", k, sl ? "after" : "before",
           sp ? "after" : "before");
    CHECK(sl == 0 && sp == want_present[k]);
  }

  /* the 1-barrier single-word path: the word is stored just before barrier 1,
   * so a crash there loses it or keeps it whole, nothing in between */
  for (int k = 1; k <= 1; k++) {
    tu_copy(base, work);
    r = tu_open(work);
    tb_init(&b);
    tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_INODE_ID, 777);
    CHECK_OK(nvm_debug_crash_at(r, (uint64_t)k, prefix));
    CHECK_RC(tb_apply(r, &b), NVM_ECRASHED);
    tu_close(r);
    tb_free(&b);
    char src[4300];
    snprintf(src, sizeof src, "%s.lost", prefix);
    r = tu_open(src);
    CHECK(tu_counter(r, NVM_SB_LAST_INODE_ID) != 777);
    tu_close(r);
    snprintf(src, sizeof src, "%s.present", prefix);
    r = tu_open(src);
    CHECK(tu_counter(r, NVM_SB_LAST_INODE_ID) == 777);
    tu_close(r);
  }

  /* without a crash the batch lands completely */
  tu_copy(base, work);
  r = tu_open(work);
  tb_init(&b);
  build_batch(&b, f, a, bdir);
  CHECK_OK(tb_apply(r, &b));
  tb_free(&b);
  tu_close(r);
  CHECK(check_image(work, seq0) == 1);
  printf("undo crash ok\n");
  return 0;
}
