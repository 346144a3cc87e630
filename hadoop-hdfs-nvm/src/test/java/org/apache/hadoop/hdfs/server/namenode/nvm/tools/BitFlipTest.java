package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.io.File;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.CrashHook;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.apache.hadoop.hdfs.server.namenode.nvm.ShmDir;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;
import org.junit.Rule;
import org.junit.Test;

/**
 * Every bit of sample pages and words of a real region, flipped one at a time (region-format.md
 * §11: "a flipped bit is refused at start or reported by check, never served as different
 * metadata"). Each flip is judged by {@link RegionOracle} (the checker and the native read-write
 * open agree) and classified:
 *
 * <ul>
 *   <li><b>refused</b>: the native open refuses the region (the checker reports an ERROR too);
 *   <li><b>reported</b>: the native open accepts it, the checker reports an ERROR;
 *   <li><b>harmless</b>: accepted, no ERROR, and the namespace the open serves (the dump lines and
 *       the counters of the recovered region) is identical to the one the unflipped region serves:
 *       padding, free pages' content, an emptied redo slot's leftovers;
 *   <li><b>torn</b>: a flip in a redo record whose group's in-place bytes are not all on media: the
 *       record's CRC fails, recovery (and the checker) take it for a record a crash tore and serve
 *       the namespace before that group, exactly what a crash before its barrier leaves
 *       (region-format.md §4.1: a torn record and a damaged one cannot be told apart).
 * </ul>
 *
 * A flip that is accepted, not reported, and changes the namespace fails the test; so does any
 * disagreement of the checker and the native open. The table per sample is printed. Each flip costs
 * about 2 ms (a check, a read-write open, a dump if accepted), so by default every 17th bit is
 * flipped (17 is odd: the flips still reach every bit position of a byte; 2,012 flips, a few
 * seconds); {@code -Dnvm.bitflip.stride=1} flips every bit (34,048 flips, under half a minute).
 */
public class BitFlipTest {
  private static final int STRIDE = Math.max(1, Integer.getInteger("nvm.bitflip.stride", 17));

  @Rule public ShmDir shm = new ShmDir();

  /** A range of one image to flip, with the namespace the unflipped image serves. */
  private static final class Sample {
    final String name;
    final byte[] image;
    final long off;
    final int len;

    /** A LIVE page: every refusal of a flip in it is at the page, and the checker says so. */
    boolean live;

    /** For an inode page, the path a checksum finding must name (when the flip leaves it). */
    String path;

    List<String> served;

    /** For a pending redo record: the namespace without its group (a torn record's). */
    List<String> servedIfTorn;

    int flips;
    int torn;
    int refused;
    int reported;
    int reportedServedDifferently;
    int harmless;

    Sample(String name, byte[] image, long off, int len) {
      this.name = name;
      this.image = image;
      this.off = off;
      this.len = len;
    }

    Sample live(String inodePath) {
      live = true;
      path = inodePath;
      return this;
    }
  }

  private File region;
  private final List<Sample> samples = new ArrayList<Sample>();

