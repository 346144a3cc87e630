/* The disk mode (region-format.md §12): a group commit is one write and one fdatasync of the
 * write-ahead log, the region file is written only after the log and made durable by
 * checkpoints; a restart replays the log from the checkpoint, whatever part of the region's
 * writes reached the file; a region that needs a log it cannot find, or a log of another
 * region or epoch, is refused; a torn tail ends the log; the log is a ring that wraps; a
 * memory mode opening such a region replays it too. */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nvm_internal.h"
#include "test_util.h"

static nvm_options small = {NULL, NVM_WAL_MIN_CAPACITY, 0, 0, NVM_OPT_NO_CHECKPOINTER};

static nvm_region *open_disk(const char *p) {
  nvm_region *r = NULL;
  CHECK_OK(nvm_region_open_with(p, NVM_MODE_DISK, 0, &small, &r));
  CHECK(nvm_region_mode(r) == NVM_MODE_DISK);
  return r;
}

static uint64_t root, dir_a;

static void make_tree(const char *p) {
  nvm_identity id = {42, "CID-test", "BP-1"};
  nvm_region *r = NULL;
  CHECK_OK(nvm_region_create_with(p, TU_REGION_SIZE, &id, NVM_MODE_DISK, &small, &r));
  root = tu_make_dir(r, NVM_ROOT_INODE_ID, 0, 0, "");
  tu_set_root(r, root);
  dir_a = tu_make_dir(r, NVM_ROOT_INODE_ID + 1, root, NVM_ROOT_INODE_ID, "a");
  tu_close(r);
}

/* n files /a/f<i> with ids from first_id, one batch each */
static void make_files(nvm_region *r, int n, uint64_t first_id) {
  for (int i = 0; i < n; i++) {
    char name[32];
    snprintf(name, sizeof name, "f%llu", (unsigned long long)(first_id + (uint64_t)i));
    tu_inode in = {
        NVM_KIND_FILE, first_id + (uint64_t)i, dir_a, NVM_ROOT_INODE_ID + 1, name, 0, 0, 0, 0, 1};
    tu_make_inode(r, &in);
    tu_batch b;
    tb_init(&b);
    tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_INODE_ID, first_id + (uint64_t)i);
    tb_add64(&b, NVM_F_MTIME, dir_a + NVM_IN_MTIME, 2000 + (uint64_t)i);
    CHECK_OK(tb_apply(r, &b));
    tb_free(&b);
  }
}

static uint64_t live_files(nvm_region *r) {
  nvm_recovery rec;
  nvm_recovery_report(r, &rec);
  return rec.inodes_live - 2; /* the root and /a */
}

static void log_path(char *out, size_t n, const char *region) {
  snprintf(out, n, "%s.wal", region);
}

/* Images of a power loss with no region write-back since `region_then` was copied (the state
 * at the last checkpoint) and the log as it is now: every acknowledged group comes back. */
static void replay_without_write_back(void) {
  const char *p = tu_path("dm"), *img = tu_path("dm-img");
  char lp[600], limg[600];
  log_path(lp, sizeof lp, p);
  log_path(limg, sizeof limg, img);
  make_tree(p);
  nvm_region *r = open_disk(p);
  CHECK(nvm_region_log_path(r) && strcmp(nvm_region_log_path(r), lp) == 0);
  tu_copy(p, img); /* the region file as the open's checkpoint left it */
  uint64_t bars = nvm_barrier_count(r);
  make_files(r, 50, 100);
  CHECK(nvm_barrier_count(r) == bars); /* no msync, no region barrier: the log only */
  nvm_log_stats st;
  CHECK_OK(nvm_log_stats_get(r, &st));
  CHECK(st.syncs == 100 && st.records == 100 && st.checkpoints == 0 && st.used > 0);
  tu_copy(lp, limg); /* the log: durable up to its last fdatasync */
  CHECK(tu_ld64(r, NVM_SB_WAL_CHECKPOINT) != 0);
  tu_close(r);
  /* a clean close leaves a region that needs no log */
  nvm_region *c = NULL;
  CHECK_OK(nvm_region_open(p, NVM_MODE_EMULATED, NVM_OPEN_READONLY, &c));
  CHECK(tu_ld64(c, NVM_SB_WAL_CHECKPOINT) == 0);
  tu_close(c);
  nvm_region *x = open_disk(img);
  CHECK(live_files(x) == 50 && tu_counter(x, NVM_SB_LAST_INODE_ID) == 149);
  nvm_recovery rec;
  nvm_recovery_report(x, &rec);
  CHECK(rec.log_records == 100);
  tu_close(x);
  printf("  replay without write-back: 50 files, 100 records replayed\n");
}

