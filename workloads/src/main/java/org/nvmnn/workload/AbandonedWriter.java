package org.nvmnn.workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * A writer that the process-crash test kills (SIGKILL) with its files open: it creates a few files
 * under {@code --dir} in the shapes a file can be left in — no block, a partial block, a full last
 * block, several blocks with a partial last one (1 KiB blocks) — writes each and hflushes it (so
 * the bytes are on the DataNode and the NameNode knows the blocks), then writes the manifest (path,
 * length, CRC32 of the bytes per line; written to a temporary name and renamed, so a reader sees it
 * whole) and keeps its lease alive until it is killed. After that, nobody renews the lease: only
 * the NameNode's lease monitor can close the files, once the hard limit has passed.
 *
 * <p>It renews its lease itself every {@code --renew-ms} (default 1000), because the test shortens
 * the NameNode's hard limit to seconds ({@link ShortLeaseNameNode}) while 2.7.3's client renews
 * every 30 s; a live writer must not lose its files. Stops by itself after {@code --max-seconds}
 * (default 900) if nobody kills it.
 *
 * <p>Usage: AbandonedWriter --dir /open/w3 --manifest control/writer-3 --seed N
 */
public final class AbandonedWriter {
  static final int BLOCK = 1024;

  private AbandonedWriter() {}

  public static void main(String[] args) throws Exception {
    Flags f = Flags.parse(args, "--dir", "--manifest", "--seed", "--renew-ms", "--max-seconds");
    String dir = f.get("--dir", null);
    String manifest = f.get("--manifest", null);
    if (dir == null || manifest == null) {
      throw new IllegalArgumentException("--dir and --manifest are required");
    }
    long seed = f.getLong("--seed", System.nanoTime());
    long renewMs = f.getLong("--renew-ms", 1000);
    long until = System.currentTimeMillis() + f.getLong("--max-seconds", 900) * 1000;
    Random r = new Random(seed);
    DistributedFileSystem fs =
        (DistributedFileSystem) FileSystem.newInstance(ClientConf.failFast());
    if (!fs.mkdirs(new Path(dir))) {
      throw new IOException("mkdirs " + dir + " answered false");
    }
    int[] lengths = {0, 1 + r.nextInt(BLOCK - 1), BLOCK, 2 * BLOCK + 1 + r.nextInt(BLOCK - 1)};
    String[] names = {"no-block", "partial-block", "full-block", "three-blocks"};
    List<FSDataOutputStream> open = new ArrayList<>(); // kept reachable until the kill
    StringBuilder m = new StringBuilder();
    for (int i = 0; i < names.length; i++) {
      String p = dir + "/" + names[i];
      long contentSeed = r.nextLong();
      byte[] b = FileContent.bytes(contentSeed, lengths[i]);
      FSDataOutputStream out = fs.create(new Path(p), false, 4096, (short) 1, BLOCK);
      out.write(b);
      out.hflush();
      open.add(out);
      m.append(p).append('\t').append(b.length).append('\t').append(FileContent.crc(b, b.length));
      m.append('\n');
    }
    java.nio.file.Path tmp = Paths.get(manifest + ".tmp");
    Files.write(tmp, m.toString().getBytes(StandardCharsets.UTF_8));
    Files.move(tmp, Paths.get(manifest), StandardCopyOption.ATOMIC_MOVE);
    DFSClient c = fs.getClient();
    System.out.println(
        "ready "
            + System.currentTimeMillis()
            + ": "
            + open.size()
            + " files open by "
            + c.getClientName());
    System.out.flush();
    while (System.currentTimeMillis() < until) {
      Thread.sleep(renewMs);
      try {
        c.getNamenode().renewLease(c.getClientName());
      } catch (IOException e) {
        // the NameNode is not killed while this writer lives; a failure here is only logged
        System.err.println("renewLease: " + e);
      }
    }
    System.out.println("not killed within --max-seconds; exiting with the files open");
    System.exit(2);
  }
}
