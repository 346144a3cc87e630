/* Barrier cost of each batch shape, and a single word surviving reopen. */
#include "test_util.h"

static nvm_region *r;

static uint64_t cost(tu_batch *b) {
  uint64_t n0 = nvm_barrier_count(r);
  CHECK_OK(tb_apply(r, b));
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

  tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_INODE_ID, 12345);
  CHECK(cost(&b) == 1);                            /* one word, no fresh data: a single barrier */
  CHECK(tu_counter(r, NVM_SB_COMMIT_SEQ) == seq0); /* no undo, seq untouched */

  tb_add64(&b, NVM_F_MTIME, root + NVM_IN_MTIME, 77);
  tb_add64(&b, NVM_F_MTIME, a + NVM_IN_MTIME, 78);
  CHECK(cost(&b) == 4);
  CHECK(tu_counter(r, NVM_SB_COMMIT_SEQ) == seq0 + 1);
  CHECK(tu_ld64(r, NVM_UNDO_STATE) == 0);

  uint32_t four = 0x01020304;
  tb_add(&b, NVM_OP_INPLACE, NVM_F_NAME, a + NVM_IN_NAME_INLINE, &four, 4);
  CHECK(cost(&b) == 4); /* not a whole word: undo-logged */

  uint64_t fresh;
  uint8_t page[NVM_PAGE_SIZE] = {0};
  CHECK_OK(nvm_reserve_pages(r, 1, &fresh));
  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, fresh, page, NVM_PAGE_SIZE);
  CHECK(cost(&b) == 1); /* FRESH only */
  CHECK_OK(nvm_reserve_pages(r, 1, &fresh));
  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, fresh, page, NVM_PAGE_SIZE);
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_STRING_ID, 9);
  CHECK(cost(&b) == 2); /* FRESH + one word: fresh data drained before the word */
  tb_add64(&b, NVM_F_ATIME, a + NVM_IN_ATIME, 5);
  tb_add64(&b, NVM_F_MTIME, root + NVM_IN_MTIME, 79);
  tb_add(&b, NVM_OP_FREE, NVM_F_PAGE, fresh, NULL, 0);
  CHECK(cost(&b) == 5); /* undo-logged + FREE */
  CHECK(tu_counter(r, NVM_SB_COMMIT_SEQ) == seq0 + 3);
  tu_close(r);

  r = tu_open(p);
  CHECK(tu_counter(r, NVM_SB_LAST_INODE_ID) == 12345);
  CHECK(tu_ld64(r, root + NVM_IN_MTIME) == 79 && tu_ld64(r, a + NVM_IN_MTIME) == 78);
  CHECK(tu_ld64(r, a + NVM_IN_ATIME) == 5);
  CHECK(NVM_STATE_OF(tu_ld64(r, fresh)) == NVM_STATE_INVALID);
  tu_close(r);
  tb_free(&b);
  printf("barriers ok\n");
  return 0;
}
