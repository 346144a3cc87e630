/* Record pages (region-format.md §5.5): recovery keeps every live record with its
 * RECORD_EXT chain and hands the records to the caller, reclaims a RECORD_EXT page no
 * record reaches, refuses a chain with a wrong owner, and a record in a region without
 * the records feature. */
#include "nvm_internal.h" /* nvm_features_word */
#include "test_util.h"

static uint64_t chain_pages(const nvm_region *r, uint64_t rec) {
  uint64_t n = 0;
  for (uint64_t e = tu_ld64(r, rec + NVM_RC_EXT); e; e = tu_ld64(r, e + NVM_EXT_NEXT)) n++;
  return n;
}

int main(void) {
  const char *p = tu_path("records"), *base = tu_path("records-base");
  nvm_region *r = tu_create(p, NVM_MIN_REGION_SIZE);
  uint64_t root = tu_make_dir(r, NVM_ROOT_INODE_ID, 0, 0, "");
  tu_set_root(r, root);
  static char ident[1000], key[64];
  for (size_t i = 0; i < sizeof ident; i++) ident[i] = (char)i;
  memset(key, 'k', sizeof key);
  /* a token whose identifier needs 4 RECORD_EXT pages (200 inline + 3 x 224 + 128) */
  uint64_t tok = tu_make_record(r, NVM_RECORD_DELEGATION_TOKEN, 1, 7, 123456, ident, sizeof ident);
  uint64_t mk = tu_make_record(r, NVM_RECORD_MASTER_KEY, 2, 3, 654321, key, sizeof key);
  CHECK(chain_pages(r, tok) == 4 && chain_pages(r, mk) == 0);
  tu_batch b;
  tb_init(&b);
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_RECORD_ID, 2);
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_TOKEN_SEQUENCE, 7);
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_MASTER_KEY_ID, 3);
  CHECK_OK(tb_apply(r, &b));
  /* a RECORD_EXT page written LIVE but never linked (a crash before its record's commit) */
  uint64_t stray;
  CHECK_OK(nvm_reserve_pages(r, 1, &stray));
  uint8_t page[NVM_PAGE_SIZE] = {0};
  uint64_t w = NVM_STATE_WORD(NVM_KIND_RECORD_EXT, NVM_STATE_LIVE), one = 1;
  memcpy(page, &w, 8);
  memcpy(page + NVM_EXT_OWNER_ID, &one, 8);
  memcpy(page + NVM_EXT_COUNT, &one, 8);
  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, stray, page, NVM_PAGE_SIZE);
  CHECK_OK(tb_apply(r, &b));
  /* the record's one mutable word, changed in place (undo-logged: the page is resealed) */
  tb_add64(&b, NVM_F_RECORD, tok + NVM_RC_VALUE, 999999);
  CHECK_OK(tb_apply(r, &b));
  tu_close(r);
  tu_copy(p, base);

  CHECK_OK(nvm_region_open(p, NVM_MODE_AUTO, 0, &r));
  nvm_recovery rec;
  nvm_recovery_report(r, &rec);
  CHECK(rec.ext_reclaimed == 1); /* the stray page */
  CHECK(tu_ld64(r, stray) == NVM_STATE_WORD(NVM_KIND_RECORD_EXT, NVM_STATE_INVALID));
  uint64_t n;
  const uint64_t *offs = nvm_recovered_records(r, &n);
  CHECK(n == 2 && offs[0] == tok && offs[1] == mk);
  CHECK(tu_ld64(r, tok + NVM_RC_VALUE) == 999999 && chain_pages(r, tok) == 4);
  CHECK(tu_counter(r, NVM_SB_LAST_RECORD_ID) == 2 && tu_counter(r, NVM_SB_TOKEN_SEQUENCE) == 7 &&
        tu_counter(r, NVM_SB_MASTER_KEY_ID) == 3);
  nvm_usage u;
  nvm_region_usage(r, &u);
  CHECK(u.pages_used == 1 + 1 + 4 + 1); /* root, two records, the token's chain */
  tu_close(r);

  /* a damaged chain page: the record's chain is walked and the page refused, nothing written */
  tu_copy(base, p);
  r = tu_open(p);
  uint64_t first = tu_ld64(r, tok + NVM_RC_EXT);
  tu_close(r);
  tu_copy(base, p);
  uint8_t flipped = 0x55;
  tu_pwrite(p, first + NVM_EXT_PAYLOAD + 3, &flipped, 1);
  const char *copy = tu_path("records-copy");
  tu_copy(p, copy);
  CHECK_RC(nvm_region_open(p, NVM_MODE_AUTO, 0, &r), NVM_ECORRUPT);
  CHECK_MSG("record chain of record 1");
  CHECK_MSG("fails its checksum");
  CHECK_OFFSET(first);
  CHECK(tu_same_file(p, copy));
  tu_copy(base, p);

  /* a record page in a region without the records feature: an unknown kind there */
  uint64_t f = nvm_features_word(NVM_FEATURE_PAGE_CHECKSUMS);
  tu_pwrite(p, NVM_SB_FEATURES, &f, 8);
  CHECK_RC(nvm_region_open(p, NVM_MODE_AUTO, 0, &r), NVM_ECORRUPT);
  CHECK_MSG("unknown kind 7");
  CHECK_OFFSET(tok);
  printf("  records: 2 live, token chain of 4 pages, stray chain page reclaimed\n");
  return 0;
}
