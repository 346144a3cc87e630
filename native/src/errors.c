/* errors.c — per-thread error messages and symbolic error names. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nvm_internal.h"

static __thread char errbuf[512];

const char *nvm_errormsg(void) { return errbuf; }

void nvm_clear_error(void) { errbuf[0] = '\0'; }

/* Format the message for this thread and return code. For NVM_EIO the
 * current errno text is appended (capture errno before anything clobbers it). */
int nvm_fail(int code, const char *fmt, ...) {
  int saved = errno;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(errbuf, sizeof errbuf, fmt, ap);
  va_end(ap);
  if (code == NVM_EIO && n >= 0 && (size_t)n < sizeof errbuf)
    snprintf(errbuf + n, sizeof errbuf - (size_t)n, ": %s", strerror(saved));
  errno = saved;
  return code;
}

/* Generated from NVM_ERRORS (nvmns.h); a duplicate value is a duplicate case
 * label, which does not compile. */
const char *nvm_strerror(int code) {
  switch (code) {
#define NVM_X_CASE(name, value, meaning) case NVM_##name: return "NVM_" #name;
    NVM_ERRORS(NVM_X_CASE)
#undef NVM_X_CASE
    default: return "NVM_EUNKNOWN";
  }
}
