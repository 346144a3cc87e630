/* SB_SCAN_LIMIT: set at creation, raised (one barrier) before a page at or
 * above it is handed out, persisted before that page can be written, and the
 * bound of recovery's scan; a crash at the raise loses nothing. */
#include "test_util.h"

#include <unistd.h>

#define STEP 16384u /* NVM_SCAN_LIMIT_STEP */

static uint64_t limit_of(const nvm_region *r) {
  uint64_t w = tu_ld64(r, NVM_SB_SCAN_LIMIT);
  CHECK((w >> 32) == (~w & 0xffffffffu)); /* the halves check each other */
  return w & 0xffffffffu;
}

static uint64_t scanned_at_open(const char *p) {
  nvm_region *r = tu_open(p);
  nvm_recovery rec;
  nvm_recovery_report(r, &rec);
  CHECK(rec.pages_scanned == limit_of(r));
  tu_close(r);
  return rec.pages_scanned;
}

int main(void) {
  /* a small region: the limit is the page count from the start, never raised */
  const char *small = tu_path("small");
  nvm_region *r = tu_create(small, NVM_MIN_REGION_SIZE);
  CHECK(limit_of(r) == nvm_region_page_count(r) && nvm_region_page_count(r) < STEP);
  uint64_t *offs = malloc(4 * STEP * sizeof *offs); /* enough for every reservation below */
  uint64_t b0 = nvm_barrier_count(r);
  CHECK_OK(nvm_reserve_pages(r, (uint32_t)nvm_region_page_count(r), offs));
  CHECK(nvm_barrier_count(r) == b0);
  tu_close(r);

  /* 64 MiB = 262080 pages: the limit starts at STEP */
  const char *p = tu_path("big");
  r = tu_create(p, 64u << 20);
  CHECK(nvm_barrier_count(r) == 2); /* the limit is written with the header */
  CHECK(limit_of(r) == STEP);
  uint64_t root = tu_make_dir(r, NVM_ROOT_INODE_ID, 0, 0, "");
  tu_set_root(r, root);
  /* up to the limit: no raise, no barrier */
  b0 = nvm_barrier_count(r);
  CHECK_OK(nvm_reserve_pages(r, STEP - 1, offs)); /* pages 1 .. STEP-1 */
  CHECK(nvm_barrier_count(r) == b0 && limit_of(r) == STEP);
  /* the page at the limit: one barrier raises it to high-water + STEP first */
  CHECK_OK(nvm_reserve_pages(r, 1, offs + STEP - 1));
  CHECK(nvm_barrier_count(r) == b0 + 1 && limit_of(r) == 2 * STEP + 1);
  CHECK(offs[STEP - 1] == NVM_DATA_OFFSET + (uint64_t)STEP * NVM_PAGE_SIZE);
  /* a file in that page is found by the next open, which scans to the limit */
  uint64_t f = tu_make_inode(r, &(tu_inode){NVM_KIND_FILE, NVM_ROOT_INODE_ID + 1, root,
                                            NVM_ROOT_INODE_ID, "f", 0, 0, 0, 0, 0});
  CHECK_OK(nvm_release_pages(r, STEP, offs));
  tu_close(r);
  CHECK(scanned_at_open(p) == 2 * STEP + 1);
  r = tu_open(p);
  nvm_recovery rec;
  nvm_recovery_report(r, &rec);
  CHECK(rec.inodes_live == 2);
  /* released pages were never written: the free list hands them out again, no raise */
  b0 = nvm_barrier_count(r);
  nvm_usage u;
  nvm_region_usage(r, &u);
  CHECK(u.high_water == (f - NVM_DATA_OFFSET) / NVM_PAGE_SIZE + 1);
  CHECK_OK(nvm_reserve_pages(r, (uint32_t)(u.high_water - 2), offs));
  CHECK(nvm_barrier_count(r) == b0);
  CHECK_OK(nvm_release_pages(r, (uint32_t)(u.high_water - 2), offs));

  /* a crash at the raise barrier: the limit is the old or the new one, never
   * below a used page, and the region opens with both inodes */
  uint64_t old = limit_of(r);
  CHECK_OK(nvm_reserve_pages(r, (uint32_t)(old - 2), offs)); /* every page below the limit */
  const char *snap = tu_path("snap");
  CHECK_OK(nvm_debug_crash_at(r, 1, snap));
  CHECK_RC(nvm_reserve_pages(r, 1, offs), NVM_ECRASHED);
  tu_close(r);
  char img[512];
  const char *suffix[2] = {"lost", "present"};
  uint64_t want[2] = {old, (old + 1) + STEP};
  for (int i = 0; i < 2; i++) {
    snprintf(img, sizeof img, "%s.%s", snap, suffix[i]);
    r = tu_open(img);
    nvm_recovery_report(r, &rec);
    CHECK(rec.inodes_live == 2 && limit_of(r) == want[i] && rec.pages_scanned == want[i]);
    tu_close(r);
    unlink(img);
  }
  free(offs);
  printf("scan limit ok\n");
  return 0;
}
