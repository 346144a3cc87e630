package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.junit.Assert.*;

import java.io.File;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.CrashHook;
import org.apache.hadoop.hdfs.server.namenode.nvm.Crc32c;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionUsage;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;
import org.codehaus.jackson.JsonNode;
import org.codehaus.jackson.map.ObjectMapper;
import org.junit.Test;

/**
 * Inode attributes (region-format.md §5.6) in check, dump and stat: a clean region with ACL entries
 * and xattrs, dumped; each way recovery refuses an ATTR_EXT chain or an IN_ATTRS word, refused by
 * the checker at the same field; an encoding the NameNode cannot decode (inconsistent per the
 * checker, accepted by the native open); a crash leftover (recoverable); and the feature's rules.
 * Every verdict goes through {@link RegionOracle}.
 */
public class RegionCheckAttributeTest extends SampleNamespaceFixture {
  private final RegionOracle oracle = new RegionOracle();

  private CheckReport judge(String what) throws Exception {
    CheckReport r = CheckAssert.check(n.file);
    oracle.judge(n.file, shm.file("open-copy"), what);
    return r;
  }

  @Test
  public void attributesAreCleanDumpedAndCounted() throws Exception {
    List<String> before = NamespaceDump.lines(n.file);
    StatReport stBefore = RegionStat.run(n.file);
    AttributeSample a = AttributeSample.add(shm, n);
    assertEquals(645, a.aliceEncoding.length);
    assertEquals(3, a.aliceExt.length);
    assertEquals(1, a.smallExt.length);
    CheckReport r = judge("attributes");
    assertEquals(r.format(), 0, r.exitCode());
    assertNull(oracle.lastRefusal);

    List<String> after = NamespaceDump.lines(n.file);
    assertEquals(before.size(), after.size());
    String big = "";
    for (int i = 0; i < AttributeDump.VALUE_HEX_MAX; i++) {
      big += String.format("%02x", AttributeSample.BIG_VALUE[i]);
    }
    String crc =
        String.format(
            "%08x",
            Crc32c.update(0, AttributeSample.BIG_VALUE, 0, AttributeSample.BIG_VALUE.length));
    for (int i = 0; i < after.size(); i++) {
      String line = after.get(i);
      if (line.startsWith("/user/alice ")) {
        assertEquals(
            before.get(i)
                + " acl=user:bob:r-x,default:user::rwx,default:user:carol:rw-,default:group::r-x,"
                + "default:mask::rwx,default:other::---"
                + " xattrs=user.project:6:61706f6c6c6f,trusted.big:600:"
                + big
                + "...crc32c="
                + crc,
            line);
      } else if (line.startsWith("/user/alice/small.txt ")) {
        assertEquals(before.get(i) + " xattrs=user.flag:-,user.empty:0:", line);
      } else {
        assertEquals("an inode without attributes is dumped as before", before.get(i), line);
      }
    }

    JsonNode inodes = new ObjectMapper().readTree(NamespaceDump.json(n.file)).get("inodes");
    JsonNode alice = null;
    JsonNode small = null;
    for (JsonNode i : inodes) {
      String path = i.get("path").getTextValue();
      alice = path.equals("/user/alice") ? i : alice;
      small = path.equals("/user/alice/small.txt") ? i : small;
      if (i != alice && i != small) {
        assertNull(path, i.get("acl"));
        assertNull(path, i.get("xattrs"));
      }
    }
    JsonNode acl = alice.get("acl");
    assertEquals(6, acl.size());
    assertEquals("access", acl.get(0).get("scope").getTextValue());
    assertEquals("user", acl.get(0).get("type").getTextValue());
    assertEquals("bob", acl.get(0).get("name").getTextValue());
    assertEquals("r-x", acl.get(0).get("permission").getTextValue());
    assertTrue(acl.get(1).get("name").isNull());
    assertEquals("default", acl.get(5).get("scope").getTextValue());
    assertEquals("other", acl.get(5).get("type").getTextValue());
    assertEquals("---", acl.get(5).get("permission").getTextValue());
    JsonNode bigX = alice.get("xattrs").get(1);
    assertEquals("trusted", bigX.get("namespace").getTextValue());
    assertEquals("big", bigX.get("name").getTextValue());
    assertEquals(600, bigX.get("length").getLongValue());
    assertEquals(big, bigX.get("valueHex").getTextValue());
    assertEquals(crc, bigX.get("valueCrc32c").getTextValue());
    assertNull(alice.get("xattrs").get(0).get("valueCrc32c"));
    JsonNode flag = small.get("xattrs").get(0);
    assertTrue(flag.get("length").isNull());
    assertTrue(flag.get("valueHex").isNull());
    assertEquals(0, small.get("xattrs").get(1).get("length").getLongValue());
    assertEquals("", small.get("xattrs").get(1).get("valueHex").getTextValue());
    assertNull(small.get("acl"));

    StatReport st = RegionStat.run(n.file);
    assertEquals(4, st.liveAttrExtPages());
    assertEquals(stBefore.pagesUsed() + 4, st.pagesUsed());
    assertEquals(0, st.reclaimablePages());
    assertTrue(st.format(), st.format().contains("\nliveAttrExtPages: 4\n"));
    assertTrue(st.json(), st.json().contains("\"liveAttrExtPages\":4"));
    RegionUsage u;
    try (Region open =
        Region.open(RegionDamage.copy(n.file, shm.file("c")), PersistMode.EMULATED)) {
      u = open.usage();
    }
    assertEquals(u.pagesUsed(), st.pagesUsed());
  }

