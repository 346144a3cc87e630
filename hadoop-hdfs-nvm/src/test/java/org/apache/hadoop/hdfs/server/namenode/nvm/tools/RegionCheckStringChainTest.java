package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.io.File;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.codehaus.jackson.JsonNode;
import org.codehaus.jackson.map.ObjectMapper;
import org.junit.Test;

/**
 * Strings longer than STRING_MAX (region-format.md §5.4): a STRING page whose ST_EXT links a chain
 * of STRING_EXT pages, written by the store or, for what the store does not write, by raw writes
 * ({@link ChainedString}). A sound chain is consistent and dump shows the whole text; the chain of
 * a string nobody refers to is a leftover recovery reclaims. Checker only ({@link
 * StringChainOracleTest} holds the native open to the same verdicts; {@link
 * RegionCheckStringChainDamageTest} has the broken chains).
 */
public class RegionCheckStringChainTest extends SampleNamespaceFixture {

  private CheckReport check() throws Exception {
    return CheckAssert.check(n.file);
  }

  @Test
  public void chainedOwnerIsConsistentAndDumpedInFull() throws Exception {
    StatReport before = RegionStat.run(n.file);
    ChainedString s = StringChainDamage.setUp(n);
    assertEquals(3, s.ext.length);
    CheckReport r = check();
    assertEquals(r.format(), 0, r.findings().size());
    assertEquals(0, r.exitCode());

    String tmp = NamespaceDump.lines(n.file).get(1);
    assertTrue(tmp, tmp.startsWith("/tmp id="));
    String owner = TextEscape.value(ChainedString.TEXT);
    assertTrue(owner, owner.startsWith("CN\\x3detl\\x20service\\x2caaa"));
    assertTrue(tmp, tmp.contains(" owner=" + owner + " group=supergroup "));

    JsonNode doc = new ObjectMapper().readTree(NamespaceDump.json(n.file));
    assertEquals(ChainedString.TEXT, doc.get("inodes").get(1).get("owner").getTextValue());

    StatReport st = RegionStat.run(n.file);
    assertEquals(3, st.liveStringExtPages());
    assertEquals(before.liveStringPages() + 1, st.liveStringPages());
    assertEquals(before.pagesUsed() + 4, st.pagesUsed()); // the STRING page and its chain
    assertEquals(0, st.reclaimablePages());
    assertTrue(st.format(), st.format().contains("\nliveStringExtPages: 3\n"));
    JsonNode j = new ObjectMapper().readTree(st.json());
    assertEquals(3, j.get("liveStringExtPages").getLongValue());
  }

  /**
   * Strings the store wrote (StringTable): the layout ChainedString writes by hand, read back in
   * full. 10,000 bytes take 45 STRING_EXT pages, 600 take 3, 1,510 (a client name of 500 CJK
   * characters) take 7.
   */
  @Test
  public void chainsWrittenByTheStoreAreConsistentAndDumpedInFull() throws Exception {
    String owner = RegionCheckNameTest.repeat('u', 10_000);
    String client = "DFSClient_" + RegionCheckNameTest.repeat('\u6587', 500);
    try (InodeStore s = shm.reopen("r")) {
      createInode(
          s,
          n.tmp,
          InodeAttrs.file("long")
              .times(9000, 9001)
              .owner(owner, ChainedString.TEXT)
              .underConstruction(client, "10.0.0.7"));
    }
    CheckReport r = check();
    assertEquals(r.format(), 0, r.exitCode());
    String line = NamespaceDump.lines(n.file).get(2);
    assertTrue(line, line.startsWith("/tmp/long id="));
    assertTrue(
        line,
        line.contains(
            " owner=" + owner + " group=" + TextEscape.value(ChainedString.TEXT) + " mtime="));
    assertTrue(line, line.contains(" uc=" + client + "@10.0.0.7 "));
    assertEquals(45 + 3 + 7, RegionStat.run(n.file).liveStringExtPages());
  }

