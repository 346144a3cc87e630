package org.nvmnn.workload;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;

/**
 * Started just before a NameNode process, in one JVM, so the driver can time the restart without a
 * JVM start per poll: prints "answered <epoch ms>" when the NameNode first answers
 * getFileInfo("/"), then "safemode-off <epoch ms>" once it has left safe mode and has at least
 * --datanodes live DataNodes (default 1). Exit 1 if the NameNode process (--pid) exits or
 * --timeout-seconds pass first.
 */
public final class ReadyProbe {
  private ReadyProbe() {}

  public static void main(String[] args) throws Exception {
    Flags f = Flags.parse(args, "--pid", "--datanodes", "--timeout-seconds");
    String pid = f.get("--pid", null);
    long timeoutMs = f.getLong("--timeout-seconds", 600) * 1000;
    int datanodes = f.getInt("--datanodes", 1);
    long deadline = System.currentTimeMillis() + timeoutMs;
    File proc = pid == null ? null : new File("/proc/" + pid);
    DistributedFileSystem fs =
        (DistributedFileSystem) FileSystem.newInstance(ClientConf.failFast());
    boolean answered = false;
    while (System.currentTimeMillis() < deadline) {
      if (proc != null && !proc.exists()) {
        System.out.println("exited");
        System.exit(1);
      }
      try {
        if (!answered) {
          fs.getClient().getFileInfo("/");
          answered = true;
          System.out.println("answered " + System.currentTimeMillis());
        }
        if (!fs.setSafeMode(SafeModeAction.SAFEMODE_GET)
            && fs.getDataNodeStats(DatanodeReportType.LIVE).length >= datanodes) {
          System.out.println("safemode-off " + System.currentTimeMillis());
          System.exit(0);
        }
      } catch (IOException e) {
        // down, starting, or in safe mode: poll again
      }
      Thread.sleep(answered ? 100 : 25);
    }
    System.out.println("timeout");
    System.exit(1);
  }
}
