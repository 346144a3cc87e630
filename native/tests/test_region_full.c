/* Reserve until NVM_EFULL (message has the counts), free a page through a
 * batch, reserve again; the region reopens consistent. */
#include "test_util.h"

int main(void) {
  const char *p = tu_path("full");
  nvm_region *r = tu_create(p, NVM_MIN_REGION_SIZE);
  uint64_t total = nvm_region_page_count(r);
  uint64_t root = tu_make_dir(r, NVM_ROOT_INODE_ID, 0, 0, "");
  tu_set_root(r, root);
  uint64_t *offs = malloc(total * sizeof *offs);
  /* fill the region with live directories under the root */
  uint64_t made = 1;
  for (;;) {
    uint64_t off;
    int rc = nvm_reserve_pages(r, 1, &off);
    if (rc == NVM_EFULL) break;
    CHECK_OK(rc);
    CHECK_OK(nvm_release_pages(r, 1, &off));
    offs[made] = tu_make_dir(r, NVM_ROOT_INODE_ID + made, root, NVM_ROOT_INODE_ID, "d");
    made++;
  }
  CHECK(made == total);
  char want[192];
  snprintf(want, sizeof want,
           "region full: %llu of %llu pages in use (0 reserved, 0 promised to chained redo "
           "records), 1 requested",
           (unsigned long long)total, (unsigned long long)total);
  CHECK_MSG(want);
  nvm_usage u;
  nvm_region_usage(r, &u);
  CHECK(u.pages_used == total && u.pages_free == 0 && u.high_water == total);
  uint64_t two[2];
  CHECK_RC(nvm_reserve_pages(r, 2, two), NVM_EFULL);

  /* free one directory page */
  tu_batch b;
  tb_init(&b);
  tb_add(&b, NVM_OP_FREE, NVM_F_PAGE, offs[5], NULL, 0);
  CHECK_OK(tb_apply(r, &b));
  CHECK(NVM_STATE_OF(tu_ld64(r, offs[5])) == NVM_STATE_INVALID);
  uint64_t again;
  /* the freed page waits two records for reuse (region-format.md §7.4); a reservation short of
   * pages empties the redo slots instead (two barriers) and takes it at once */
  uint64_t b0 = nvm_barrier_count(r);
  CHECK_OK(nvm_reserve_pages(r, 1, &again));
  CHECK(nvm_barrier_count(r) - b0 == 2);
  CHECK(tu_ld64(r, NVM_REDO_SLOT0) == 0 && tu_ld64(r, NVM_REDO_SLOT1) == 0);
  CHECK(again == offs[5]);
  CHECK_RC(nvm_reserve_pages(r, 1, two), NVM_EFULL);
  CHECK_MSG("(1 reserved, 0 promised to chained redo records)");
  CHECK_OK(nvm_release_pages(r, 1, &again));
  tu_close(r);

  r = tu_open(p);
  nvm_recovery rec;
  nvm_recovery_report(r, &rec);
  CHECK(rec.inodes_live == total - 1 && rec.orphans_reclaimed == 0);
  nvm_region_usage(r, &u);
  CHECK(u.pages_used == total - 1 && u.pages_free == 1 && u.high_water == total);
  CHECK_OK(nvm_reserve_pages(r, 1, &again));
  CHECK(again == offs[5]);
  tu_close(r);
  tb_free(&b);
  free(offs);
  printf("region full ok (%llu pages)\n", (unsigned long long)total);
  return 0;
}