/* A region that needs its log is refused without it, with another epoch's or another
 * region's; left untouched. */
static void refusals(void) {
  const char *p = tu_path("rf"), *img = tu_path("rf-img"), *other = tu_path("rf-other");
  char lp[600], limg[600];
  log_path(lp, sizeof lp, p);
  log_path(limg, sizeof limg, img);
  make_tree(p);
  make_tree(other);
  nvm_region *r = open_disk(p);
  make_files(r, 3, 100);
  tu_copy(p, img);
  tu_copy(lp, limg);
  tu_close(r);
  unlink(limg);
  nvm_region *x = NULL;
  CHECK_RC(nvm_region_open_with(img, NVM_MODE_DISK, 0, &small, &x), NVM_ELOG);
  CHECK_MSG("needs its write-ahead log");
  CHECK_OFFSET(NVM_SB_WAL_CHECKPOINT);
  /* the log of the region's next epoch (the clean reopen started one) */
  nvm_region *y = open_disk(p);
  tu_close(y);
  tu_copy(lp, limg);
  CHECK_RC(nvm_region_open_with(img, NVM_MODE_DISK, 0, &small, &x), NVM_ELOG);
  CHECK_MSG("belongs to region");
  CHECK_OFFSET(NVM_SB_WAL_CHECKPOINT); /* the region's word that needs the log, not the log's */
  /* another region's log */
  char lo[600];
  log_path(lo, sizeof lo, other);
  nvm_region *o = open_disk(other);
  tu_close(o);
  tu_copy(lo, limg);
  CHECK_RC(nvm_region_open_with(img, NVM_MODE_DISK, 0, &small, &x), NVM_ELOG);
  CHECK_OFFSET(NVM_SB_WAL_CHECKPOINT);
  printf("  refused: without its log, with another epoch's, with another region's\n");
}

/* A record whose CRC matches but whose entry no library writes refuses the region; a record
 * with a flipped byte is torn: the log ends before it. */
static void bad_records(void) {
  const char *p = tu_path("br"), *img = tu_path("br-img");
  char lp[600], limg[600];
  log_path(lp, sizeof lp, p);
  log_path(limg, sizeof limg, img);
  make_tree(p);
  nvm_region *r = open_disk(p);
  uint64_t epoch_word = tu_ld64(r, NVM_SB_WAL_EPOCH), start = tu_ld64(r, NVM_SB_WAL_CHECKPOINT);
  uint64_t region_id = tu_ld64(r, NVM_HDR_CREATION_ID);
  tu_copy(p, img);
  make_files(r, 4, 100); /* 8 records */
  size_t n;
  uint8_t *log = tu_read_file(lp, &n);
  tu_close(r);
  uint64_t cap = n - NVM_WAL_HEADER_SIZE;
  /* the last record: walk from the start */
  uint64_t x = start, last = 0;
  for (int i = 0; i < 8; i++) {
    uint32_t len;
    memcpy(&len, log + NVM_WAL_HEADER_SIZE + x % cap + NVM_WR_LEN, 4);
    last = x;
    x += len;
  }
  uint8_t *rec = log + NVM_WAL_HEADER_SIZE + last % cap;
  /* torn: a payload byte flipped; the state before the last record (4 files, last mtime not) */
  uint8_t *torn = malloc(n);
  memcpy(torn, log, n);
  torn[NVM_WAL_HEADER_SIZE + last % cap + NVM_WR_PAYLOAD + 3] ^= 0x40;
  tu_write_file(limg, torn, n);
  const char *w = tu_path("br-w");
  char lw[600];
  log_path(lw, sizeof lw, w);
  tu_copy(img, w);
  tu_copy(limg, lw);
  nvm_region *t = open_disk(w);
  nvm_recovery rr;
  nvm_recovery_report(t, &rr);
  CHECK(rr.log_records == 7 && live_files(t) == 4 && tu_ld64(t, dir_a + NVM_IN_MTIME) == 2002);
  tu_close(t);
  /* valid but out of bounds: the first entry's target past the region, CRC recomputed */
  memcpy(torn, log, n);
  rec = torn + NVM_WAL_HEADER_SIZE + last % cap;
  uint64_t bad = TU_REGION_SIZE + 4096;
  memcpy(rec + NVM_WR_PAYLOAD, &bad, 8);
  uint32_t len, epoch = (uint32_t)epoch_word;
  memcpy(&len, rec + NVM_WR_LEN, 4);
  uint32_t c = nvm_crc32c(0, &region_id, 8);
  c = nvm_crc32c(c, &epoch, 4);
  c = nvm_crc32c(c, rec + NVM_WR_LSN, len - NVM_WR_LSN);
  memcpy(rec + NVM_WR_CRC, &c, 4);
  tu_write_file(limg, torn, n);
  tu_copy(img, w);
  tu_copy(limg, lw);
  size_t before_len;
  uint8_t *before = tu_read_file(w, &before_len);
  nvm_region *v = NULL;
  CHECK_RC(nvm_region_open_with(w, NVM_MODE_DISK, 0, &small, &v), NVM_ECORRUPT);
  CHECK_MSG("has a bad target");
  free(before);
  free(torn);
  free(log);
  printf("  a torn record ends the log; a valid record with a bad entry refuses the region\n");
}

