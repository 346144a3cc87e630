package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.io.IOException;

/**
 * An error reported by libhdfsnvm (or a refusal detected on the Java side before anything was
 * handed to it). The native glue creates every instance through {@link #fromNative(int, String,
 * long)}, so native errors become Java exceptions in exactly one place. A refusal of the region
 * carries the file offset it points at ({@link #offset()}).
 */
public class NvmException extends IOException {
  private static final long serialVersionUID = 1L;

  /** NVM_ERRORS in nvmns.h (FormatFactsTest checks both ways); the value is {@link #value()}. */
  public enum ErrorCode {
    OK(0),
    EIO(1),
    ENOTREGION(2),
    EVERSION(3),
    ECORRUPT(4),
    ETRUNCATED(5),
    EFULL(6),
    EINVAL(7),
    EEXIST(8),
    EMODE(9),
    ECRASHED(10),
    ETOOLONG(11),
    EBUSY(12),
    /** The write-ahead log the region needs is missing, of another region or epoch, or damaged. */
    ELOG(13),
    /** A code this binding does not know (a newer native library). */
    UNKNOWN(-1);

    private final int value;

    ErrorCode(int value) {
      this.value = value;
    }

    public int value() {
      return value;
    }

    public static ErrorCode of(int value) {
      for (ErrorCode c : values()) {
        if (c.value == value) {
          return c;
        }
      }
      return UNKNOWN;
    }
  }

  /**
   * {@link #offset()} of an error that has no place in the region file (nvm_erroroffset's
   * NVM_NO_OFFSET).
   */
  public static final long NO_OFFSET = -1;

  private final ErrorCode code;
  private final int rawCode;
  private final long offset;

  public NvmException(ErrorCode code, String message) {
    this(code, code.value(), message, NO_OFFSET);
  }

  public NvmException(int rawCode, String message) {
    this(ErrorCode.of(rawCode), rawCode, message, NO_OFFSET);
  }

  private NvmException(ErrorCode code, int rawCode, String message, long offset) {
    super("NVM_" + (code == ErrorCode.UNKNOWN ? "E" + rawCode : code.name()) + ": " + message);
    this.code = code;
    this.rawCode = rawCode;
    this.offset = offset < 0 ? NO_OFFSET : offset;
  }

  public ErrorCode code() {
    return code;
  }

  /** The numeric code as the native library reported it. */
  public int rawCode() {
    return rawCode;
  }

  /**
   * Where in the region file the error points (nvm_erroroffset): the first byte of the field the
   * native open or recovery found bad (a header or superblock field, a log record, a page's state
   * word, a parent link, a chain link, a name length, a string reference, ...), of the page when
   * the page as a whole is bad, or for a truncated file its length (the first missing byte); {@link
   * #NO_OFFSET} when the error has no place in the file (I/O, a lock, a bad argument, a full
   * region, errors detected on the Java side).
   */
  public long offset() {
    return offset;
  }

  /**
   * Called by the JNI glue (nvm_jni.c, throw_at) for every failing native call; the one place
   * native errors become exceptions.
   */
  static NvmException fromNative(int code, String message, long offset) {
    if (code == ErrorCode.EFULL.value()) {
      return new RegionFullException(message);
    }
    return new NvmException(ErrorCode.of(code), code, message, offset);
  }
}
