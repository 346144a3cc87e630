/* Without PMEM_IS_PMEM_FORCE on a non-DAX file: explicit PMEM -> NVM_EMODE
 * (create leaves no file, open leaves it byte-identical); AUTO -> disk. */
#include "test_util.h"

#include <unistd.h>

int main(void) {
  const char *p = tu_path("nopmem"), *copy = tu_path("nopmem-copy");
  nvm_region *r;
  CHECK_RC(nvm_region_create(p, NVM_MIN_REGION_SIZE, NULL, NVM_MODE_PMEM, &r), NVM_EMODE);
  CHECK_MSG("is not persistent memory (pmem_is_pmem=0); use persist mode 'emulated' or 'disk'");
  CHECK(access(p, F_OK) != 0);

  CHECK_OK(nvm_region_create(p, NVM_MIN_REGION_SIZE, NULL, NVM_MODE_AUTO, &r));
  CHECK(nvm_region_mode(r) == NVM_MODE_DISK && nvm_region_is_pmem(r) == 0);
  tu_close(r);
  tu_copy(p, copy);
  CHECK_RC(nvm_region_open(p, NVM_MODE_PMEM, 0, &r), NVM_EMODE);
  CHECK_MSG(p);
  CHECK(tu_same_file(p, copy));
  CHECK_OK(nvm_region_open(p, NVM_MODE_EMULATED, 0, &r));
  CHECK(nvm_region_mode(r) == NVM_MODE_EMULATED);
  tu_close(r);
  printf("mode pmem refused ok\n");
  return 0;
}
