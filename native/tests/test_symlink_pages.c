/* Symlink pages (region-format.md §5.2): recovery keeps a symlink with an inline target and one
 * whose target takes a three-page target chain, and reclaims a target-chain page no symlink
 * reaches; it refuses, at the damaged field and without writing, a target length of 0 or over
 * SYMLINK_TARGET_MAX, a target chain page with a wrong owner, a chain too short for the length or
 * linked though the target fits inline, a child naming a symlink as its parent, and a SYMLINK page
 * in a region without FEATURE_SYMLINKS; a region without the feature and without symlinks gains
 * it at a read-write open. */
#include "nvm_internal.h" /* nvm_features_word */
#include "test_util.h"

static const uint64_t R = NVM_ROOT_INODE_ID;
#define ALL_FEATURES NVM_FEATURES_ALL
#define LONG_LEN 600 /* 112 inline, then 224 + 224 + 40 */

static const char *p, *base, *copy;
static uint64_t dir, file, short_link, long_link, chain[3], stray;
static char long_target[LONG_LEN];

/* The region: root, /d, /d/f, /s -> "/d" (inline), /d/l -> a 600-byte target (a chain of three
 * NAME_EXT pages), and a LIVE NAME_EXT page carrying /d/l's id that nothing links (a create that
 * crashed before its commit). */
static void build(void) {
  nvm_region *r = tu_create(p, NVM_MIN_REGION_SIZE);
  uint64_t root = tu_make_dir(r, R, 0, 0, "");
  tu_set_root(r, root);
  dir = tu_make_dir(r, R + 1, root, R, "d");
  tu_inode fin = {NVM_KIND_FILE, R + 2, dir, R + 1, "f", 0, 0, 0, 0, 1};
  file = tu_make_inode(r, &fin);
  short_link = tu_make_symlink(r, R + 3, root, R, "s", "/d", 2, NULL);
  for (int i = 0; i < LONG_LEN; i++) long_target[i] = (char)('a' + i % 26);
  long_target[0] = '/';
  long_link = tu_make_symlink(r, R + 4, dir, R + 1, "l", long_target, LONG_LEN, chain);
  CHECK_OK(nvm_reserve_pages(r, 1, &stray));
  uint8_t page[NVM_PAGE_SIZE] = {0};
  uint64_t w = NVM_STATE_WORD(NVM_KIND_NAME_EXT, NVM_STATE_LIVE), owner = R + 4, one = 1;
  memcpy(page, &w, 8);
  memcpy(page + NVM_EXT_OWNER_ID, &owner, 8);
  memcpy(page + NVM_EXT_COUNT, &one, 8);
  tu_batch b;
  tb_init(&b);
  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, stray, page, NVM_PAGE_SIZE);
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_INODE_ID, R + 4);
  CHECK_OK(tb_apply(r, &b));
  tb_free(&b);
  tu_close(r);
  tu_copy(p, base);
}

/* The bytes of a symlink's target as recovery left them: inline part, then the chain. */
static int target_is(nvm_region *r, uint64_t link, const char *want, uint64_t len) {
  if (tu_ld64(r, link + NVM_SL_TARGET_LEN) != len) return 0;
  const uint8_t *base_ptr = nvm_region_base(r);
  uint64_t inl = len < NVM_SYMLINK_TARGET_INLINE_MAX ? len : NVM_SYMLINK_TARGET_INLINE_MAX;
  if (memcmp(base_ptr + link + NVM_SL_TARGET_INLINE, want, inl)) return 0;
  uint64_t done = inl, ext = tu_ld64(r, link + NVM_SL_TARGET_EXT);
  for (; ext && done < len; ext = tu_ld64(r, ext + NVM_EXT_NEXT)) {
    uint64_t n = tu_ld64(r, ext + NVM_EXT_COUNT);
    if (memcmp(base_ptr + ext + NVM_EXT_PAYLOAD, want + done, n)) return 0;
    done += n;
  }
  return done == len && ext == 0;
}

