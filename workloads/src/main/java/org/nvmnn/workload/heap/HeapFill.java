package org.nvmnn.workload.heap;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.namenode.AclFeature;
import org.apache.hadoop.hdfs.server.namenode.AclStorage;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.hdfs.util.ReferenceCountMap;
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
 * each phase (FILES counts all phases: 0..2N); then the classes that changed most.
 *
 * <p>{@code --phases} chooses the phases (default {@code empty,block}), each N files under
 * ROOT/KIND and measured over the heap before it: {@code empty}, {@code block}, and {@code attrs},
 * empty files that each get, once closed, an ACL and two xattrs ({@link FileAttrs}; the NameNode
 * needs dfs.namenode.acls.enabled). An attrs phase prints attrs_delta_bytes, attrs_per_file and
 * attrs_after_read_per_file: the heap over the same base after a content summary of the phase's
 * files has read every one of them (in NVM mode: materialized each from its page through the
 * bounded inode cache, which evicts most again); and "heap acl_features WHEN UNIQUE REFERENCES"
 * lines, after the fill and after the read: the size of 2.7.3's global map of shared ACL features
 * and the sum of its reference counts. namespace_per_file and block_per_file are printed only for
 * the default phases.
 *
 * <p>Usage: HeapFill --files N [--phases empty,block] [--threads 2] [--files-per-dir 1000] [--root
 * /heap] [--jcmd jcmd] [--top 15] [--steps 4]
 */
public final class HeapFill {
  /** The kinds of phase: N files each, created under ROOT/KIND. */
  private static final List<String> PHASES = Arrays.asList("empty", "block", "attrs");

  private static final Map<String, String> TITLES = new HashMap<>();

  static {
    TITLES.put("empty", "empty files");
    TITLES.put("block", "one-block files");
    TITLES.put("attrs", "empty files with an ACL and two xattrs");
  }

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
            "--phases",
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
    List<String> phases = Arrays.asList(f.get("--phases", "empty,block").split(","));
    if (files <= 0 || threads < 1 || filesPerDir < 1 || steps < 1) {
      throw new IllegalArgumentException(
          "need --files N > 0, threads >= 1, files-per-dir >= 1, steps >= 1");
    }
    if (!PHASES.containsAll(phases) || new HashSet<>(phases).size() != phases.size()) {
      throw new IllegalArgumentException(
          "--phases is a list of distinct phases among " + PHASES + ", not " + phases);
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
      // after each phase; an attrs phase also after its content summary read every file
      List<ClassHistogram> after = new ArrayList<>();
      ClassHistogram afterRead = null;
      for (int phase = 0; phase < phases.size(); phase++) {
        String kind = phases.get(phase);
        String dir = root + "/" + kind;
        ClassHistogram h = null;
        for (int k = 0; k < steps; k++) {
          long from = files * k / steps;
          long to = files * (k + 1) / steps;
          fill.createAll(
              dir, from, to, files, kind.equals("block") ? dn : null, kind.equals("attrs"));
          h = ClassHistogram.take(jcmd, pid);
          System.out.println("heap curve " + (phase * files + to) + " " + h.totalBytes);
        }
        after.add(h);
        if (kind.equals("attrs")) {
          printAclFeatures("after_fill");
          fill.verifyAttrs(dir, files); // its content summary reads every file
          afterRead = ClassHistogram.take(jcmd, pid);
          printAclFeatures("after_read");
        } else {
          fill.verify(dir, files, kind.equals("block"));
        }
      }

      System.out.println("heap files " + files);
      System.out.println("heap baseline_bytes " + h0.totalBytes);
      double[] perFile = new double[phases.size()];
      for (int phase = 0; phase < phases.size(); phase++) {
        String key = phases.get(phase).equals("block") ? "one_block" : phases.get(phase);
        ClassHistogram before = phase == 0 ? h0 : after.get(phase - 1);
        long delta = after.get(phase).totalBytes - before.totalBytes;
        perFile[phase] = (double) delta / files;
        System.out.println("heap " + key + "_delta_bytes " + delta);
        System.out.printf("heap %s_per_file %.1f%n", key, perFile[phase]);
        if (phases.get(phase).equals("attrs")) {
          System.out.printf(
              "heap attrs_after_read_per_file %.1f%n",
              (double) (afterRead.totalBytes - before.totalBytes) / files);
        }
      }
      if (phases.equals(Arrays.asList("empty", "block"))) {
        System.out.printf("heap namespace_per_file %.1f%n", perFile[0]);
        System.out.printf("heap block_per_file %.1f%n", perFile[1] - perFile[0]);
      }
      for (int phase = 0; phase < phases.size(); phase++) {
        String kind = phases.get(phase);
        ClassHistogram before = phase == 0 ? h0 : after.get(phase - 1);
        String title =
            TITLES.get(kind)
                + (phase == 0
                    ? " (after - baseline)"
                    : " (after - after " + TITLES.get(phases.get(phase - 1)) + ")");
        printTop(title, ClassHistogram.diff(before, after.get(phase)), top, files);
        if (kind.equals("attrs")) {
          printTop(
              TITLES.get(kind) + ", after reading every one (after read - before the phase)",
              ClassHistogram.diff(before, afterRead),
              top,
              files);
        }
      }
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

  /** 2.7.3's global map of shared ACL features: its size and the sum of its reference counts. */
  private static void printAclFeatures(String when) {
    ReferenceCountMap<AclFeature> m = AclStorage.getUniqueAclFeatures();
    long refs = 0;
    for (AclFeature a : m.getEntries()) {
      refs += m.getReferenceCount(a);
    }
    System.out.println("heap acl_features " + when + " " + m.getUniqueElementsSize() + " " + refs);
  }

  /**
   * Creates closed files {@code [first, end)} of {@code n} under {@code dir}, with one 1-byte block
   * each when {@code dn} is set.
   */
  void createAll(String dir, long first, long end, long n, FakeDatanode dn) throws Exception {
    createAll(dir, first, end, n, dn, false);
  }

  /** As above; with {@code withAttrs}, each file also gets {@link FileAttrs}'s attributes. */
  void createAll(String dir, long first, long end, long n, FakeDatanode dn, boolean withAttrs)
      throws Exception {
    files.createAll(
        dir, i -> dir + "/d" + (i / filesPerDir) + "/f" + i, first, end, n, dn, withAttrs);
  }

  /** {@link #verify} for empty files with attributes, and the first and last files' attributes. */
  void verifyAttrs(String dir, long n) throws IOException {
    verify(dir, n, false);
    for (long i : new long[] {0, n - 1}) {
      FileAttrs.check(nn, dir + "/d" + (i / filesPerDir) + "/f" + i, i);
    }
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
