package org.nvmnn.it.core;

import static org.junit.Assume.assumeTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileReader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.junit.After;
import org.junit.Test;

/**
 * A diagnostic, not part of the suite: re-runs one worker's operations from a process-crash run's
 * log ({@code ops-tN.log}, docs/process-crash-test.md) in order, single-threaded, against a
 * MiniDFSCluster NVM NameNode with the snapshot preview on, restarting the NameNode where the run
 * restarted it (a new epoch), and stops at the first call that fails. Skipped unless {@code
 * -Dops.log=FILE} is given; {@code -Dops.restarts=false} replays without restarts, {@code
 * -Dops.stock=true} against a stock NameNode, {@code -Dops.watch=ID} prints the call that made
 * inode ID.
 *
 * <p>{@code cd nvm-it && mvn -o test -Dtest=OpsLogReplay -Dops.log=/tmp/…/ops/ops-t2.log}
 */
public class OpsLogReplay {
  private static final Pattern LINE =
      Pattern.compile(
          "^\\d+ e(\\d+) (ACK|INDOUBT-DONE|ERROR) t\\d+#(\\d+) (\\S+) (.*?)(?: # .*|: .*)?$");

  private MiniDFSCluster cluster;

  @After
  public void tearDown() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  @Test(timeout = 3_600_000)
  public void replay() throws Exception {
    String log = System.getProperty("ops.log");
    assumeTrue("no -Dops.log", log != null);
    boolean restarts = !"false".equals(System.getProperty("ops.restarts"));
    boolean nvm = !"true".equals(System.getProperty("ops.stock"));
    cluster =
        MigrationTestSupport.cluster(
            getClass(), "r", nvm, 1, NvmConfigKeys.NVM_SNAPSHOTS_PREVIEW_KEY + "=true");
    DistributedFileSystem fs = cluster.getFileSystem();
    int epoch = 0, calls = 0;
    long watch = Long.getLong("ops.watch", 0L);
    try (BufferedReader in = new BufferedReader(new FileReader(new File(log)))) {
      String line;
      while ((line = in.readLine()) != null) {
        Matcher m = LINE.matcher(line);
        if (!m.matches()) {
          continue;
        }
        int e = Integer.parseInt(m.group(1));
        if (e != epoch && restarts) {
          cluster.restartNameNode(0, true);
          cluster.waitActive();
          fs = cluster.getFileSystem();
          System.out.println("replay: restart before epoch " + e + " after " + calls + " calls");
        }
        epoch = e;
        String op = m.group(4);
        String[] a = m.group(5).trim().split(" ");
        try {
          run(fs, op, a);
          if (watch != 0
              && (op.equals("create") || op.startsWith("mkdir"))
              && fs.getClient().getFileInfo(a[0]).getFileId() == watch) {
            System.out.println("replay: inode " + watch + " made by " + line);
          }
        } catch (Exception x) {
          throw new AssertionError("call " + calls + " (#" + m.group(3) + " " + line + ")", x);
        }
        calls++;
      }
    }
    System.out.println("replay: " + calls + " calls, no failure");
    cluster.restartNameNode(0, true); // and the region it left restarts
    cluster.waitActive();
    System.out.println("replay: restarted after the last call");
  }

  private static void run(DistributedFileSystem fs, String op, String[] a) throws Exception {
    Path p = new Path(a[0]);
    switch (op) {
      case "mkdir":
      case "mkdirs":
        fs.mkdirs(p);
        break;
      case "allowSnapshot":
        fs.allowSnapshot(p);
        break;
      case "create":
        try (FSDataOutputStream out = fs.create(p, false)) {
          out.write(new byte[Integer.parseInt(a[1].replace("B", ""))]);
        }
        break;
      case "rename":
        fs.rename(p, new Path(a[1]), Options.Rename.NONE);
        break;
      case "rename-old-api":
        fs.rename(p, new Path(a[1]));
        break;
      case "rename-overwrite":
        fs.rename(p, new Path(a[1]), Options.Rename.OVERWRITE);
        break;
      case "delete":
        fs.delete(p, true);
        break;
      case "setPermission":
        fs.setPermission(p, new FsPermission((short) Integer.parseInt(a[1], 8)));
        break;
      case "setReplication":
        fs.setReplication(p, Short.parseShort(a[1]));
        break;
      case "setTimes":
        fs.setTimes(p, Long.parseLong(a[1].replace("mtime=", "")), -1);
        break;
      case "createSnapshot":
        fs.createSnapshot(root(a[0]), name(a[0]));
        break;
      case "renameSnapshot":
        fs.renameSnapshot(root(a[0]), name(a[0]), name(a[1]));
        break;
      case "deleteSnapshot":
        fs.deleteSnapshot(root(a[0]), name(a[0]));
        break;
      default:
        throw new IllegalArgumentException("unknown operation " + op);
    }
  }

  private static Path root(String snapshotPath) {
    return new Path(snapshotPath.substring(0, snapshotPath.indexOf("/.snapshot/")));
  }

  private static String name(String snapshotPath) {
    return snapshotPath.substring(snapshotPath.indexOf("/.snapshot/") + "/.snapshot/".length());
  }
}
