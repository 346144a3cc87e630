/* A rename batch (name bytes, name length, parent page/id, two parent mtimes,
 * a counter) crashed at its barrier and at the next one: both images recover to exactly
 * the before-state or exactly the after-state, and the redo slots are empty after. The
 * image a crash at the next batch's barrier loses holds the batch's record but none of its
 * in-place bytes: replay alone brings it to the after-state (region-format.md §7.3).
 * And the old protocol: a region from before the redo log with an armed undo record is
 * rolled back by this library and then upgraded (§4, §11). */
#include "nvm_internal.h"
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
  CHECK(tu_ld64(r, NVM_REDO_SLOT0) == 0 && tu_ld64(r, NVM_REDO_SLOT1) == 0);
  CHECK(tu_counter(r, NVM_SB_COMMIT_SEQ) >= seq0 + (uint64_t)state);
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

static void put(uint8_t *rec, uint32_t *pos, uint64_t target, const void *old, uint32_t len) {
  uint32_t field = NVM_F_NONE;
  memcpy(rec + *pos, &target, 8);
  memcpy(rec + *pos + 8, &len, 4);
  memcpy(rec + *pos + 12, &field, 4);
  memcpy(rec + *pos + 16, old, len);
  *pos += 16 + (uint32_t)NVM_PAD8(len);
}

/* The state the release before the redo log leaves when a crash comes after it armed its
 * undo record (region-format.md §4, §7.3 of that release): the new bytes partly in place,
 * UNDO_STATE = SB_COMMIT_SEQ + 1. This library rolls it back, then upgrades the region. */
static void legacy_undo(const char *base, uint64_t f, uint64_t a, uint64_t bdir, uint64_t seq0) {
  const char *old = tu_path("undo-legacy");
  tu_copy(base, old);
  nvm_region *r = tu_open(old);
  uint64_t features = tu_ld64(r, NVM_SB_FEATURES), seq_word = tu_ld64(r, NVM_SB_COMMIT_SEQ);
  uint8_t name[12];
  memcpy(name, nvm_region_base(r) + f + NVM_IN_NAME_INLINE, 12);
  uint64_t mtime = tu_ld64(r, a + NVM_IN_MTIME), txid = tu_ld64(r, NVM_SB_LAST_TXID);
  uint64_t seal_f = tu_ld64(r, f), seal_a = tu_ld64(r, a);
  tu_close(r);
  uint8_t rec[NVM_UNDO_SIZE] = {0};
  uint32_t pos = NVM_UNDO_PAYLOAD - NVM_UNDO_OFFSET, count = 6;
  put(rec, &pos, f + NVM_IN_NAME_INLINE, name, 12);
  put(rec, &pos, a + NVM_IN_MTIME, &mtime, 8);
  put(rec, &pos, NVM_SB_LAST_TXID, &txid, 8);
  put(rec, &pos, f, &seal_f, 8);
  put(rec, &pos, a, &seal_a, 8);
  put(rec, &pos, NVM_SB_COMMIT_SEQ, &seq_word, 8);
  uint32_t bytes = pos - (NVM_UNDO_PAYLOAD - NVM_UNDO_OFFSET);
  uint32_t crc = nvm_crc32c(0, rec + NVM_UNDO_PAYLOAD - NVM_UNDO_OFFSET, bytes);
  uint64_t state = seq0 + 1;
  memcpy(rec, &state, 8);
  memcpy(rec + 8, &count, 4);
  memcpy(rec + 12, &bytes, 4);
  memcpy(rec + 16, &crc, 4);
  tu_pwrite(old, NVM_UNDO_OFFSET, rec, sizeof rec);
  /* the new bytes that reached the media before the crash (the seals not yet redone) */
  uint64_t new_mtime = 5001, new_txid = nvm_counter_word(NVM_SB_LAST_TXID, 99);
  tu_pwrite(old, f + NVM_IN_NAME_INLINE, "renamed-file", 12);
  tu_pwrite(old, a + NVM_IN_MTIME, &new_mtime, 8);
  tu_pwrite(old, NVM_SB_LAST_TXID, &new_txid, 8);
  uint64_t legacy = nvm_features_word((uint32_t)features &
                                      ~(uint32_t)(NVM_FEATURE_REDO_LOG | NVM_FEATURE_WAL |
                                                  NVM_FEATURE_SNAPSHOTS | NVM_FEATURE_REDO_CHAIN));
  tu_pwrite(old, NVM_SB_FEATURES, &legacy, 8);
  /* read only: the region has no redo log, and the armed record is accepted */
  nvm_region *ro = NULL;
  CHECK_OK(nvm_region_open(old, NVM_MODE_AUTO, NVM_OPEN_READONLY, &ro));
  CHECK(tu_ld64(ro, NVM_UNDO_STATE) == seq0 + 1);
  nvm_region_close(ro);
  r = tu_open(old);
  nvm_recovery rep;
  nvm_recovery_report(r, &rep);
  CHECK(rep.undo_rolled_back == 1 && rep.undo_entries == 6);
  CHECK(classify(r) == 0); /* rolled back: the before-state */
  CHECK(tu_counter(r, NVM_SB_COMMIT_SEQ) == seq0);
  CHECK(tu_ld64(r, NVM_SB_FEATURES) == nvm_features_word((uint32_t)features)); /* upgraded */
  for (uint64_t off = NVM_UNDO_OFFSET; off < NVM_DATA_OFFSET; off += 8)
    CHECK(tu_ld64(r, off) == 0); /* the old record's bytes are gone: two empty slots */
  /* and it takes batches with the redo log */
  tu_batch b;
  tb_init(&b);
  build_batch(&b, f, a, bdir);
  CHECK_OK(tb_apply(r, &b));
  tb_free(&b);
  CHECK(classify(r) == 1);
  tu_close(r);
  printf("  a region from before the redo log with an armed undo record: rolled back, upgraded\n");
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

  /* crash at barrier 1 (the batch's commit point): lost -> before, present -> after;
   * at barrier 2 (the next batch's, a counter): the batch is committed either way */
  int want_lost[3] = {0, 0, 1}, want_present[3] = {0, 1, 1};
  char prefix[4200];
  snprintf(prefix, sizeof prefix, "%s", work);
  for (int k = 1; k <= 2; k++) {
    tu_copy(base, work);
    r = tu_open(work);
    tb_init(&b);
    build_batch(&b, f, a, bdir);
    CHECK_OK(nvm_debug_crash_at(r, (uint64_t)k, prefix));
    if (k == 2) {
      CHECK_OK(tb_apply(r, &b));
      tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_STRING_ID, 31);
    }
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
    if (k == 2) { /* the lost image: the record durable, the in-place bytes not */
      nvm_region *ro = NULL;
      CHECK_OK(nvm_region_open(lost, NVM_MODE_AUTO, NVM_OPEN_READONLY, &ro));
      CHECK(classify(ro) == 0 && tu_ld64(ro, NVM_REDO_SLOT0 + (seq0 + 1) % 2 * 4096) == seq0 + 1);
      nvm_region_close(ro);
    }
    int sl = check_image(lost, seq0), sp = check_image(present, seq0);
    printf("  crash at barrier %d: lost -> %s, present -> %s\n", k, sl ? "after" : "before",
           sp ? "after" : "before");
    CHECK(sl == want_lost[k] && sp == want_present[k]);
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

  legacy_undo(base, f, a, bdir, seq0);

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
