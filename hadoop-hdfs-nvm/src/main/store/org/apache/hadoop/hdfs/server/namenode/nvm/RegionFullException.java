package org.apache.hadoop.hdfs.server.namenode.nvm;

/** No free page is left in the region (NVM_EFULL); nothing was written. */
public class RegionFullException extends NvmException {
  private static final long serialVersionUID = 1L;

  public RegionFullException(String message) {
    super(ErrorCode.EFULL, message);
  }
}
