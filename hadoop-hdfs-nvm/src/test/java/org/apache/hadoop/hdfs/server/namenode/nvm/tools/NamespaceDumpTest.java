package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;
import org.junit.Test;

/** The text dump lists exactly what was written, every field, deterministically. */
public class NamespaceDumpTest extends SampleNamespaceFixture {

  private static final String NO_TYPE_QUOTA = "typeQuota=RAM_DISK:-1,SSD:-1,DISK:-1,ARCHIVE:-1";

  /** The lines the sample should produce, spelled out from the values SampleNamespace wrote. */
  private List<String> expected() throws Exception {
    StringBuilder bigBlocks = new StringBuilder();
    for (int i = 0; i < SampleNamespace.BIG_BLOCKS; i++) {
      bigBlocks
          .append(i == 0 ? "" : ",")
          .append(SampleNamespace.BLOCK_BASE + 10 + i)
          .append(':')
          .append(i < SampleNamespace.BIG_BLOCKS - 1 ? 67108864 : 777)
          .append(":1002");
    }
    long b = SampleNamespace.BLOCK_BASE;
    return Arrays.asList(
        "/ id=16385 type=dir mode=0755 owner=hdfs group=supergroup mtime=1000 atime=1001 nsQuota="
            + Long.MAX_VALUE
            + " dsQuota=-1 "
            + NO_TYPE_QUOTA
            + " policy=0",
        "/tmp id="
            + n.id(n.tmp)
            + " type=dir mode=1777 owner=hdfs group=supergroup mtime=8000 atime=8001"
            + " nsQuota=-1 dsQuota=-1 "
            + NO_TYPE_QUOTA
            + " policy=0",
        "/user id="
            + n.id(n.user)
            + " type=dir mode=0755 owner=hdfs group=supergroup mtime=2000 atime=2001"
            + " nsQuota=100 dsQuota=1073741824 typeQuota=RAM_DISK:-1,SSD:5000,DISK:-1,ARCHIVE:-1 policy=7",
        "/user/alice id="
            + n.id(n.alice)
            + " type=dir mode=0700 owner=alice group=staff mtime=3000 atime=3001"
            + " nsQuota=-1 dsQuota=-1 "
            + NO_TYPE_QUOTA
            + " policy=0",
        "/user/alice/"
            + SampleNamespace.LONG_NAME
            + " id="
            + n.id(n.longName)
            + " type=file mode=0600 owner=alice"
            + " group=staff mtime=6000 atime=6001 replication=1 blockSize=1048576 policy=0 uc=- blocks=-",
        "/user/alice/big.bin id="
            + n.id(n.big)
            + " type=file mode=0640 owner=alice group=staff mtime=5000"
            + " atime=5001 replication=2 blockSize=67108864 policy=5 uc=- blocks="
            + bigBlocks,
        "/user/alice/small.txt id="
            + n.id(n.small)
            + " type=file mode=0644 owner=alice group=staff mtime=4000"
            + " atime=4001 replication=3 blockSize=134217728 policy=0 uc=- blocks="
            + (b + 1)
            + ":1234:1001",
        "/user/alice/writing.log id="
            + n.id(n.writing)
            + " type=file mode=0644 owner=bob group=staff mtime=7000"
            + " atime=7001 replication=3 blockSize=134217728 policy=0 uc=DFSClient_NONMAPREDUCE_1@10.0.0.7 blocks="
            + (b + 40)
            + ":134217728:1050,"
            + (b + 41)
            + ":0:1100");
  }

  @Test
  public void dumpListsExactlyWhatWasWritten() throws Exception {
    String hash = RegionDamage.sha256(n.file);
    assertEquals(expected(), NamespaceDump.lines(n.file));
    assertEquals("the dump wrote to the region", hash, RegionDamage.sha256(n.file));
  }

  @Test
  public void countersAreThoseOfTheSuperblock() throws Exception {
    List<String> c = NamespaceDump.counters(n.file);
    for (String want :
        new String[] {
          "lastInodeId=" + n.id(n.tmp),
          "genstampV1=1000",
          "genstampV2=1100",
          "genstampV1Limit=1000",
          "lastBlockId=" + (SampleNamespace.BLOCK_BASE + 41),
          "lastTxId=42",
          "lastStringId=7",
          "namespaceId=12345",
          "clusterId=CID-test-cluster",
          "undoArmed=false",
          "rootPage=" + n.root,
          "regionSize=" + SampleNamespace.REGION_SIZE
        }) {
      assertTrue(want + " not in " + c, c.contains(want));
    }
  }

  @Test
  public void textOutputIsTheCountersThenTheLines() throws Exception {
    NamespaceDump d = NamespaceDump.read(n.file);
    String[] out = d.text().split("\n");
    List<String> header = new ArrayList<String>();
    List<String> body = new ArrayList<String>();
    for (String l : out) {
      (l.startsWith("# ") ? header : body).add(l);
    }
    assertEquals("# region=" + n.file.getPath(), header.get(0));
    assertEquals(d.counters().size() + 1, header.size());
    assertEquals(expected(), body);
  }

