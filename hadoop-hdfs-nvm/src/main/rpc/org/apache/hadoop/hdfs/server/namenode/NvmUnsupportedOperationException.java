package org.apache.hadoop.hdfs.server.namenode;

/**
 * Thrown by {@link NvmRpcServer} for an operation the NVM region cannot persist. It is an {@code
 * IOException} (the NameNode's own {@link UnsupportedActionException}), so Hadoop IPC sends it to
 * the client as a {@code RemoteException} carrying this class name and the message; its cause is a
 * {@link UnsupportedOperationException} with the same message for in-process callers.
 */
public class NvmUnsupportedOperationException extends UnsupportedActionException {
  private static final long serialVersionUID = 1L;

  public NvmUnsupportedOperationException(String msg) {
    super(msg);
    initCause(new UnsupportedOperationException(msg));
  }
}
