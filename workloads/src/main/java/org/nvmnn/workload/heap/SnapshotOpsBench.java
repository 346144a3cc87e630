package org.nvmnn.workload.heap;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.io.EnumSetWritable;
import org.nvmnn.workload.Flags;

/**
 * Namespace operations under snapshots (docs/benchmarks.md, "Snapshots"): the NameNode in this JVM,
 * its server object called directly from {@code --threads} threads (as {@link
 * SnapshotDeleteBench}). Builds {@code --dirs} directories of {@code --per-dir} empty files under
 * /t, takes {@code --snapshots} snapshots of /t (none: the same run without snapshots), then times
 * four phases of {@code --ops} calls each, every call in a directory the snapshots hold: create (a
 * new empty file, create + complete), mkdirs (a new directory), rename (a built file to a new name
 * in its directory), delete (that renamed file). Under a snapshot each of them changes its
 * directory's diff (its created or deleted list), which the NVM NameNode persists with the call.
 *
 * <p>Prints "snapshot-ops snapshots S op OP ops N seconds X rate R" per phase. Usage:
 * SnapshotOpsBench --snapshots S [--ops 20000] [--dirs 20] [--per-dir 2000] [--threads 8]
 */
public final class SnapshotOpsBench {
  private SnapshotOpsBench() {}

  interface Call {
    void run(long i) throws Exception;
  }

  public static void main(String[] args) throws Exception {
    Flags f = Flags.parse(args, "--snapshots", "--ops", "--dirs", "--per-dir", "--threads");
    int snapshots = f.getInt("--snapshots", 0);
    long ops = f.getLong("--ops", 20000);
    int dirs = f.getInt("--dirs", 20);
    long perDir = f.getLong("--per-dir", 2000);
    int threads = f.getInt("--threads", 8);
    if (snapshots < 0 || ops < 1 || dirs < 1 || perDir < ops / dirs || threads < 1) {
      throw new IllegalArgumentException("need --snapshots >= 0, --per-dir >= --ops / --dirs");
    }
    NameNode nameNode = InProcessNameNode.start("snapshot-ops");
    NamenodeProtocols nn = nameNode.getRpcServer();
    for (int d = 0; d < dirs; d++) {
      nn.mkdirs("/t/d" + d, FsPermission.getDirDefault(), true);
    }
    new DirectFiles(nn, threads)
        .createAll(
            "/t", i -> "/t/d" + (i % dirs) + "/f" + i, 0, dirs * perDir, dirs * perDir, null);
    if (snapshots > 0) {
      nn.allowSnapshot("/t");
      for (int s = 0; s < snapshots; s++) {
        nn.createSnapshot("/t", "s" + s);
      }
    }
    String client = "snapshot-ops";
    EnumSetWritable<CreateFlag> create = new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE));
    CryptoProtocolVersion[] versions = CryptoProtocolVersion.supported();
    FsPermission perm = FsPermission.getFileDefault();
    phase(
        nn,
        snapshots,
        "create",
        ops,
        threads,
        i -> {
          String p = "/t/d" + (i % dirs) + "/n" + i;
          long id =
              nn.create(p, perm, client, create, false, (short) 1, 1L << 27, versions).getFileId();
          if (!nn.complete(p, client, null, id)) {
            throw new IllegalStateException("complete of " + p + " returned false");
          }
        });
    phase(
        nn,
        snapshots,
        "mkdirs",
        ops,
        threads,
        i -> nn.mkdirs("/t/d" + (i % dirs) + "/m" + i, FsPermission.getDirDefault(), false));
    phase(
        nn,
        snapshots,
        "rename",
        ops,
        threads,
        i ->
            nn.rename2(
                "/t/d" + (i % dirs) + "/f" + i,
                "/t/d" + (i % dirs) + "/r" + i,
                Options.Rename.NONE));
    phase(
        nn,
        snapshots,
        "delete",
        ops,
        threads,
        i -> {
          if (!nn.delete("/t/d" + (i % dirs) + "/r" + i, false)) {
            throw new IllegalStateException("delete of r" + i + " returned false");
          }
        });
    nameNode.stop();
    nameNode.join();
    System.exit(0);
  }

  /**
   * Calls {@code call} for 0..n-1 from {@code threads} threads (interleaved) and prints the rate.
   */
  private static void phase(
      NamenodeProtocols nn, int snapshots, String op, long n, int threads, Call call)
      throws Exception {
    AtomicLong next = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> ts = new ArrayList<>();
    long t0 = System.nanoTime();
    for (int k = 0; k < threads; k++) {
      Thread t =
          new Thread(
              () -> {
                long i;
                while (failure.get() == null && (i = next.getAndIncrement()) < n) {
                  try {
                    call.run(i);
                  } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                  }
                }
              },
              op + "-" + k);
      t.start();
      ts.add(t);
    }
    for (Thread t : ts) {
      t.join();
    }
    if (failure.get() != null) {
      throw new IllegalStateException(op + " failed", failure.get());
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    System.out.printf(
        "snapshot-ops snapshots %d op %s ops %d seconds %.2f rate %.0f%n",
        snapshots, op, n, seconds, n / seconds);
  }
}
