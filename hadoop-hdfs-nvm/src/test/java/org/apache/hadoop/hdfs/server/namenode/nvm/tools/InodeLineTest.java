package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import org.junit.Test;

/**
 * {@link InodeLine} builds, from values, exactly the line {@code dump} reads from a region (the
 * import compares the two), and {@link ListingChecksum} is the SHA-256 of the lines in byte order.
 */
public class InodeLineTest extends SampleNamespaceFixture {

  @Test
  public void linesFromValuesEqualTheDumpOfTheRegionHoldingThem() throws Exception {
    List<String> dump = NamespaceDump.lines(n.file);
    String user =
        InodeLine.of("/user", n.id(n.user), 0755, "hdfs", "supergroup", 2000, 2001)
            .directory(100, 1L << 30, new long[] {-1, 5000, -1, -1}, 7);
    long b = SampleNamespace.BLOCK_BASE;
    String writing =
        InodeLine.of("/user/alice/writing.log", n.id(n.writing), 0644, "bob", "staff", 7000, 7001)
            .file(
                3,
                128L << 20,
                0,
                "DFSClient_NONMAPREDUCE_1",
                "10.0.0.7",
                new long[] {b + 40, 128L << 20, 1050, b + 41, 0, 1100});
    String big =
        InodeLine.of("/user/alice/big.bin", n.id(n.big), 0640, "alice", "staff", 5000, 5001)
            .file(2, 64L << 20, 5, null, null, n.bigBlocks);
    assertTrue(user + " not in " + dump, dump.contains(user));
    assertTrue(writing + " not in " + dump, dump.contains(writing));
    assertTrue(big + " not in " + dump, dump.contains(big));
    // a value that differs gives a line the dump does not have
    String other =
        InodeLine.of("/user/alice/writing.log", n.id(n.writing), 0644, "bob", "staff", 7000, 7001)
            .file(
                3,
                128L << 20,
                0,
                null,
                null,
                new long[] {b + 40, 128L << 20, 1050, b + 41, 0, 1100});
    assertTrue(!dump.contains(other));
  }

  @Test
  public void blockIdsAndInodeCountOfTheDump() throws Exception {
    NamespaceDump d = NamespaceDump.read(n.file);
    assertEquals(8, d.inodeCount());
    long[] ids = d.blockIds();
    assertEquals(1 + SampleNamespace.BIG_BLOCKS + 2, ids.length);
    long[] sorted = ids.clone();
    Arrays.sort(sorted);
    assertArrayEquals(sorted, ids);
    assertEquals(SampleNamespace.BLOCK_BASE + 1, ids[0]);
    assertEquals(SampleNamespace.BLOCK_BASE + 41, ids[ids.length - 1]);
  }

  @Test
  public void checksumIsSha256OfTheLinesInUtf8ByteOrder() throws Exception {
    // U+FF21 is EF BC A1 in UTF-8 and sorts before the surrogate pair of U+1F600 (F0 9F 98 80),
    // although Java's String order (UTF-16 units) puts the pair first
    String fullwidth = "/\uFF21 x";
    String emoji = "/\uD83D\uDE00 x";
    assertTrue(emoji.compareTo(fullwidth) < 0);
    List<String> sorted = ListingChecksum.sorted(Arrays.asList(emoji, "/b", fullwidth, "/a"));
    assertEquals(Arrays.asList("/a", "/b", fullwidth, emoji), sorted);

    MessageDigest md = MessageDigest.getInstance("SHA-256");
    md.update(("/a\n/b\n" + fullwidth + "\n" + emoji + "\n").getBytes(StandardCharsets.UTF_8));
    StringBuilder hex = new StringBuilder();
    for (byte x : md.digest()) {
      hex.append(String.format("%02x", x & 0xff));
    }
    assertEquals(
        hex.toString(), ListingChecksum.sha256(Arrays.asList("/b", emoji, "/a", fullwidth)));
  }
}
