package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.util.Arrays;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.junit.Test;

/**
 * Names as region-format.md §5.2 allows them, written by the store: any byte but '/' (a NUL byte
 * included), up to NAME_MAX (65535) bytes. Consistent, and dumped in full. Checker only ({@link
 * StringChainOracleTest} holds the native open to the same verdicts).
 */
public class RegionCheckNameTest extends SampleNamespaceFixture {

  static String repeat(char c, int n) {
    char[] a = new char[n];
    Arrays.fill(a, c);
    return new String(a);
  }

  /** Creates a file named {@code name} in /tmp; returns its page. */
  static long createInTmp(SampleNamespace n, InodeStore s, String name) throws Exception {
    return createInode(
        s, n.tmp, InodeAttrs.file(name).times(9000, 9001).owner("hdfs", "supergroup"));
  }

  private String tmpChild() throws Exception {
    String line = NamespaceDump.lines(n.file).get(2); // after "/" and "/tmp"
    assertTrue(line, line.startsWith("/tmp/"));
    return line;
  }

  @Test
  public void nulByteInANameIsConsistent() throws Exception {
    try (InodeStore s = shm.reopen("r")) {
      createInTmp(n, s, "a\0b");
    }
    CheckReport r = CheckAssert.check(n.file);
    assertEquals(r.format(), 0, r.exitCode());
    String line = tmpChild();
    assertTrue(line, line.startsWith("/tmp/a\\x00b id="));
  }

  @Test
  public void nameOf2000BytesIsConsistent() throws Exception {
    String name = repeat('n', 2000);
    long page;
    try (InodeStore s = shm.reopen("r")) {
      page = createInTmp(n, s, name);
    }
    assertEquals(2000, RegionDamage.getLong(n.file, page + IN_NAME_LEN));
    CheckReport r = CheckAssert.check(n.file);
    assertEquals(r.format(), 0, r.exitCode());
    assertTrue(tmpChild().startsWith("/tmp/" + name + " id="));
    // 48 inline + 8 * 224 + 160: nine NAME_EXT pages, beside the sample's two
    assertEquals(2 + 9, RegionStat.run(n.file).liveNameExtPages());
  }

  @Test
  public void nameOfNameMaxBytesIsConsistent() throws Exception {
    assertEquals(65535, NAME_MAX);
    String name = repeat('m', NAME_MAX);
    try (InodeStore s = shm.reopen("r")) {
      createInTmp(n, s, name);
    }
    CheckReport r = CheckAssert.check(n.file);
    assertEquals(r.format(), 0, r.exitCode());
    assertTrue(tmpChild().startsWith("/tmp/" + name + " id="));
  }

  /** A duplicate is found whatever the bytes: two names differing only after a NUL are two. */
  @Test
  public void namesThatDifferOnlyAfterANulAreDistinct() throws Exception {
    try (InodeStore s = shm.reopen("r")) {
      createInTmp(n, s, "x\0a");
      createInTmp(n, s, "x\0b");
    }
    assertEquals(0, CheckAssert.check(n.file).exitCode());
  }
}
