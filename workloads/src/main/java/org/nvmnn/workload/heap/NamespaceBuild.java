package org.nvmnn.workload.heap;

import java.io.IOException;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.nvmnn.workload.Flags;

/**
 * Builds the restart workload's namespace without RPC: the NameNode runs in this JVM (the
 * configuration on the class path decides stock or NVM, as for {@link HeapFill}) and its server
 * object is called directly, which is several times faster than NNBenchWithoutMR through RPC and
 * DataNode and makes 10M-file namespaces buildable in minutes. The namespace has the shape
 * NNBenchWithoutMR {@code -operation createWrite -blocksPerFile 1 -bytesPerBlock 0} leaves when run
 * by {@code --dirs} clients with base directories ROOT/c1..ROOT/cP: in each, one directory named
 * after this host holding that client's share of the files, named 0, 1, ...; every file empty (no
 * block) and closed. The NameNode is then stopped, as a clean shutdown.
 *
 * <p>What differs from the RPC build: the edits (stock) carry no RPC client and call ids, so a
 * stock edit replay adds no retry-cache entries; the lease holder names differ. Both make the stock
 * replay of this build no slower than of an RPC build.
 *
 * <p>Prints "build files N dirs D seconds S rate R" after checking the counts and that the first
 * and last file are closed. Usage: NamespaceBuild --files N [--dirs 4] [--root /rec] [--threads 8]
 */
public final class NamespaceBuild {
  private NamespaceBuild() {}

  public static void main(String[] args) throws Exception {
    Flags f = Flags.parse(args, "--files", "--dirs", "--threads", "--root");
    long files = f.getLong("--files", -1);
    int dirs = f.getInt("--dirs", 4);
    int threads = f.getInt("--threads", 8);
    String root = f.get("--root", "/rec");
    if (files <= 0 || dirs < 1 || threads < 1) {
      throw new IllegalArgumentException("need --files N > 0, --dirs >= 1, --threads >= 1");
    }
    NameNode nameNode = InProcessNameNode.start("build");
    NamenodeProtocols nn = nameNode.getRpcServer();
    ClientShares shares = InProcessNameNode.shares(nn, root, files, dirs);
    long t0 = System.nanoTime();
    new DirectFiles(nn, threads).createAll(root, shares::pathOf, 0, files, files, null);
    double seconds = (System.nanoTime() - t0) / 1e9;
    verify(nn, root, shares, files, dirs);
    System.out.printf(
        "build files %d dirs %d seconds %.1f rate %.0f%n", files, dirs, seconds, files / seconds);
    nameNode.stop();
    nameNode.join();
    System.exit(0);
  }

  private static void verify(
      NamenodeProtocols nn, String root, ClientShares shares, long files, int dirs)
      throws IOException {
    ContentSummary cs = nn.getContentSummary(root);
    if (cs.getFileCount() != files || cs.getDirectoryCount() != 1 + 2L * dirs) {
      throw new IOException(
          root
              + " holds "
              + cs.getFileCount()
              + " files and "
              + cs.getDirectoryCount()
              + " directories, expected "
              + files
              + " and "
              + (1 + 2L * dirs));
    }
    for (long i : new long[] {0, files - 1}) {
      LocatedBlocks lbs = nn.getBlockLocations(shares.pathOf(i), 0, Long.MAX_VALUE);
      if (lbs == null || lbs.isUnderConstruction() || lbs.locatedBlockCount() != 0) {
        throw new IOException(shares.pathOf(i) + " is not a closed empty file: " + lbs);
      }
    }
  }
}
