/* The exported layout table contains every constant as NAME=value. */
#include "test_util.h"

int main(void) {
  const char *t = nvm_layout_table();
  CHECK(strstr(t, "PAGE_SIZE=256\n") != NULL);
  CHECK(strstr(t, "\nDATA_OFFSET=16384\n") != NULL);
  CHECK(strstr(t, "\nUNDO_PAYLOAD_MAX=8168\n") != NULL);
  CHECK(strstr(t, "\nROOT_INODE_ID=16385\n") != NULL);
  char buf[64];
  snprintf(buf, sizeof buf, "\nREGION_MAGIC=%llu\n", NVM_REGION_MAGIC);
  CHECK(strstr(t, buf) != NULL);
  snprintf(buf, sizeof buf, "\nPAGE_MAGIC=%llu\n", NVM_PAGE_MAGIC);
  CHECK(strstr(t, buf) != NULL);
  CHECK(strstr(t, "\nMAX_PAGE_COUNT=4294967295\n") != NULL);
  CHECK(strncmp(nvm_version_string(), "libhdfsnvm ", 11) == 0);
  CHECK(strstr(nvm_version_string(), "libpmem 1.") != NULL);
  CHECK(strcmp(nvm_strerror(NVM_EFULL), "NVM_EFULL") == 0);
  printf("%s\n", nvm_version_string());
  return 0;
}
