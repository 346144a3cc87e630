package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.RecoveryReport;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionIdentity;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionOptions;
import org.apache.hadoop.hdfs.server.namenode.nvm.ShmDir;
import org.junit.Rule;
import org.junit.Test;

/**
 * Regions of the disk mode that were not closed (region-format.md §12): the image a power loss
 * leaves when the kernel wrote none of the region's pages back — the region file as it was when the
 * commits began, and the write-ahead log with every commit since. The tools read the log with a
 * reader of their own; whatever they show must be what recovery's replay produces (the dump of the
 * pair equals the dump of the pair after a real read-write open), and a log recovery refuses is an
 * ERROR.
 */
public class RegionCheckLogTest {
  @Rule public ShmDir shm = new ShmDir();

  static final RegionIdentity ID =
      new RegionIdentity(12345, "CID-test-cluster", "BP-1-127.0.0.1-1");
  static final long SIZE = SampleNamespace.REGION_SIZE;
  static final RegionOptions OPTIONS =
      new RegionOptions(null, 1 << 20, 0, 0, RegionOptions.NO_CHECKPOINTER);

  interface Work {
    void run(InodeStore s) throws Exception;
  }

  /** A region written in the disk mode and closed, and the image pair taken while it was open. */
  static final class Written {
    /** The region after its clean close: the namespace recovery must reach. */
    final File closed;

    /** The region file's copy; its log copy is beside it ({@link #log}). */
    final File image;

    /** Group records committed between the two copies. */
    long records;

    Written(File closed, File image) {
      this.closed = closed;
      this.image = image;
    }

    File log() {
      return WriteAheadLog.defaultFile(image);
    }
  }

  /** A copy of an image pair after a real read-write open (the replay) and a clean close. */
  static final class Recovered {
    final File file;
    final RecoveryReport report;

    Recovered(File file, RecoveryReport report) {
      this.file = file;
      this.report = report;
    }
  }

  /**
   * Creates a region of {@code size} in the disk mode and runs {@code before}; copies the region
   * file; runs {@code after}; copies the log; closes the region cleanly.
   */
  Written write(String name, long size, Work before, Work after) throws Exception {
    Written w = new Written(shm.file(name), shm.file(name + ".image"));
    try (InodeStore s =
        InodeStore.open(Region.create(w.closed, size, ID, PersistMode.DISK, OPTIONS))) {
      before.run(s);
      RegionDamage.copy(w.closed, w.image);
      long records = s.region().logStats().records();
      after.run(s);
      RegionDamage.copy(WriteAheadLog.defaultFile(w.closed), w.log());
      w.records = s.region().logStats().records() - records;
    }
    assertNotEquals("the copy needs its log", 0, RegionDamage.getLong(w.image, SB_WAL_CHECKPOINT));
    return w;
  }

  /** The sample namespace (every kind of page), then a rename and a delete that frees pages. */
  static void sample(InodeStore s, File file) throws NvmException {
    s.format(1000L, 0755, "hdfs", "supergroup");
    SampleNamespace n = SampleNamespace.writeInto(file, s);
    rename(s, n.small, n.tmp, "moved.txt", 9000);
    delete(s, n.longName, new long[0], n.alice, 9001);
    setLastTxId(s, 77);
  }

  Written sampleWritten(String name) throws Exception {
    File[] file = new File[1];
    Written w = write(name, SIZE, s -> file[0] = s.region().file(), s -> sample(s, file[0]));
    assertTrue("the sample commits groups", w.records > 10);
    return w;
  }

  /** Copies the pair to {@code name}, opens it read-write in {@code mode} and closes it. */
  Recovered recover(File image, File log, String name, PersistMode mode) throws Exception {
    File copy = LogFileEdit.copyPair(image, log, shm.file(name));
    RecoveryReport report;
    try (Region r = Region.open(copy, mode, OPTIONS)) {
      report = r.recovery();
    }
    return new Recovered(copy, report);
  }

