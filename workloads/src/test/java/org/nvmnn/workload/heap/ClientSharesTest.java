package org.nvmnn.workload.heap;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.Test;

public class ClientSharesTest {
  /**
   * Each client holds exactly NNBenchWithoutMR's -numFiles share, named 0..share-1, in its own
   * directory.
   */
  @Test
  public void everyFileHasOneNameAndEachClientItsNNBenchShare() {
    for (long n : new long[] {1, 7, 10, 999, 1000, 10007}) {
      for (int p : new int[] {1, 3, 4, 10}) {
        ClientShares s = new ClientShares("/rec", "host", n, p);
        Set<String> seen = new HashSet<>();
        int[] count = new int[p];
        for (long i = 0; i < n; i++) {
          String path = s.pathOf(i);
          assertTrue(path, seen.add(path));
          int c = Integer.parseInt(path.substring("/rec/c".length(), path.indexOf('/', 5))) - 1;
          assertEquals(path, s.dirOf(c) + "/" + count[c], path);
          count[c]++;
        }
        for (int c = 0; c < p; c++) {
          // the -numFiles the restart workload passes to client c+1
          assertEquals(
              "n=" + n + " p=" + p + " client " + c, n * (c + 1) / p - n * c / p, count[c]);
        }
      }
    }
  }

  @Test(expected = IndexOutOfBoundsException.class)
  public void anIndexPastTheLastFileIsRefused() {
    new ClientShares("/rec", "host", 10, 3).pathOf(10);
  }
}