  /** One way to break /user/alice's chain: returns the offset both readers refuse at. */
  private interface Damage {
    long apply(AttributeSample a) throws Exception;
  }

  /**
   * The damage is one ERROR of {@code kind} naming /user/alice (besides pages it leaves unlinked),
   * and recovery refuses the region at the same offset.
   */
  private Finding refused(String what, Finding.Kind kind, Damage damage) throws Exception {
    AttributeSample a = AttributeSample.add(shm, n);
    long offset = damage.apply(a);
    CheckReport r = judge(what);
    Finding f = CheckAssert.onlyError(r, kind, offset);
    String owner =
        kind == Finding.Kind.BAD_CHECKSUM
            ? "(of inode " + n.id(n.alice) + ", /user/alice)"
            : kind == Finding.Kind.BAD_ATTRS_WORD
                ? "inode " + n.id(n.alice) + " (/user/alice, page " + n.alice + ")"
                : "inode " + n.id(n.alice) + " (page " + n.alice + "): attribute chain";
    assertTrue(f.message(), f.message().contains(owner));
    for (Finding x : r.findings()) {
      if (x != f) {
        assertEquals(r.format(), Finding.Kind.UNREFERENCED_EXTENSION, x.kind());
      }
    }
    NvmException e = oracle.lastRefusal;
    assertNotNull(what + ": recovery accepted the region", e);
    assertEquals(e.getMessage(), offset, e.offset());
    assertTrue(e.getMessage(), e.getMessage().contains("inode " + n.id(n.alice)));
    assertTrue(
        "the dump does not guess: " + what,
        line("/user/alice ").endsWith(" damaged=attributes") || kind == Finding.Kind.BAD_CHECKSUM);
    return f;
  }

  @Test
  public void chainPageWithAWrongOwner() throws Exception {
    Finding f =
        refused(
            "wrong owner",
            Finding.Kind.BROKEN_CHAIN,
            a -> put(a.aliceExt[1] + EXT_OWNER_ID, n.id(n.small)));
    assertTrue(f.message(), f.message().contains("carries owner id " + n.id(n.small)));
  }

  @Test
  public void chainPageOfAnotherKind() throws Exception {
    Finding f =
        refused(
            "a NAME_EXT page in the chain",
            Finding.Kind.BROKEN_CHAIN,
            a -> {
              put(a.aliceExt[1], stateWord(KIND_NAME_EXT, STATE_LIVE));
              return a.aliceExt[0] + EXT_NEXT;
            });
    assertTrue(f.message(), f.message().contains("a LIVE NAME_EXT page, not a LIVE ATTR_EXT page"));
  }

  @Test
  public void chainPageWithACountOfZero() throws Exception {
    refused("count 0", Finding.Kind.CHAIN_LENGTH, a -> put(a.aliceExt[0] + EXT_COUNT, 0));
  }

