/* layout.c — the exported layout table and version string. */
#include <pthread.h>
#include <stdio.h>

#include "nvm_internal.h"

#ifndef NVM_PMEM_VERSION
#define NVM_PMEM_VERSION "unknown"
#endif

static char table_buf[8192];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static size_t put(size_t at, const char *name, long long v) {
  int n = snprintf(table_buf + at, sizeof table_buf - at, "%s=%lld\n", name, v);
  return at + (size_t)n;
}

static size_t put_u(size_t at, const char *name, unsigned long long v) {
  int n = snprintf(table_buf + at, sizeof table_buf - at, "%s=%llu\n", name, v);
  return at + (size_t)n;
}

static void build_table(void) {
  size_t at = 0;
#define NVM_X_PUT(name, value) at = put(at, #name, (long long)(value));
  NVM_LAYOUT_CONSTANTS(NVM_X_PUT)
#undef NVM_X_PUT
  at = put_u(at, "REGION_MAGIC", NVM_REGION_MAGIC);
  at = put_u(at, "SUPER_MAGIC", NVM_SUPER_MAGIC);
  at = put_u(at, "PAGE_MAGIC", NVM_PAGE_MAGIC);
  put_u(at, "MAX_PAGE_COUNT", NVM_MAX_PAGE_COUNT);
}

const char *nvm_layout_table(void) {
  pthread_once(&table_once, build_table);
  return table_buf;
}

const char *nvm_version_string(void) {
  return "libhdfsnvm " NVM_LIB_VERSION " (libpmem " NVM_PMEM_VERSION ")";
}
