/* Create over an existing file -> NVM_EEXIST, file unchanged; a second open
 * of an open region -> NVM_EBUSY. */
#include "test_util.h"

int main(void) {
  const char *p = tu_path("busy"), *copy = tu_path("busycopy");
  nvm_region *r = tu_create(p, NVM_MIN_REGION_SIZE), *r2 = NULL;
  CHECK_RC(nvm_region_open(p, NVM_MODE_AUTO, 0, &r2), NVM_EBUSY);
  CHECK_MSG("in use by another process");
  CHECK_RC(nvm_region_open(p, NVM_MODE_AUTO, NVM_OPEN_READONLY, &r2), NVM_EBUSY);
  tu_close(r);

  /* two read-only opens share the lock; a writer is refused meanwhile */
  nvm_region *ro1, *ro2;
  CHECK_OK(nvm_region_open(p, NVM_MODE_AUTO, NVM_OPEN_READONLY, &ro1));
  CHECK_OK(nvm_region_open(p, NVM_MODE_AUTO, NVM_OPEN_READONLY, &ro2));
  CHECK_RC(nvm_region_open(p, NVM_MODE_AUTO, 0, &r2), NVM_EBUSY);
  tu_close(ro1);
  tu_close(ro2);

  tu_copy(p, copy);
  CHECK_RC(nvm_region_create(p, NVM_MIN_REGION_SIZE, NULL, NVM_MODE_AUTO, &r2), NVM_EEXIST);
  CHECK_MSG("already exists");
  CHECK(tu_same_file(p, copy));
  const char *t = tu_path("text");
  tu_write_file(t, "not a region\n", 13);
  CHECK_RC(nvm_region_create(t, NVM_MIN_REGION_SIZE, NULL, NVM_MODE_AUTO, &r2), NVM_EEXIST);
  size_t n;
  uint8_t *d = tu_read_file(t, &n);
  CHECK(n == 13 && memcmp(d, "not a region\n", 13) == 0);
  free(d);
  printf("busy/exists ok\n");
  return 0;
}