  @Test
  public void chainPageWithACountOverAPage() throws Exception {
    refused(
        "count 225",
        Finding.Kind.CHAIN_LENGTH,
        a -> put(a.aliceExt[1] + EXT_COUNT, NAME_EXT_MAX + 1));
  }

  /**
   * The last page links the first again, and the length asks for one more page: the first page's
   * count is within what is still needed, so both readers stop at the repeat.
   */
  @Test
  public void chainReachingAPageTwice() throws Exception {
    Finding f =
        refused(
            "cyclic",
            Finding.Kind.CYCLIC_CHAIN,
            a -> {
              put(n.alice + IN_ATTRS, word(a.aliceExt[0], a.aliceEncoding.length + NAME_EXT_MAX));
              return put(a.aliceExt[2] + EXT_NEXT, a.aliceExt[0]);
            });
    assertTrue(f.message(), f.message().contains("a second time"));
    assertTrue(oracle.lastRefusal.getMessage(), oracle.lastRefusal.getMessage().contains("twice"));
  }

  @Test
  public void lengthLongerThanTheChain() throws Exception {
    Finding f =
        refused(
            "length + 10",
            Finding.Kind.CHAIN_LENGTH,
            a -> {
              put(n.alice + IN_ATTRS, word(a.aliceExt[0], a.aliceEncoding.length + 10));
              return a.aliceExt[2] + EXT_NEXT;
            });
    assertTrue(
        f.message(), f.message().contains("ends after 3 page(s) with 10 attribute bytes still"));
  }

  @Test
  public void lengthShorterThanTheChain() throws Exception {
    refused(
        "length - 10",
        Finding.Kind.CHAIN_LENGTH,
        a -> {
          put(n.alice + IN_ATTRS, word(a.aliceExt[0], a.aliceEncoding.length - 10));
          return a.aliceExt[2] + EXT_COUNT;
        });
  }

  @Test
  public void lengthCoveredByFewerPages() throws Exception {
    refused(
        "length of two pages",
        Finding.Kind.CHAIN_LENGTH,
        a -> {
          put(n.alice + IN_ATTRS, word(a.aliceExt[0], 2 * NAME_EXT_MAX));
          return a.aliceExt[1] + EXT_NEXT;
        });
  }

  @Test
  public void pageIndexOutsideTheDataArea() throws Exception {
    Finding f =
        refused(
            "page index past the region",
            Finding.Kind.BROKEN_CHAIN,
            a -> {
              long index = (n.file.length() - DATA_OFFSET) / PAGE_SIZE + 5;
              return put(n.alice + IN_ATTRS, index << ATTRS_PAGE_SHIFT | a.aliceEncoding.length);
            });
    assertTrue(f.message(), f.message().contains("which is not a page of the data area"));
  }

  @Test
  public void chainPageWithADamagedByte() throws Exception {
    refused(
        "a flipped value bit",
        Finding.Kind.BAD_CHECKSUM,
        a -> {
          RegionDamage.flipBit(n.file, a.aliceExt[1] + EXT_PAYLOAD + 5, 2);
          return a.aliceExt[1];
        });
  }

  @Test
  public void lengthOverAttrsMax() throws Exception {
    Finding f =
        refused(
            "length over ATTRS_MAX",
            Finding.Kind.BAD_ATTRS_WORD,
            a -> put(n.alice + IN_ATTRS, word(a.aliceExt[0], ATTRS_MAX + 1)));
    assertTrue(f.message(), f.message().contains("over ATTRS_MAX"));
    assertTrue(oracle.lastRefusal.getMessage().contains("holds a length over ATTRS_MAX"));
  }

  @Test
  public void pageNamedWithALengthOfZero() throws Exception {
    Finding f =
        refused(
            "a page and no bytes",
            Finding.Kind.BAD_ATTRS_WORD,
            a -> put(n.alice + IN_ATTRS, word(a.aliceExt[0], 0)));
    assertTrue(f.message(), f.message().contains("but a length of 0"));
    assertTrue(oracle.lastRefusal.getMessage().contains("names a page but no bytes"));
  }

