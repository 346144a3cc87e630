package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;

/**
 * A client operation was refused because a value it carries is beyond what the region format stores
 * (docs/bad-input.md, "Limits of the region"); nothing was changed. The message names the value,
 * the path and the limit. Clients see a {@code RemoteException} with this class name.
 */
public class NvmRegionLimitException extends IOException {
  private static final long serialVersionUID = 1L;

  public NvmRegionLimitException(String message) {
    super(message);
  }
}
