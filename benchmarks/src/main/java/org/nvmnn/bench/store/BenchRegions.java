package org.nvmnn.bench.store;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.hadoop.hdfs.server.namenode.nvm.Field;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionIdentity;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;

/**
 * Regions for the store benchmarks (emulated persistence on tmpfs, deleted afterwards), and the
 * operations they time, each one {@link Txn}: one batch, one native call.
 */
final class BenchRegions {
  private BenchRegions() {}

  /** The directory benchmarks put regions in ({@code -Dnvm.bench.dir}, default /dev/shm). */
  static File newFile(String name) throws IOException {
    File dir = new File(System.getProperty("nvm.bench.dir", "/dev/shm"));
    File f = File.createTempFile("nvm-bench-" + name + "-", ".region", dir);
    Files.delete(f.toPath()); // the region must not exist yet
    return f;
  }

  /** A new region of {@code size} bytes with a formatted root. */
  static InodeStore newStore(File f, long size) throws IOException {
    InodeStore s =
        InodeStore.open(
            Region.create(
                f, size, new RegionIdentity(1, "CID-bench", "BP-bench"), PersistMode.EMULATED));
    s.format(1, 0755, "hdfs", "supergroup");
    return s;
  }

  static void delete(InodeStore s, File f) throws IOException {
    if (s != null) {
      s.close();
    }
    Files.deleteIfExists(f.toPath());
  }

  interface Staging {
    void stage(Txn t) throws NvmException;
  }

  /** One operation: staged, then applied as one batch. */
  static void apply(InodeStore s, Staging op) throws NvmException {
    try (Txn t = s.begin()) {
      op.stage(t);
      t.commit();
    }
  }

  /** A new inode and its parent's mtime (always staged, so the commit is undo-logged). */
  static long create(InodeStore s, long parent, InodeAttrs a, long mtime) throws NvmException {
    long[] page = new long[1];
    apply(
        s,
        t -> {
          page[0] = t.create(parent, a.times(mtime, mtime));
          t.putWord(parent + RegionLayout.IN_MTIME, mtime, Field.MTIME);
        });
    return page[0];
  }

  /** A rename: new name and parent, both parents' mtimes (one undo-logged batch). */
  static void rename(InodeStore s, long page, long newParent, String name, long mtime)
      throws NvmException {
    long oldParent = s.inode(page).parentPage();
    apply(
        s,
        t -> {
          t.move(page, newParent, name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
          if (oldParent != newParent) {
            t.putWord(newParent + RegionLayout.IN_MTIME, mtime, Field.MTIME);
          }
          t.putWord(oldParent + RegionLayout.IN_MTIME, mtime, Field.MTIME);
        });
  }

  /** The first block of an empty file. */
  static void addFirstBlock(InodeStore s, long file, long blockId, long genstamp)
      throws NvmException {
    long[] block = {blockId, 0, genstamp};
    apply(s, t -> t.setBlocks(file, block, 1));
  }
}
