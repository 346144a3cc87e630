package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.util.Arrays;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.RegionCheck;
import org.junit.Rule;
import org.junit.Test;

/**
 * Strings in the region (region-format.md §5.4): any length is stored and read back after a reopen;
 * a string's page is freed by the batch that drops its last reference, so a clean close leaves
 * nothing for recovery; a freed id is handed out again by a later batch.
 */
public class StringTableTest {
  @Rule public ShmDir shm = new ShmDir();

  private static String repeat(char c, int n) {
    char[] a = new char[n];
    Arrays.fill(a, c);
    return new String(a);
  }

  @Test
  public void stringsOfAnyLengthSurviveReopen() throws Exception {
    String user = repeat('u', 10_000); // 45 STRING_EXT pages
    String group = repeat('g', RegionLayout.STRING_MAX + 1); // 233 bytes: 2 pages
    String client = "DFSClient_" + repeat('\u6587', 500); // 1,500 UTF-8 bytes
    String machine = repeat('m', RegionLayout.STRING_MAX); // fits its page
    long f;
    long used;
    try (InodeStore s = shm.createStore("r", ShmDir.MEDIUM)) {
      long before = s.region().usage().pagesUsed();
      f =
          createInode(
              s,
              s.rootPage(),
              InodeAttrs.file("f").owner(user, group).underConstruction(client, machine));
      used = s.region().usage().pagesUsed() - before;
      assertEquals(user, s.owner(f));
      assertEquals(client, s.clientName(f));
    }
    // the inode, 4 STRING pages, 45 + 2 + 7 STRING_EXT pages
    assertEquals(1 + 4 + 45 + 2 + 7, used);
    assertEquals(StringTable.pagesFor(user) + StringTable.pagesFor(group), 46 + 3);
    try (InodeStore s = shm.reopen("r")) {
      assertEquals(0, s.region().recovery().stringsReclaimed());
      assertEquals(0, s.region().recovery().extReclaimed());
      assertEquals(user, s.owner(f));
      assertEquals(group, s.group(f));
      assertEquals(client, s.clientName(f));
      assertEquals(machine, s.clientMachine(f));
    }
  }

  @Test
  public void aStringWithoutReferencesIsKeptUntilASweepAndACleanCloseLeavesNothingForRecovery()
      throws Exception {
    long f;
    long g;
    long bobId;
    try (InodeStore s = shm.createStore("r", ShmDir.MEDIUM)) {
      f = createInode(s, s.rootPage(), InodeAttrs.file("f").owner("bob", "eng"));
      g =
          createInode(
              s,
              s.rootPage(),
              InodeAttrs.file("g").owner("bob", "eng").underConstruction("client-1", "host-1"));
      bobId = s.strings().lookup("bob");
      assertEquals(2, s.strings().references(bobId));
      long used = s.region().usage().pagesUsed();
      setOwner(s, f, "carol", null); // bob is still g's owner
      setOwner(s, g, "carol", null); // bob's last reference: idle, kept
      clearUnderConstruction(s, g); // the client name and machine: idle, kept
      assertEquals(0, s.strings().references(bobId));
      assertEquals(bobId, s.strings().lookup("bob"));
      assertEquals(3, s.strings().idleCount());
      assertEquals(used + 1, s.region().usage().pagesUsed()); // carol
      // a create by the same client again finds its name: no string page written
      long h =
          createInode(
              s,
              s.rootPage(),
              InodeAttrs.file("h").owner("carol", "eng").underConstruction("client-1", "host-1"));
      assertEquals(used + 2, s.region().usage().pagesUsed());
      assertEquals(1, s.strings().idleCount());
      clearUnderConstruction(s, h);
      // a sweep frees the idle strings in one batch; a later batch hands the lowest free id out
      assertEquals(3, s.reclaimIdleStrings());
      assertEquals(0, s.strings().lookup("bob"));
      assertEquals(used + 2 - 3, s.region().usage().pagesUsed());
      assertEquals(bobId, s.strings().nextId());
      setOwner(s, f, "dave", null);
      assertEquals(bobId, s.strings().lookup("dave"));
      setOwner(s, g, "dave", null);
      setOwner(s, h, "dave", null); // carol idle now, and freed by the clean close
      assertEquals(1, s.strings().idleCount());
    }
    assertEquals(0, RegionCheck.run(shm.file("r")).exitCode()); // consistent, nothing to reclaim
    try (InodeStore s = shm.reopen("r")) {
      assertEquals(0, s.region().recovery().stringsReclaimed());
      assertEquals(0, s.strings().lookup("carol"));
      assertEquals("dave", s.owner(f));
      assertEquals("dave", s.owner(g));
      assertEquals(3, s.strings().references(s.strings().lookup("eng")));
    }
  }

  @Test
  public void moreIdleStringsThanKeptFreeTheOldest() throws Exception {
    try (InodeStore s = shm.createStore("r", ShmDir.MEDIUM)) {
      long f = createInode(s, s.rootPage(), InodeAttrs.file("f").owner("u0", "eng"));
      for (int i = 1; i <= StringTable.IDLE_MAX + 1; i++) {
        setOwner(s, f, "u" + i, null); // u(i-1) becomes idle
      }
      assertEquals(StringTable.IDLE_MAX, s.strings().idleCount());
      assertEquals(0, s.strings().lookup("u0")); // the oldest went
      assertTrue(s.strings().lookup("u1") != 0);
    }
  }

  @Test
  public void aDeletedSubtreeDropsItsReferences() throws Exception {
    try (InodeStore s = shm.createStore("r", ShmDir.MEDIUM)) {
      long d = createInode(s, s.rootPage(), InodeAttrs.directory("d").owner("alice", "staff"));
      long f1 = createInode(s, d, InodeAttrs.file("f1").owner("alice", "staff"));
      long f2 =
          createInode(
              s, d, InodeAttrs.file("f2").owner("bob", "staff").underConstruction("c", "m"));
      long used = s.region().usage().pagesUsed();
      delete(s, d, new long[] {f1, f2}, s.rootPage(), 9);
      for (String idle : new String[] {"alice", "staff", "bob", "c", "m"}) {
        assertEquals(idle, 0, s.strings().references(s.strings().lookup(idle)));
      }
      assertEquals(used - 3, s.region().usage().pagesUsed()); // the strings are idle, kept
      assertEquals(5, s.reclaimIdleStrings());
      assertEquals(used - 3 - 5, s.region().usage().pagesUsed());
    }
    assertEquals(0, RegionCheck.run(shm.file("r")).exitCode());
  }
}