  /**
   * small.txt links /user/alice's chain: the checker blames small.txt's link (the page carries
   * alice's id), recovery the page's owner id as it walks small.txt's chain.
   */
  @Test
  public void chainSharedByTwoInodes() throws Exception {
    AttributeSample a = AttributeSample.add(shm, n);
    put(n.small + IN_ATTRS, word(a.aliceExt[0], a.aliceEncoding.length));
    CheckReport r = judge("shared");
    Finding f = CheckAssert.onlyError(r, Finding.Kind.SHARED_CHAIN, n.small + IN_ATTRS);
    assertTrue(f.message(), f.message().contains("belongs to inode " + n.id(n.alice)));
    CheckAssert.find(r, Finding.Kind.UNREFERENCED_EXTENSION, a.smallExt[0]);
    assertNotNull(oracle.lastRefusal);
  }

  /** An xattr namespace the format does not define: recovery accepts it, the NameNode cannot. */
  @Test
  public void encodingTheNameNodeCannotDecode() throws Exception {
    AttributeSample a = AttributeSample.add(shm, n);
    assertEquals(0, a.smallEncoding[2]); // aclCount 0, xattrCount 2, then the first namespace
    long at = a.smallExt[0] + EXT_PAYLOAD + 2;
    RegionDamage.write(n.file, at, new byte[] {9});
    CheckReport r = judge("namespace 9");
    Finding f = CheckAssert.onlyError(r, Finding.Kind.BAD_ATTRIBUTE_ENCODING, at);
    assertTrue(f.message(), f.message().contains("/user/alice/small.txt"));
    assertTrue(f.message(), f.message().contains("xattr 0 has namespace 9 (at byte 2)"));
    assertNull("recovery does not read the encoding", oracle.lastRefusal);
    assertTrue(line("/user/alice/small.txt ").endsWith(" damaged=attributes"));
  }

  /** Bytes past the last xattr, the length raised to cover them: reported at the first one. */
  @Test
  public void encodingWithTrailingBytes() throws Exception {
    AttributeSample a = AttributeSample.add(shm, n);
    int len = a.smallEncoding.length;
    RegionDamage.write(n.file, a.smallExt[0] + EXT_PAYLOAD + len, new byte[] {0, 0});
    put(a.smallExt[0] + EXT_COUNT, len + 2);
    put(n.small + IN_ATTRS, word(a.smallExt[0], len + 2));
    CheckReport r = judge("trailing bytes");
    Finding f =
        CheckAssert.onlyError(
            r, Finding.Kind.BAD_ATTRIBUTE_ENCODING, a.smallExt[0] + EXT_PAYLOAD + len);
    assertTrue(f.message(), f.message().contains("2 bytes follow the last xattr"));
    assertNull(oracle.lastRefusal);
  }

  @Test
  public void chainOfAnAttributeChangeThatCrashedIsRecoverable() throws Exception {
    File work = RegionDamage.copy(n.file, shm.file("crash"));
    String prefix = shm.file("crash.img").getPath();
    AttributeSample a = AttributeSample.add(shm, n); // for the encoding only
    try (InodeStore s = InodeStore.open(Region.open(work, PersistMode.EMULATED))) {
      CrashHook.crashAt(s.region(), 1, prefix); // the new pages are written, nothing is linked
      try (Txn t = s.begin()) {
        t.setAttributes(n.alice, a.aliceEncoding);
        t.commit();
        fail("the crash hook did not fire");
      } catch (NvmException e) {
        assertEquals(NvmException.ErrorCode.ECRASHED, e.code());
      }
    }
    File image = new File(prefix + ".present");
    CheckReport r = CheckAssert.check(image);
    assertEquals(r.format(), 3, CheckAssert.count(r, Finding.Kind.UNREFERENCED_EXTENSION));
    assertEquals(r.format(), 3, r.findings().size());
    assertTrue(
        r.format(),
        r.format().contains("LIVE ATTR_EXT page ")
            && r.format().contains("(owner id " + n.id(n.alice) + ") is linked from no inode"));
    assertEquals(2, r.exitCode());
    assertEquals(3, RegionStat.run(image).reclaimablePages());
    oracle.judgeInPlace(image, "an attribute change at barrier 1");
    assertNull(oracle.lastRefusal);
    assertEquals(0, CheckAssert.check(image).exitCode()); // recovery reclaimed the pages
    assertFalse(line(image, "/user/alice ").contains(" acl="));
  }

