/* Inode attribute chains (region-format.md §5.6): recovery keeps a directory's three-page
 * ATTR_EXT chain and reclaims an ATTR_EXT page no inode reaches; it refuses, at the
 * damaged field and without writing, a chain page with a wrong owner, of another kind or
 * with a bad count, a page reached twice, a length longer than the chain, a page index
 * outside the data area and the IN_ATTRS words chains.c refuses; a region without
 * FEATURE_INODE_ATTRS is upgraded at a read-write open, and refused there if it holds an
 * ATTR_EXT page or a non-zero IN_ATTRS word. */
#include "nvm_internal.h" /* nvm_features_word */
#include "test_util.h"

static const uint64_t R = NVM_ROOT_INODE_ID;
#define ALL_FEATURES NVM_FEATURES_ALL

static const char *p, *base, *copy;
static uint64_t dir, file, chain[3], stray, enc_len;

/* The region: root, /d with a 600-byte attribute encoding (pages of 224, 224, 152 bytes),
 * /f without attributes, and a LIVE ATTR_EXT page nothing links (a crash before its commit). */
static void build(void) {
  nvm_region *r = tu_create(p, NVM_MIN_REGION_SIZE);
  uint64_t root = tu_make_dir(r, R, 0, 0, "");
  tu_set_root(r, root);
  dir = tu_make_dir(r, R + 1, root, R, "d");
  tu_inode fin = {NVM_KIND_FILE, R + 2, root, R, "f", 0, 0, 0, 0, 1};
  file = tu_make_inode(r, &fin);
  static uint8_t enc[700];
  enc_len = tu_attr_encoding(enc, 586);
  CHECK(enc_len == 600);
  CHECK(tu_set_attrs(r, dir, enc, enc_len, chain) == 3);
  CHECK_OK(nvm_reserve_pages(r, 1, &stray));
  uint8_t page[NVM_PAGE_SIZE] = {0};
  uint64_t w = NVM_STATE_WORD(NVM_KIND_ATTR_EXT, NVM_STATE_LIVE), owner = R + 2, one = 1;
  memcpy(page, &w, 8);
  memcpy(page + NVM_EXT_OWNER_ID, &owner, 8);
  memcpy(page + NVM_EXT_COUNT, &one, 8);
  tu_batch b;
  tb_init(&b);
  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, stray, page, NVM_PAGE_SIZE);
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_INODE_ID, R + 2);
  CHECK_OK(tb_apply(r, &b));
  tb_free(&b);
  tu_close(r);
  tu_copy(p, base);
}

/* One damage of the base region, staged through the batch API (sealed as the library seals),
 * must be refused by recovery with `needle`, at `at`, leaving the file as it was. */
typedef struct damage {
  const char *what;
  uint64_t at;
  const char *needle;
} damage;

static void stage(tu_batch *b, uint32_t field, uint64_t target, uint64_t v) {
  tb_add64(b, field, target, v);
}

static void refused(const damage *d, tu_batch *b) {
  nvm_region *r = tu_open(p);
  CHECK_OK(tb_apply(r, b));
  tu_close(r);
  tu_copy(p, copy);
  CHECK_RC(nvm_region_open(p, NVM_MODE_AUTO, 0, &r), NVM_ECORRUPT);
  CHECK_MSG(d->needle);
  CHECK_OFFSET(d->at);
  CHECK(tu_same_file(p, copy)); /* read only until the refusal: nothing reclaimed */
  printf("  %s: refused at %llu: %s\n", d->what, (unsigned long long)d->at, nvm_errormsg());
  tu_copy(base, p);
}

static void kept(void) {
  nvm_region *r;
  CHECK_OK(nvm_region_open(p, NVM_MODE_AUTO, 0, &r));
  nvm_recovery rec;
  nvm_recovery_report(r, &rec);
  CHECK(rec.ext_reclaimed == 1); /* the stray page */
  CHECK(tu_ld64(r, stray) == NVM_STATE_WORD(NVM_KIND_ATTR_EXT, NVM_STATE_INVALID));
  CHECK(tu_ld64(r, dir + NVM_IN_ATTRS) == tu_attrs_word(chain[0], enc_len));
  uint64_t bytes = 0;
  for (int i = 0; i < 3; i++) {
    CHECK(NVM_STATE_OF(tu_ld64(r, chain[i])) == NVM_STATE_LIVE);
    CHECK(NVM_KIND_OF(tu_ld64(r, chain[i])) == NVM_KIND_ATTR_EXT);
    CHECK(tu_ld64(r, chain[i] + NVM_EXT_OWNER_ID) == R + 1);
    bytes += tu_ld64(r, chain[i] + NVM_EXT_COUNT);
  }
  CHECK(bytes == enc_len && tu_ld64(r, chain[2] + NVM_EXT_NEXT) == 0);
  nvm_usage u;
  nvm_region_usage(r, &u);
  CHECK(u.pages_used == 3 + 3); /* root, /d, /f and the chain */
  /* the chain pages are not handed out again: a new page lands elsewhere */
  uint64_t fresh;
  CHECK_OK(nvm_reserve_pages(r, 1, &fresh));
  CHECK(fresh != chain[0] && fresh != chain[1] && fresh != chain[2]);
  tu_close(r);
  CHECK_OK(nvm_region_open(p, NVM_MODE_AUTO, 0, &r)); /* a second open reclaims nothing */
  nvm_recovery_report(r, &rec);
  CHECK(rec.ext_reclaimed == 0);
  tu_close(r);
  tu_copy(base, p);
}