  /** What the dump shows of a region: the counters, the inode lines and the record lines. */
  static List<String> served(File region, File log) throws IOException {
    NamespaceDump d = NamespaceDump.read(region, log);
    List<String> out = new ArrayList<String>(d.counters());
    out.addAll(d.lines());
    out.addAll(d.recordLines());
    return out;
  }

  @Test
  public void logRecordsAreShownReplayedExactlyAsRecoveryReplaysThem() throws Exception {
    Written w = sampleWritten("r");
    CheckReport r = CheckAssert.check(w.image, w.log());
    Finding f = CheckAssert.find(r, Finding.Kind.LOG_PENDING, SB_WAL_CHECKPOINT);
    assertEquals(Finding.Severity.RECOVERABLE, f.severity());
    assertEquals(r.format(), 1, r.findings().size());
    assertEquals(CheckReport.EXIT_NEEDS_RECOVERY, r.exitCode());
    assertEquals("the default log", r.format(), CheckAssert.check(w.image).format());

    Recovered rec = recover(w.image, w.log(), "recovered", PersistMode.DISK);
    assertEquals(w.records, rec.report.logRecords());
    String m = f.message();
    assertTrue(
        m, m.contains("the write-ahead log " + w.log() + " holds " + w.records + " records"));
    assertTrue(
        m,
        m.contains(
            rec.report.logEntries() + " entries, " + rec.report.logBytes() + " bytes) from the "));
    assertTrue(
        m,
        m.contains("checkpoint at LSN " + RegionDamage.getLong(w.image, SB_WAL_CHECKPOINT) + " "));

    List<String> shown = served(w.image, null);
    assertEquals("the tools' replay is recovery's", served(rec.file, null), shown);
    assertEquals("and the namespace the region was closed with", served(w.closed, null), shown);
    assertEquals(
        "a memory mode replays the log too",
        shown,
        served(recover(w.image, w.log(), "emulated", PersistMode.EMULATED).file, null));
    assertEquals(0, CheckAssert.check(rec.file).exitCode());

    String text = NamespaceDump.read(w.image).text();
    assertTrue(text, text.contains("\n# log=" + w.log() + "\n"));
    assertTrue(text, text.contains("\n# logRecords=" + w.records + "\n"));
    assertTrue(text, text.contains("\n# logEntries=" + rec.report.logEntries() + "\n"));
    assertFalse(NamespaceDump.read(rec.file).text().contains("# log"));

    StatReport stat = RegionStat.run(w.image);
    StatReport after = RegionStat.run(rec.file);
    assertEquals(after.pagesUsed(), stat.pagesUsed());
    assertEquals(after.highWater(), stat.highWater());
    assertEquals(after.reclaimablePages(), stat.reclaimablePages());
    assertEquals(w.log().getPath(), stat.log());
    assertEquals(1 << 20, stat.logCapacity());
    assertEquals(w.records, stat.logRecords());
    assertEquals(rec.report.logBytes(), stat.logBytes());
    assertTrue(stat.format(), stat.format().contains("\nlogRecords: " + w.records + "\n"));
    assertNull(after.log());
    assertFalse(after.format(), after.format().contains("log"));
  }

  @Test
  public void aRegionWithoutItsLogIsRefused() throws Exception {
    Written w = sampleWritten("r");
    assertTrue(w.log().delete());
    CheckReport r = CheckAssert.check(w.image);
    Finding f = CheckAssert.onlyError(r, Finding.Kind.LOG_REFUSED, SB_WAL_CHECKPOINT);
    assertTrue(f.message(), f.message().contains("write-ahead log " + w.log() + " "));
    assertTrue(f.message(), f.message().contains("there is no such file"));
    assertTrue(
        f.message(), f.message().contains("the region alone may lack acknowledged operations"));

    NvmException e = refusedByDiskOpen(w.image, null, "missing");
    assertEquals(NvmException.ErrorCode.ELOG, e.code());
    assertEquals(SB_WAL_CHECKPOINT, e.offset());
    new RegionOracle().judge(w.image, shm.file("scratch"), "without its log");

    try {
      NamespaceDump.read(w.image);
      fail("dumped a region without its log");
    } catch (IOException x) {
      assertTrue(x.getMessage(), x.getMessage().contains(w.log().getPath()));
    }
    try {
      RegionStat.run(w.image);
      fail("stat of a region without its log");
    } catch (IOException x) {
      assertTrue(x.getMessage(), x.getMessage().contains("may lack acknowledged operations"));
    }
  }