  /**
   * A string without references that the store keeps for reuse (idle) is, in a crash image, a
   * leftover recovery reclaims with its chain; a clean close frees it.
   */
  @Test
  public void idleChainedStringInACrashImageIsALeftover() throws Exception {
    File image = shm.file("image");
    try (InodeStore s = shm.reopen("r")) {
      long f = createInode(s, n.tmp, InodeAttrs.file("f").owner(ChainedString.TEXT, "staff"));
      setOwner(s, f, "alice", null); // ChainedString.TEXT: no reference left, kept idle
      RegionDamage.copy(n.file, image); // what a crash now would leave
    }
    CheckReport r = CheckAssert.check(image);
    assertEquals(r.format(), 2, r.exitCode());
    assertEquals(r.format(), 1, CheckAssert.count(r, Finding.Kind.UNREFERENCED_STRING));
    assertEquals(r.format(), 3, CheckAssert.count(r, Finding.Kind.UNREFERENCED_EXTENSION));
    // the last commit's record: its in-place bytes are not surely durable until the next barrier
    assertEquals(r.format(), 1, CheckAssert.count(r, Finding.Kind.REDO_PENDING));
    assertEquals(r.format(), 5, r.findings().size());
    assertTrue(r.format(), r.format().contains("\"CN=etl service,aaa"));
    assertEquals(check().format(), 0, check().exitCode()); // the clean close swept it
  }

  @Test
  public void chainedGroupAndClientName() throws Exception {
    try (InodeStore st = shm.reopen("r")) {
      ChainedString.secondWriter(n, st);
    }
    ChainedString group =
        ChainedString.write(n.file, ChainedString.nextId(n.file), ChainedString.TEXT, 300);
    ChainedString client =
        ChainedString.write(n.file, ChainedString.nextId(n.file), ChainedString.FULL_TEXT, 310);
    group.referAsGroup(n.user);
    client.referAsClientName(n.writing);
    assertEquals(0, check().exitCode());
    String user = null;
    String writing = null;
    for (String l : NamespaceDump.lines(n.file)) {
      user = l.startsWith("/user id=") ? l : user;
      writing = l.startsWith("/user/alice/writing.log id=") ? l : writing;
    }
    assertTrue(user, user.contains(" group=" + TextEscape.value(ChainedString.TEXT) + " "));
    assertTrue(writing, writing.contains(" uc=" + ChainedString.FULL_TEXT + "@10.0.0.7 "));
    assertEquals(6, RegionStat.run(n.file).liveStringExtPages());
  }

  /**
   * A string of exactly STRING_MAX bytes is inline: ST_EXT is only its first eight bytes. Here the
   * chained page's length is cut to STRING_MAX, so its chain is linked from nothing.
   */
  @Test
  public void aStringOfStringMaxBytesHasNoChain() throws Exception {
    ChainedString s = StringChainDamage.setUp(n);
    RegionDamage.putLong(n.file, s.page + ST_LEN, STRING_MAX);
    CheckReport r = check();
    assertEquals(r.format(), 2, r.exitCode());
    for (long p : s.ext) {
      assertEquals(
          Finding.Severity.RECOVERABLE,
          CheckAssert.find(r, Finding.Kind.UNREFERENCED_EXTENSION, p).severity());
    }
    assertEquals(r.format(), 3, r.findings().size());
  }

  @Test
  public void unreferencedChainedStringIsRecoverableWithItsChain() throws Exception {
    ChainedString s =
        ChainedString.write(n.file, ChainedString.nextId(n.file), ChainedString.TEXT, 300);
    CheckReport r = check();
    Finding f = CheckAssert.find(r, Finding.Kind.UNREFERENCED_STRING, s.page);
    assertEquals(Finding.Severity.RECOVERABLE, f.severity());
    assertTrue(f.message(), f.message().contains("with its STRING_EXT chain"));
    assertTrue(f.message(), f.message().contains("\"CN=etl service,aaa"));
    assertTrue(f.message(), f.message().contains("(599 characters)"));
    for (long p : s.ext) {
      Finding e = CheckAssert.find(r, Finding.Kind.UNREFERENCED_EXTENSION, p);
      assertEquals(Finding.Severity.RECOVERABLE, e.severity());
      assertTrue(e.message(), e.message().contains("LIVE STRING_EXT page " + p));
      assertTrue(e.message(), e.message().contains("string id " + s.id));
    }
    assertEquals(r.format(), 4, r.findings().size());
    assertTrue(r.isConsistent());
    assertEquals(2, r.exitCode());
    StatReport st = RegionStat.run(n.file);
    assertEquals(4, st.reclaimablePages());
    assertEquals(3, st.liveStringExtPages());
  }

