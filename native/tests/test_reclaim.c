/* Reclaim at open, one scenario per registered test (argv[1]):
 *   orphan_subtree  invalidating a directory page reclaims its whole subtree
 *   parent_reuse    a child whose parent page holds another directory is neither
 *                   adopted nor reclaimed: open refuses, the file is unchanged
 *   broken_link     a parent link pointing at a never-used page, or forming a
 *                   cycle, makes open refuse instead of reclaiming
 *   pending         written-but-never-committed pages are discarded
 *   ext             extension pages no inode reaches are reclaimed
 *   strings         unreferenced strings are reclaimed, referenced ones kept */
#include "test_util.h"

static const uint64_t R = NVM_ROOT_INODE_ID;
static nvm_region *r;
static uint64_t root;
static const char *path;

static void setup(void) {
  path = tu_path("reclaim");
  r = tu_create(path, NVM_MIN_REGION_SIZE);
  root = tu_make_dir(r, R, 0, 0, "");
  tu_set_root(r, root);
}

static void free_page(uint64_t off) {
  tu_batch b;
  tb_init(&b);
  tb_add(&b, NVM_OP_FREE, NVM_F_PAGE, off, NULL, 0);
  CHECK_OK(tb_apply(r, &b));
  tb_free(&b);
}

static void reopen(nvm_recovery *rec) {
  tu_close(r);
  r = tu_open(path);
  nvm_recovery_report(r, rec);
}

static int in_order(uint64_t off) {
  uint64_t n;
  const uint64_t *o = nvm_recovered_inodes(r, &n);
  for (uint64_t i = 0; i < n; i++)
    if (o[i] == off) return 1;
  return 0;
}

static void orphan_subtree(void) {
  uint64_t d1 = tu_make_dir(r, R + 1, root, R, "d1");
  uint64_t d2 = tu_make_dir(r, R + 2, d1, R + 1, "d2");
  char longname[120];
  memset(longname, 'x', 119);
  longname[119] = 0;
  tu_inode fin = {NVM_KIND_FILE, R + 3, d2, R + 2, longname, 0, 0, 0, 0, 10};
  uint64_t f = tu_make_inode(r, &fin); /* 1 NAME_EXT + 1 BLOCK_EXT */
  uint64_t keep = tu_make_dir(r, R + 4, root, R, "keep");
  free_page(d1);
  nvm_recovery rec;
  reopen(&rec);
  CHECK(rec.orphans_reclaimed == 2 && rec.ext_reclaimed == 2 && rec.inodes_live == 2);
  CHECK(NVM_STATE_OF(tu_ld64(r, d2)) == NVM_STATE_INVALID &&
        NVM_STATE_OF(tu_ld64(r, f)) == NVM_STATE_INVALID);
  CHECK(in_order(keep) && !in_order(d2) && !in_order(f));
  nvm_usage u;
  nvm_region_usage(r, &u);
  CHECK(u.pages_used == 2 && u.high_water == 7);
  /* the five freed pages are handed out again, before never-used ones */
  uint64_t offs[6];
  CHECK_OK(nvm_reserve_pages(r, 6, offs));
  for (int i = 0; i < 5; i++) CHECK(offs[i] == d1 + (uint64_t)i * NVM_PAGE_SIZE);
  CHECK(offs[5] == keep + NVM_PAGE_SIZE);
  CHECK(f == d1 + 2 * NVM_PAGE_SIZE);
  tu_close(r);
}

static void parent_reuse(void) {
  /* Freeing a directory without its children and reusing its page is not something a delete
   * does (it frees the whole subtree in the batch); it is what a damaged parent link looks like. */
  uint64_t d1 = tu_make_dir(r, R + 1, root, R, "d1");
  uint64_t child = tu_make_dir(r, R + 2, d1, R + 1, "child");
  free_page(d1);
  /* a freed page is handed out again once two more records committed (region-format.md
   * §7.4): two batches that change a counter */
  for (uint64_t i = 1; i <= 2; i++) {
    tu_batch b;
    tb_init(&b);
    tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_TXID, i);
    CHECK_OK(tb_apply(r, &b));
    tb_free(&b);
  }
  uint64_t d1b = tu_make_dir(r, R + 3, root, R, "d1-new"); /* same page, new id */
  CHECK(d1b == d1);
  tu_close(r);
  const char *copy = tu_path("reclaim-copy");
  tu_copy(path, copy);
  nvm_region *r2 = NULL;
  CHECK_RC(nvm_region_open(path, NVM_MODE_AUTO, 0, &r2), NVM_ECORRUPT);
  CHECK_MSG("not attached to the tree");
  CHECK_MSG("damaged parent link");
  CHECK_OFFSET(child + NVM_IN_PARENT_ID); /* the parent page is a directory, with another id */
  CHECK(tu_same_file(path, copy));
}

/* Applies `b` to a copy of `base`, closes it, and checks that open refuses it unchanged,
 * pointing at `at` or `or_at`. */
static void damaged_is_refused(const char *base, tu_batch *b, const char *what, uint64_t at,
                               uint64_t or_at) {
  const char *work = tu_path("reclaim-damaged"), *copy = tu_path("reclaim-damaged-copy");
  tu_copy(base, work);
  nvm_region *w = tu_open(work);
  CHECK_OK(tb_apply(w, b));
  tu_close(w);
  tu_copy(work, copy);
  nvm_region *r2 = NULL;
  CHECK_RC(nvm_region_open(work, NVM_MODE_AUTO, 0, &r2), NVM_ECORRUPT);
  CHECK_MSG("damaged parent link");
  CHECK(nvm_erroroffset() == (int64_t)at || nvm_erroroffset() == (int64_t)or_at);
  CHECK(tu_same_file(work, copy));
  printf("  %s: refused at %lld, file unchanged\n", what, (long long)nvm_erroroffset());
}

