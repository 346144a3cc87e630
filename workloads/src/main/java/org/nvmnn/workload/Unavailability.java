package org.nvmnn.workload;

import java.io.EOFException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedChannelException;
import org.apache.hadoop.ipc.RemoteException;

/**
 * Tells a failure caused by the NameNode being down or restarting (the connection refused, reset or
 * closed under a call; a restarted NameNode not started yet or in safe mode) from any other
 * failure. Only the first kind is expected in this test.
 */
public final class Unavailability {
  private Unavailability() {}

  public static boolean isNameNodeUnavailable(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof SocketException
          || c instanceof EOFException
          || c instanceof SocketTimeoutException
          || c instanceof ClosedChannelException
          || isResetOnWrite(c)) {
        return true;
      }
      if (c instanceof RemoteException) {
        String cls = ((RemoteException) c).getClassName();
        return cls.endsWith(".SafeModeException")
            || cls.endsWith(".RetriableException")
            || cls.endsWith(".StandbyException");
      }
    }
    return false;
  }

  /**
   * The connection reset under a write: the JDK's socket channel reports ECONNRESET and EPIPE on a
   * write as a plain IOException ("Connection reset by peer", "Broken pipe"), not as a
   * SocketException as on a read; Hadoop's IPC client then fails every call pending on that
   * connection with it.
   */
  private static boolean isResetOnWrite(Throwable c) {
    String m = c.getMessage();
    return c.getClass() == java.io.IOException.class
        && m != null
        && (m.equals("Connection reset by peer") || m.equals("Broken pipe"));
  }

  /** One line: exception classes along the cause chain and the first message. */
  public static String describe(Throwable t) {
    StringBuilder sb = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (sb.length() > 0) sb.append(" <- ");
      sb.append(
          c instanceof RemoteException
              ? "Remote:" + ((RemoteException) c).getClassName()
              : c.getClass().getSimpleName());
    }
    String msg = String.valueOf(t.getMessage()).replace('\n', ' ');
    return sb + ": " + (msg.length() > 200 ? msg.substring(0, 200) + "..." : msg);
  }
}
