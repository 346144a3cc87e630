package org.nvmnn.patcher;

/** The stock input is not what the patch was written for, or the output failed verification. */
public class PatchException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public PatchException(String message) {
    super(message);
  }

  public PatchException(String message, Throwable cause) {
    super(message, cause);
  }
}
