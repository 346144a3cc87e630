package org.nvmnn.workload.heap;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.nvmnn.workload.Flags;

/**
 * deleteSnapshot of a large tree (docs/benchmarks.md, "Snapshots"): the NameNode runs in this JVM
 * (the configuration on the class path decides stock or NVM, as for {@link NamespaceBuild}) and its
 * server object is called directly. Builds N empty closed files under ROOT in the shape of {@link
 * NamespaceBuild}, allows and takes snapshot s0 of ROOT, gives every K-th file a new permission (a
 * file diff each: the snapshot's pre-image), then deletes s0 — 2.7.3 walks the whole tree under the
 * namesystem lock, and the NVM NameNode persists what the walk changed — while a probe thread calls
 * getFileInfo (which takes the namesystem's read lock) in a loop: its longest call is the longest
 * time a reader waited, the lock's longest hold as a client sees it.
 *
 * <p>Before the deletion, with the snapshot and its diffs in place: the NameNode's live heap per
 * file (jcmd GC.class_histogram of this JVM after the changes, less the one before the build, over
 * N), and a restart: the NameNode stopped and started again in this JVM, timed from the start to
 * the first answer out of safe mode (a stock NameNode saves its namespace first, so it loads an
 * fsimage: its fastest restart). The deletion then runs on the restarted NameNode.
 *
 * <p>Prints "snapshot-delete heap-per-file B", "snapshot-delete restart-seconds S",
 * "snapshot-delete files N changed C seconds S longest-wait-ms W probes P" and the build's and the
 * changes' times. Usage: SnapshotDeleteBench --files N [--every 10] [--dirs 4] [--threads 8]
 * [--root /snap] [--jcmd jcmd] [--restart true]
 */
public final class SnapshotDeleteBench {
  private SnapshotDeleteBench() {}

  public static void main(String[] args) throws Exception {
    Flags f =
        Flags.parse(
            args, "--files", "--every", "--dirs", "--threads", "--root", "--jcmd", "--restart");
    String jcmd = f.get("--jcmd", "jcmd");
    boolean restart = Boolean.parseBoolean(f.get("--restart", "true"));
    long files = f.getLong("--files", -1);
    int every = f.getInt("--every", 10);
    int dirs = f.getInt("--dirs", 4);
    int threads = f.getInt("--threads", 8);
    String root = f.get("--root", "/snap");
    if (files <= 0 || every < 1 || dirs < 1 || threads < 1) {
      throw new IllegalArgumentException(
          "need --files N > 0, --every >= 1, --dirs, --threads >= 1");
    }
    DefaultMetricsSystem.setMiniClusterMode(true); // a second NameNode in this JVM (the restart)
    long pid = Long.parseLong(ManagementFactory.getRuntimeMXBean().getName().split("@")[0]);
    NameNode nameNode = InProcessNameNode.start("snapshot-delete");
    NamenodeProtocols nn = nameNode.getRpcServer();
    ClientShares shares = InProcessNameNode.shares(nn, root, files, dirs);
    long heap0 = ClassHistogram.take(jcmd, pid).totalBytes;
    long t0 = System.nanoTime();
    new DirectFiles(nn, threads).createAll(root, shares::pathOf, 0, files, files, null);
    System.out.printf("snapshot-delete build seconds %.1f%n", (System.nanoTime() - t0) / 1e9);

    nn.allowSnapshot(root);
    nn.createSnapshot(root, "s0");
    long changed = 0;
    t0 = System.nanoTime();
    FsPermission perm = new FsPermission((short) 0600);
    for (long i = 0; i < files; i += every) {
      nn.setPermission(shares.pathOf(i), perm);
      changed++;
    }
    System.out.printf(
        "snapshot-delete changes %d seconds %.1f%n", changed, (System.nanoTime() - t0) / 1e9);
    long heap1 = ClassHistogram.take(jcmd, pid).totalBytes;
    System.out.printf("snapshot-delete heap-per-file %.1f%n", (double) (heap1 - heap0) / files);
    if (restart) {
      if (!nameNode.getNamesystem().getClass().getSimpleName().startsWith("Nvm")) {
        nn.setSafeMode(SafeModeAction.SAFEMODE_ENTER, false);
        nn.saveNamespace();
      }
      nameNode.stop();
      nameNode.join();
      t0 = System.nanoTime();
      nameNode = InProcessNameNode.start("snapshot-delete");
      nn = nameNode.getRpcServer();
      nn.getFileInfo(shares.pathOf(files - 1));
      System.out.printf("snapshot-delete restart-seconds %.2f%n", (System.nanoTime() - t0) / 1e9);
    }
    final NamenodeProtocols probed = nn;

    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong longest = new AtomicLong(), probes = new AtomicLong();
    String probe = shares.pathOf(1);
    Thread prober =
        new Thread(
            () -> {
              while (!stop.get()) {
                long a = System.nanoTime();
                try {
                  probed.getFileInfo(probe);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
                long w = System.nanoTime() - a;
                longest.accumulateAndGet(w, Math::max);
                probes.incrementAndGet();
              }
            },
            "lock-probe");
    prober.setDaemon(true);
    prober.start();
    Thread.sleep(200); // the probe runs before the delete starts
    longest.set(0);
    probes.set(0);
    t0 = System.nanoTime();
    nn.deleteSnapshot(root, "s0");
    double seconds = (System.nanoTime() - t0) / 1e9;
    stop.set(true);
    prober.join();
    if (nn.getSnapshottableDirListing()[0].getSnapshotNumber() != 0) {
      throw new IllegalStateException(root + " still has snapshots after deleteSnapshot");
    }
    System.out.printf(
        "snapshot-delete files %d changed %d seconds %.3f longest-wait-ms %.1f probes %d%n",
        files, changed, seconds, longest.get() / 1e6, probes.get());
    nameNode.stop();
    nameNode.join();
    System.exit(0);
  }
}