static void broken_link(void) {
  uint64_t d1 = tu_make_dir(r, R + 1, root, R, "d1");
  uint64_t d2 = tu_make_dir(r, R + 2, d1, R + 1, "d2");
  tu_inode fin = {NVM_KIND_FILE, R + 3, d2, R + 2, "f", 0, 0, 0, 0, 1};
  uint64_t f = tu_make_inode(r, &fin);
  tu_close(r);
  tu_batch b;
  tb_init(&b);
  /* the file's parent page field names a page that was never used */
  tb_add64(&b, NVM_F_PARENT, f + NVM_IN_PARENT_PAGE, f + 64 * NVM_PAGE_SIZE);
  damaged_is_refused(path, &b, "parent page never used", f + NVM_IN_PARENT_PAGE,
                     f + NVM_IN_PARENT_PAGE);
  /* d1 and d2 name each other as parent: a cycle, detached from the root */
  tb_add64(&b, NVM_F_PARENT, d1 + NVM_IN_PARENT_PAGE, d2);
  tb_add64(&b, NVM_F_PARENT, d1 + NVM_IN_PARENT_ID, R + 2);
  damaged_is_refused(path, &b, "parent cycle", d1 + NVM_IN_PARENT_PAGE, d2 + NVM_IN_PARENT_PAGE);
  tb_free(&b);
  /* the undamaged region still opens */
  r = tu_open(path);
  tu_close(r);
}

static void pending(void) {
  uint64_t off;
  CHECK_OK(nvm_reserve_pages(r, 1, &off));
  tu_inode in = {NVM_KIND_DIR, R + 1, root, R, "never-committed", 0, 0, 0, 0, 0};
  uint8_t page[NVM_PAGE_SIZE];
  tu_inode_image(page, &in, NVM_STATE_PENDING, 0, 0);
  tu_batch b;
  tb_init(&b);
  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, off, page, NVM_PAGE_SIZE);
  CHECK_OK(tb_apply(r, &b));
  tb_free(&b);
  nvm_recovery rec;
  reopen(&rec);
  CHECK(rec.pending_discarded == 1 && rec.inodes_live == 1 && rec.orphans_reclaimed == 0);
  CHECK(!in_order(off));
  nvm_usage u;
  nvm_region_usage(r, &u);
  CHECK(u.pages_used == 1 && u.high_water == 2);
  uint64_t again;
  CHECK_OK(nvm_reserve_pages(r, 1, &again));
  CHECK(again == off);
  tu_close(r);
}

static void ext(void) {
  uint64_t off;
  CHECK_OK(nvm_reserve_pages(r, 1, &off));
  uint8_t page[NVM_PAGE_SIZE] = {0};
  uint64_t word = NVM_STATE_WORD(NVM_KIND_BLOCK_EXT, NVM_STATE_LIVE), owner = R, count = 1;
  memcpy(page, &word, 8);
  memcpy(page + NVM_EXT_OWNER_ID, &owner, 8);
  memcpy(page + NVM_EXT_COUNT, &count, 8);
  tu_batch b;
  tb_init(&b);
  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, off, page, NVM_PAGE_SIZE);
  CHECK_OK(tb_apply(r, &b));
  tb_free(&b);
  nvm_recovery rec;
  reopen(&rec);
  CHECK(rec.ext_reclaimed == 1 && rec.inodes_live == 1);
  CHECK(tu_ld64(r, off) == NVM_STATE_WORD(NVM_KIND_BLOCK_EXT, NVM_STATE_INVALID));
  tu_close(r);
}

static void strings(void) {
  uint64_t s1 = tu_make_string(r, 1, "hdfs");
  uint64_t s2 = tu_make_string(r, 2, "unused");
  uint64_t s3 = tu_make_string(r, 3, "client");
  tu_inode fin = {NVM_KIND_FILE, R + 1, root, R, "f", 1, 0, 3, 0, 0};
  tu_make_inode(r, &fin);
  nvm_recovery rec;
  reopen(&rec);
  CHECK(rec.strings_reclaimed == 1 && rec.strings_live == 2);
  CHECK(NVM_STATE_OF(tu_ld64(r, s1)) == NVM_STATE_LIVE &&
        NVM_STATE_OF(tu_ld64(r, s3)) == NVM_STATE_LIVE);
  CHECK(NVM_STATE_OF(tu_ld64(r, s2)) == NVM_STATE_INVALID);
  uint64_t n;
  const uint64_t *so = nvm_recovered_strings(r, &n);
  CHECK(n == 2 && so[0] == s1 && so[1] == s3);
  tu_close(r);
}

int main(int argc, char **argv) {
  CHECK(argc == 2);
  setup();
  if (!strcmp(argv[1], "orphan_subtree"))
    orphan_subtree();
  else if (!strcmp(argv[1], "parent_reuse"))
    parent_reuse();
  else if (!strcmp(argv[1], "broken_link"))
    broken_link();
  else if (!strcmp(argv[1], "pending"))
    pending();
  else if (!strcmp(argv[1], "ext"))
    ext();
  else if (!strcmp(argv[1], "strings"))
    strings();
  else
    CHECK(!"unknown scenario");
  printf("reclaim %s ok\n", argv[1]);
  return 0;
}
