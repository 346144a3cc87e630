package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.io.IOException;

/**
 * An error reported by libhdfsnvm (or a refusal detected on the Java side before
 * anything was handed to it). The native glue creates every instance through
 * {@link #fromNative(int, String)}, so native errors become Java exceptions in
 * exactly one place.
 */
public class NvmException extends IOException {
  private static final long serialVersionUID = 1L;

  /** NVM_ERRORS in nvmns.h (FormatFactsTest checks both ways); the value is {@link #value()}. */
  public enum ErrorCode {
    OK(0), EIO(1), ENOTREGION(2), EVERSION(3), ECORRUPT(4), ETRUNCATED(5), EFULL(6),
    EINVAL(7), EEXIST(8), EMODE(9), ECRASHED(10), ETOOLONG(11), EBUSY(12),
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

  private final ErrorCode code;
  private final int rawCode;

  public NvmException(ErrorCode code, String message) {
    this(code, code.value(), message);
  }

  public NvmException(int rawCode, String message) {
    this(ErrorCode.of(rawCode), rawCode, message);
  }

  private NvmException(ErrorCode code, int rawCode, String message) {
    super("NVM_" + (code == ErrorCode.UNKNOWN ? "E" + rawCode : code.name()) + ": " + message);
    this.code = code;
    this.rawCode = rawCode;
  }

  public ErrorCode code() {
    return code;
  }

  /** The numeric code as the native library reported it. */
  public int rawCode() {
    return rawCode;
  }

  /** Called by the JNI glue (nvm_jni.c, throw_nvm) for every failing native call. */
  static NvmException fromNative(int code, String message) {
    if (code == ErrorCode.EFULL.value()) {
      return new RegionFullException(message);
    }
    return new NvmException(code, message);
  }
}
