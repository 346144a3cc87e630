package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * An open NVM namespace region: one native handle, the mapping exposed as read-only direct buffers
 * (reads never cross JNI), and {@link #apply} as the only way to write. Reads are not synchronised
 * against mutations; the caller provides that exclusion (the NameNode's namesystem lock). {@link
 * #close()} must not race other calls.
 */
public final class Region implements AutoCloseable {
  /** Segment size of the Java view: 1 GiB, so regions above 2 GiB work with int-indexed buffers. */
  static final long DEFAULT_SEGMENT_BYTES = 1L << 30;

  private final File file;
  private final boolean readOnly;
  private final long size;
  private final long segmentBytes;

  /**
   * log2(segmentBytes) when it is a power of two (always, outside tests), else -1: reads shift
   * instead of divide.
   */
  private final int segmentShift;

  private final long segmentMask;
  private long handle;
  private ByteBuffer[] segments;
  private final RegionStats stats = new RegionStats();

  /** JNI apply calls made through this region; tests assert one per store mutation. */
  long applyCalls;

  /** JNI reserve/release calls; the store's page pool keeps these rare. */
  long reserveCalls;

  long releaseCalls;

  private Region(File file, long handle, long segmentBytes) throws NvmException {
    this.file = file;
    this.handle = handle;
    this.segmentBytes = segmentBytes;
    this.segmentShift =
        Long.bitCount(segmentBytes) == 1 ? Long.numberOfTrailingZeros(segmentBytes) : -1;
    this.segmentMask = segmentBytes - 1;
    boolean ok = false;
    stats.jniCalls(4); // the create/open that made the handle, and the three calls below
    try {
      this.size = NvmNative.size(handle);
      this.readOnly = NvmNative.isReadOnly(handle);
      ByteBuffer[] raw = NvmNative.mapSegments(handle, segmentBytes);
      segments = new ByteBuffer[raw.length];
      for (int i = 0; i < raw.length; i++) {
        // Java never writes the mapping: every store goes through nvm_apply, which owns the flush
        // order.
        segments[i] = raw[i].asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
      }
      ok = true;
    } finally {
      if (!ok) {
        NvmNative.close(handle);
        this.handle = 0;
      }
    }
  }

  /** Creates a new region file; fails with EEXIST if {@code file} exists. */
  public static Region create(File file, long size, RegionIdentity identity, PersistMode mode)
      throws NvmException {
    return create(file, size, identity, mode, RegionOptions.DEFAULTS);
  }

  /** As {@link #create(File, long, RegionIdentity, PersistMode)}, with the disk mode's options. */
  public static Region create(
      File file, long size, RegionIdentity identity, PersistMode mode, RegionOptions options)
      throws NvmException {
    return create(file, size, identity, mode, options, DEFAULT_SEGMENT_BYTES);
  }

  static Region create(
      File file, long size, RegionIdentity identity, PersistMode mode, long segmentBytes)
      throws NvmException {
    return create(file, size, identity, mode, RegionOptions.DEFAULTS, segmentBytes);
  }

  static Region create(
      File file,
      long size,
      RegionIdentity identity,
      PersistMode mode,
      RegionOptions o,
      long segmentBytes)
      throws NvmException {
    checkSegmentBytes(segmentBytes);
    NativeLibrary.load(); // the clear message, also on the second attempt
    long h =
        NvmNative.create(
            file.getPath(),
            size,
            identity.namespaceId(),
            identity.clusterId(),
            identity.blockPoolId(),
            mode.value(),
            o.logPath(),
            o.logCapacity(),
            o.checkpointBytes(),
            o.checkpointMillis(),
            o.flags());
    return new Region(file, h, segmentBytes);
  }

  /** Opens (validates, then recovers) an existing region for reading and writing. */
  public static Region open(File file, PersistMode mode) throws NvmException {
    return open(file, mode, RegionOptions.DEFAULTS);
  }

  /**
   * As {@link #open(File, PersistMode)}, with the disk mode's options; the log named there is
   * replayed if the region needs it, in any mode.
   */
  public static Region open(File file, PersistMode mode, RegionOptions options)
      throws NvmException {
    return open(file, mode, 0, options, DEFAULT_SEGMENT_BYTES);
  }

  /** Opens a region read-only (shared lock, no recovery), e.g. for check and dump tools. */
  public static Region openReadOnly(File file) throws NvmException {
    return open(
        file,
        PersistMode.AUTO,
        NvmNative.OPEN_READONLY,
        RegionOptions.DEFAULTS,
        DEFAULT_SEGMENT_BYTES);
  }

  static Region open(File file, PersistMode mode, int flags, long segmentBytes)
      throws NvmException {
    return open(file, mode, flags, RegionOptions.DEFAULTS, segmentBytes);
  }

  static Region open(File file, PersistMode mode, int flags, RegionOptions o, long segmentBytes)
      throws NvmException {
    checkSegmentBytes(segmentBytes);
    NativeLibrary.load();
    long h =
        NvmNative.open(
            file.getPath(),
            mode.value(),
            flags,
            o.logPath(),
            o.logCapacity(),
            o.checkpointBytes(),
            o.checkpointMillis(),
            o.flags());
    return new Region(file, h, segmentBytes);
  }

  private static void checkSegmentBytes(long segmentBytes) {
    if (segmentBytes <= 0
        || segmentBytes > DEFAULT_SEGMENT_BYTES
        || segmentBytes % RegionLayout.DATA_OFFSET != 0) {
      throw new IllegalArgumentException(
          "segment size "
              + segmentBytes
              + " must be a multiple of "
              + RegionLayout.DATA_OFFSET
              + " and at most "
              + DEFAULT_SEGMENT_BYTES);
    }
  }

  private long h() {
    if (handle == 0) {
      throw new IllegalStateException("region " + file + " is closed");
    }
    return handle;
  }

  public File file() {
    return file;
  }

  public long size() {
    h();
    return size;
  }

  public boolean isReadOnly() {
    h();
    return readOnly;
  }

  public boolean isClosed() {
    return handle == 0;
  }

  // ---- reads (no JNI) ----

  /** Reads up to this many bytes (an inline name: at most 48) are copied byte by byte. */
  private static final int SHORT_READ = 64;

  private void checkRange(long off, int len) {
    h();
    if (off < 0 || len < 0 || off > size - len) {
      throw new IndexOutOfBoundsException(
          "read of " + len + " bytes at " + off + " outside region of " + size);
    }
  }

  /**
   * An 8-byte little-endian value (layout fields are 8-byte aligned, so they never span segments).
   */
  public long getLong(long off) {
    checkRange(off, 8);
    if (segmentShift >= 0) { // the recovery rebuild reads every inode's fields through here
      int in = (int) (off & segmentMask);
      if (in <= segmentMask - 7) {
        return segments[(int) (off >>> segmentShift)].getLong(in);
      }
    }
    int in = (int) (off % segmentBytes);
    if (in > segmentBytes - 8) {
      return ByteBuffer.wrap(getBytes(off, 8)).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }
    return segments[(int) (off / segmentBytes)].getLong(in);
  }

  public int getInt(long off) {
    checkRange(off, 4);
    int in = (int) (off % segmentBytes);
    if (in > segmentBytes - 4) {
      return ByteBuffer.wrap(getBytes(off, 4)).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }
    return segments[(int) (off / segmentBytes)].getInt(in);
  }

  public void getBytes(long off, byte[] dst, int dstOff, int len) {
    checkRange(off, len);
    if (dstOff < 0 || dstOff > dst.length - len) {
      throw new IndexOutOfBoundsException(
          "destination " + dstOff + "+" + len + " of " + dst.length);
    }
    int in0 = (int) (off % segmentBytes);
    if (len > 0
        && len <= SHORT_READ
        && in0 <= segmentBytes - len) { // names: absolute gets, no buffer duplicate per read
      ByteBuffer b = segments[(int) (off / segmentBytes)];
      for (int i = 0; i < len; i++) {
        dst[dstOff + i] = b.get(in0 + i);
      }
      return;
    }
    while (len > 0) {
      ByteBuffer b = segments[(int) (off / segmentBytes)].duplicate();
      int in = (int) (off % segmentBytes);
      int n = (int) Math.min(len, segmentBytes - in);
      b.position(in);
      b.get(dst, dstOff, n);
      off += n;
      dstOff += n;
      len -= n;
    }
  }

  public byte[] getBytes(long off, int len) {
    byte[] b = new byte[len];
    getBytes(off, b, 0, len);
    return b;
  }

  // ---- writes (one JNI call each) ----

  /** Applies a batch atomically with exactly one native call. An empty batch is a no-op. */
  public void apply(MutationBatch batch) throws NvmException {
    long h = h();
    if (batch.isEmpty()) {
      return;
    }
    applyCalls++;
    stats.jniCall();
    boolean undoLogged = batch.isUndoLogged(hasPageChecksums());
    int bytes = batch.length();
    long t0 = System.nanoTime();
    NvmNative.apply(h, batch.buffer(), bytes);
    stats.persisted(System.nanoTime() - t0, bytes, undoLogged);
  }

  /**
   * Stages a batch with exactly one native call (docs/region-format.md §7.7): validated as {@link
   * #apply} validates it and visible to every reader at once, but in the region only after a {@link
   * #sync} covering its sequence number, which it returns (0 for an empty batch, staged never).
   */
  public long stage(MutationBatch batch) throws NvmException {
    long h = h();
    if (batch.isEmpty()) {
      return 0;
    }
    applyCalls++;
    stats.jniCall();
    int bytes = batch.length();
    long t0 = System.nanoTime();
    long seq = NvmNative.stage(h, batch.buffer(), bytes);
    stats.persisted(System.nanoTime() - t0, bytes, batch.isUndoLogged(hasPageChecksums()));
    return seq;
  }

  /**
   * Commits the staged batches up to sequence number {@code upTo} (all of them for {@code
   * Long.MAX_VALUE}) in groups, one redo record and one barrier each, and returns the last sequence
   * number in the region. A failure (an I/O error, the test crash hook) leaves the handle failed
   * for good.
   */
  public long sync(long upTo) throws NvmException {
    long h = h();
    stats.jniCall();
    long t0 = System.nanoTime();
    long durable = NvmNative.sync(h, upTo);
    stats.synced(System.nanoTime() - t0);
    return durable;
  }

  /** Reserves n free pages (all or nothing; RegionFullException if fewer are free). */
  public long[] reservePages(int n) throws NvmException {
    long h = h();
    if (n < 0) {
      throw new IllegalArgumentException("n = " + n);
    }
    long[] out = new long[n];
    if (n > 0) {
      reserveCalls++;
      stats.jniCall();
      NvmNative.reservePages(h, n, out);
    }
    return out;
  }

  /** Returns reserved pages that were not used. */
  public void releasePages(long... pages) throws NvmException {
    long h = h();
    if (pages.length > 0) {
      releaseCalls++;
      stats.jniCall();
      NvmNative.releasePages(h, pages.length, pages);
    }
  }

  // ---- state ----

  public RegionUsage usage() {
    long h = h();
    stats.jniCall();
    return new RegionUsage(NvmNative.usage(h));
  }

  /** The resolved mode (never AUTO). */
  public PersistMode persistMode() {
    long h = h();
    stats.jniCall();
    return PersistMode.ofValue(NvmNative.mode(h));
  }

  public boolean isPmem() {
    long h = h();
    stats.jniCall();
    return NvmNative.isPmem(h);
  }

  /**
   * The disk mode's write-ahead log (docs/region-format.md §12): its state and counters; null in
   * the memory modes.
   */
  public LogStats logStats() {
    long h = h();
    stats.jniCall();
    long[] v = NvmNative.logStats(h);
    return v == null ? null : new LogStats(v);
  }

  /** The disk mode's write-ahead log file; null in the memory modes. */
  public File logFile() {
    long h = h();
    stats.jniCall();
    String p = NvmNative.logPath(h);
    return p == null ? null : new File(p);
  }

  /** Disk mode: a checkpoint now (the region file durable up to every commit, the log freed). */
  public void checkpoint() throws NvmException {
    long h = h();
    stats.jniCall();
    NvmNative.checkpoint(h);
  }

  /**
   * Test only, disk mode (power-loss sweeps): from now on, at every sync point of the log and of
   * the region file, write the image pairs a power loss there could leave, {@code
   * <prefix>.<k>.<variant>} and its {@code .wal}, and after each group commit {@code
   * <prefix>.<k>.applied}; {@code null} stops. Of the cases that vary one log sector or one region
   * page, at most {@code sample} of each kind per point, evenly spread (0: 16). Returns the sync
   * points captured since the previous call armed it.
   */
  public long debugPowerloss(String prefix, int sample) throws NvmException {
    long h = h();
    stats.jniCall();
    return NvmNative.debugPowerloss(h, prefix, sample);
  }

  /** Test only: the sync points captured since the power-loss model was armed. */
  public long debugPowerlossPoints() {
    long h = h();
    stats.jniCall();
    return NvmNative.debugPowerlossPoints(h);
  }

  public RecoveryReport recovery() {
    long h = h();
    stats.jniCall();
    return new RecoveryReport(NvmNative.recoveryReport(h));
  }

  /** Live inode page offsets found at open, parents before children. */
  public long[] recoveredInodes() {
    long h = h();
    stats.jniCall();
    return NvmNative.recoveredInodes(h);
  }

  /** Live string page offsets found at open, in id order. */
  public long[] recoveredStrings() {
    long h = h();
    stats.jniCall();
    return NvmNative.recoveredStrings(h);
  }

  /**
   * Parallel to {@link #recoveredStrings()}: the references (owner, group, client name, client
   * machine of live inodes) each string had at open.
   */
  public long[] recoveredStringRefs() {
    long h = h();
    stats.jniCall();
    return NvmNative.recoveredStringRefs(h);
  }

  /** Offsets of the live record pages (region-format.md §5.5) at open, in page order. */
  public long[] recoveredRecords() {
    long h = h();
    stats.jniCall();
    return NvmNative.recoveredRecords(h);
  }

  /** Native calls, persists and persist latencies of this handle (for the metrics source). */
  public RegionStats stats() {
    return stats;
  }

  /** Native calls that write or allocate (apply, reserve, release) made through this region. */
  public long nativeWriteCalls() {
    return applyCalls + reserveCalls + releaseCalls;
  }

  /** Persist barriers (drains) this handle has issued since it was opened. */
  public long barrierCount() {
    long h = h();
    stats.jniCall();
    return NvmNative.barrierCount(h);
  }

  /** Test only: simulate a crash at the n-th persist barrier from now (0 disarms). */
  void debugCrashAt(long n, String snapshotPrefix) throws NvmException {
    long h = h();
    stats.jniCall();
    NvmNative.debugCrashAt(h, n, snapshotPrefix);
  }

  boolean debugCrashed() {
    long h = h();
    stats.jniCall();
    return NvmNative.debugCrashed(h);
  }

  /**
   * Test only (crash-consistency sweeps): from now on, at every persist barrier write the images a
   * crash there would leave, {@code <prefix>.<k>.lost} and {@code <prefix>.<k>.present} (k = 1, 2,
   * ...), and go on; {@code null} stops. Returns the number of barriers captured since the previous
   * call armed it. Keeps a shadow copy of the region while armed.
   */
  public long debugCapture(String snapshotPrefix) throws NvmException {
    long h = h();
    stats.jniCall();
    return NvmNative.debugCapture(h, snapshotPrefix);
  }

  public RegionIdentity identity() {
    return new RegionIdentity(
        getInt(RegionLayout.HDR_NAMESPACE_ID),
        idString(RegionLayout.HDR_CLUSTER_ID),
        idString(RegionLayout.HDR_BLOCKPOOL_ID));
  }

  private String idString(long off) {
    byte[] b = getBytes(off, RegionLayout.HDR_ID_STRING_MAX + 1);
    int n = 0;
    while (n < b.length && b[n] != 0) {
      n++;
    }
    return new String(b, 0, n, StandardCharsets.UTF_8);
  }

  public long creationId() {
    return getLong(RegionLayout.HDR_CREATION_ID);
  }

  public long creationTime() {
    return getLong(RegionLayout.HDR_CREATION_TIME);
  }

  public long pageCount() {
    return getLong(RegionLayout.HDR_PAGE_COUNT);
  }

  // ---- superblock counters ----

  /** Whether the region has page checksums and checked counters (region-format.md §11). */
  public boolean hasPageChecksums() {
    return (getLong(RegionLayout.SB_FEATURES) & RegionLayout.FEATURE_PAGE_CHECKSUMS) != 0;
  }

  /**
   * The value of the superblock counter at {@code sbOffset}: its low SB_COUNTER_BITS bits (the bits
   * above are its check, verified at open). A region not upgraded yet (opened read-only) may hold
   * plain values.
   */
  public long counter(long sbOffset) {
    long w = getLong(sbOffset);
    return hasPageChecksums() || (w >>> RegionLayout.SB_COUNTER_BITS) != 0
        ? w & ((1L << RegionLayout.SB_COUNTER_BITS) - 1)
        : w;
  }

  public long lastInodeId() {
    return counter(RegionLayout.SB_LAST_INODE_ID);
  }

  public long generationStampV1() {
    return counter(RegionLayout.SB_GENSTAMP_V1);
  }

  public long generationStampV2() {
    return counter(RegionLayout.SB_GENSTAMP_V2);
  }

  public long generationStampV1Limit() {
    return counter(RegionLayout.SB_GENSTAMP_V1_LIMIT);
  }

  public long lastAllocatedBlockId() {
    return counter(RegionLayout.SB_LAST_BLOCK_ID);
  }

  public long commitSeq() {
    return counter(RegionLayout.SB_COMMIT_SEQ);
  }

  public long lastStringId() {
    return counter(RegionLayout.SB_LAST_STRING_ID);
  }

  /**
   * The persisted scan limit (region-format.md §3): pages at or above it were never written; the
   * page count if the word is damaged (its halves differ).
   */
  public long scanLimit() {
    long w = getLong(RegionLayout.SB_SCAN_LIMIT);
    long limit = w & 0xffffffffL;
    return (w >>> 32) == (~limit & 0xffffffffL) ? Math.min(limit, pageCount()) : pageCount();
  }

  public long rootPage() {
    return counter(RegionLayout.SB_ROOT_PAGE);
  }

  public long lastTxId() {
    return counter(RegionLayout.SB_LAST_TXID);
  }

  /** Unmaps the region; idempotent. Buffers handed out earlier must not be used afterwards. */
  @Override
  public void close() throws NvmException {
    long h = handle;
    if (h == 0) {
      return;
    }
    handle = 0;
    segments = null;
    stats.jniCall();
    NvmNative.close(h);
  }

  @Override
  public String toString() {
    return "Region{" + file + (handle == 0 ? ", closed" : ", size=" + size) + "}";
  }
}