  @Test
  public void aLogOfAnotherEpochOrRegionOrWithABadHeaderIsRefused() throws Exception {
    Written w = sampleWritten("r");
    File log = w.log();
    // the original opened read-write once more: its log starts a new epoch
    Region.open(w.closed, PersistMode.DISK, OPTIONS).close();
    refused(w, WriteAheadLog.defaultFile(w.closed), "epoch");
    Written other = write("other", SIZE, s -> {}, s -> {});
    refused(w, other.log(), "belongs to region 0x");

    File badCrc = RegionDamage.copy(log, shm.file("bad-crc.wal"));
    RegionDamage.flipBit(badCrc, WH_CAPACITY, 0);
    refused(w, badCrc, "not a write-ahead log of this version");
    File shortened = RegionDamage.copy(log, shm.file("short.wal"));
    try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(shortened, "rw")) {
      raf.setLength(raf.length() - 4096);
    }
    refused(w, shortened, "does not match its size");
    File stub = shm.file("stub.wal");
    java.nio.file.Files.write(stub.toPath(), new byte[10]);
    refused(w, stub, "shorter than its header");
  }

  /** The pair of {@code w.image} and {@code log}: one LOG_REFUSED, and NVM_ELOG from the open. */
  private void refused(Written w, File log, String why) throws Exception {
    CheckReport r = CheckAssert.check(w.image, log);
    Finding f = CheckAssert.onlyError(r, Finding.Kind.LOG_REFUSED, SB_WAL_CHECKPOINT);
    assertTrue(f.message(), f.message().contains(why));
    assertTrue(f.message(), f.message().contains(log.getPath()));
    assertEquals(NvmException.ErrorCode.ELOG, refusedByDiskOpen(w.image, log, why).code());
  }

  /** The refusal of a read-write open of a copy of {@code region} with a copy of {@code log}. */
  private NvmException refusedByDiskOpen(File region, File log, String what) throws Exception {
    File copy = RegionDamage.copy(region, shm.file("open-" + what));
    File copyLog = WriteAheadLog.defaultFile(copy);
    if (log != null) {
      RegionDamage.copy(log, copyLog);
    } else {
      copyLog.delete();
    }
    try (Region r = Region.open(copy, PersistMode.DISK, OPTIONS)) {
      fail("the read-write open accepted " + what);
      return null;
    } catch (NvmException e) {
      return e;
    }
  }

  @Test
  public void aTornRecordEndsTheReplayAsItEndsRecoverys() throws Exception {
    Written w = sampleWritten("r");
    List<Long> records = LogFileEdit.groupRecords(w.image, w.log());
    assertEquals(w.records, records.size());
    for (int k : new int[] {0, 1, records.size() / 2, records.size() - 1}) {
      File torn = LogFileEdit.copyPair(w.image, w.log(), shm.file("torn-" + k));
      File log = WriteAheadLog.defaultFile(torn);
      long at = records.get(k);
      long lsn = RegionDamage.getLong(log, at + WR_LSN);
      RegionDamage.flipBit(log, at + WR_PAYLOAD + 20, 3); // a payload byte: the CRC fails
      CheckReport r = CheckAssert.check(torn, log);
      if (k == 0) {
        assertTrue(r.format(), r.findings().isEmpty());
        assertTrue(
            r.format(), r.format().contains("write-ahead log " + log + ": 0 records replayed"));
      } else {
        // the sample sets its counters last, so a prefix of it has blocks above them: only the
        // log findings are this test's
        Finding f = CheckAssert.find(r, Finding.Kind.LOG_PENDING, SB_WAL_CHECKPOINT);
        assertEquals(r.format(), 1, CheckAssert.count(r, Finding.Kind.LOG_PENDING));
        assertEquals(r.format(), 0, CheckAssert.count(r, Finding.Kind.BAD_LOG_RECORD));
        assertTrue(
            f.message(), f.message().contains(" holds " + k + (k == 1 ? " record " : " records ")));
        assertTrue(f.message(), f.message().contains(" to LSN " + lsn + ", where it ends"));
      }
      Recovered rec = recover(torn, log, "torn-" + k + ".recovered", PersistMode.DISK);
      assertEquals(k, rec.report.logRecords());
      assertEquals("torn at record " + k, served(rec.file, null), served(torn, null));
    }
  }

  /** Changes the record at {@code off} of {@code log}. */
  private interface RecordEdit {
    void apply(File log, long off) throws IOException;
  }

  @Test
  public void aValidRecordWithBadContentsIsAnError() throws Exception {
    Written w = sampleWritten("r");
    List<Long> records = LogFileEdit.groupRecords(w.image, w.log());
    int k = records.size() / 2;
    File torn = LogFileEdit.copyPair(w.image, w.log(), shm.file("torn"));
    RegionDamage.flipBit(WriteAheadLog.defaultFile(torn), records.get(k) + WR_PAYLOAD + 20, 3);
    List<String> before = served(torn, null);

    String[] why = {
      "entry 0 has a bad target 48 / length",
      "has a bad target " + (SB_COMMIT_SEQ + 1) + " / length 8",
      "does not end by setting SB_COMMIT_SEQ to its seq",
      "does not end by setting SB_COMMIT_SEQ to its seq",
      "runs past its payload",
      "entries covering",
      "after a record of seq",
    };
    RecordEdit[] edits = {
      (log, off) -> RegionDamage.rawPutLong(log, first(log, off), HDR_CREATION_ID),
      (log, off) -> RegionDamage.rawPutLong(log, last(log, off), SB_COMMIT_SEQ + 1),
      (log, off) -> RegionDamage.rawPutLong(log, last(log, off), SB_LAST_TXID),
      (log, off) ->
          RegionDamage.rawPutLong(
              log,
              last(log, off) + UNDO_ENTRY_HEADER,
              RegionDamage.counterWord(SB_COMMIT_SEQ, seq(log, off) + 7)),
      (log, off) ->
          LogFileEdit.putInt(log, off + WR_COUNT, LogFileEdit.getInt(log, off + WR_COUNT) + 1),
      (log, off) ->
          LogFileEdit.putInt(log, off + WR_COUNT, LogFileEdit.getInt(log, off + WR_COUNT) - 1),
      (log, off) -> {
        long seq = seq(log, off) + 1;
        RegionDamage.rawPutLong(log, off + WR_SEQ, seq);
        RegionDamage.rawPutLong(
            log, last(log, off) + UNDO_ENTRY_HEADER, RegionDamage.counterWord(SB_COMMIT_SEQ, seq));
      },
    };
    RegionOracle oracle = new RegionOracle();
    for (int i = 0; i < edits.length; i++) {
      File bad = LogFileEdit.copyPair(w.image, w.log(), shm.file("bad-" + i));
      File log = WriteAheadLog.defaultFile(bad);
      long off = records.get(k);
      edits[i].apply(log, off);
      LogFileEdit.reseal(bad, log, off);
      CheckReport r = CheckAssert.check(bad, log);
      Finding f = CheckAssert.find(r, Finding.Kind.BAD_LOG_RECORD, SB_WAL_CHECKPOINT);
      assertEquals(Finding.Severity.ERROR, f.severity());
      assertEquals(r.format(), 1, CheckAssert.count(r, Finding.Kind.BAD_LOG_RECORD));
      assertEquals(CheckReport.EXIT_ERROR, r.exitCode());
      assertTrue(why[i] + " in " + f.message(), f.message().contains(why[i]));
      assertTrue(f.message(), f.message().contains("(file offset " + off + ") is valid"));
      Finding pending = CheckAssert.find(r, Finding.Kind.LOG_PENDING, SB_WAL_CHECKPOINT);
      assertTrue(pending.message(), pending.message().contains(" holds " + k + " records "));
      oracle.judge(bad, shm.file("scratch"), why[i]);
      assertEquals(why[i], NvmException.ErrorCode.ECORRUPT, oracle.lastRefusal.code());
      assertEquals("the records before it, as a torn record shows them", before, served(bad, null));
    }
  }

  private static long first(File log, long off) throws IOException {
    return LogFileEdit.entries(log, off).get(0);
  }

  private static long last(File log, long off) throws IOException {
    List<Long> e = LogFileEdit.entries(log, off);
    return e.get(e.size() - 1);
  }

  private static long seq(File log, long off) throws IOException {
    return RegionDamage.getLong(log, off + WR_SEQ);
  }

  @Test
  public void pagesWrittenOnlyThroughTheLogAreScannedAboveTheRegionFilesScanLimit()
      throws Exception {
    long[] pages = new long[100];
    Written w =
        write(
            "high",
            8L << 20,
            s -> s.format(1000L, 0755, "hdfs", "supergroup"),
            s -> {
              s.region().reservePages(16400); // the allocator raises the limit in the mapping
              long dir =
                  createInode(
                      s,
                      s.rootPage(),
                      InodeAttrs.directory("high").times(1, 1).owner("hdfs", "supergroup"));
              for (int i = 0; i < pages.length; i++) {
                pages[i] =
                    createInode(
                        s, dir, InodeAttrs.file("f" + i).times(2, 2).owner("hdfs", "supergroup"));
              }
            });
    long limit = RegionDamage.getLong(w.image, SB_SCAN_LIMIT) & 0xffffffffL;
    assertEquals("the region file's limit is the new region's", 16384, limit);
    long highest = 0;
    for (long p : pages) {
      highest = Math.max(highest, (p - DATA_OFFSET) / PAGE_SIZE);
    }
    assertTrue("page " + highest + " is above the limit", highest >= limit);

    CheckReport r = CheckAssert.check(w.image, w.log());
    assertEquals(r.format(), 1, r.findings().size());
    CheckAssert.find(r, Finding.Kind.LOG_PENDING, SB_WAL_CHECKPOINT);
    List<String> shown = served(w.image, null);
    assertEquals(served(w.closed, null), shown);
    assertEquals(served(recover(w.image, w.log(), "rec", PersistMode.DISK).file, null), shown);
  }

  @Test
  public void aLogThatWrapsAroundTheRingIsReplayedPastTheLapsEnd() throws Exception {
    long[] lsn = new long[1];
    int[] n = new int[1];
    Work fill =
        s -> {
          while (s.region().logStats().head() - s.region().logStats().checkpoint() < 600 << 10) {
            createInode(
                s,
                s.rootPage(),
                InodeAttrs.file("file-with-a-name-of-forty-bytes-" + n[0]++)
                    .times(3, 3)
                    .owner("hdfs", "supergroup"));
          }
        };
    Written w =
        write(
            "wrap",
            SIZE,
            s -> {
              s.format(1000L, 0755, "hdfs", "supergroup");
              fill.run(s);
              s.region().checkpoint(); // the region file holds every record so far
              lsn[0] = s.region().logStats().checkpoint();
            },
            fill);
    long capacity = 1 << 20;
    long end = lsn[0] + (600 << 10);
    assertTrue("the log crosses the ring's end", end / capacity > lsn[0] / capacity);
    assertEquals(lsn[0], RegionDamage.getLong(w.image, SB_WAL_CHECKPOINT));
    List<Long> records = LogFileEdit.groupRecords(w.image, w.log());
    assertEquals(w.records, records.size());
    assertTrue(
        "the last record lies before the first", records.get(records.size() - 1) < records.get(0));

    CheckReport r = CheckAssert.check(w.image, w.log());
    Finding f = CheckAssert.find(r, Finding.Kind.LOG_PENDING, SB_WAL_CHECKPOINT);
    assertEquals(r.format(), 1, r.findings().size());
    assertTrue(f.message(), f.message().contains(" holds " + w.records + " records "));
    List<String> shown = served(w.image, null);
    assertEquals(served(w.closed, null), shown);
    assertEquals(served(recover(w.image, w.log(), "rec", PersistMode.DISK).file, null), shown);
  }

  @Test
  public void aLogWithNothingToReplayIsClean() throws Exception {
    Written w =
        write(
            "empty",
            SIZE,
            s -> {
              s.format(1000L, 0755, "hdfs", "supergroup");
              s.region().checkpoint();
            },
            s -> {});
    CheckReport r = CheckAssert.check(w.image, w.log());
    assertTrue(r.format(), r.findings().isEmpty());
    assertEquals(CheckReport.EXIT_CLEAN, r.exitCode());
    assertTrue(r.format(), r.format().contains(": 0 records replayed;"));
    assertTrue(NamespaceDump.read(w.image).text().contains("\n# logRecords=0\n"));
    assertEquals(served(w.closed, null), served(w.image, null));
  }

  private String out;
  private String err;

  private int run(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code = NvmRegionTool.run(args, new PrintStream(o, true), new PrintStream(e, true));
    out = new String(o.toByteArray(), StandardCharsets.UTF_8);
    err = new String(e.toByteArray(), StandardCharsets.UTF_8);
    return code;
  }

  @Test
  public void theCommandLineNamesALogElsewhere() throws Exception {
    Written w = sampleWritten("r");
    File elsewhere = shm.file("elsewhere.wal");
    assertTrue(w.log().renameTo(elsewhere));
    String region = w.image.getPath();
    String log = elsewhere.getPath();

    assertEquals(1, run("check", region));
    assertTrue(out, out.startsWith("ERROR at offset " + SB_WAL_CHECKPOINT + ": LOG_REFUSED: "));
    assertEquals(2, run("check", "--log", log, region));
    assertTrue(
        out, out.startsWith("RECOVERABLE at offset " + SB_WAL_CHECKPOINT + ": LOG_PENDING: "));
    assertEquals(2, run("check", region, "--log", log)); // the option may come last

    assertEquals(1, run("dump", region));
    assertTrue(err, err.startsWith("dump: " + region + ": the region was not closed and needs"));
    assertEquals(0, run("dump", "--log", log, region));
    assertEquals(NamespaceDump.read(w.image, elsewhere).text(), out);
    assertTrue(out, out.contains("\n# log=" + log + "\n# logCheckpoint="));
    assertTrue(out, out.contains("\n# logRecords=" + w.records + "\n"));
    assertEquals(0, run("dump", "--json", region, "--log", log));
    assertTrue(out, out.contains("\n\"log\": {\"file\":\"" + log + "\", \"checkpoint\":"));
    assertTrue(out, out.contains(", \"records\":" + w.records + ", "));

    assertEquals(1, run("stat", region));
    assertEquals(0, run("stat", "--log", log, region));
    assertTrue(out, out.contains("\nlog: " + log + "\nlogCapacity: " + (1 << 20) + "\n"));
    assertEquals(0, run("stat", "--json", "--log", log, region));
    assertTrue(out, out.contains("\"logRecords\":" + w.records + ", "));

    assertEquals(NvmRegionTool.EXIT_USAGE, run("dump", region, "--log"));
    assertTrue(err, err.startsWith("usage: "));
    assertEquals(NvmRegionTool.EXIT_USAGE, run("check", "--log", log, "--log", log, region));
  }
}
