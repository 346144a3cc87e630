package org.nvmnn.workload.heap;

/**
 * The file names of N files split over P clients as the restart workload runs NNBenchWithoutMR:
 * client c (0-based) gets files {@code [N*c/P, N*(c+1)/P)} of the global numbering, and names its
 * k-th file {@code ROOT/c<c+1>/<host>/<k>}.
 */
final class ClientShares {
  private final String root;
  private final String host;
  private final long files;
  private final int clients;

  ClientShares(String root, String host, long files, int clients) {
    this.root = root;
    this.host = host;
    this.files = files;
    this.clients = clients;
  }

  /** The first global index of client {@code c}'s share. */
  long firstOf(int c) {
    return files * c / clients;
  }

  /** The directory holding client {@code c}'s files. */
  String dirOf(int c) {
    return root + "/c" + (c + 1) + "/" + host;
  }

  /** The path of global file {@code i}. */
  String pathOf(long i) {
    if (i < 0 || i >= files) {
      throw new IndexOutOfBoundsException("file " + i + " of " + files);
    }
    int c = (int) (i * clients / files);
    // i * P / N can land one share off where the integer boundaries round
    while (i >= firstOf(c + 1)) {
      c++;
    }
    while (i < firstOf(c)) {
      c--;
    }
    return dirOf(c) + "/" + (i - firstOf(c));
  }
}
