package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.junit.Assert.*;

import java.io.File;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.AttributeCodec;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionUsage;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;
import org.codehaus.jackson.JsonNode;
import org.codehaus.jackson.map.ObjectMapper;
import org.junit.Test;

/**
 * Symlinks (region-format.md §5.2) in check, dump and stat: a clean region with a short and a
 * chained target, dumped and counted; each way recovery refuses a symlink (its target length, its
 * target chain), refused by the checker at the same field; what only the NameNode refuses (a
 * symlink with attributes); a child naming a symlink as its parent. Every verdict goes through
 * {@link RegionOracle}. The feature's rules and a crash leftover: {@link
 * RegionCheckSymlinkFeatureTest}.
 */
public class RegionCheckSymlinkTest extends SampleNamespaceFixture {
  private final RegionOracle oracle = new RegionOracle();

  private CheckReport judge(String what) throws Exception {
    CheckReport r = CheckAssert.check(n.file);
    oracle.judge(n.file, shm.file("open-copy"), what);
    return r;
  }

  @Test
  public void symlinksAreCleanDumpedAndCounted() throws Exception {
    List<String> before = NamespaceDump.lines(n.file);
    StatReport stBefore = RegionStat.run(n.file);
    SymlinkSample l = SymlinkSample.add(shm, n);
    assertEquals(2, l.targetExt.length); // 400 bytes: 112 inline, 224, 64
    assertEquals(1, l.nameExt.length);
    CheckReport r = judge("symlinks");
    assertEquals(r.format(), 0, r.exitCode());
    assertNull(oracle.lastRefusal);
    assertTrue(r.format(), r.format().contains("10 attached inodes (4 dirs, 4 files, 2 symlinks)"));

    List<String> after = NamespaceDump.lines(n.file);
    String shortLine =
        "/tmp/ln id="
            + n.id(l.shortLink)
            + " type=symlink mode=0777 owner=hdfs group=supergroup mtime=9000 atime=9001"
            + " -> /user/alice/small.txt";
    String longLine =
        "/user/alice/"
            + SymlinkSample.LONG_NAME
            + " id="
            + n.id(l.longLink)
            + " type=symlink mode=0777 owner=alice group=staff mtime=9100 atime=9101"
            + " -> /a\\x20b/"
            + SymlinkSample.LONG_TARGET.substring(5);
    assertTrue(after.toString(), after.contains(shortLine));
    assertTrue(after.toString(), after.contains(longLine));
    after.remove(shortLine);
    after.remove(longLine);
    assertEquals("the other inodes are dumped as before", before, after);

    JsonNode inodes = new ObjectMapper().readTree(NamespaceDump.json(n.file)).get("inodes");
    int symlinks = 0;
    for (JsonNode i : inodes) {
      String path = i.get("path").getTextValue();
      if (path.equals("/tmp/ln")) {
        assertEquals("symlink", i.get("type").getTextValue());
        assertEquals(SymlinkSample.SHORT_TARGET, i.get("target").getTextValue());
        assertNull(i.get("blocks"));
        symlinks++;
      } else if (path.endsWith(SymlinkSample.LONG_NAME)) {
        assertEquals(SymlinkSample.LONG_TARGET, i.get("target").getTextValue());
        symlinks++;
      } else {
        assertNull(path, i.get("target"));
      }
    }
    assertEquals(2, symlinks);

    StatReport st = RegionStat.run(n.file);
    assertEquals(2, st.symlinks());
    assertEquals(2, st.liveSymlinkPages());
    assertEquals(stBefore.liveInodes() + 2, st.liveInodes());
    assertEquals(stBefore.files(), st.files());
    assertEquals(stBefore.liveNameExtPages() + 3, st.liveNameExtPages());
    assertEquals(stBefore.pagesUsed() + 5, st.pagesUsed());
    assertEquals(0, st.reclaimablePages());
    assertTrue(st.format(), st.format().contains("\nsymlinks: 2\n"));
    assertTrue(st.format(), st.format().contains("\nliveSymlinkPages: 2\n"));
    assertTrue(st.json(), st.json().contains("\"symlinks\":2"));
    RegionUsage u;
    try (Region open =
        Region.open(RegionDamage.copy(n.file, shm.file("c")), PersistMode.EMULATED)) {
      u = open.usage();
    }
    assertEquals(u.pagesUsed(), st.pagesUsed());
  }

  /** One way to break the long symlink: returns the offset both readers refuse at. */
  private interface Damage {
    long apply(SymlinkSample l) throws Exception;
  }

  /**
   * The damage is one ERROR of {@code kind} naming the long symlink (besides pages it leaves
   * unlinked), and recovery refuses the region at the same offset.
   */
  private Finding refused(String what, Finding.Kind kind, Damage damage) throws Exception {
    SymlinkSample l = SymlinkSample.add(shm, n);
    long offset = damage.apply(l);
    CheckReport r = judge(what);
    Finding f = CheckAssert.onlyError(r, kind, offset);
    long id = n.id(l.longLink);
    assertTrue(f.message(), f.message().contains("inode " + id));
    for (Finding x : r.findings()) {
      if (x != f) {
        assertEquals(r.format(), Finding.Kind.UNREFERENCED_EXTENSION, x.kind());
      }
    }
    assertNotNull(what + ": recovery accepted the region", oracle.lastRefusal);
    assertEquals(oracle.lastRefusal.getMessage(), offset, oracle.lastRefusal.offset());
    assertTrue(oracle.lastRefusal.getMessage(), oracle.lastRefusal.getMessage().contains(" " + id));
    String line = line("/user/alice/" + SymlinkSample.LONG_NAME + " ");
    assertTrue(
        "the dump does not guess: " + line,
        line.endsWith(" damaged=target") || kind == Finding.Kind.BAD_CHECKSUM);
    return f;
  }