  /**
   * A 1 MiB region written through the store: a directory with a quota, a file with a 100-byte name
   * (a NAME_EXT page) and 6 blocks (a BLOCK_EXT page), an under-construction file whose client name
   * is 300 bytes (a chained string and its STRING_EXT pages), strings, a master key and a
   * delegation token whose renewer is that name too (a record and its RECORD_EXT page), a cache
   * pool, two cache directives (one chained) and the cache ids record, NameNode-style counters, a
   * deleted file (an INVALID page); and a crash image with a rename's redo record pending.
   */
  private void build() throws Exception {
    region = shm.file("r");
    char[] c = new char[100];
    Arrays.fill(c, 'n');
    String longName = new String(c);
    c = new char[300];
    Arrays.fill(c, 'c');
    String longClient = new String(c);
    long dir;
    long file;
    long writer;
    long gone;
    long nameExt;
    long blockExt;
    long token;
    long recordExt;
    CacheSample cache;
    try (InodeStore s = shm.createStore("r", MIN_REGION_SIZE)) {
      dir =
          createInode(
              s,
              s.rootPage(),
              InodeAttrs.directory("d").times(10, 11).mode(0750).owner("alice", "staff"));
      setQuota(s, dir, 1000, 1L << 40);
      file =
          createInode(
              s,
              dir,
              InodeAttrs.file(longName)
                  .times(20, 21)
                  .mode(0640)
                  .owner("alice", "staff")
                  .replication(3)
                  .preferredBlockSize(128L << 20));
      for (int i = 0; i < 6; i++) {
        addBlock(s, file, (1L << 30) + i, 1001 + i);
      }
      nameExt = s.inode(file).nameExtPages()[0];
      blockExt = s.inode(file).blockExtPages()[0];
      writer =
          createInode(
              s,
              dir,
              InodeAttrs.file("w")
                  .times(30, 31)
                  .owner("bob", "staff")
                  .underConstruction(longClient, "10.0.0.7"));
      gone = createInode(s, dir, InodeAttrs.file("gone").owner("alice", "staff"));
      setGenerationStampV1(s, 1000);
      setGenerationStampV1Limit(s, 1000);
      setGenerationStampV2(s, 1010);
      setLastAllocatedBlockId(s, (1L << 30) + 5);
      setLastTxId(s, 99);
      try (Txn t = s.begin()) {
        t.createRecord(RECORD_MASTER_KEY, 1, RecordSample.KEY_EXPIRY, RecordSample.key(20));
        t.raiseCounter(SB_MASTER_KEY_ID, 1);
        t.commit();
      }
      RecordSample.token(s, RecordSample.identifier("bob", "yarn", "", 1, 1));
      token = RecordSample.token(s, RecordSample.identifier("alice", longClient, "", 2, 1));
      recordExt = s.record(token).extPages()[0];
      cache = CacheSample.add(s);
      delete(s, gone, new long[0], dir, 40);
      setTimes(s, dir, 10, 11);
    }
    byte[] clean = Files.readAllBytes(region.toPath());
    ByteBuffer b = ByteBuffer.wrap(clean).order(ByteOrder.LITTLE_ENDIAN);
    long chained = 0;
    long zero = 0;
    long highWater = 0;
    for (long p = DATA_OFFSET; p + PAGE_SIZE <= clean.length; p += PAGE_SIZE) {
      long w = b.getLong((int) p);
      if (w != 0) {
        highWater = p;
      }
      if (isLive(w, KIND_STRING) && b.getLong((int) p + ST_LEN) > STRING_MAX) {
        chained = p;
      }
    }
    for (long p = DATA_OFFSET; p < highWater && zero == 0; p += PAGE_SIZE) {
      zero = b.getLong((int) p) == 0 ? p : 0;
    }
    assertTrue("a chained string", chained != 0);
    assertTrue("a never-used page below the high-water mark", zero != 0);
    assertEquals(STATE_INVALID, stateOf(b.getLong((int) gone)));
    long stringExt = b.getLong((int) chained + ST_EXT);
    long alice = RegionDamage.stringPage(region, "alice");

    samples.add(new Sample("header (CRC-covered, 252..255 padding)", clean, 0, 256));
    samples.add(
        new Sample("superblock (magic, counters, limit, features, padding)", clean, 4096, 160));
    long seq = b.getLong(SB_COMMIT_SEQ) & ((1L << SB_COUNTER_BITS) - 1);
    long last = seq % 2 == 1 ? REDO_SLOT1 : REDO_SLOT0;
    samples.add(new Sample("redo slot, emptied at close (seq 0, the rest kept)", clean, last, 256));
    samples.add(new Sample("DIR page /d", clean, dir, PAGE_SIZE).live("/d"));
    samples.add(new Sample("FILE page /d/nnn...", clean, file, PAGE_SIZE).live("/d/" + longName));
    samples.add(
        new Sample("FILE page /d/w (under construction)", clean, writer, PAGE_SIZE).live("/d/w"));
    samples.add(new Sample("NAME_EXT page", clean, nameExt, PAGE_SIZE).live(null));
    samples.add(new Sample("BLOCK_EXT page", clean, blockExt, PAGE_SIZE).live(null));
    samples.add(new Sample("STRING page \"alice\"", clean, alice, PAGE_SIZE).live(null));
    samples.add(
        new Sample("STRING page (300 bytes, chained)", clean, chained, PAGE_SIZE).live(null));
    samples.add(new Sample("STRING_EXT page", clean, stringExt, PAGE_SIZE).live(null));
    samples.add(new Sample("RECORD page (a token, chained)", clean, token, PAGE_SIZE).live(null));
    samples.add(new Sample("RECORD_EXT page", clean, recordExt, PAGE_SIZE).live(null));
    samples.add(
        new Sample("RECORD page (a cache directive)", clean, cache.directive1, PAGE_SIZE)
            .live(null));
    samples.add(new Sample("INVALID page (deleted file)", clean, gone, PAGE_SIZE));
    samples.add(new Sample("never-used page below the high-water mark", clean, zero, PAGE_SIZE));
    Sample pending =
        new Sample(
            "redo record pending (a rename; the next barrier lost)",
            pending(file),
            seq % 2 == 1 ? REDO_SLOT0 : REDO_SLOT1,
            256);
    pending.servedIfTorn = served(clean);
    samples.add(pending);
  }

