package org.nvmnn.bench.store;

import java.io.File;
import org.apache.hadoop.hdfs.server.namenode.nvm.Field;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;

/**
 * Counts, per store operation, the JNI crossings that write or allocate and the persist barriers
 * (drains) — exact numbers, not timings. Reads never cross JNI (they go through the mapped direct
 * buffers), so they are not listed.
 */
public final class StoreOpCosts {
  private interface Op {
    void run(int i) throws Exception;
  }

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    File f = BenchRegions.newFile("costs");
    final InodeStore s = BenchRegions.newStore(f, 256L << 20);
    try {
      final long dir = BenchRegions.create(s, s.rootPage(), InodeAttrs.directory("d"), 0);
      final long a = BenchRegions.create(s, s.rootPage(), InodeAttrs.directory("a"), 0);
      final long b = BenchRegions.create(s, s.rootPage(), InodeAttrs.directory("b"), 0);
      final long[] files = new long[n];
      System.out.printf(
          "%-34s %14s %16s%n", "operation (" + n + " each)", "JNI calls/op", "barriers/op");
      measure(
          s,
          "createInode (file, 1 page)",
          n,
          i ->
              files[i] =
                  BenchRegions.create(
                      s,
                      dir,
                      InodeAttrs.file("f" + i).owner("hdfs", "supergroup").replication(3),
                      0));
      measure(
          s,
          "addBlock (first block)",
          n,
          i -> BenchRegions.addFirstBlock(s, files[i], 1000 + i, 1001));
      measure(
          s,
          "setMtime (8-byte in place)",
          n,
          i ->
              BenchRegions.apply(
                  s, t -> t.putWord(files[i] + RegionLayout.IN_MTIME, i, Field.MTIME)));
      measure(
          s,
          "setPermission (8-byte in place)",
          n,
          i -> BenchRegions.apply(s, t -> t.setPermission(files[i], 0600, null, null)));
      measure(
          s,
          "rename across dirs (undo log)",
          n,
          i -> BenchRegions.rename(s, files[i], i % 2 == 0 ? a : b, "r" + i, i));
      measure(
          s,
          "delete file (invalidate + free)",
          n,
          i -> {
            long parent = s.inode(files[i]).parentPage();
            BenchRegions.apply(
                s,
                t -> {
                  t.putWord(parent + RegionLayout.IN_MTIME, i, Field.MTIME);
                  t.remove(files[i], new long[0]);
                });
          });
    } finally {
      BenchRegions.delete(s, f);
    }
  }

  private static void measure(InodeStore s, String name, int n, Op op) throws Exception {
    Region r = s.region();
    long calls = r.nativeWriteCalls(), barriers = r.barrierCount();
    for (int i = 0; i < n; i++) {
      op.run(i);
    }
    System.out.printf(
        "%-34s %14.3f %16.3f%n",
        name,
        (r.nativeWriteCalls() - calls) / (double) n,
        (r.barrierCount() - barriers) / (double) n);
  }
}
