package org.nvmnn.bench.store;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;

import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionIdentity;

/** Regions for the store benchmarks: emulated persistence on tmpfs, deleted afterwards. */
final class BenchRegions {
  private BenchRegions() {
  }

  /** The directory benchmarks put regions in ({@code -Dnvm.bench.dir}, default /dev/shm). */
  static File newFile(String name) throws IOException {
    File dir = new File(System.getProperty("nvm.bench.dir", "/dev/shm"));
    File f = File.createTempFile("nvm-bench-" + name + "-", ".region", dir);
    Files.delete(f.toPath()); // the region must not exist yet
    return f;
  }

  /** A new region of {@code size} bytes with a formatted root. */
  static InodeStore newStore(File f, long size) throws IOException {
    InodeStore s = InodeStore.open(Region.create(f, size, new RegionIdentity(1, "CID-bench", "BP-bench"),
        PersistMode.EMULATED));
    s.format(1, 0755, "hdfs", "supergroup");
    return s;
  }

  static void delete(InodeStore s, File f) throws IOException {
    if (s != null) {
      s.close();
    }
    Files.deleteIfExists(f.toPath());
  }
}