/* The ring wraps (pad records), checkpoints free its room, and a restart after the wrap
 * replays across the lap's end. */
static void wraps(void) {
  const char *p = tu_path("wr"), *img = tu_path("wr-img");
  char lp[600], limg[600];
  log_path(lp, sizeof lp, p);
  log_path(limg, sizeof limg, img);
  make_tree(p);
  nvm_region *r = open_disk(p);
  make_files(r, 3000, 1000); /* ~1.4 MiB of records through a 1 MiB ring */
  nvm_log_stats st;
  CHECK_OK(nvm_log_stats_get(r, &st));
  CHECK(st.checkpoints >= 1 && st.head - NVM_WAL_MIN_CAPACITY > st.capacity);
  CHECK_OK(nvm_checkpoint(r));
  tu_copy(p, img);           /* the region as the checkpoint left it */
  make_files(r, 1400, 5000); /* ~0.66 MiB: across the lap's end, no checkpoint between */
  CHECK_OK(nvm_log_stats_get(r, &st));
  CHECK(st.checkpoint < st.head && st.used <= st.capacity);
  tu_copy(lp, limg);
  tu_close(r);
  nvm_region *x = open_disk(img);
  CHECK(live_files(x) == 4400);
  nvm_recovery rec;
  nvm_recovery_report(x, &rec);
  CHECK(rec.log_records == 2800);
  tu_close(x);
  nvm_region *y = open_disk(p);
  CHECK(live_files(y) == 4400);
  tu_close(y);
  printf("  wraps: %llu checkpoints, 2800 records replayed across the lap's end\n",
         (unsigned long long)st.checkpoints);
}

/* A memory mode opening a region whose log holds records replays it and leaves the region
 * needing no log; the disk mode opens it again afterwards. */
static void mode_switch(void) {
  const char *p = tu_path("ms"), *img = tu_path("ms-img");
  char lp[600], limg[600];
  log_path(lp, sizeof lp, p);
  log_path(limg, sizeof limg, img);
  make_tree(p);
  nvm_region *r = open_disk(p);
  tu_copy(p, img);
  make_files(r, 10, 100);
  tu_copy(lp, limg);
  tu_close(r);
  nvm_region *e = NULL;
  CHECK_OK(nvm_region_open(img, NVM_MODE_EMULATED, 0, &e));
  CHECK(live_files(e) == 10 && nvm_region_log_path(e) == NULL);
  CHECK(tu_ld64(e, NVM_SB_WAL_CHECKPOINT) == 0);
  make_files(e, 1, 200);
  tu_close(e);
  unlink(limg); /* not needed any more */
  nvm_region *d = open_disk(img);
  CHECK(live_files(d) == 11);
  tu_close(d);
  printf("  a memory mode replays a disk-mode log and leaves the region needing none\n");
}

int main(void) {
  replay_without_write_back();
  refusals();
  bad_records();
  wraps();
  mode_switch();
  printf("disk mode ok\n");
  return 0;
}
