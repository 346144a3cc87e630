/* Strings of any length and names with any byte but '/' (region-format.md §5.2, §5.4):
 * recovery keeps a referenced string's STRING_EXT chain, reclaims an unreferenced string
 * with its chain, accepts a NUL byte in a name and a name of NAME_MAX bytes. */
#include "test_util.h"

static const uint64_t R = NVM_ROOT_INODE_ID;

static uint64_t chain_pages(const nvm_region *r, uint64_t sp) {
  uint64_t n = 0;
  for (uint64_t e = tu_ld64(r, sp + NVM_ST_EXT); e; e = tu_ld64(r, e + NVM_EXT_NEXT)) n++;
  return n;
}

int main(void) {
  const char *p = tu_path("strchain");
  nvm_region *r = tu_create(p, NVM_MIN_REGION_SIZE);
  static char user[10000], group[NVM_STRING_MAX + 1], gone[300];
  memset(user, 'a', sizeof user);
  memset(group, 'g', sizeof group);
  memset(gone, 'x', sizeof gone);
  uint64_t su = tu_make_string_n(r, 1, user, sizeof user); /* 45 STRING_EXT pages */
  uint64_t sg =
      tu_make_string_n(r, 2, group, sizeof group); /* one byte over: the 233 bytes in 2 pages */
  uint64_t sx = tu_make_string_n(r, 3, gone, sizeof gone); /* referenced by nothing */
  CHECK(chain_pages(r, su) == (sizeof user + NVM_NAME_EXT_MAX - 1) / NVM_NAME_EXT_MAX);
  CHECK(chain_pages(r, sg) == 2 && chain_pages(r, sx) == 2);
  uint64_t root = tu_make_dir(r, R, 0, 0, "");
  tu_set_root(r, root);
  tu_inode fin = {NVM_KIND_FILE, R + 1, root, R, "f", 1, 2, 0, 0, 0};
  tu_make_inode(r, &fin);
  /* a NUL byte inside a name, and a name of NAME_MAX bytes */
  tu_inode nin = {NVM_KIND_FILE, R + 2, root, R, "a", 1, 2, 0, 0, 0};
  uint64_t nf = tu_make_inode(r, &nin);
  tu_batch b;
  tb_init(&b);
  tb_add64(&b, NVM_F_NAME, nf + NVM_IN_NAME_INLINE, 'a' | 'b' << 16); /* "a\0b" */
  tb_add64(&b, NVM_F_NAME, nf + NVM_IN_NAME_LEN, 3);
  CHECK_OK(tb_apply(r, &b));
  static char longname[NVM_NAME_MAX + 1];
  memset(longname, 'n', NVM_NAME_MAX);
  tu_inode lin = {NVM_KIND_DIR, R + 3, root, R, longname, 1, 2, 0, 0, 0};
  tu_make_inode(r, &lin);
  tu_close(r);

  CHECK_OK(nvm_region_open(p, NVM_MODE_AUTO, 0, &r));
  nvm_recovery rec;
  nvm_recovery_report(r, &rec);
  printf("  strings live %llu, reclaimed %llu; extension pages reclaimed %llu\n",
         (unsigned long long)rec.strings_live, (unsigned long long)rec.strings_reclaimed,
         (unsigned long long)rec.ext_reclaimed);
  CHECK(rec.inodes_live == 4);
  CHECK(rec.strings_live == 2 && rec.strings_reclaimed == 1);
  CHECK(rec.ext_reclaimed == 2); /* the unreferenced string's chain */
  CHECK(tu_ld64(r, sx) == NVM_STATE_WORD(NVM_KIND_STRING, NVM_STATE_INVALID));
  CHECK(chain_pages(r, su) == 45 && tu_ld64(r, su + NVM_ST_LEN) == sizeof user);
  uint64_t n;
  const uint64_t *so = nvm_recovered_strings(r, &n), *refs = nvm_recovered_string_refs(r, &n);
  CHECK(n == 2 && so[0] == su && so[1] == sg);
  CHECK(refs[0] == 3 && refs[1] == 3); /* owner and group of the three inodes under the root */
  tu_close(r);

  /* a second open finds nothing to reclaim: the chains are kept pages */
  CHECK_OK(nvm_region_open(p, NVM_MODE_AUTO, 0, &r));
  nvm_recovery_report(r, &rec);
  CHECK(rec.strings_reclaimed == 0 && rec.ext_reclaimed == 0 && rec.strings_live == 2);
  tu_close(r);
  printf("string chains ok\n");
  return 0;
}
