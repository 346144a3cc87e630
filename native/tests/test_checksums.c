/* Page checksums and counter checks (region-format.md §11): a new region seals every
 * LIVE page and checks every counter; a flipped bit in a LIVE page or a counter is
 * refused at open, pointing at it, the file untouched; a page field alone is
 * undo-logged, a counter or a state word alone stays one barrier; a region from
 * before the feature is upgraded at its first open, also after a crash half-way. */
#include "nvm_internal.h"
#include "test_util.h"

static const uint64_t R = NVM_ROOT_INODE_ID;

static void check_sealed(nvm_region *r, uint64_t page) {
  uint64_t w = tu_ld64(r, page);
  CHECK(NVM_STATE_OF(w) == NVM_STATE_LIVE);
  CHECK((uint32_t)(w >> 32) == nvm_page_crc(r, page, (uint32_t)w));
}

/* root, a file with a block chain and a long name, and an owner string */
static void build(nvm_region *r, uint64_t *root, uint64_t *f, uint64_t *str) {
  *str = tu_make_string(r, 1, "hdfs");
  *root = tu_make_dir(r, R, 0, 0, "");
  tu_set_root(r, *root);
  char name[100];
  memset(name, 'n', sizeof name - 1);
  name[sizeof name - 1] = 0;
  tu_inode fin = {NVM_KIND_FILE, R + 1, *root, R, name, 1, 1, 0, 0, 8};
  *f = tu_make_inode(r, &fin);
}

static void refused_at(const char *p, uint64_t at, const char *needle) {
  const char *copy = tu_path("cks-copy");
  tu_copy(p, copy);
  nvm_region *r;
  CHECK_RC(nvm_region_open(p, NVM_MODE_AUTO, 0, &r), NVM_ECORRUPT);
  CHECK_MSG(needle);
  CHECK_OFFSET(at);
  printf("  refused at %llu: %s\n", (unsigned long long)at, nvm_errormsg());
  CHECK(tu_same_file(p, copy));
}

/* a new region, and an old one after its first read-write open, has every feature */
#define ALL_FEATURES NVM_FEATURES_ALL

