/* Recovery of a region with 100k inodes completes; prints the time. */
#include "test_util.h"

#define NDIRS 100
#define FILES_PER_DIR 999
#define CHUNK 1000

int main(void) {
  const uint64_t R = NVM_ROOT_INODE_ID, total = 1 + NDIRS + (uint64_t)NDIRS * FILES_PER_DIR;
  const char *p = tu_path("big");
  nvm_region *r =
      tu_create(p, NVM_DATA_OFFSET + (total + 1000) * NVM_PAGE_SIZE + NVM_MIN_REGION_SIZE);
  uint64_t *offs = malloc(total * sizeof *offs);
  CHECK_OK(nvm_reserve_pages(r, (uint32_t)total, offs));
  tu_batch b;
  tb_init(&b);
  uint8_t page[NVM_PAGE_SIZE];
  for (uint64_t i = 0; i < total; i++) {
    tu_inode in = {NVM_KIND_DIR, R + i, 0, 0, "", 0, 0, 0, 0, 0};
    if (i >= 1 && i <= NDIRS) {
      in.parent_off = offs[0];
      in.parent_id = R;
      in.name = "dir";
    } else if (i > NDIRS) {
      uint64_t d = 1 + (i - NDIRS - 1) / FILES_PER_DIR;
      in.kind = NVM_KIND_FILE;
      in.parent_off = offs[d];
      in.parent_id = R + d;
      in.name = "file";
      in.nblocks = 1;
    }
    tu_inode_image(page, &in, NVM_STATE_LIVE, 0, 0);
    tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, offs[i], page, NVM_PAGE_SIZE);
    if ((i + 1) % CHUNK == 0 || i + 1 == total) CHECK_OK(tb_apply(r, &b));
  }
  tu_set_root(r, offs[0]);
  tu_close(r);

  r = tu_open(p);
  nvm_recovery rec;
  nvm_recovery_report(r, &rec);
  printf("recovered %llu inodes from %llu pages in %.3f ms\n", (unsigned long long)rec.inodes_live,
         (unsigned long long)rec.pages_scanned, rec.elapsed_ns / 1e6);
  CHECK(rec.inodes_live == total && rec.orphans_reclaimed == 0);
  uint64_t n;
  const uint64_t *order = nvm_recovered_inodes(r, &n);
  CHECK(n == total && order[0] == offs[0]);
  /* parents before children */
  uint64_t *pos = calloc(nvm_region_page_count(r), sizeof *pos);
  for (uint64_t i = 0; i < n; i++) pos[(order[i] - NVM_DATA_OFFSET) / NVM_PAGE_SIZE] = i + 1;
  for (uint64_t i = 1; i < n; i++) {
    uint64_t parent = tu_ld64(r, order[i] + NVM_IN_PARENT_PAGE);
    CHECK(pos[(parent - NVM_DATA_OFFSET) / NVM_PAGE_SIZE] - 1 < i);
  }
  free(pos);
  tu_close(r);
  tb_free(&b);
  free(offs);
  printf("recovery 100k ok\n");
  return 0;
}
