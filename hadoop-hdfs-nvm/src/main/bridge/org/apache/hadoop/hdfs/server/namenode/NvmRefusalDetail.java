package org.apache.hadoop.hdfs.server.namenode;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.CheckReport;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.Finding;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.RegionCheck;

/**
 * A start-up refusal of a damaged region, explained: the native open says what is wrong and at
 * which offset; for a place in the data area, the offline checker (run read-only on the refused,
 * unchanged file) names what lives there — the page, the inode and its path — so the operator reads
 * the damage, not just an offset.
 */
final class NvmRefusalDetail {
  private NvmRefusalDetail() {}

  static IOException explain(File region, File log, NvmException e) {
    long off = e.offset();
    if (off < RegionLayout.DATA_OFFSET) {
      return e;
    }
    long page = off - (off - RegionLayout.DATA_OFFSET) % RegionLayout.PAGE_SIZE;
    StringBuilder where = new StringBuilder();
    try {
      CheckReport report = RegionCheck.run(region, log);
      for (Finding f : report.findings()) {
        long fo = f.offset();
        if (f.severity() == Finding.Severity.ERROR
            && fo >= page
            && fo < page + RegionLayout.PAGE_SIZE) {
          where.append(where.length() == 0 ? "" : "; ").append(f.message());
        }
      }
    } catch (RuntimeException ex) {
      return e; // the explanation is a courtesy; the refusal stands as the native open gave it
    }
    if (where.length() == 0) {
      return e;
    }
    return new IOException(
        e.getMessage()
            + " [NvmRegionTool check: "
            + where
            + "]; the region file is unchanged (docs/operator-guide.md, failure handling)",
        e);
  }
}
