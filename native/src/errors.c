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

const char *nvm_strerror(int code) {
  switch (code) {
    case NVM_OK: return "NVM_OK";
    case NVM_EIO: return "NVM_EIO";
    case NVM_ENOTREGION: return "NVM_ENOTREGION";
    case NVM_EVERSION: return "NVM_EVERSION";
    case NVM_ECORRUPT: return "NVM_ECORRUPT";
    case NVM_ETRUNCATED: return "NVM_ETRUNCATED";
    case NVM_EFULL: return "NVM_EFULL";
    case NVM_EINVAL: return "NVM_EINVAL";
    case NVM_EEXIST: return "NVM_EEXIST";
    case NVM_EMODE: return "NVM_EMODE";
    case NVM_ECRASHED: return "NVM_ECRASHED";
    case NVM_ETOOLONG: return "NVM_ETOOLONG";
    case NVM_EBUSY: return "NVM_EBUSY";
    default: return "NVM_EUNKNOWN";
  }
}
