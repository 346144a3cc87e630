/* Structural corruption found by recovery -> NVM_ECORRUPT naming it, pointing at
 * the damaged field (nvm_erroroffset), with the file byte-identical (no reclaim
 * write happened). Scenario in argv[1]:
 *   owner       a BLOCK_EXT page with a wrong owner id
 *   string      an inode refers to a string id with no live string page
 *   namelen     a name length over NAME_MAX
 *   dupid       two attached inodes with the same id (ids dense: found by the id bitmap)
 *   dupid_sparse  the same, ids far apart (found by sorting them)
 *   slash, dotdot, slash_ext  names no HDFS operation writes ('/', "..", a '/'
 *               byte in a name-extension page; a NUL byte is a valid name byte)
 *   str_owner   a referenced string's STRING_EXT page with a wrong owner id
 *   str_short   a referenced string longer than its chain
 *   str_kind    a referenced string's link to a page of another kind
 *   root        the superblock root page is not a live directory
 *   link        a file's block chain link names an offset inside a page
 *   word        a page's state word with a bit set outside state and kind */
#include "test_util.h"

static const uint64_t R = NVM_ROOT_INODE_ID;

int main(int argc, char **argv) {
  CHECK(argc == 2);
  const char *p = tu_path("corrupt"), *copy = tu_path("corrupt-copy");
  nvm_region *r = tu_create(p, NVM_MIN_REGION_SIZE);
  uint64_t root = tu_make_dir(r, R, 0, 0, "");
  tu_set_root(r, root);
  tu_inode fin = {NVM_KIND_FILE, R + 1, root, R, "f", 0, 0, 0, 0, 10};
  uint64_t f = tu_make_inode(r, &fin);
  /* a delete's leftover that recovery would reclaim (a write) if it did not refuse first */
  uint64_t gone = tu_make_dir(r, R + 8, root, R, "gone");
  tu_make_dir(r, R + 9, gone, R + 8, "orphan");
  tu_batch b;
  tb_init(&b);
  const char *needle = NULL;
  uint64_t at = 0; /* the offset the refusal must point at */
  if (!strcmp(argv[1], "owner")) {
    at = tu_ld64(r, f + NVM_FI_BLOCK_EXT) + NVM_EXT_OWNER_ID;
    tb_add64(&b, NVM_F_EXT_LINK, at, R + 7);
    needle = "block chain of inode 16386";
  } else if (!strcmp(argv[1], "string")) {
    tb_add64(&b, NVM_F_PERM, f + NVM_IN_PERM, 0644 | 5ull << NVM_PERM_OWNER_SHIFT);
    needle = "string id 5";
    at = f + NVM_IN_PERM;
  } else if (!strcmp(argv[1], "namelen")) {
    tb_add64(&b, NVM_F_NAME, f + NVM_IN_NAME_LEN, NVM_NAME_MAX + 1);
    needle = "name length 65536";
    at = f + NVM_IN_NAME_LEN;
  } else if (!strcmp(argv[1], "dupid")) {
    uint64_t dup = tu_make_dir(r, R + 1, root, R, "dup");
    tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_TXID, 1);
    needle = "inode id 16386 appears on two";
    at = (dup > f ? dup : f) + NVM_IN_ID; /* the page at the higher offset */
  } else if (!strcmp(argv[1], "dupid_sparse")) {
    uint64_t far1 = tu_make_dir(r, R + 1000000, root, R, "far1");
    uint64_t far2 = tu_make_dir(r, R + 1000000, root, R, "far2");
    tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_TXID, 1);
    needle = "inode id 1016385 appears on two";
    at = (far1 > far2 ? far1 : far2) + NVM_IN_ID;
  } else if (!strcmp(argv[1], "slash")) {
    tb_add64(&b, NVM_F_NAME, f + NVM_IN_NAME_INLINE, '/'); /* "f" becomes "/" */
    needle = "has a name that contains '/'";
    at = f + NVM_IN_NAME_LEN;
  } else if (!strcmp(argv[1], "dotdot")) {
    tb_add64(&b, NVM_F_NAME, f + NVM_IN_NAME_INLINE, '.' | '.' << 8);
    tb_add64(&b, NVM_F_NAME, f + NVM_IN_NAME_LEN, 2);
    needle = "is \".\" or \"..\"";
    at = f + NVM_IN_NAME_LEN;
  } else if (!strcmp(argv[1], "slash_ext")) {
    char longname[120];
    memset(longname, 'q', sizeof longname - 1);
    longname[sizeof longname - 1] = 0;
    tu_inode lin = {NVM_KIND_FILE, R + 2, root, R, longname, 0, 0, 0, 0, 0};
    uint64_t lf = tu_make_inode(r, &lin);
    uint64_t ext = tu_ld64(r, lf + NVM_IN_NAME_EXT);
    tb_add64(&b, NVM_F_NAME, ext + NVM_EXT_PAYLOAD + 8,
             0x717171712f717171ull); /* a '/' in the extension */
    needle = "contains '/'";
    at = lf + NVM_IN_NAME_LEN;
  } else if (!strncmp(argv[1], "str_", 4)) {
    char text[500];
    memset(text, 'u', sizeof text);
    uint64_t sp = tu_make_string_n(r, 7, text, sizeof text); /* a chain of 3 pages */
    uint64_t e1 = tu_ld64(r, sp + NVM_ST_EXT),
             e3 = tu_ld64(r, tu_ld64(r, e1 + NVM_EXT_NEXT) + NVM_EXT_NEXT);
    tb_add64(&b, NVM_F_PERM, f + NVM_IN_PERM, 0644 | 7ull << NVM_PERM_OWNER_SHIFT);
    if (!strcmp(argv[1], "str_owner")) {
      at = e1 + NVM_EXT_OWNER_ID;
      tb_add64(&b, NVM_F_EXT_LINK, at, 8);
      needle = "string chain of string 7";
    } else if (!strcmp(argv[1], "str_short")) {
      tb_add64(&b, NVM_F_STRING, sp + NVM_ST_LEN, sizeof text + 1);
      at = e3 + NVM_EXT_NEXT;
      needle = "ends before covering the data";
    } else {
      at = sp + NVM_ST_EXT;
      tb_add64(&b, NVM_F_EXT_LINK, at, f);
      needle = "is not a live extension page of the right kind";
    }
  } else if (!strcmp(argv[1], "root")) {
    tb_add64(&b, NVM_F_COUNTER, NVM_SB_ROOT_PAGE, f);
    needle = "is not a live directory";
    at = NVM_SB_ROOT_PAGE;
  } else if (!strcmp(argv[1], "link")) {
    at = f + NVM_FI_BLOCK_EXT;
    tb_add64(&b, NVM_F_EXT_LINK, at, tu_ld64(r, at) + 8);
    needle = "is not a data page";
  } else if (!strcmp(argv[1], "word")) {
    at = f;
    tb_add64(&b, NVM_F_STATE, f + NVM_PG_STATE, /* the library seals the top half: a low bit */
             NVM_STATE_WORD(NVM_KIND_FILE, NVM_STATE_LIVE) ^ 1ull << 20);
    needle = "bad state word";
  } else {
    CHECK(!"unknown scenario");
  }
  tb_add(&b, NVM_OP_FREE, NVM_F_PAGE, gone, NULL, 0); /* after every allocation above */
  CHECK_OK(tb_apply(r, &b));
  tb_free(&b);
  tu_close(r);
  tu_copy(p, copy);
  CHECK_RC(nvm_region_open(p, NVM_MODE_AUTO, 0, &r), NVM_ECORRUPT);
  CHECK_MSG(needle);
  CHECK_OFFSET(at);
  printf("  at %llu: %s\n", (unsigned long long)at, nvm_errormsg());
  CHECK(tu_same_file(p, copy));
  /* a read-only open still works for the checker */
  CHECK_OK(nvm_region_open(p, NVM_MODE_AUTO, NVM_OPEN_READONLY, &r));
  tu_close(r);
  printf("corrupt %s ok\n", argv[1]);
  return 0;
}
