/* Mode resolution with PMEM_IS_PMEM_FORCE=1: AUTO -> emulated, explicit
 * DISK -> disk (and it works), explicit EMULATED / PMEM honoured. */
#include "test_util.h"

static void roundtrip(const char *name, int mode, int want) {
  const char *p = tu_path(name);
  nvm_region *r;
  CHECK_OK(nvm_region_create(p, NVM_MIN_REGION_SIZE, NULL, mode, &r));
  CHECK(nvm_region_mode(r) == want);
  CHECK(nvm_region_is_pmem(r) == 1);
  tu_batch b;
  tb_init(&b);
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_BLOCK_ID, 4242);
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_GENSTAMP_V2, 1001);
  CHECK_OK(tb_apply(r, &b));
  tb_free(&b);
  tu_close(r);
  CHECK_OK(nvm_region_open(p, mode, 0, &r));
  CHECK(nvm_region_mode(r) == want);
  CHECK(tu_counter(r, NVM_SB_LAST_BLOCK_ID) == 4242 && tu_counter(r, NVM_SB_GENSTAMP_V2) == 1001);
  printf("  %s -> %s\n", nvm_mode_name(mode), nvm_mode_name(nvm_region_mode(r)));
  tu_close(r);
}

int main(void) {
  roundtrip("auto", NVM_MODE_AUTO, NVM_MODE_EMULATED);
  roundtrip("disk", NVM_MODE_DISK, NVM_MODE_DISK);
  roundtrip("emulated", NVM_MODE_EMULATED, NVM_MODE_EMULATED);
  roundtrip("pmem", NVM_MODE_PMEM, NVM_MODE_PMEM);
  nvm_region *r;
  CHECK_RC(nvm_region_create(tu_path("badmode"), NVM_MIN_REGION_SIZE, NULL, 7, &r), NVM_EINVAL);
  printf("mode auto ok\n");
  return 0;
}