static void kept(void) {
  nvm_region *r;
  CHECK_OK(nvm_region_open(p, NVM_MODE_AUTO, 0, &r));
  nvm_recovery rec;
  nvm_recovery_report(r, &rec);
  CHECK(rec.inodes_live == 5); /* root, /d, /d/f, /s, /d/l */
  CHECK(rec.orphans_reclaimed == 0);
  CHECK(rec.ext_reclaimed == 1); /* the stray page */
  CHECK(tu_ld64(r, stray) == NVM_STATE_WORD(NVM_KIND_NAME_EXT, NVM_STATE_INVALID));
  uint64_t n, found = 0;
  const uint64_t *ino = nvm_recovered_inodes(r, &n);
  for (uint64_t i = 0; i < n; i++) found += ino[i] == short_link || ino[i] == long_link;
  CHECK(found == 2);
  CHECK(NVM_KIND_OF(tu_ld64(r, short_link)) == NVM_KIND_SYMLINK);
  CHECK(target_is(r, short_link, "/d", 2));
  CHECK(target_is(r, long_link, long_target, LONG_LEN));
  for (int i = 0; i < 3; i++) {
    CHECK(tu_ld64(r, chain[i]) >> 32 != NVM_PAGE_MAGIC); /* LIVE, sealed */
    CHECK(NVM_STATE_OF(tu_ld64(r, chain[i])) == NVM_STATE_LIVE);
    CHECK(tu_ld64(r, chain[i] + NVM_EXT_OWNER_ID) == R + 4);
  }
  nvm_usage u;
  nvm_region_usage(r, &u);
  CHECK(u.pages_used == 5 + 3); /* the inodes and the target chain */
  uint64_t fresh;               /* the chain pages are not handed out again */
  CHECK_OK(nvm_reserve_pages(r, 1, &fresh));
  CHECK(fresh != chain[0] && fresh != chain[1] && fresh != chain[2]);
  tu_close(r);
  CHECK_OK(nvm_region_open(p, NVM_MODE_AUTO, 0, &r)); /* a second open reclaims nothing */
  nvm_recovery_report(r, &rec);
  CHECK(rec.ext_reclaimed == 0 && rec.inodes_live == 5);
  tu_close(r);
  tu_copy(base, p);
}

/* One damage of the base region, staged through the batch API (sealed as the library seals),
 * must be refused by recovery with `needle`, at `at`, leaving the file as it was. */
static void refused(const char *what, uint64_t at, const char *needle, tu_batch *b) {
  nvm_region *r = tu_open(p);
  CHECK_OK(tb_apply(r, b));
  tu_close(r);
  tu_copy(p, copy);
  CHECK_RC(nvm_region_open(p, NVM_MODE_AUTO, 0, &r), NVM_ECORRUPT);
  CHECK_MSG(needle);
  CHECK_OFFSET(at);
  CHECK(tu_same_file(p, copy)); /* read only until the refusal: nothing reclaimed */
  printf("  %s: refused at %llu: %s\n", what, (unsigned long long)at, nvm_errormsg());
  tu_copy(base, p);
}

static void set_features(const char *path, uint32_t f) {
  uint64_t w = nvm_features_word(f);
  tu_pwrite(path, NVM_SB_FEATURES, &w, 8);
}

/* Without the feature: a SYMLINK page is an unknown kind (read-write), a read-only open (no
 * recovery) still works; a region without symlinks gets the feature at its first read-write
 * open and then takes symlinks. */