  private static boolean isLive(long w, int kind) {
    return (w & 0xffffffffL) == (stateWord(kind, STATE_LIVE) & 0xffffffffL);
  }

  /**
   * The image of a crash at the barrier after a rename's: its redo record durable, none of its
   * in-place bytes (region-format.md §7.3).
   */
  private byte[] pending(long file) throws Exception {
    File work = RegionDamage.copy(region, shm.file("crash"));
    String prefix = shm.file("crash.img").getPath();
    try (InodeStore s = InodeStore.open(Region.open(work, PersistMode.EMULATED))) {
      CrashHook.crashAt(s.region(), 2, prefix);
      try {
        rename(s, file, s.rootPage(), "moved", 50);
        setLastTxId(s, 4242);
        fail("the crash hook did not fire");
      } catch (NvmException e) {
        assertEquals(NvmException.ErrorCode.ECRASHED, e.code());
      }
    }
    return Files.readAllBytes(new File(prefix + ".lost").toPath());
  }

  /** The namespace {@code image} serves after a read-write open (of a scratch copy). */
  private List<String> served(byte[] image) throws Exception {
    File f = shm.file("served-" + samples.size());
    Files.write(f.toPath(), image);
    Region.open(f, PersistMode.EMULATED).close();
    return served(f);
  }

  /**
   * The namespace a region serves: the counters, the inodes and the records the dump prints after a
   * read-write open of it.
   */
  private static List<String> served(File recovered) throws Exception {
    NamespaceDump d = NamespaceDump.read(recovered);
    List<String> out = new ArrayList<String>(d.counters());
    out.addAll(d.lines());
    out.addAll(d.recordLines());
    return out;
  }

  @Test
  public void everyFlippedBitIsRefusedReportedOrHarmless() throws Exception {
    build();
    File mutant = shm.file("mutant");
    RegionOracle oracle = new RegionOracle();
    List<String> failures = new ArrayList<String>();
    long t0 = System.nanoTime();
    try (RandomAccessFile raf = new RandomAccessFile(mutant, "rw")) {
      for (Sample s : samples) {
        put(raf, s.image, -1, 0);
        CheckReport base = new RegionOracle().judgeInPlace(mutant, s.name + ", unflipped");
        assertTrue(base.format(), base.isConsistent());
        s.served = served(mutant);
        for (long bit = 0; bit < 8L * s.len; bit += STRIDE) {
          long at = s.off + bit / 8;
          // the image with one bit flipped; written over the file without truncating it (cheap on
          // tmpfs), whatever the last open wrote
          put(raf, s.image, at, 1 << (bit % 8));
          String what = s.name + ": bit " + bit % 8 + " of byte " + at + " (+" + bit / 8 + ")";
          CheckReport r = oracle.judgeInPlace(mutant, what);
          s.flips++;
          if (oracle.lastRefusal != null) {
            s.refused++;
            if (s.live) {
              refusedAtThePage(s, bit / 8, oracle.lastRefusal, r, what);
            }
            continue;
          }
          boolean same = served(mutant).equals(s.served);
          if (!r.isConsistent()) {
            s.reported++;
            s.reportedServedDifferently += same ? 0 : 1;
          } else if (same) {
            s.harmless++;
          } else if (s.servedIfTorn != null && served(mutant).equals(s.servedIfTorn)) {
            s.torn++;
          } else {
            failures.add(what + ": accepted, not reported, and served differently:\n" + r.format());
          }
        }
      }
    }
    long ms = (System.nanoTime() - t0) / 1000000;
    System.out.println(table(ms));
    assertTrue(
        failures.size() + " flips served as different metadata:\n" + failures, failures.isEmpty());
    for (Sample s : samples) {
      assertEquals(s.name, s.flips, s.refused + s.reported + s.harmless + s.torn);
    }
  }

