package org.apache.hadoop.hdfs.server.namenode.nvm;

/** Page accounting of a region at one moment (struct nvm_usage). */
public final class RegionUsage {
  private final long pagesTotal;
  private final long pagesUsed;
  private final long pagesFree;
  private final long pagesReserved;
  private final long highWater;

  RegionUsage(long[] u) {
    this(
        u[NvmNative.USAGE_TOTAL],
        u[NvmNative.USAGE_USED],
        u[NvmNative.USAGE_FREE],
        u[NvmNative.USAGE_RESERVED],
        u[NvmNative.USAGE_HIGH_WATER]);
  }

  public RegionUsage(
      long pagesTotal, long pagesUsed, long pagesFree, long pagesReserved, long highWater) {
    this.pagesTotal = pagesTotal;
    this.pagesUsed = pagesUsed;
    this.pagesFree = pagesFree;
    this.pagesReserved = pagesReserved;
    this.highWater = highWater;
  }

  public long pagesTotal() {
    return pagesTotal;
  }

  /** Live inode, extension and string pages plus reserved ones. */
  public long pagesUsed() {
    return pagesUsed;
  }

  public long pagesFree() {
    return pagesFree;
  }

  public long pagesReserved() {
    return pagesReserved;
  }

  /** Pages at an index at or above this have never been used. */
  public long highWater() {
    return highWater;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RegionUsage)) {
      return false;
    }
    RegionUsage r = (RegionUsage) o;
    return pagesTotal == r.pagesTotal
        && pagesUsed == r.pagesUsed
        && pagesFree == r.pagesFree
        && pagesReserved == r.pagesReserved
        && highWater == r.highWater;
  }

  @Override
  public int hashCode() {
    return (int) (pagesTotal * 31 + pagesUsed * 17 + pagesFree * 7 + pagesReserved * 3 + highWater);
  }

  @Override
  public String toString() {
    return "RegionUsage{total="
        + pagesTotal
        + ", used="
        + pagesUsed
        + ", free="
        + pagesFree
        + ", reserved="
        + pagesReserved
        + ", highWater="
        + highWater
        + "}";
  }
}