int main(void) {
  const char *p = tu_path("cks"), *base = tu_path("cks-base");
  nvm_region *r = tu_create(p, NVM_MIN_REGION_SIZE);
  uint64_t root, f, str;
  build(r, &root, &f, &str);
  CHECK(tu_ld64(r, NVM_SB_FEATURES) == nvm_features_word(ALL_FEATURES));
  check_sealed(r, root);
  check_sealed(r, f);
  check_sealed(r, str);
  check_sealed(r, tu_ld64(r, f + NVM_IN_NAME_EXT));
  check_sealed(r, tu_ld64(r, f + NVM_FI_BLOCK_EXT));
  for (uint64_t off = NVM_SB_LAST_INODE_ID; off <= NVM_SB_LAST_TXID; off += 8)
    CHECK(nvm_counter_ok(r, off));
  CHECK(tu_counter(r, NVM_SB_ROOT_PAGE) == root);

  /* barriers: a page field alone and a counter alone are one redo record each (1) */
  tu_batch b;
  tb_init(&b);
  uint64_t b0 = nvm_barrier_count(r);
  tb_add64(&b, NVM_F_MTIME, f + NVM_IN_MTIME, 4242);
  CHECK_OK(tb_apply(r, &b));
  CHECK(nvm_barrier_count(r) - b0 == 1);
  check_sealed(r, f);
  b0 = nvm_barrier_count(r);
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_TXID, 77);
  CHECK_OK(tb_apply(r, &b));
  CHECK(nvm_barrier_count(r) - b0 == 1);
  CHECK(tu_counter(r, NVM_SB_LAST_TXID) == 77 && nvm_counter_ok(r, NVM_SB_LAST_TXID));
  tu_close(r);
  tu_copy(p, base);

  /* a flipped bit: in a field, in the checksum, in the state, in a counter */
  uint64_t flips[][2] = {
      {f + NVM_IN_MTIME, 3},    {f + NVM_FI_HEADER + 5, 0}, {f + 4, 7},
      {str + NVM_ST_BYTES, 1},  {root + NVM_PG_STATE, 0},   {NVM_SB_LAST_TXID, 2},
      {NVM_SB_LAST_TXID + 7, 0}};
  for (size_t i = 0; i < sizeof flips / sizeof flips[0]; i++) {
    tu_copy(base, p);
    uint8_t byte;
    size_t len;
    uint8_t *img = tu_read_file(p, &len);
    byte = img[flips[i][0]] ^ (uint8_t)(1u << flips[i][1]);
    free(img);
    tu_pwrite(p, flips[i][0], &byte, 1);
    int counter = flips[i][0] < NVM_DATA_OFFSET;
    uint64_t page = counter ? 0 : flips[i][0] - (flips[i][0] - NVM_DATA_OFFSET) % NVM_PAGE_SIZE;
    const char *needle = counter                              ? "fails its check"
                         : flips[i][0] == root + NVM_PG_STATE ? "bad state word"
                                                              : "fails its checksum";
    refused_at(p, counter ? flips[i][0] & ~7ull : page, needle);
  }

  /* a region from before the feature: plain counters, magic in every page, no feature */
  tu_copy(base, p);
  r = tu_open(p);
  for (uint64_t i = 0; i < nvm_region_page_count(r); i++) {
    uint64_t page = NVM_DATA_OFFSET + i * NVM_PAGE_SIZE, w = tu_ld64(r, page);
    if (w == 0) break;
    w = NVM_PAGE_MAGIC << 32 | (w & 0xffffffffull);
    tu_pwrite(p, page, &w, 8);
  }
  for (uint64_t off = NVM_SB_LAST_INODE_ID; off <= NVM_SB_LAST_TXID; off += 8) {
    uint64_t v = tu_counter(r, off);
    tu_pwrite(p, off, &v, 8);
  }
  uint64_t zero = 0;
  tu_pwrite(p, NVM_SB_FEATURES, &zero, 8);
  for (uint64_t off = NVM_SB_LAST_RECORD_ID; off <= NVM_SB_MASTER_KEY_ID; off += 8)
    tu_pwrite(p, off, &zero, 8); /* never written before the records feature */
  tu_close(r);
  const char *half = tu_path("cks-half");
  tu_copy(p, half);
  r = tu_open(p); /* upgrades */
  CHECK(tu_ld64(r, NVM_SB_FEATURES) == nvm_features_word(ALL_FEATURES));
  check_sealed(r, root);
  check_sealed(r, f);
  CHECK(tu_counter(r, NVM_SB_LAST_TXID) == 77 && nvm_counter_ok(r, NVM_SB_LAST_TXID));
  CHECK(tu_counter(r, NVM_SB_ROOT_PAGE) == root);
  for (uint64_t off = NVM_SB_LAST_RECORD_ID; off <= NVM_SB_MASTER_KEY_ID; off += 8)
    CHECK(nvm_counter_ok(r, off) && tu_counter(r, off) == 0);
  tu_close(r);
  /* a crash half-way through an upgrade: one page sealed, one counter checked, no feature */
  r = tu_open(p);
  uint64_t sealed = tu_ld64(r, f), txid = tu_ld64(r, NVM_SB_LAST_TXID);
  tu_close(r);
  tu_pwrite(half, f, &sealed, 8);
  tu_pwrite(half, NVM_SB_LAST_TXID, &txid, 8);
  r = tu_open(half);
  CHECK(tu_ld64(r, NVM_SB_FEATURES) == nvm_features_word(ALL_FEATURES));
  check_sealed(r, root);
  check_sealed(r, f);
  CHECK(tu_counter(r, NVM_SB_LAST_TXID) == 77);
  nvm_recovery rec;
  nvm_recovery_report(r, &rec);
  CHECK(rec.inodes_live == 2);
  tu_close(r);
  /* a torn extension page a crash left unreachable is reclaimed, not refused */
  tu_copy(base, p);
  r = tu_open(p);
  uint64_t torn;
  CHECK_OK(nvm_reserve_pages(r, 1, &torn));
  tu_close(r);
  uint64_t word = 0xdeadbeef00000000ull | (NVM_STATE_WORD(NVM_KIND_NAME_EXT, NVM_STATE_LIVE) &
                                           0xffffffffull); /* a checksum that does not match */
  tu_pwrite(p, torn, &word, 8);
  r = tu_open(p);
  nvm_recovery_report(r, &rec);
  CHECK(rec.ext_reclaimed == 1);
  CHECK(NVM_STATE_OF(tu_ld64(r, torn)) == NVM_STATE_INVALID);
  tu_close(r);
  /* ... but a reachable one refuses the region, at its page */
  tu_copy(base, p);
  uint64_t ext = 0;
  r = tu_open(p);
  ext = tu_ld64(r, f + NVM_IN_NAME_EXT);
  tu_close(r);
  uint8_t flip = 0x5a;
  tu_pwrite(p, ext + NVM_EXT_PAYLOAD, &flip, 1);
  refused_at(p, ext, "fails its checksum");

  /* a region from before the redo log: a disarmed undo record whose state word is
   * damaged is refused, not rolled back */
  tu_copy(base, p);
  uint64_t four = 4, legacy = nvm_features_word(ALL_FEATURES &
                                                ~(NVM_FEATURE_REDO_LOG | NVM_FEATURE_WAL |
                                                  NVM_FEATURE_SNAPSHOTS | NVM_FEATURE_REDO_CHAIN));
  uint8_t old_rec[NVM_UNDO_PAYLOAD - NVM_UNDO_OFFSET + 24] = {0};
  uint32_t one = 1, bytes = 24, len = 8;
  uint64_t target = NVM_SB_COMMIT_SEQ, saved = nvm_counter_word(NVM_SB_COMMIT_SEQ, 7);
  memcpy(old_rec + 8, &one, 4);
  memcpy(old_rec + 12, &bytes, 4);
  memcpy(old_rec + 24, &target, 8);
  memcpy(old_rec + 32, &len, 4);
  memcpy(old_rec + 40, &saved, 8);
  uint32_t crc = nvm_crc32c(0, old_rec + 24, 24);
  memcpy(old_rec + 16, &crc, 4);
  memcpy(old_rec, &four, 8); /* armed by seq 4, but it saved 7: a damaged state word */
  tu_pwrite(p, NVM_UNDO_OFFSET, old_rec, sizeof old_rec);
  tu_pwrite(p, NVM_SB_FEATURES, &legacy, 8);
  refused_at(p, NVM_UNDO_STATE, "does not follow the commit sequence");

  tb_free(&b);
  printf("checksums ok\n");
  return 0;
}
