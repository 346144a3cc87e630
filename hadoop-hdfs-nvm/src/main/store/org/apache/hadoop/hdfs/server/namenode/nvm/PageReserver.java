package org.apache.hadoop.hdfs.server.namenode.nvm;

/** Hands out reserved pages to code staging FRESH writes into a batch. */
public interface PageReserver {
  /** The offset of a reserved page; RegionFullException if none is left. */
  long next() throws NvmException;
}
