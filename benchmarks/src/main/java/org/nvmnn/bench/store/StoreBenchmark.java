package org.nvmnn.bench.store;

import java.io.File;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdfs.server.namenode.nvm.Field;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The persistent inode store's primitive costs, on an emulated region (tmpfs, cache-line flushes):
 * creating an inode (out-of-place page + undo-logged commit), an 8-byte in-place update, an
 * undo-logged rename across directories, and the recovery scan per inode.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StoreBenchmark {

  /** A fresh region per iteration so creates never fill it. */
  @State(Scope.Thread)
  public static class Fresh {
    File file;
    InodeStore store;
    long dir;
    long file1;
    long dirA;
    long dirB;
    boolean inA = true;
    long now = 1;

    @Setup(Level.Iteration)
    public void setUp() throws Exception {
      file = BenchRegions.newFile("ops");
      store = BenchRegions.newStore(file, 2L << 30);
      dir =
          BenchRegions.create(
              store, store.rootPage(), InodeAttrs.directory("dir").owner("hdfs", "supergroup"), 0);
      dirA = BenchRegions.create(store, store.rootPage(), InodeAttrs.directory("a"), 0);
      dirB = BenchRegions.create(store, store.rootPage(), InodeAttrs.directory("b"), 0);
      file1 =
          BenchRegions.create(
              store, dirA, InodeAttrs.file("x").owner("hdfs", "supergroup").replication(3), 0);
    }

    @TearDown(Level.Iteration)
    public void tearDown() throws Exception {
      BenchRegions.delete(store, file);
    }
  }

  @Benchmark
  public long createInode(Fresh s) throws Exception {
    return BenchRegions.create(
        s.store,
        s.dir,
        InodeAttrs.file("part-0000001")
            .owner("hdfs", "supergroup")
            .replication(3)
            .preferredBlockSize(128L << 20),
        s.now);
  }

  @Benchmark
  public void update8Bytes(Fresh s) throws Exception {
    long now = ++s.now;
    BenchRegions.apply(s.store, t -> t.putWord(s.file1 + RegionLayout.IN_MTIME, now, Field.MTIME));
  }

  @Benchmark
  public void renameUndoLogged(Fresh s) throws Exception {
    s.inA = !s.inA;
    BenchRegions.rename(
        s.store, s.file1, s.inA ? s.dirA : s.dirB, s.inA ? "x" : "y-renamed", ++s.now);
  }

  static final int RECOVERY_FILES = 1_000_000;

  /**
   * A region holding {@link #RECOVERY_FILES} one-block files in 1,000-file directories, built once.
   */
  @State(Scope.Benchmark)
  public static class Filled {
    static final int FILES_PER_DIR = 1000;
    final int inodes = RECOVERY_FILES;
    File file;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
      file = BenchRegions.newFile("recovery");
      long pages = inodes + inodes / FILES_PER_DIR + 64;
      try (InodeStore s = BenchRegions.newStore(file, 16384 + pages * 256)) {
        long dir = 0;
        for (int i = 0; i < inodes; i++) {
          if (i % FILES_PER_DIR == 0) {
            dir =
                BenchRegions.create(
                    s, s.rootPage(), InodeAttrs.directory("d" + i / FILES_PER_DIR), 0);
          }
          long f =
              BenchRegions.create(
                  s, dir, InodeAttrs.file("f" + i).owner("hdfs", "supergroup").replication(3), 0);
          BenchRegions.addFirstBlock(s, f, 1_073_741_825L + i, 1001);
        }
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
      BenchRegions.delete(null, file);
    }
  }

  /** Open = validate + undo check + one sequential scan + attach + free list; per file. */
  @Benchmark
  @OperationsPerInvocation(RECOVERY_FILES)
  public long recoveryScanPerInode(Filled f) throws Exception {
    try (Region r = Region.open(f.file, PersistMode.EMULATED)) {
      return r.recoveredInodes().length;
    }
  }
}