static void feature(void) {
  const uint32_t without =
      NVM_FEATURE_PAGE_CHECKSUMS | NVM_FEATURE_RECORDS | NVM_FEATURE_INODE_ATTRS;
  nvm_region *r;
  set_features(p, without);
  tu_copy(p, copy);
  CHECK_RC(nvm_region_open(p, NVM_MODE_AUTO, 0, &r), NVM_ECORRUPT);
  CHECK_MSG("unknown kind 10");
  CHECK_OFFSET(short_link < long_link ? short_link : long_link); /* the scan's first one */
  CHECK(tu_same_file(p, copy));                                  /* not upgraded */
  printf("  SYMLINK pages without the feature: %s\n", nvm_errormsg());
  CHECK_OK(nvm_region_open(p, NVM_MODE_AUTO, NVM_OPEN_READONLY, &r));
  tu_close(r);

  const char *plain = tu_path("symlink-plain");
  r = tu_create(plain, NVM_MIN_REGION_SIZE);
  uint64_t root = tu_make_dir(r, R, 0, 0, "");
  tu_set_root(r, root);
  tu_close(r);
  set_features(plain, without);
  CHECK_OK(nvm_region_open(plain, NVM_MODE_AUTO, NVM_OPEN_READONLY, &r));
  CHECK(tu_ld64(r, NVM_SB_FEATURES) == nvm_features_word(without));
  tu_close(r);
  r = tu_open(plain); /* the upgrade: one store of SB_FEATURES */
  CHECK(tu_ld64(r, NVM_SB_FEATURES) == nvm_features_word(ALL_FEATURES));
  uint64_t link = tu_make_symlink(r, R + 1, root, R, "ln", long_target, LONG_LEN, NULL);
  tu_close(r);
  r = tu_open(plain);
  nvm_recovery rec;
  nvm_recovery_report(r, &rec);
  CHECK(rec.inodes_live == 2 && target_is(r, link, long_target, LONG_LEN));
  tu_close(r);
  printf("  a region without the feature is upgraded and takes symlinks\n");
  tu_copy(base, p);
}

int main(void) {
  p = tu_path("symlink");
  base = tu_path("symlink-base");
  copy = tu_path("symlink-copy");
  build();
  kept();
  printf(
      "  kept: /s -> /d, /d/l -> %d bytes in a three-page target chain; the stray page "
      "reclaimed\n",
      LONG_LEN);

  tu_batch b;
  tb_init(&b);
  uint64_t at;

  at = long_link + NVM_SL_TARGET_LEN;
  tb_add64(&b, NVM_F_NAME, at, 0);
  refused("target length 0", at, "has target length 0, not 1..65535", &b);

  tb_add64(&b, NVM_F_NAME, at, NVM_SYMLINK_TARGET_MAX + 1);
  refused("target length over SYMLINK_TARGET_MAX", at, "has target length 65536", &b);

  at = chain[1] + NVM_EXT_OWNER_ID;
  tb_add64(&b, NVM_F_EXT_LINK, at, R + 2);
  refused("wrong owner", at, "target chain of inode 16389", &b);

  at = chain[2] + NVM_EXT_NEXT; /* 100 bytes more than the chain holds */
  tb_add64(&b, NVM_F_NAME, long_link + NVM_SL_TARGET_LEN, LONG_LEN + 100);
  refused("chain too short", at, "ends before covering the data", &b);

  at = long_link + NVM_SL_TARGET_EXT; /* the target fits inline: no chain may be linked */
  tb_add64(&b, NVM_F_NAME, long_link + NVM_SL_TARGET_LEN, NVM_SYMLINK_TARGET_INLINE_MAX);
  refused("chain linked though the target fits inline", at, "is linked but no extension", &b);

  at = file + NVM_IN_PARENT_PAGE; /* /d/f moved under the symlink /s */
  tb_add64(&b, NVM_F_PARENT, at, short_link);
  tb_add64(&b, NVM_F_PARENT, file + NVM_IN_PARENT_ID, R + 3);
  refused("a child of a symlink", at, "is not attached to the tree", &b);
  tb_free(&b);

  feature();
  printf("symlink pages ok\n");
  return 0;
}