  /**
   * A region from before the feature (its word without FEATURE_INODE_ATTRS) holds no ATTR_EXT page
   * and no IN_ATTRS word: both are refused, by recovery's scan and by the chain step.
   */
  @Test
  public void attributesInARegionWithoutTheFeatureAreRefused() throws Exception {
    long withoutAttrs = features(FEATURE_PAGE_CHECKSUMS | FEATURE_RECORDS);
    File pristine = RegionDamage.copy(n.file, shm.file("pristine"));
    RegionDamage.rawPutLong(n.file, SB_FEATURES, withoutAttrs);
    assertEquals("a region without attributes is clean", 0, judge("no feature").exitCode());

    RegionDamage.copy(pristine, n.file);
    AttributeSample a = AttributeSample.add(shm, n);
    RegionDamage.rawPutLong(n.file, SB_FEATURES, withoutAttrs);
    CheckReport r = judge("ATTR_EXT pages without the feature");
    for (long page : new long[] {a.aliceExt[0], a.aliceExt[1], a.aliceExt[2], a.smallExt[0]}) {
      Finding f = CheckAssert.find(r, Finding.Kind.UNKNOWN_KIND, page);
      assertTrue(f.message(), f.message().contains("without the inode-attributes feature"));
    }
    CheckAssert.find(r, Finding.Kind.BAD_ATTRS_WORD, n.alice + IN_ATTRS);
    CheckAssert.find(r, Finding.Kind.BAD_ATTRS_WORD, n.small + IN_ATTRS);
    assertEquals(r.format(), 6, r.count(Finding.Severity.ERROR));
    assertTrue(oracle.lastRefusal.getMessage().contains("unknown kind 9"));

    // an IN_ATTRS word alone (no ATTR_EXT page): refused at the word
    RegionDamage.copy(pristine, n.file);
    put(n.small + IN_ATTRS, 7L << ATTRS_PAGE_SHIFT | 5);
    RegionDamage.rawPutLong(n.file, SB_FEATURES, withoutAttrs);
    Finding f =
        CheckAssert.onlyError(
            judge("a word without the feature"), Finding.Kind.BAD_ATTRS_WORD, n.small + IN_ATTRS);
    assertTrue(f.message(), f.message().contains("without the inode-attributes feature"));
    assertEquals(n.small + IN_ATTRS, oracle.lastRefusal.offset());
    assertTrue(
        oracle.lastRefusal.getMessage(),
        oracle.lastRefusal.getMessage().contains("is set in a region without inode attributes"));
  }

  /** The native open refuses the attributes feature without the records feature. */
  @Test
  public void attributesWithoutRecordsAreRefused() throws Exception {
    RegionDamage.rawPutLong(
        n.file, SB_FEATURES, features(FEATURE_PAGE_CHECKSUMS | FEATURE_INODE_ATTRS));
    CheckAssert.onlyError(judge("attributes without records"), Finding.Kind.REFUSED, SB_FEATURES);
  }

  private String line(String prefix) throws Exception {
    return line(n.file, prefix);
  }

  private static String line(File f, String prefix) throws Exception {
    for (String l : NamespaceDump.lines(f)) {
      if (l.startsWith(prefix)) {
        return l;
      }
    }
    throw new AssertionError("no line " + prefix);
  }

  /** An IN_ATTRS word: {@code len} bytes from the page at {@code firstPage}. */
  private static long word(long firstPage, long len) {
    return (firstPage - DATA_OFFSET) / PAGE_SIZE << ATTRS_PAGE_SHIFT | len;
  }

  /** A feature word: the bits, their complement above. */
  private static long features(int bits) {
    return (bits & 0xffffffffL) | (~bits & 0xffffffffL) << 32;
  }

  private long put(long off, long v) throws Exception {
    RegionDamage.putLong(n.file, off, v);
    return off;
  }
}
