/* Create, then open: header fields, identity strings, mode names, usage. */
#include "test_util.h"

#include <unistd.h>

static uint32_t rd32(const uint8_t *b, int off) {
  uint32_t v;
  memcpy(&v, b + off, 4);
  return v;
}
static uint64_t rd64(const uint8_t *b, int off) {
  uint64_t v;
  memcpy(&v, b + off, 8);
  return v;
}

int main(void) {
  const char *p = tu_path("create");
  nvm_region *r = tu_create(p, TU_REGION_SIZE + 100); /* rounded down to pages */
  CHECK(nvm_region_size(r) == TU_REGION_SIZE);
  CHECK(nvm_region_page_count(r) == (TU_REGION_SIZE - NVM_DATA_OFFSET) / NVM_PAGE_SIZE);
  CHECK(nvm_region_mode(r) == NVM_MODE_EMULATED); /* PMEM_IS_PMEM_FORCE=1 */
  CHECK(nvm_barrier_count(r) == 2);
  const uint8_t *b = nvm_region_base(r);
  uint64_t creation_id = rd64(b, NVM_HDR_CREATION_ID);
  tu_close(r);

  r = tu_open(p);
  b = nvm_region_base(r);
  CHECK(rd64(b, NVM_HDR_MAGIC) == NVM_REGION_MAGIC);
  CHECK(rd32(b, NVM_HDR_VERSION) == NVM_FORMAT_VERSION);
  CHECK(rd32(b, NVM_HDR_HEADER_SIZE) == NVM_HEADER_SIZE);
  CHECK(rd64(b, NVM_HDR_REGION_SIZE) == TU_REGION_SIZE);
  CHECK(rd32(b, NVM_HDR_PAGE_SIZE) == NVM_PAGE_SIZE);
  CHECK(rd64(b, NVM_HDR_DATA_OFFSET) == NVM_DATA_OFFSET);
  CHECK(rd64(b, NVM_HDR_PAGE_COUNT) == nvm_region_page_count(r));
  CHECK(rd64(b, NVM_HDR_CREATION_ID) == creation_id);
  CHECK(rd64(b, NVM_HDR_CREATION_TIME) > 1600000000000ull);
  CHECK(rd32(b, NVM_HDR_NAMESPACE_ID) == 42);
  CHECK(strcmp((const char *)b + NVM_HDR_CLUSTER_ID, "CID-test") == 0);
  CHECK(strcmp((const char *)b + NVM_HDR_BLOCKPOOL_ID, "BP-1-127.0.0.1-1") == 0);
  CHECK(rd32(b, NVM_HDR_CRC) == nvm_crc32c(0, b, NVM_HDR_CRC_COVERED));
  CHECK(rd64(b, NVM_SB_MAGIC) == NVM_SUPER_MAGIC);
  nvm_usage u;
  nvm_region_usage(r, &u);
  CHECK(u.pages_total == nvm_region_page_count(r) && u.pages_used == 0 &&
        u.pages_free == u.pages_total);
  CHECK(u.high_water == 0);
  nvm_recovery rec;
  nvm_recovery_report(r, &rec);
  CHECK(rec.inodes_live == 0 && rec.pages_scanned == u.pages_total);
  tu_close(r);

  /* read-only open */
  CHECK_OK(nvm_region_open(p, NVM_MODE_AUTO, NVM_OPEN_READONLY, &r));
  CHECK(nvm_region_readonly(r));
  uint64_t off;
  CHECK_RC(nvm_reserve_pages(r, 1, &off), NVM_EINVAL);
  tu_close(r);

  CHECK(strcmp(nvm_mode_name(NVM_MODE_PMEM), "pmem") == 0);
  CHECK(strcmp(nvm_mode_name(NVM_MODE_EMULATED), "emulated") == 0);
  CHECK(strcmp(nvm_mode_name(NVM_MODE_DISK), "disk") == 0);
  CHECK(strcmp(nvm_mode_name(NVM_MODE_AUTO), "auto") == 0);

  /* identity strings too long: nothing created */
  char longid[80];
  memset(longid, 'x', 64);
  longid[64] = 0;
  nvm_identity id = {1, longid, NULL};
  const char *p2 = tu_path("toolong");
  CHECK_RC(nvm_region_create(p2, TU_REGION_SIZE, &id, NVM_MODE_AUTO, &r), NVM_ETOOLONG);
  CHECK(access(p2, F_OK) != 0);
  CHECK_RC(nvm_region_create(p2, NVM_MIN_REGION_SIZE - NVM_PAGE_SIZE, NULL, NVM_MODE_AUTO, &r),
           NVM_EINVAL);
  CHECK(access(p2, F_OK) != 0);
  longid[63] = 0; /* exactly 63 is fine */
  CHECK_OK(nvm_region_create(p2, NVM_MIN_REGION_SIZE, &id, NVM_MODE_AUTO, &r));
  tu_close(r);
  printf("create/open ok\n");
  return 0;
}
