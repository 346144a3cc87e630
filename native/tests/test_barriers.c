/* Barrier cost of each batch shape and of groups (region-format.md §7.3: one barrier per
 * group in steady state), and the values surviving reopen. A barrier is one nvm_drain. */
#include "test_util.h"

static nvm_region *r;

static uint64_t cost(tu_batch *b) {
  uint64_t n0 = nvm_barrier_count(r);
  CHECK_OK(tb_apply(r, b));
  return nvm_barrier_count(r) - n0;
}

/* `n` creates staged, then one sync: its barriers */
static uint64_t group_cost(uint64_t root, uint64_t *next_id, int n) {
  tu_batch b;
  tb_init(&b);
  for (int i = 0; i < n; i++) {
    uint64_t off, seq;
    CHECK_OK(nvm_reserve_pages(r, 1, &off));
    tu_inode in = {NVM_KIND_FILE, (*next_id)++, root, NVM_ROOT_INODE_ID, "f", 0, 0, 0, 0, 1};
    uint8_t img[NVM_PAGE_SIZE];
    tu_inode_image(img, &in, NVM_STATE_PENDING, 0, 0);
    tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, off, img, NVM_PAGE_SIZE);
    tb_add64(&b, NVM_F_STATE, off, NVM_STATE_WORD(NVM_KIND_FILE, NVM_STATE_LIVE));
    tb_add64(&b, NVM_F_MTIME, root + NVM_IN_MTIME, 1000 + *next_id);
    tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_INODE_ID, *next_id);
    CHECK_OK(nvm_stage(r, b.buf, b.len, &seq));
    memset(b.buf, 0, b.cap);
    b.len = NVM_BATCH_HEADER;
  }
  uint64_t n0 = nvm_barrier_count(r);
  CHECK_OK(nvm_sync(r, NULL));
  tb_free(&b);
  return nvm_barrier_count(r) - n0;
}

int main(void) {
  const char *p = tu_path("barriers");
  r = tu_create(p, NVM_MIN_REGION_SIZE);
  uint64_t root = tu_make_dir(r, NVM_ROOT_INODE_ID, 0, 0, "");
  tu_set_root(r, root);
  uint64_t a = tu_make_dir(r, NVM_ROOT_INODE_ID + 1, root, NVM_ROOT_INODE_ID, "a");
  uint64_t seq0 = tu_counter(r, NVM_SB_COMMIT_SEQ);
  tu_batch b;
  tb_init(&b);

  /* every batch shape: one record, one barrier, SB_COMMIT_SEQ + 1 */
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_INODE_ID, 12345);
  CHECK(cost(&b) == 1); /* one word */
  CHECK(tu_counter(r, NVM_SB_COMMIT_SEQ) == seq0 + 1);

  tb_add64(&b, NVM_F_MTIME, root + NVM_IN_MTIME, 77);
  tb_add64(&b, NVM_F_MTIME, a + NVM_IN_MTIME, 78);
  CHECK(cost(&b) == 1); /* two words on two pages (and their seals) */
  CHECK(tu_counter(r, NVM_SB_COMMIT_SEQ) == seq0 + 2);

  uint32_t four = 0x01020304;
  tb_add(&b, NVM_OP_INPLACE, NVM_F_NAME, a + NVM_IN_NAME_INLINE, &four, 4);
  CHECK(cost(&b) == 1); /* not a whole word */

  uint64_t fresh;
  uint8_t page[NVM_PAGE_SIZE] = {0};
  CHECK_OK(nvm_reserve_pages(r, 1, &fresh));
  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, fresh, page, NVM_PAGE_SIZE);
  CHECK(cost(&b) == 1); /* FRESH only */
  CHECK_OK(nvm_reserve_pages(r, 1, &fresh));
  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, fresh, page, NVM_PAGE_SIZE);
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_STRING_ID, 9);
  CHECK(cost(&b) == 1); /* FRESH + one word: durable together at the record's barrier */
  tb_add64(&b, NVM_F_ATIME, a + NVM_IN_ATIME, 5);
  tb_add64(&b, NVM_F_MTIME, root + NVM_IN_MTIME, 79);
  tb_add(&b, NVM_OP_FREE, NVM_F_PAGE, fresh, NULL, 0);
  CHECK(cost(&b) == 1); /* + FREE: its invalidation waits for the next barrier */
  CHECK(tu_counter(r, NVM_SB_COMMIT_SEQ) == seq0 + 6);

  /* steady state: a group that fits a slot is one barrier, whatever its size */
  uint64_t id = NVM_ROOT_INODE_ID + 10;
  CHECK(group_cost(root, &id, 1) == 1);
  CHECK(group_cost(root, &id, 4) == 1);
  CHECK(group_cost(root, &id, 16) == 1);
  /* 64 creates need more than a slot: cut in slot-sized groups, one barrier each */
  uint64_t s0 = tu_counter(r, NVM_SB_COMMIT_SEQ), c64 = group_cost(root, &id, 64);
  uint64_t groups = tu_counter(r, NVM_SB_COMMIT_SEQ) - s0;
  printf("  64 creates: %llu groups, %llu barriers\n", (unsigned long long)groups,
         (unsigned long long)c64);
  CHECK(groups >= 2 && c64 == groups);

  /* a batch too large for a slot takes the whole area: a drain first (the last group's
   * in-place bytes), then the record's barrier; the next group drains first too */
  for (int i = 0; i < 20; i++)
    tb_add(&b, NVM_OP_INPLACE, NVM_F_PAGE, a, nvm_region_base(r) + a, NVM_PAGE_SIZE);
  CHECK(cost(&b) == 2);
  tb_add64(&b, NVM_F_MTIME, root + NVM_IN_MTIME, 80);
  CHECK(cost(&b) == 2);
  tb_add64(&b, NVM_F_MTIME, root + NVM_IN_MTIME, 81);
  CHECK(cost(&b) == 1);
  tu_close(r);

  r = tu_open(p);
  CHECK(tu_counter(r, NVM_SB_LAST_INODE_ID) == id);
  CHECK(tu_ld64(r, root + NVM_IN_MTIME) == 81 && tu_ld64(r, a + NVM_IN_MTIME) == 78);
  CHECK(tu_ld64(r, a + NVM_IN_ATIME) == 5);
  /* the freed page went back to the allocator two records later and a create took it */
  CHECK(NVM_STATE_OF(tu_ld64(r, fresh)) == NVM_STATE_LIVE);
  CHECK(tu_ld64(r, NVM_REDO_SLOT0) == 0 && tu_ld64(r, NVM_REDO_SLOT1) == 0); /* closed clean */
  nvm_recovery rec;
  nvm_recovery_report(r, &rec);
  CHECK(rec.undo_rolled_back == 0);
  tu_close(r);
  tb_free(&b);
  printf("barriers ok\n");
  return 0;
}