static void set_features(const char *path, uint32_t f) {
  uint64_t w = nvm_features_word(f);
  tu_pwrite(path, NVM_SB_FEATURES, &w, 8);
}

/* Without the feature: an ATTR_EXT page or an IN_ATTRS word is refused (read-write), a read-only
 * open (no recovery) still works, and a region with neither gets the feature at its first
 * read-write open. */
static void feature(void) {
  nvm_region *r;
  set_features(p, NVM_FEATURE_PAGE_CHECKSUMS | NVM_FEATURE_RECORDS);
  tu_copy(p, copy);
  CHECK_RC(nvm_region_open(p, NVM_MODE_AUTO, 0, &r), NVM_ECORRUPT);
  CHECK_MSG("unknown kind 9");
  uint64_t first = stray; /* the scan stops at the first ATTR_EXT page */
  for (int i = 0; i < 3; i++) first = chain[i] < first ? chain[i] : first;
  CHECK_OFFSET(first);
  CHECK(tu_same_file(p, copy)); /* not upgraded */
  printf("  ATTR_EXT pages without the feature: %s\n", nvm_errormsg());
  CHECK_OK(nvm_region_open(p, NVM_MODE_AUTO, NVM_OPEN_READONLY, &r)); /* no recovery */
  tu_close(r);

  /* a region with no attribute at all: /d's word cleared and its chain and the stray freed */
  tu_copy(base, p);
  r = tu_open(p); /* reclaims the stray */
  tu_batch b;
  tb_init(&b);
  stage(&b, NVM_F_ATTRS, dir + NVM_IN_ATTRS, 0);
  for (int i = 0; i < 3; i++) tb_add(&b, NVM_OP_FREE, NVM_F_PAGE, chain[i], NULL, 0);
  CHECK_OK(tb_apply(r, &b));
  tu_close(r);
  const char *plain = tu_path("attr-plain");
  tu_copy(p, plain);

  /* ... with an IN_ATTRS word and without the feature: refused at the word */
  r = tu_open(p);
  stage(&b, NVM_F_ATTRS, file + NVM_IN_ATTRS, tu_attrs_word(chain[0], 10));
  CHECK_OK(tb_apply(r, &b));
  tu_close(r);
  set_features(p, NVM_FEATURE_PAGE_CHECKSUMS | NVM_FEATURE_RECORDS);
  tu_copy(p, copy);
  CHECK_RC(nvm_region_open(p, NVM_MODE_AUTO, 0, &r), NVM_ECORRUPT);
  CHECK_MSG("is set in a region without inode attributes");
  CHECK_OFFSET(file + NVM_IN_ATTRS);
  CHECK(tu_same_file(p, copy));
  printf("  an IN_ATTRS word without the feature: %s\n", nvm_errormsg());

  /* ... without either: the read-write open upgrades it (one store of SB_FEATURES) */
  tu_copy(plain, p);
  set_features(p, NVM_FEATURE_PAGE_CHECKSUMS | NVM_FEATURE_RECORDS);
  CHECK_OK(nvm_region_open(p, NVM_MODE_AUTO, NVM_OPEN_READONLY, &r));
  CHECK(tu_ld64(r, NVM_SB_FEATURES) ==
        nvm_features_word(NVM_FEATURE_PAGE_CHECKSUMS | NVM_FEATURE_RECORDS));
  tu_close(r);
  r = tu_open(p);
  CHECK(tu_ld64(r, NVM_SB_FEATURES) == nvm_features_word(ALL_FEATURES));
  /* and now takes attributes */
  uint8_t enc[64];
  size_t n = tu_attr_encoding(enc, 10);
  CHECK(tu_set_attrs(r, file, enc, n, NULL) == 1);
  tu_close(r);
  r = tu_open(p);
  CHECK((tu_ld64(r, file + NVM_IN_ATTRS) & 0xffffffffull) == n);
  tu_close(r);
  tb_free(&b);
  printf("  a region without the feature is upgraded\n");
}

