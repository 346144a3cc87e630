package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;

/**
 * A client operation that would add to the namespace was refused because the NVM region has too few
 * free pages left; nothing was changed. Clients see a {@code RemoteException} with this class name
 * and the message, which names the region file and its usage.
 */
public class NvmRegionFullException extends IOException {
  private static final long serialVersionUID = 1L;

  public NvmRegionFullException(String message) {
    super(message);
  }
}