  /**
   * A flip in a LIVE page is refused at the page (a bad state word or its checksum), the checker
   * has an ERROR there, and for an inode page whose id, parent link and inline name are intact the
   * checker's finding names the inode's path and the refusal its id.
   */
  private static void refusedAtThePage(
      Sample s, long byteInPage, NvmException refusal, CheckReport r, String what) {
    String verdicts = what + "\nrefused: " + refusal.getMessage() + "\nchecker:\n" + r.format();
    assertEquals(verdicts, s.off, refusal.offset());
    Finding atPage = null;
    for (Finding f : r.findings()) {
      if (f.offset() == s.off && f.severity() == Finding.Severity.ERROR) {
        atPage = f;
      }
    }
    assertNotNull(verdicts, atPage);
    boolean namesIntact =
        byteInPage >= PG_STATE + 8 && (byteInPage < IN_ID || byteInPage >= IN_NAME_INLINE + 48);
    if (s.path != null && namesIntact) {
      long id =
          ByteBuffer.wrap(s.image).order(ByteOrder.LITTLE_ENDIAN).getLong((int) s.off + IN_ID);
      assertEquals(verdicts, Finding.Kind.BAD_CHECKSUM, atPage.kind());
      assertTrue(verdicts, atPage.message().contains("(inode " + id + ", " + s.path + ")"));
      assertTrue(verdicts, refusal.getMessage().contains(", id " + id + ")"));
    }
  }

  /**
   * Writes {@code image} over the file, the byte at {@code at} (if not -1) XORed with {@code mask}.
   */
  private static void put(RandomAccessFile raf, byte[] image, long at, int mask) throws Exception {
    raf.seek(0);
    raf.write(image);
    if (at >= 0) {
      raf.seek(at);
      raf.write(image[(int) at] ^ mask);
    }
  }

  private String table(long ms) {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            "bit flips (stride %d, %d ms):%n| %-56s | %5s | %7s | %8s | %8s | %5s |%n",
            STRIDE, ms, "sample", "bits", "refused", "reported", "harmless", "torn"));
    b.append(
        String.format(
            "|%s|%s|%s|%s|%s|%s|%n",
            dashes(58), dashes(7), dashes(9), dashes(10), dashes(10), dashes(7)));
    int[] total = new int[5];
    for (Sample s : samples) {
      String reported =
          s.reportedServedDifferently == 0
              ? Integer.toString(s.reported)
              : s.reported + " (" + s.reportedServedDifferently + "*)";
      b.append(
          String.format(
              "| %-56s | %5d | %7d | %8s | %8d | %5d |%n",
              s.name, s.flips, s.refused, reported, s.harmless, s.torn));
      total[0] += s.flips;
      total[1] += s.refused;
      total[2] += s.reported;
      total[3] += s.harmless;
      total[4] += s.torn;
    }
    b.append(
        String.format(
            "| %-56s | %5d | %7d | %8d | %8d | %5d |%n",
            "total", total[0], total[1], total[2], total[3], total[4]));
    b.append(
        "(*: of which the native open serves a different namespace; the checker reports them)");
    return b.toString();
  }

  private static String dashes(int n) {
    char[] c = new char[n];
    Arrays.fill(c, '-');
    return new String(c);
  }
}