  @Test
  public void targetLengthOfZero() throws Exception {
    Finding f =
        refused(
            "target length 0",
            Finding.Kind.BAD_SYMLINK_TARGET,
            l -> put(l.longLink + SL_TARGET_LEN, 0));
    assertTrue(f.message(), f.message().contains("target length 0 is not 1..65535"));
    assertTrue(oracle.lastRefusal.getMessage().contains("has target length 0"));
  }

  @Test
  public void targetLengthOverTheMaximum() throws Exception {
    refused(
        "target length 65536",
        Finding.Kind.BAD_SYMLINK_TARGET,
        l -> put(l.longLink + SL_TARGET_LEN, SYMLINK_TARGET_MAX + 1));
  }

  @Test
  public void targetChainPageWithAWrongOwner() throws Exception {
    Finding f =
        refused(
            "wrong owner",
            Finding.Kind.BROKEN_CHAIN,
            l -> put(l.targetExt[1] + EXT_OWNER_ID, n.id(n.small)));
    assertTrue(f.message(), f.message().contains("target chain page"));
    assertTrue(oracle.lastRefusal.getMessage().contains("target chain of inode"));
  }

  @Test
  public void targetChainTooShort() throws Exception {
    Finding f =
        refused(
            "target length 600",
            Finding.Kind.CHAIN_LENGTH,
            l -> {
              put(l.longLink + SL_TARGET_LEN, 600);
              return l.targetExt[1] + EXT_NEXT;
            });
    assertTrue(f.message(), f.message().contains("with 200 target bytes still to cover"));
  }

  @Test
  public void targetChainLinkedThoughTheTargetFitsInline() throws Exception {
    refused(
        "target length 100",
        Finding.Kind.CHAIN_LENGTH,
        l -> {
          put(l.longLink + SL_TARGET_LEN, 100);
          return l.longLink + SL_TARGET_EXT;
        });
  }

  /**
   * Both chains are NAME_EXT pages of the symlink's id: only the page being reached twice tells.
   */
  @Test
  public void targetChainLinkingANameChainPage() throws Exception {
    Finding f =
        refused(
            "target chain into the name chain",
            Finding.Kind.SHARED_CHAIN,
            l -> put(l.longLink + SL_TARGET_EXT, l.nameExt[0]));
    assertTrue(f.message(), f.message().contains("name chain links too"));
    assertTrue(oracle.lastRefusal.getMessage().contains("reached twice"));
  }

  @Test
  public void targetChainPageWithADamagedByte() throws Exception {
    Finding f =
        refused(
            "a flipped target bit",
            Finding.Kind.BAD_CHECKSUM,
            l -> {
              RegionDamage.flipBit(n.file, l.targetExt[1] + EXT_PAYLOAD + 3, 1);
              return l.targetExt[1];
            });
    assertTrue(f.message(), f.message().contains("/user/alice/" + SymlinkSample.LONG_NAME));
  }

  /** 2.7.3's symlinks have no ACL and no xattrs: recovery takes the chain, the NameNode refuses. */
  @Test
  public void symlinkWithAttributes() throws Exception {
    SymlinkSample l = SymlinkSample.add(shm, n);
    try (InodeStore s = shm.reopen("r");
        Txn t = s.begin()) {
      t.setAttributes(l.shortLink, AttributeCodec.encode(null, AttributeSample.SMALL_XATTRS));
      t.commit();
    }
    CheckReport r = judge("a symlink with xattrs");
    Finding f = CheckAssert.onlyError(r, Finding.Kind.SYMLINK_ATTRIBUTES, l.shortLink + IN_ATTRS);
    assertTrue(f.message(), f.message().contains("/tmp/ln"));
    assertNull("recovery walks the chain and accepts it", oracle.lastRefusal);
    assertEquals(0, CheckAssert.count(r, Finding.Kind.UNREFERENCED_EXTENSION));
    String line = line("/tmp/ln ");
    assertTrue(line, line.endsWith(" -> /user/alice/small.txt damaged=attributes"));
    assertFalse(line, line.contains(" xattrs="));
  }

  /** Recovery attaches children to directories only: a symlink page as a parent is damage. */
  @Test
  public void symlinkNamedAsAParent() throws Exception {
    SymlinkSample l = SymlinkSample.add(shm, n);
    put(n.small + IN_PARENT_PAGE, l.shortLink);
    put(n.small + IN_PARENT_ID, n.id(l.shortLink));
    CheckReport r = judge("a file under a symlink");
    Finding f = CheckAssert.onlyError(r, Finding.Kind.BROKEN_PARENT_LINK, n.small + IN_PARENT_PAGE);
    assertTrue(f.message(), f.message().contains("a LIVE SYMLINK page"));
    assertTrue(f.message(), f.message().contains("a symlink has no children"));
    assertEquals(n.small + IN_PARENT_PAGE, oracle.lastRefusal.offset());
  }

  private String line(String prefix) throws Exception {
    return line(n.file, prefix);
  }

  static String line(File f, String prefix) throws Exception {
    for (String l : NamespaceDump.lines(f)) {
      if (l.startsWith(prefix)) {
        return l;
      }
    }
    throw new AssertionError("no line " + prefix);
  }

  private long put(long off, long v) throws Exception {
    RegionDamage.putLong(n.file, off, v);
    return off;
  }
}
