package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.nio.ByteBuffer;

/**
 * The JNI entry points of libhdfsnvm (implemented in native/jni/nvm_jni.c). A handle is the address
 * of a native {@code nvm_region}; 0 is never a valid handle. Every method that can fail throws
 * {@link NvmException} (created by the glue through {@link NvmException#fromNative}). Only {@link
 * Region} and tests call these.
 */
final class NvmNative {
  private NvmNative() {}

  /** Bit for {@link #open}: map read-only, shared lock, no recovery. Mirrors NVM_OPEN_READONLY. */
  static final int OPEN_READONLY = 1;

  /** Indexes of the array returned by {@link #usage}. */
  static final int USAGE_TOTAL = 0,
      USAGE_USED = 1,
      USAGE_FREE = 2,
      USAGE_RESERVED = 3,
      USAGE_HIGH_WATER = 4;

  static final int USAGE_LENGTH = 5;

  /**
   * Length of the array returned by {@link #recoveryReport} (the fields of struct nvm_recovery, in
   * order).
   */
  static final int RECOVERY_LENGTH = 13;

  static {
    NativeLibrary.load();
  }

  /**
   * The last five arguments are nvm_options (0 or null: the default): the write-ahead log's path,
   * its capacity, the checkpoint's size and age triggers, NVM_OPT_* flags.
   */
  static native long create(
      String path,
      long size,
      int namespaceId,
      String clusterId,
      String blockPoolId,
      int mode,
      String logPath,
      long logCapacity,
      long checkpointBytes,
      long checkpointMillis,
      int optionFlags)
      throws NvmException;

  static native long open(
      String path,
      int mode,
      int flags,
      String logPath,
      long logCapacity,
      long checkpointBytes,
      long checkpointMillis,
      int optionFlags)
      throws NvmException;

  /** Disk mode: a checkpoint now (nvm_checkpoint). */
  static native void checkpoint(long handle) throws NvmException;

  /** Disk mode: the fields of struct nvm_log_stats in order; null in the memory modes. */
  static native long[] logStats(long handle);

  /** Disk mode: the write-ahead log's path; null in the memory modes. */
  static native String logPath(long handle);

  /** Test only, disk mode: nvm_debug_powerloss; returns the sync points captured so far. */
  static native long debugPowerloss(long handle, String prefix, int sample) throws NvmException;

  /** Test only: nvm_debug_powerloss_points. */
  static native long debugPowerlossPoints(long handle);

  static native void close(long handle) throws NvmException;

  /** Size of the mapping in bytes. */
  static native long size(long handle);

  /**
   * Direct buffers over consecutive slices of the mapping, each {@code segmentBytes} long (the last
   * may be shorter). segmentBytes must be a positive multiple of the page size and at most 1 GiB.
   * The buffers are valid until {@link #close}.
   */
  static native ByteBuffer[] mapSegments(long handle, long segmentBytes) throws NvmException;

  static native int mode(long handle);

  static native boolean isPmem(long handle);

  static native boolean isReadOnly(long handle);

  static native long[] usage(long handle);

  static native void reservePages(long handle, int n, long[] out) throws NvmException;

  static native void releasePages(long handle, int n, long[] offsets) throws NvmException;

  /**
   * {@code batch} must be a direct buffer; {@code length} bytes from its position 0 are applied.
   */
  static native void apply(long handle, ByteBuffer batch, int length) throws NvmException;

  /**
   * Stages a batch (validated, applied to the working copy that the mapped buffers show, nothing
   * written to the region); returns its staging sequence number.
   */
  static native long stage(long handle, ByteBuffer batch, int length) throws NvmException;

  /** Commits every staged batch with a sequence number up to {@code upTo}; returns the last one. */
  static native long sync(long handle, long upTo) throws NvmException;

  static native long[] recoveryReport(long handle);

  static native long[] recoveredInodes(long handle);

  static native long[] recoveredStrings(long handle);

  static native long[] recoveredStringRefs(long handle);

  static native long[] recoveredRecords(long handle);

  static native long barrierCount(long handle);

  /** Test only: arm (n &gt;= 1) or disarm (n == 0) the simulated crash. */
  static native void debugCrashAt(long handle, long n, String snapshotPrefix) throws NvmException;

  static native boolean debugCrashed(long handle);

  /** nvm_debug_capture; returns the barriers captured since the previous arming. */
  static native long debugCapture(long handle, String snapshotPrefix) throws NvmException;

  /** "NAME=value\n" for every layout constant and magic. */
  static native String layoutTable();

  static native String versionString();

  /** The symbolic name of an error code, e.g. "NVM_EFULL". */
  static native String strerror(int code);

  /** nvm_crc32c over data[off, off+len). */
  static native int crc32c(int crc, byte[] data, int off, int len);
}
