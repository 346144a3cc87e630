package org.nvmnn.workload.ha;

import java.nio.file.Paths;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.nvmnn.workload.Flags;

/**
 * Checks, after an {@link HaLoad} run, that every operation that took effect is still in effect
 * through the cluster's fs.defaultFS: prints the counts and "lost=0", or "lost=N" and the log line
 * of each operation whose effect is missing; exit 1 if any is.
 *
 * <p>Usage: HaVerify --log FILE
 */
public final class HaVerify {
  private HaVerify() {}

  public static void main(String[] args) throws Exception {
    Flags f = Flags.parse(args, "--log");
    String log = f.get("--log", null);
    if (log == null) {
      throw new IllegalArgumentException("--log is required");
    }
    ExpectedNamespace expected = ExpectedNamespace.replay(LogLine.readAll(Paths.get(log)));
    DistributedFileSystem fs =
        (DistributedFileSystem) FileSystem.newInstance(new HdfsConfiguration());
    NamespaceCheck check = new NamespaceCheck(fs);
    check.run(expected);
    LoadTally t = expected.tally;
    System.out.println("verify: the log has " + t);
    System.out.printf(
        "verify: files with their content at their final name: %d of %d; renames in effect: %d"
            + " of %d%n",
        check.filesIntact, expected.files.size(), check.renamesInEffect, expected.renames.size());
    System.out.println("lost=" + check.lost.size());
    for (String l : check.lost) {
      System.out.println("  LOST " + l);
    }
    System.exit(check.lost.isEmpty() ? 0 : 1);
  }
}