  /** The chain of a string only a detached inode refers to goes with it: no finding of its own. */
  @Test
  public void chainOfAStringOnlyAnOrphanUsesIsCoveredByTheOrphan() throws Exception {
    ChainedString s =
        ChainedString.write(n.file, ChainedString.nextId(n.file), ChainedString.TEXT, 300);
    s.referAsGroup(n.writing); // staff: still the group of the other orphans
    RegionDamage.putLong(
        n.file, n.alice, stateWord(KIND_DIR, STATE_INVALID)); // a delete's leftover
    CheckReport r = check();
    assertEquals(r.format(), 2, r.exitCode());
    for (Finding f : r.findings()) {
      assertEquals(r.format(), Finding.Kind.ORPHAN, f.kind());
    }
    CheckAssert.find(r, Finding.Kind.ORPHAN, n.writing);
  }

  /**
   * A second LIVE page for the id, above the referenced one and with the same text: a leftover,
   * reclaimed with its chain.
   */
  @Test
  public void secondChainedPageForAnIdWithTheSameText() throws Exception {
    ChainedString s = StringChainDamage.setUp(n);
    ChainedString dup = ChainedString.write(n.file, s.id, ChainedString.TEXT, 320);
    CheckReport r = check();
    assertEquals(r.format(), 2, r.exitCode());
    CheckAssert.find(r, Finding.Kind.UNREFERENCED_STRING, dup.page);
    for (long p : dup.ext) {
      CheckAssert.find(r, Finding.Kind.UNREFERENCED_EXTENSION, p);
    }
    assertEquals(r.format(), 4, r.findings().size());
  }

  @Test
  public void secondChainedPageForAnIdWithOtherText() throws Exception {
    ChainedString s = StringChainDamage.setUp(n);
    ChainedString dup =
        ChainedString.write(n.file, s.id, ChainedString.TEXT.replace('z', 'q'), 320);
    CheckReport r = check();
    Finding f = CheckAssert.onlyError(r, Finding.Kind.BAD_STRING_PAGE, dup.page + ST_ID);
    assertTrue(f.message(), f.message().contains("different text"));
  }

  /** The referenced page is the lower one: its chain is verified, and its text is the one shown. */
  @Test
  public void referencesResolveToTheLowerPageOfAnId() throws Exception {
    ChainedString s = StringChainDamage.setUp(n);
    ChainedString.write(n.file, s.id, ChainedString.TEXT, 250);
    RegionDamage.putLong(n.file, s.ext[1] + EXT_OWNER_ID, 4242); // the upper chain is not used
    CheckReport r = check();
    assertEquals(r.format(), 2, r.exitCode());
    CheckAssert.find(r, Finding.Kind.UNREFERENCED_STRING, s.page);
    assertEquals(
        s.ext.length, CheckAssert.count(r, Finding.Kind.UNREFERENCED_EXTENSION)); // s's chain
    assertTrue(
        NamespaceDump.lines(n.file)
            .get(1)
            .contains(" owner=" + TextEscape.value(ChainedString.TEXT) + " "));
  }

  /** A broken chain is not guessed: the dump shows the id as a string without a usable page. */
  @Test
  public void dumpOfABrokenChainShowsTheId() throws Exception {
    ChainedString s = StringChainDamage.setUp(n);
    RegionDamage.putLong(n.file, s.ext[1] + EXT_COUNT, 0);
    String tmp = NamespaceDump.lines(n.file).get(1);
    assertTrue(tmp, tmp.contains(" owner=?" + s.id + " "));
  }
}
