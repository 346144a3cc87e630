/* Every batch validation rule -> NVM_EINVAL with nothing written. */
#include "test_util.h"

static nvm_region *r;
static uint8_t *before;
static uint64_t root, reserved, never_used;

static void expect_einval(tu_batch *b, const char *needle) {
  nvm_usage u0, u1;
  nvm_region_usage(r, &u0);
  uint64_t barriers = nvm_barrier_count(r);
  memcpy(before, nvm_region_base(r), nvm_region_size(r));
  CHECK_RC(tb_apply(r, b), NVM_EINVAL);
  CHECK_MSG(needle);
  CHECK(memcmp(before, nvm_region_base(r), nvm_region_size(r)) == 0);
  CHECK(nvm_barrier_count(r) == barriers);
  nvm_region_usage(r, &u1);
  CHECK(memcmp(&u0, &u1, sizeof u0) == 0);
  printf("  %s\n", nvm_errormsg());
}

static void raw(const void *buf, size_t len, const char *needle) {
  memcpy(before, nvm_region_base(r), nvm_region_size(r));
  CHECK_RC(nvm_apply(r, buf, len), NVM_EINVAL);
  CHECK_MSG(needle);
  CHECK(memcmp(before, nvm_region_base(r), nvm_region_size(r)) == 0);
  printf("  %s\n", nvm_errormsg());
}

static void set32(tu_batch *b, size_t off, uint32_t v) { memcpy(b->buf + off, &v, 4); }

int main(void) {
  const char *p = tu_path("valid");
  r = tu_create(p, NVM_MIN_REGION_SIZE);
  before = malloc(nvm_region_size(r));
  root = tu_make_dir(r, NVM_ROOT_INODE_ID, 0, 0, "");
  tu_set_root(r, root);
  CHECK_OK(nvm_reserve_pages(r, 1, &reserved));
  never_used = reserved + 10 * NVM_PAGE_SIZE;
  uint8_t page[NVM_PAGE_SIZE] = {1};
  uint64_t w = 5;
  tu_batch b;
  tb_init(&b);

  uint8_t hdr[8] = {0};
  raw(hdr, 4, "shorter than its header");
  hdr[4] = 1;
  raw(hdr, 8, "reserved field");
  uint32_t many[2] = {3, 0};
  raw(many, 8, "declares 3 entries");

  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, reserved, page, 8); /* valid, must not be written */
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_INODE_ID, 7);
  set32(&b, NVM_BATCH_HEADER + 32 + 20, 9);
  expect_einval(&b, "entry 1: reserved field is not 0");

  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, reserved, page, 8);
  tb_add(&b, 9, NVM_F_PAGE, reserved, page, 8);
  expect_einval(&b, "entry 1: unknown op");

  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, reserved, page, 8);
  tb_add64(&b, 18 /* past NVM_FIELDS */, NVM_SB_LAST_INODE_ID, 7);
  expect_einval(&b, "entry 1: unknown field id");

  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, reserved, page, 8);
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_TXID, 1ull << 48);
  expect_einval(&b, "entry 1: a superblock counter value over 48 bits");

  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, reserved, page, 16);
  set32(&b, NVM_BATCH_HEADER + 16, 64);
  expect_einval(&b, "entry 0: data runs past the end");

  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, reserved, page, 16);
  b.len += 8;
  expect_einval(&b, "trailing bytes");

  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, never_used, page, 8);
  expect_einval(&b, "entry 0: FRESH target page is not reserved");
  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, reserved + 200, page, 100);
  expect_einval(&b, "FRESH range not inside one page");
  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, NVM_SB_LAST_INODE_ID, page, 8);
  expect_einval(&b, "FRESH range not inside one page of the data area");
  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, reserved, page, 0);
  expect_einval(&b, "FRESH with length 0");

  tb_add(&b, NVM_OP_INPLACE, NVM_F_MTIME, root + NVM_IN_MTIME, page, 0);
  expect_einval(&b, "INPLACE with length 0");
  tb_add(&b, NVM_OP_INPLACE, NVM_F_MTIME, root + NVM_IN_MTIME + 4, &w, 8);
  expect_einval(&b, "not 8-byte aligned");
  tb_add64(&b, NVM_F_MTIME, never_used + NVM_IN_MTIME, 5);
  expect_einval(&b, "neither live nor reserved");
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_MAGIC, 5);
  expect_einval(&b, "superblock counters");
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_COMMIT_SEQ, 5);
  expect_einval(&b, "superblock counters");
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_TXID + 8, 5);
  expect_einval(&b, "superblock counters");
  tb_add64(&b, NVM_F_COUNTER, NVM_HDR_CREATION_ID, 5);
  expect_einval(&b, "superblock counters");
  /* past the counters and below the data area: the scan limit, the features, the undo
   * record (an offset past a range's end once wrapped around in the range check) */
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_FEATURES, 5);
  expect_einval(&b, "superblock counters");
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_MASTER_KEY_ID + 8, 5);
  expect_einval(&b, "superblock counters");
  tb_add64(&b, NVM_F_COUNTER, NVM_UNDO_STATE, 5);
  expect_einval(&b, "superblock counters");
  tb_add(&b, NVM_OP_INPLACE, NVM_F_COUNTER, NVM_SB_MASTER_KEY_ID, page, 16);
  expect_einval(&b, "superblock counters");
  tb_add(&b, NVM_OP_INPLACE, NVM_F_NAME, root + 250, page, 12);
  expect_einval(&b, "INPLACE range not inside one page");

  tb_add(&b, NVM_OP_FREE, NVM_F_PAGE, root, page, 8);
  expect_einval(&b, "FREE with a non-zero length");
  tb_add(&b, NVM_OP_FREE, NVM_F_PAGE, root + 8, NULL, 0);
  expect_einval(&b, "FREE target is not a data page");
  tb_add(&b, NVM_OP_FREE, NVM_F_PAGE, reserved, NULL, 0);
  expect_einval(&b, "FREE target page is reserved");
  tb_add(&b, NVM_OP_FREE, NVM_F_PAGE, never_used, NULL, 0);
  expect_einval(&b, "not in use");
  tb_add(&b, NVM_OP_FREE, NVM_F_PAGE, root, NULL, 0);
  tb_add(&b, NVM_OP_FREE, NVM_F_PAGE, root, NULL, 0);
  expect_einval(&b, "entry 1: FREE target page is not in use (or freed twice)");

  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, reserved, page, NVM_PAGE_SIZE);
  /* 29 whole-page entries fit a big record, the whole area; 30 do not, and take a chained one
   * (test_redo_chain: region-format.md §4.1): no batch is too large for the log */
  for (int i = 0; i < 29; i++)
    tb_add(&b, NVM_OP_INPLACE, NVM_F_PAGE, root, nvm_region_base(r) + root, NVM_PAGE_SIZE);
  CHECK_OK(tb_apply(r, &b));
  for (int i = 0; i < 30; i++)
    tb_add(&b, NVM_OP_INPLACE, NVM_F_PAGE, root, nvm_region_base(r) + root, NVM_PAGE_SIZE);
  CHECK_OK(tb_apply(r, &b));

  tu_close(r);
  tb_free(&b);
  free(before);
  printf("batch validation ok\n");
  return 0;
}
