/* errors.c — per-thread error messages (with the file offset they point at) and
 * symbolic error names. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nvm_internal.h"

static __thread char errbuf[512];
static __thread int64_t erroff = NVM_NO_OFFSET;

const char *nvm_errormsg(void) { return errbuf; }

int64_t nvm_erroroffset(void) { return erroff; }

void nvm_clear_error(void) {
  errbuf[0] = '\0';
  erroff = NVM_NO_OFFSET;
}

/* Format the message for this thread, remember the offset, return code. For
 * NVM_EIO the current errno text is appended (errno is captured first). */
static int vfail(int code, int64_t offset, const char *fmt, va_list ap) {
  int saved = errno;
  int n = vsnprintf(errbuf, sizeof errbuf, fmt, ap);
  if (code == NVM_EIO && n >= 0 && (size_t)n < sizeof errbuf)
    snprintf(errbuf + n, sizeof errbuf - (size_t)n, ": %s", strerror(saved));
  erroff = offset < 0 ? NVM_NO_OFFSET : offset;
  errno = saved;
  return code;
}

int nvm_fail(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = vfail(code, NVM_NO_OFFSET, fmt, ap);
  va_end(ap);
  return rc;
}

int nvm_fail_at(int code, uint64_t offset, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = vfail(code, offset > (uint64_t)INT64_MAX ? NVM_NO_OFFSET : (int64_t)offset, fmt, ap);
  va_end(ap);
  return rc;
}

/* Generated from NVM_ERRORS (nvmns.h); a duplicate value is a duplicate case
 * label, which does not compile. */
const char *nvm_strerror(int code) {
  switch (code) {
#define NVM_X_CASE(name, value, meaning) \
  case NVM_##name: return "NVM_" #name;
    NVM_ERRORS(NVM_X_CASE)
#undef NVM_X_CASE
    default: return "NVM_EUNKNOWN";
  }
}
