package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;

/**
 * The disk mode's write-ahead log of a region as a read-write open would replay it
 * (region-format.md §12, walreplay.c), read by the tools' own reader with plain file I/O,
 * read-only: a region whose SB_WAL_CHECKPOINT is 0 (or without FEATURE_WAL) needs no log; otherwise
 * the log file must be there, its header valid and of this region and of the epoch SB_WAL_EPOCH
 * names (else the read-write open refuses the region with NVM_ELOG), and every valid record from
 * the checkpoint on is checked and its entries stored, in order, into the overlay recovery's step 1
 * builds; then the scan limit is raised over every page they wrote. The superblock's words were
 * validated by the native read-only open.
 */
final class WriteAheadLog {
  static final WriteAheadLog NONE = new WriteAheadLog(null, 0, 0, null, 0, null);

  /** The log the region needs; null if it needs none. */
  final File file;

  /** SB_WAL_CHECKPOINT: the LSN replay starts at. */
  final long checkpoint;

  /** The low half of SB_WAL_EPOCH. */
  final int epoch;

  /** Why a read-write open refuses the region for its log (NVM_ELOG), or null. */
  final String refusal;

  /** The ring's bytes (0 if the header was not accepted). */
  final long capacity;

  /** What the replay stores (null if the region needs no log or the log is refused). */
  final LogReplay replay;

  private WriteAheadLog(
      File file, long checkpoint, int epoch, String refusal, long capacity, LogReplay replay) {
    this.file = file;
    this.checkpoint = checkpoint;
    this.epoch = epoch;
    this.refusal = refusal;
    this.capacity = capacity;
    this.replay = replay;
  }

  /** The log a region at {@code region} uses unless another is named: its path + ".wal". */
  static File defaultFile(File region) {
    return new File(region.getPath() + ".wal");
  }

  /** Whether the region needs a log: a read-write open replays it, or refuses the region. */
  boolean isNeeded() {
    return file != null;
  }

  boolean isRefused() {
    return refusal != null;
  }

  /** Group records the replay stores (0 if there is nothing to replay). */
  long records() {
    return replay == null ? 0 : replay.records;
  }

  /**
   * For dump and stat: a region whose log a read-write open refuses has no namespace to show (the
   * region file alone may lack acknowledged operations).
   */
  void requireUsable() throws IOException {
    if (refusal != null) {
      throw new IOException(refusal);
    }
  }

  /**
   * Reads the log of {@code region} ({@code logFile}, or the default one if null) and adds what its
   * replay stores to {@code into}.
   */
  static WriteAheadLog read(
      Region region, long features, File logFile, RecoveryOverlay.Builder into) {
    long checkpoint = region.getLong(SB_WAL_CHECKPOINT);
    if ((features & FEATURE_WAL) == 0 || checkpoint == 0) {
      return NONE;
    }
    int epoch = (int) region.getLong(SB_WAL_EPOCH);
    File file = logFile != null ? logFile : defaultFile(region.file());
    String problem;
    LogHeader header = null;
    LogReplay replay = null;
    try (FileChannel log = FileChannel.open(file.toPath(), StandardOpenOption.READ)) {
      long length = log.size();
      if (length < LogHeader.BYTES) {
        problem = "it is shorter than its header (" + length + " bytes)";
      } else {
        header = LogHeader.parse(readHeader(log));
        problem = header.problem(length, region.creationId(), epoch);
      }
      if (problem == null) {
        replay =
            LogReplay.walk(
                log,
                header,
                checkpoint,
                new LogRecordCheck(region.size(), region.pageCount()),
                into);
      }
    } catch (NoSuchFileException e) {
      problem = "there is no such file";
    } catch (IOException e) {
      problem = "it cannot be read (" + e + ")";
    }
    if (problem != null) {
      return new WriteAheadLog(
          file, checkpoint, epoch, refusal(region, file, epoch, checkpoint, problem), 0, null);
    }
    raiseScanLimit(region, replay, into);
    return new WriteAheadLog(file, checkpoint, epoch, null, header.capacity, replay);
  }

  private static byte[] readHeader(FileChannel log) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(LogHeader.BYTES);
    while (b.hasRemaining()) {
      if (log.read(b, b.position()) < 0) {
        break; // not reached: the file is at least a header long
      }
    }
    return b.array();
  }

  private static String refusal(
      Region region, File file, int epoch, long checkpoint, String problem) {
    return region.file()
        + ": the region was not closed and needs its write-ahead log "
        + file
        + " (epoch "
        + Integer.toUnsignedString(epoch)
        + ", from LSN "
        + Long.toUnsignedString(checkpoint)
        + "), which cannot be used: "
        + problem
        + ". A read-write open refuses the region (NVM_ELOG) until the log is put back (name"
        + " another file with --log); the region alone may lack acknowledged operations";
  }

  /**
   * The replay raises the scan limit over every page a record wrote (walreplay.c, step 3; the raise
   * itself is not logged: a region file written back before its superblock page may have such pages
   * above its limit).
   */
  private static void raiseScanLimit(
      Region region, LogReplay replay, RecoveryOverlay.Builder into) {
    long limit = region.getLong(SB_SCAN_LIMIT) & 0xffffffffL;
    if (replay.records == 0 || replay.pagesCovered <= limit) {
      return;
    }
    long raised = ScanLimit.covering(replay.pagesCovered, region.pageCount());
    into.put(
        SB_SCAN_LIMIT,
        ByteBuffer.allocate(8)
            .order(ByteOrder.LITTLE_ENDIAN)
            .putLong(ScanLimit.word(raised))
            .array());
  }
}
