package org.nvmnn.workload.heap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.io.EnumSetWritable;

/**
 * Creates closed files by calling a NameNode's server object directly, from several threads:
 * create, optionally one 1-byte block on a {@link FakeDatanode}, complete, optionally an ACL and
 * two xattrs ({@link FileAttrs}). Keeps no per-file state, so the caller's heap does not grow with
 * the files. Missing parent directories are created by the create call (createParent, as a client's
 * create does).
 */
final class DirectFiles {
  private final ClientProtocol nn;
  private final int threads;

  DirectFiles(ClientProtocol nn, int threads) {
    this.nn = nn;
    this.threads = threads;
  }

  /**
   * Creates the files {@code pathOf(i)} for {@code i} in {@code [first, end)}, with one 1-byte
   * block each when {@code dn} is set; prints a progress line every tenth of {@code n}.
   */
  void createAll(
      String label, LongFunction<String> pathOf, long first, long end, long n, FakeDatanode dn)
      throws Exception {
    createAll(label, pathOf, first, end, n, dn, false);
  }

  /**
   * As {@link #createAll(String, LongFunction, long, long, long, FakeDatanode)}; with {@code
   * withAttrs}, each file gets {@link FileAttrs}'s ACL entries and xattrs after it is closed.
   */
  void createAll(
      String label,
      LongFunction<String> pathOf,
      long first,
      long end,
      long n,
      FakeDatanode dn,
      boolean withAttrs)
      throws Exception {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicLong done = new AtomicLong();
    List<Thread> ws = new ArrayList<>();
    long t0 = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      long from = first + (end - first) * t / threads;
      long to = first + (end - first) * (t + 1) / threads;
      String client = "direct-" + (dn == null ? "e" : "b") + t;
      Thread w =
          new Thread(
              () -> {
                try {
                  for (long i = from; i < to && failure.get() == null; i++) {
                    String path = pathOf.apply(i);
                    createOne(path, client, dn);
                    if (withAttrs) {
                      FileAttrs.set(nn, path, i);
                    }
                    long d = done.incrementAndGet();
                    if (d % Math.max(1, n / 10) == 0) {
                      System.out.printf(
                          "progress %s %d/%d (%.0f files/s)%n",
                          label, first + d, n, d / ((System.nanoTime() - t0) / 1e9));
                    }
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              },
              "direct-" + t);
      ws.add(w);
      w.start();
    }
    for (Thread w : ws) {
      w.join();
    }
    if (failure.get() != null) {
      throw new IOException("creating files of " + label + " failed", failure.get());
    }
  }

  private void createOne(String path, String client, FakeDatanode dn)
      throws IOException, InterruptedException {
    HdfsFileStatus st =
        nn.create(
            path,
            FsPermission.getFileDefault(),
            client,
            new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)),
            true,
            (short) 1,
            1L << 20,
            CryptoProtocolVersion.supported());
    ExtendedBlock last = null;
    if (dn != null) {
      LocatedBlock lb = nn.addBlock(path, client, null, null, st.getFileId(), null);
      last = lb.getBlock();
      last.setNumBytes(1);
      dn.received(new Block(last.getBlockId(), 1, last.getGenerationStamp()));
    }
    // 2.7.3 queues a received-block report for a background thread, so complete() may answer
    // false until that thread has run; ask again shortly (a real client sleeps 400 ms here)
    for (int attempt = 0; !nn.complete(path, client, last, st.getFileId()); attempt++) {
      if (attempt == 5000) {
        throw new IOException("complete(" + path + ") still false after 5000 attempts");
      }
      Thread.sleep(1);
    }
  }
}
