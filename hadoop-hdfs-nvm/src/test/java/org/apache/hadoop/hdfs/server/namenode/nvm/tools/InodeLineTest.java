package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
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

  /**
   * A string longer than STRING_MAX (read through its STRING_EXT chain) and names with a NUL byte
   * or of 2000 bytes give the same line from values as from the region.
   */
  @Test
  public void longStringsAndNamesGiveTheSameLines() throws Exception {
    String[] names = {"a\0b", RegionCheckNameTest.repeat('n', 2000)};
    long[] pages = new long[names.length];
    try (InodeStore s = shm.reopen("r")) {
      for (int i = 0; i < names.length; i++) {
        pages[i] = RegionCheckNameTest.createInTmp(n, s, names[i]);
      }
    }
    StringChainDamage.setUp(n); // ChainedString.TEXT: the owner of /tmp (its mtime is now 9000)
    List<String> dump = NamespaceDump.lines(n.file);
    String tmp =
        InodeLine.of("/tmp", n.id(n.tmp), 01777, ChainedString.TEXT, "supergroup", 9000, 8001)
            .directory(-1, -1, new long[] {-1, -1, -1, -1}, 0);
    assertTrue(tmp + " not in " + dump, dump.contains(tmp));
    for (int i = 0; i < names.length; i++) {
      String file =
          InodeLine.of("/tmp/" + names[i], n.id(pages[i]), 0, "hdfs", "supergroup", 9000, 9001)
              .file(0, 0, 0, null, null, new long[0]);
      assertTrue(file + " not in " + dump, dump.contains(file));
    }
  }

  /**
   * ACL entries and xattrs given by value (as the import reads them from the inodes' features) give
   * the line dump reads from a region holding them; an empty value is not an absent one.
   */
  @Test
  public void attributesFromValuesEqualTheDump() throws Exception {
    AttributeSample.add(shm, n);
    List<String> dump = NamespaceDump.lines(n.file);
    InodeLine alice =
        InodeLine.of("/user/alice", n.id(n.alice), 0700, "alice", "staff", 3000, 3001);
    for (AclEntry e : AttributeSample.ALICE_ACL) {
      alice.aclEntry(
          e.getScope().name(), e.getType().name(), e.getName(), e.getPermission().ordinal());
    }
    for (XAttr x : AttributeSample.ALICE_XATTRS) {
      alice.xattr(x.getNameSpace().name(), x.getName(), x.getValue());
    }
    String aliceLine = alice.directory(-1, -1, new long[] {-1, -1, -1, -1}, 0);
    assertTrue(aliceLine + " not in " + dump, dump.contains(aliceLine));
    long[] blocks = {SampleNamespace.BLOCK_BASE + 1, 1234, 1001};
    String small =
        InodeLine.of("/user/alice/small.txt", n.id(n.small), 0644, "alice", "staff", 4000, 4001)
            .xattr("user", "flag", null)
            .xattr("user", "empty", new byte[0])
            .file(3, 128L << 20, 0, null, null, blocks);
    assertTrue(small + " not in " + dump, dump.contains(small));
    String emptyAsNull =
        InodeLine.of("/user/alice/small.txt", n.id(n.small), 0644, "alice", "staff", 4000, 4001)
            .xattr("user", "flag", null)
            .xattr("user", "empty", null)
            .file(3, 128L << 20, 0, null, null, blocks);
    assertTrue(!dump.contains(emptyAsNull));
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
