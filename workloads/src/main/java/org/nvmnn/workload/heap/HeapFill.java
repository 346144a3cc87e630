package org.nvmnn.workload.heap;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.nvmnn.workload.Flags;

/**
 * Heap per file of a NameNode: live bytes after a full GC (jcmd GC.class_histogram on this JVM)
 * with the namespace empty, after N empty files, and after N more files of one 1-byte block each,
 * all closed. The NameNode runs in this JVM (NameNode.createNameNode with the configuration on the
 * class path, as NNThroughputBenchmark does, so the drop-in jar's hooks decide stock or NVM) and is
 * called directly through its RPC server object: no RPC layer, and no retry-cache entries, which a
 * real RPC would leave behind for 10 minutes per call. Blocks are "stored" on a {@link
 * FakeDatanode} that reports them received, so complete() succeeds without block data. The driver
 * keeps no per-file state: the heap grows only by what the NameNode keeps.
 *
 * <p>Prints "heap KEY VALUE" lines: baseline_bytes, empty_delta_bytes, empty_per_file,
 * one_block_delta_bytes, one_block_per_file, namespace_per_file (= empty_per_file), block_per_file
 * (= one_block_per_file - empty_per_file); "heap curve FILES BYTES" after every N/steps files of
 * each phase (FILES counts both phases: 0..2N); then the classes that changed most.
 *
 * <p>Usage: HeapFill --files N [--threads 2] [--files-per-dir 1000] [--root /heap] [--jcmd jcmd]
 * [--top 15] [--steps 4]
 */
public final class HeapFill {
  private final ClientProtocol nn;
  private final DirectFiles files;
  private final int filesPerDir;

  HeapFill(ClientProtocol nn, int threads, int filesPerDir) {
    this.nn = nn;
    this.files = new DirectFiles(nn, threads);
    this.filesPerDir = filesPerDir;
  }

  public static void main(String[] args) throws Exception {
    Flags f =
        Flags.parse(
            args,
            "--files",
            "--threads",
            "--files-per-dir",
            "--root",
            "--jcmd",
            "--top",
            "--steps");
    long files = f.getLong("--files", -1);
    int threads = f.getInt("--threads", 2);
    int filesPerDir = f.getInt("--files-per-dir", 1000);
    String root = f.get("--root", "/heap");
    String jcmd = f.get("--jcmd", "jcmd");
    int top = f.getInt("--top", 15);
    int steps = f.getInt("--steps", 4);
    if (files <= 0 || threads < 1 || filesPerDir < 1 || steps < 1) {
      throw new IllegalArgumentException(
          "need --files N > 0, threads >= 1, files-per-dir >= 1, steps >= 1");
    }
    long pid = Long.parseLong(ManagementFactory.getRuntimeMXBean().getName().split("@")[0]);
    Configuration conf = new HdfsConfiguration();
    NameNode nameNode = NameNode.createNameNode(new String[0], conf);
    NamenodeProtocols nn = nameNode.getRpcServer();
    nn.setSafeMode(SafeModeAction.SAFEMODE_LEAVE, false);
    System.out.println("heap namenode " + nameNode.getNamesystem().getClass().getName());
    HeapFill fill = new HeapFill(nn, threads, filesPerDir);
    try (FakeDatanode dn = new FakeDatanode(nn, 50010)) {
      nn.mkdirs(root, FsPermission.getDirDefault(), true);
      ClassHistogram h0 = ClassHistogram.take(jcmd, pid);
      System.out.println("heap curve 0 " + h0.totalBytes);
      ClassHistogram h1 = null;
      ClassHistogram h2 = null;
      for (int phase = 0; phase < 2; phase++) {
        String dir = root + (phase == 0 ? "/empty" : "/block");
        for (int k = 0; k < steps; k++) {
          long from = files * k / steps;
          long to = files * (k + 1) / steps;
          fill.createAll(dir, from, to, files, phase == 0 ? null : dn);
          ClassHistogram h = ClassHistogram.take(jcmd, pid);
          System.out.println("heap curve " + (phase * files + to) + " " + h.totalBytes);
          if (phase == 0) {
            h1 = h;
          } else {
            h2 = h;
          }
        }
        fill.verify(dir, files, phase == 1);
      }

      double empty = (double) (h1.totalBytes - h0.totalBytes) / files;
      double oneBlock = (double) (h2.totalBytes - h1.totalBytes) / files;
      System.out.println("heap files " + files);
      System.out.println("heap baseline_bytes " + h0.totalBytes);
      System.out.println("heap empty_delta_bytes " + (h1.totalBytes - h0.totalBytes));
      System.out.printf("heap empty_per_file %.1f%n", empty);
      System.out.println("heap one_block_delta_bytes " + (h2.totalBytes - h1.totalBytes));
      System.out.printf("heap one_block_per_file %.1f%n", oneBlock);
      System.out.printf("heap namespace_per_file %.1f%n", empty);
      System.out.printf("heap block_per_file %.1f%n", oneBlock - empty);
      printTop("empty files (after - baseline)", ClassHistogram.diff(h0, h1), top, files);
      printTop(
          "one-block files (after - after empty files)", ClassHistogram.diff(h1, h2), top, files);
    }
    nameNode.stop();
    System.exit(0);
  }

  private static void printTop(
      String title, List<ClassHistogram.Delta> deltas, int top, long files) {
    System.out.println("classes, " + title + ": bytes/file instances/file class");
    for (int i = 0; i < Math.min(top, deltas.size()); i++) {
      ClassHistogram.Delta d = deltas.get(i);
      System.out.printf(
          "  %10.1f %8.3f %s%n",
          (double) d.bytes / files, (double) d.instances / files, d.className);
    }
  }

  /**
   * Creates closed files {@code [first, end)} of {@code n} under {@code dir}, with one 1-byte block
   * each when {@code dn} is set.
   */
  void createAll(String dir, long first, long end, long n, FakeDatanode dn) throws Exception {
    files.createAll(dir, i -> dir + "/d" + (i / filesPerDir) + "/f" + i, first, end, n, dn);
  }

  /**
   * Checks the count and that the first and last files are closed with the expected block count.
   */
  void verify(String dir, long n, boolean withBlock) throws IOException {
    ContentSummary cs = nn.getContentSummary(dir);
    if (cs.getFileCount() != n) {
      throw new IOException(dir + " holds " + cs.getFileCount() + " files, expected " + n);
    }
    for (long i : new long[] {0, n - 1}) {
      String p = dir + "/d" + (i / filesPerDir) + "/f" + i;
      LocatedBlocks lbs = nn.getBlockLocations(p, 0, Long.MAX_VALUE);
      if (lbs == null
          || lbs.isUnderConstruction()
          || lbs.locatedBlockCount() != (withBlock ? 1 : 0)) {
        throw new IOException(
            p + " is not a closed file with " + (withBlock ? 1 : 0) + " block(s): " + lbs);
      }
    }
  }
}
