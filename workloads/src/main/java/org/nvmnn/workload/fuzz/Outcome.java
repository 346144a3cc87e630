package org.nvmnn.workload.fuzz;

import java.io.EOFException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedChannelException;
import org.apache.hadoop.ipc.RemoteException;

/**
 * What one NameNode answered to one call: a value (in {@link Canon} form) or an exception class and
 * message; or no answer at all (the connection failed: the process died or hung).
 */
final class Outcome {
  final Canon value;
  final String exClass;
  final String message;
  final boolean unreachable;

  private Outcome(Canon value, String exClass, String message, boolean unreachable) {
    this.value = value;
    this.exClass = exClass;
    this.message = message;
    this.unreachable = unreachable;
  }

  static Outcome ok(Object result) {
    return new Outcome(Canon.of(result), null, null, false);
  }

  static Outcome failed(Throwable t) {
    return new Outcome(null, exceptionClass(t), String.valueOf(t.getMessage()), isConnection(t));
  }

  /** An answer that was not asked for (the call went to one NameNode only). */
  static Outcome skipped(String why) {
    return new Outcome(null, "(not sent)", why, false);
  }

  boolean isException() {
    return exClass != null;
  }

  /** The server-side class for a RemoteException, else the local class. */
  static String exceptionClass(Throwable t) {
    if (t instanceof RemoteException) {
      return ((RemoteException) t).getClassName();
    }
    return t.getClass().getName();
  }

  static boolean isConnection(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof RemoteException) {
        return false;
      }
      if (c instanceof ConnectException
          || c instanceof EOFException
          || c instanceof SocketException
          || c instanceof SocketTimeoutException
          || c instanceof ClosedChannelException) {
        return true;
      }
    }
    return false;
  }

  /** The simple class name, for signatures and reports. */
  String shortClass() {
    return exClass == null ? "ok" : exClass.substring(exClass.lastIndexOf('.') + 1);
  }

  @Override
  public String toString() {
    if (exClass == null) {
      return "returned " + value;
    }
    String m = message == null ? "" : message.replace('\n', ' ');
    if (m.length() > 300) {
      m = m.substring(0, 290) + "…";
    }
    return (unreachable ? "no answer: " : "threw ") + exClass + ": " + m;
  }
}
