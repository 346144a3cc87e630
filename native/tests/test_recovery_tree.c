/* Recovery of a small tree: the order (directories breadth first, then files in page
 * order), counts, extension chains, strings. */
#include "test_util.h"

int main(void) {
  const char *p = tu_path("tree");
  nvm_region *r = tu_create(p, NVM_MIN_REGION_SIZE);
  uint64_t s[4];
  const char *names[4] = {"hdfs", "supergroup", "DFSClient_1", "host1"};
  for (int i = 0; i < 4; i++) s[i] = tu_make_string(r, (uint64_t)i + 1, names[i]);
  const uint64_t R = NVM_ROOT_INODE_ID;
  tu_inode rootin = {NVM_KIND_DIR, R, 0, 0, "", 1, 2, 0, 0, 0};
  uint64_t root = tu_make_inode(r, &rootin);
  uint64_t d1 = tu_make_dir(r, R + 1, root, R, "d1");
  uint64_t d2 = tu_make_dir(r, R + 2, root, R, "d2");
  char longname[301];
  memset(longname, 'n', 300);
  longname[300] = 0;
  tu_inode f2in = {NVM_KIND_FILE, R + 3, root, R, longname, 1, 2, 0, 0, 3};
  uint64_t f2 = tu_make_inode(r, &f2in); /* + 2 NAME_EXT pages */
  uint64_t d3 = tu_make_dir(r, R + 4, d1, R + 1, "d3");
  tu_inode f1in = {NVM_KIND_FILE, R + 5, d1, R + 1, "f1", 1, 2, 3, 4, 30};
  uint64_t f1 = tu_make_inode(r, &f1in); /* + 3 BLOCK_EXT pages */
  tu_set_root(r, root);
  tu_close(r);

  r = tu_open(p);
  nvm_recovery rec;
  nvm_recovery_report(r, &rec);
  printf("recovered in %llu ns\n", (unsigned long long)rec.elapsed_ns);
  CHECK(rec.inodes_live == 6 && rec.strings_live == 4);
  CHECK(rec.orphans_reclaimed == 0 && rec.ext_reclaimed == 0 && rec.strings_reclaimed == 0);
  CHECK(rec.pending_discarded == 0 && rec.undo_rolled_back == 0);
  uint64_t n;
  const uint64_t *order = nvm_recovered_inodes(r, &n);
  uint64_t want[6] = {root, d1, d2, d3, f2, f1};
  CHECK(n == 6);
  for (int i = 0; i < 6; i++) CHECK(order[i] == want[i]);
  const uint64_t *strs = nvm_recovered_strings(r, &n);
  CHECK(n == 4);
  for (int i = 0; i < 4; i++) CHECK(strs[i] == s[i]);
  nvm_usage u;
  nvm_region_usage(r, &u);
  CHECK(u.pages_used == 4 + 6 + 2 + 3 && u.high_water == 15 && u.pages_free == u.pages_total - 15);
  /* the name extension really holds the tail of the name */
  uint64_t ext = tu_ld64(r, f2 + NVM_IN_NAME_EXT);
  CHECK(tu_ld64(r, ext + NVM_EXT_COUNT) == NVM_NAME_EXT_MAX);
  CHECK(tu_ld64(r, tu_ld64(r, ext + NVM_EXT_NEXT) + NVM_EXT_COUNT) == 300 - 48 - NVM_NAME_EXT_MAX);
  tu_close(r);

  /* read-only open does not recover, but sees the same bytes */
  CHECK_OK(nvm_region_open(p, NVM_MODE_AUTO, NVM_OPEN_READONLY, &r));
  CHECK(tu_counter(r, NVM_SB_ROOT_PAGE) == root);
  tu_close(r);
  printf("recovery tree ok\n");
  return 0;
}
