package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.rules.ExternalResource;

/** A unique directory under /dev/shm (tmpfs) for test regions, deleted after the test. */
public class ShmDir extends ExternalResource {
  static final long SMALL = 1L << 20;
  static final long MEDIUM = 4L << 20;
  private static final AtomicInteger SEQ = new AtomicInteger();

  private File dir;

  @Override
  protected void before() throws IOException {
    File shm = new File("/dev/shm");
    File parent =
        shm.isDirectory() && shm.canWrite() ? shm : new File(System.getProperty("java.io.tmpdir"));
    dir =
        Files.createTempDirectory(parent.toPath(), "nvmtest-" + SEQ.incrementAndGet() + "-")
            .toFile();
  }

  @Override
  protected void after() {
    delete(dir);
  }

  private static void delete(File f) {
    File[] kids = f.listFiles();
    if (kids != null) {
      for (File k : kids) {
        delete(k);
      }
    }
    f.delete();
  }

  public File dir() {
    return dir;
  }

  public File file(String name) {
    return new File(dir, name);
  }

  static final RegionIdentity ID =
      new RegionIdentity(12345, "CID-test-cluster", "BP-1-127.0.0.1-1");

  /** A new region in emulated mode (flush + fence on tmpfs). */
  public Region create(String name, long size) throws NvmException {
    return Region.create(file(name), size, ID, PersistMode.EMULATED);
  }

  /** A new region with a formatted root directory. */
  public InodeStore createStore(String name, long size) throws NvmException {
    InodeStore s = InodeStore.open(create(name, size));
    s.format(1000L, 0755, "hdfs", "supergroup");
    return s;
  }

  public InodeStore reopen(String name) throws NvmException {
    return InodeStore.open(Region.open(file(name), PersistMode.EMULATED));
  }

  public static byte[] read(File f) throws IOException {
    return Files.readAllBytes(f.toPath());
  }
}
