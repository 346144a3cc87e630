/* layout.c — the exported table of format facts (nvm_layout_table) and the
 * version string. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include "nvm_internal.h"

#ifndef NVM_PMEM_VERSION
#define NVM_PMEM_VERSION "unknown"
#endif

static char table_buf[16384];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

/* Appends one line. A line that does not fit ends the table there (never a
 * partial line); test_layout_table checks that the last line is present. */
static size_t put_line(size_t at, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static size_t put_line(size_t at, const char *fmt, ...) {
  if (at >= sizeof table_buf) return at;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(table_buf + at, sizeof table_buf - at, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof table_buf - at) {
    table_buf[at] = '\0';
    return sizeof table_buf;
  }
  return at + (size_t)n;
}

static void build_table(void) {
  size_t at = 0;
#define NVM_X_PUT(name, value) at = put_line(at, "%s=%lld\n", #name, (long long)(value));
  NVM_LAYOUT_CONSTANTS(NVM_X_PUT)
#undef NVM_X_PUT
  at = put_line(at, "REGION_MAGIC=%llu\n", NVM_REGION_MAGIC);
  at = put_line(at, "SUPER_MAGIC=%llu\n", NVM_SUPER_MAGIC);
  at = put_line(at, "PAGE_MAGIC=%llu\n", NVM_PAGE_MAGIC);
  at = put_line(at, "MAX_PAGE_COUNT=%llu\n", NVM_MAX_PAGE_COUNT);
  at = put_line(at, "WAL_MAGIC=%llu\n", NVM_WAL_MAGIC);
  at = put_line(at, "WAL_RECORD_MAGIC=%u\n", NVM_WAL_RECORD_MAGIC);
  at = put_line(at, "BATCH_HEADER=%d\n", NVM_BATCH_HEADER);
  at = put_line(at, "BATCH_ENTRY_HEADER=%d\n", NVM_BATCH_ENTRY_HEADER);
#define NVM_X_PUT(prefix, name, value, meaning) \
  at = put_line(at, "%s%s=%d %s\n", prefix, #name, (int)(value), meaning);
#define NVM_X_ERROR(name, value, meaning) NVM_X_PUT("ERROR_", name, value, meaning)
#define NVM_X_OP(name, value, meaning) NVM_X_PUT("OP_", name, value, meaning)
#define NVM_X_FIELD(name, value, meaning) NVM_X_PUT("FIELD_", name, value, meaning)
#define NVM_X_MODE(name, value, config) NVM_X_PUT("MODE_", name, value, config)
  NVM_ERRORS(NVM_X_ERROR)
  NVM_OPS(NVM_X_OP)
  NVM_FIELDS(NVM_X_FIELD)
  NVM_MODES(NVM_X_MODE)
#undef NVM_X_MODE
#undef NVM_X_FIELD
#undef NVM_X_OP
#undef NVM_X_ERROR
#undef NVM_X_PUT
}

const char *nvm_layout_table(void) {
  pthread_once(&table_once, build_table);
  return table_buf;
}

const char *nvm_version_string(void) {
  return "libhdfsnvm " NVM_LIB_VERSION " (libpmem " NVM_PMEM_VERSION ")";
}