int main(void) {
  p = tu_path("attr");
  base = tu_path("attr-base");
  copy = tu_path("attr-copy");
  build();
  kept();
  printf("  kept: a three-page chain of %llu bytes, the stray ATTR_EXT page reclaimed\n",
         (unsigned long long)enc_len);

  tu_batch b;
  tb_init(&b);
  nvm_region *r;
  CHECK_OK(nvm_region_open(base, NVM_MODE_AUTO, NVM_OPEN_READONLY, &r));
  uint64_t page_count = tu_ld64(r, NVM_HDR_PAGE_COUNT);
  tu_close(r);
  damage d;

  d = (damage){"wrong owner", chain[1] + NVM_EXT_OWNER_ID, "has a wrong owner id"};
  stage(&b, NVM_F_EXT_LINK, d.at, R + 2);
  refused(&d, &b);

  d = (damage){"wrong kind", chain[0] + NVM_EXT_NEXT,
               "is not a live extension page of the right kind"};
  stage(&b, NVM_F_STATE, chain[1], NVM_STATE_WORD(NVM_KIND_NAME_EXT, NVM_STATE_LIVE));
  refused(&d, &b);

  d = (damage){"count 0", chain[0] + NVM_EXT_COUNT, "has a bad count"};
  stage(&b, NVM_F_EXT_LINK, d.at, 0);
  refused(&d, &b);

  d = (damage){"count over a page", chain[1] + NVM_EXT_COUNT, "has a bad count"};
  stage(&b, NVM_F_EXT_LINK, d.at, NVM_NAME_EXT_MAX + 1);
  refused(&d, &b);

  /* the last page links the first; the length asks for one more page, so the first page's
   * count is still within what is needed and the walk reaches it again */
  d = (damage){"reached twice", chain[2] + NVM_EXT_NEXT, "is reached twice"};
  stage(&b, NVM_F_ATTRS, dir + NVM_IN_ATTRS, tu_attrs_word(chain[0], enc_len + NVM_NAME_EXT_MAX));
  stage(&b, NVM_F_EXT_LINK, d.at, chain[0]);
  refused(&d, &b);

  d = (damage){"length longer than the chain", chain[2] + NVM_EXT_NEXT,
               "ends before covering the data"};
  stage(&b, NVM_F_ATTRS, dir + NVM_IN_ATTRS, tu_attrs_word(chain[0], enc_len + 10));
  refused(&d, &b);

  d = (damage){"length shorter than the chain", chain[2] + NVM_EXT_COUNT, "has a bad count"};
  stage(&b, NVM_F_ATTRS, dir + NVM_IN_ATTRS, tu_attrs_word(chain[0], enc_len - 10));
  refused(&d, &b);

  d = (damage){"page index past the data area", dir + NVM_IN_ATTRS, "is not a data page"};
  stage(&b, NVM_F_ATTRS, d.at, page_count << NVM_ATTRS_PAGE_SHIFT | enc_len);
  refused(&d, &b);

  d = (damage){"largest page index", dir + NVM_IN_ATTRS, "is not a data page"};
  stage(&b, NVM_F_ATTRS, d.at, 0xffffffffull << NVM_ATTRS_PAGE_SHIFT | enc_len);
  refused(&d, &b);

  d = (damage){"length over ATTRS_MAX", dir + NVM_IN_ATTRS, "holds a length over ATTRS_MAX"};
  stage(&b, NVM_F_ATTRS, d.at, tu_attrs_word(chain[0], NVM_ATTRS_MAX + 1));
  refused(&d, &b);

  d = (damage){"a page and no bytes", dir + NVM_IN_ATTRS, "names a page but no bytes"};
  stage(&b, NVM_F_ATTRS, d.at, tu_attrs_word(chain[0], 0));
  refused(&d, &b);

  /* a damaged byte in a chain page: its checksum, judged when the chain reaches it */
  tu_copy(base, p);
  uint8_t flipped = 0x55;
  tu_pwrite(p, chain[1] + NVM_EXT_PAYLOAD + 9, &flipped, 1);
  tu_copy(p, copy);
  CHECK_RC(nvm_region_open(p, NVM_MODE_AUTO, 0, &r), NVM_ECORRUPT);
  CHECK_MSG("attribute chain of inode 16386");
  CHECK_MSG("fails its checksum");
  CHECK_OFFSET(chain[1]);
  CHECK(tu_same_file(p, copy));
  tu_copy(base, p);
  tb_free(&b);

  feature();
  printf("attribute chains ok\n");
  return 0;
}