  /**
   * The sample's namespace built again in another order (so on other pages, with other string ids).
   */
  private void rebuildElsewhere(String name) throws Exception {
    try (InodeStore s = shm.createStore(name, SampleNamespace.REGION_SIZE)) {
      createInode(
          s,
          s.rootPage(),
          InodeAttrs.directory("padding").owner("zed", "zed")); // shifts every page
      long tmp =
          createInode(
              s,
              s.rootPage(),
              InodeAttrs.directory("tmp")
                  .id(n.id(n.tmp))
                  .times(8000, 8001)
                  .mode(01777)
                  .owner("hdfs", "supergroup"));
      long user =
          createInode(
              s,
              s.rootPage(),
              InodeAttrs.directory("user")
                  .id(n.id(n.user))
                  .times(2000, 2001)
                  .mode(0755)
                  .owner("hdfs", "supergroup")
                  .quota(100, 1L << 30)
                  .typeQuota(1, 5000)
                  .storagePolicy(7));
      long alice =
          createInode(
              s,
              user,
              InodeAttrs.directory("alice")
                  .id(n.id(n.alice))
                  .times(3000, 3001)
                  .mode(0700)
                  .owner("alice", "staff"));
      long writing =
          createInode(
              s,
              alice,
              InodeAttrs.file("writing.log")
                  .id(n.id(n.writing))
                  .times(7000, 7001)
                  .mode(0644)
                  .owner("bob", "staff")
                  .replication(3)
                  .preferredBlockSize(128L << 20)
                  .underConstruction("DFSClient_NONMAPREDUCE_1", "10.0.0.7"));
      addBlock(s, writing, SampleNamespace.BLOCK_BASE + 40, 1050);
      addBlock(s, writing, SampleNamespace.BLOCK_BASE + 41, 1100, 128L << 20);
      createInode(
          s,
          alice,
          InodeAttrs.file(SampleNamespace.LONG_NAME)
              .id(n.id(n.longName))
              .times(6000, 6001)
              .mode(0600)
              .owner("alice", "staff")
              .replication(1)
              .preferredBlockSize(1L << 20));
      long big =
          createInode(
              s,
              alice,
              InodeAttrs.file("big.bin")
                  .id(n.id(n.big))
                  .times(5000, 5001)
                  .mode(0640)
                  .owner("alice", "staff")
                  .replication(2)
                  .preferredBlockSize(64L << 20)
                  .storagePolicy(5));
      try (Txn t = s.begin()) {
        t.setBlocks(big, n.bigBlocks, SampleNamespace.BIG_BLOCKS);
        t.commit();
      }
      long small =
          createInode(
              s,
              alice,
              InodeAttrs.file("small.txt")
                  .id(n.id(n.small))
                  .times(4000, 4001)
                  .mode(0644)
                  .owner("alice", "staff")
                  .replication(3)
                  .preferredBlockSize(128L << 20));
      addBlock(s, small, SampleNamespace.BLOCK_BASE + 1, 1001);
      updateBlock(s, small, 0, 1234, 1001);
      setTimes(s, s.rootPage(), 1000, 1001);
      setTimes(s, user, 2000, 2001);
      setTimes(s, alice, 3000, 3001);
      setTimes(s, tmp, 8000, 8001);
      assertNotEquals(n.small, small);
    }
  }

  @Test
  public void sameNamespaceOnOtherPagesDumpsTheSameLinesExceptWhatDiffers() throws Exception {
    rebuildElsewhere("other");
    List<String> other = new ArrayList<String>(NamespaceDump.lines(shm.file("other")));
    List<String> mine = NamespaceDump.lines(n.file);
    assertEquals(mine.size() + 1, other.size());
    String padding = other.remove(1); // "/padding" sorts right after "/"
    assertTrue(padding, padding.startsWith("/padding id="));
    assertEquals(mine, other);
    // one changed field changes exactly one line
    try (InodeStore s = shm.reopen("r")) {
      setAtime(s, n.big, 5002);
    }
    List<String> changed = NamespaceDump.lines(n.file);
    int differ = 0;
    for (int i = 0; i < mine.size(); i++) {
      differ += mine.get(i).equals(changed.get(i)) ? 0 : 1;
    }
    assertEquals(1, differ);
    assertTrue(changed.get(5), changed.get(5).contains(" atime=5002 "));
  }

  @Test
  public void separatorsInNamesAndStringsAreEscaped() throws Exception {
    try (InodeStore s = shm.reopen("r")) {
      createInode(
          s, n.tmp, InodeAttrs.file("a b=c\\d").times(1, 2).owner("x:y", "-").replication(1));
    }
    String line = NamespaceDump.lines(n.file).get(2); // after "/" and "/tmp"
    assertTrue(line, line.startsWith("/tmp/a\\x20b=c\\x5cd id="));
    assertTrue(line, line.contains(" owner=x\\x3ay group=\\x2d "));
    // path id type mode owner group mtime atime replication blockSize policy uc blocks
    assertEquals("a path with an escaped space is still one field", 13, line.split(" ").length);
  }

  @Test
  public void refusedRegionIsAnException() throws Exception {
    RegionDamage.flipBit(n.file, HDR_CRC, 0);
    try {
      NamespaceDump.lines(n.file);
      fail("dumped a region with a bad header");
    } catch (NvmException e) {
      assertEquals(NvmException.ErrorCode.ECORRUPT, e.code());
    }
  }
}
