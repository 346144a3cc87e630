package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.junit.Assert.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;
import org.codehaus.jackson.JsonNode;
import org.codehaus.jackson.map.ObjectMapper;
import org.junit.Test;

/**
 * RECORD_TRUNCATE_BLOCK records (region-format.md §5.5) in check and dump: the record a truncate
 * inside a block leaves beside the file under construction (writing.log, whose last block is
 * BLOCK_BASE + 41) is clean and dumped; each way it can be wrong is reported: a payload that is not
 * 24 bytes and two records for one inode (the NameNode's restore refuses both), a key that is not a
 * file under construction and a block id that is not its last block's (the restore ignores or
 * trusts them). Recovery reads none of it: every verdict still goes through {@link RegionOracle}.
 */
public class RegionCheckTruncateTest extends SampleNamespaceFixture {
  private static final long LAST = SampleNamespace.BLOCK_BASE + 41;

  private final RegionOracle oracle = new RegionOracle();

  private CheckReport judge(String what) throws Exception {
    CheckReport r = CheckAssert.check(n.file);
    oracle.judge(n.file, shm.file("open-copy"), what);
    assertNull(what + ": recovery does not read records", oracle.lastRefusal);
    return r;
  }

  @Test
  public void truncateRecordIsCleanAndDumped() throws Exception {
    long page = record(n.id(n.writing), payload(LAST, 500, 1100));
    CheckReport r = judge("a truncate record");
    assertEquals(r.format(), 0, r.exitCode());
    assertTrue(r.format(), r.format().contains("1 record, "));
    long recordId = RegionDamage.getLong(n.file, page + RC_ID);
    List<String> lines = NamespaceDump.recordLines(n.file);
    assertEquals(
        "truncateBlock inodeId="
            + n.id(n.writing)
            + " blockId="
            + LAST
            + " numBytes=500 generationStamp=1100 recordId="
            + recordId
            + " page="
            + page,
        lines.get(lines.size() - 1));
    JsonNode records = new ObjectMapper().readTree(NamespaceDump.json(n.file)).get("records");
    JsonNode t = records.get(records.size() - 1);
    assertEquals("truncateBlock", t.get("type").getTextValue());
    assertEquals(n.id(n.writing), t.get("inodeId").getLongValue());
    assertEquals(LAST, t.get("blockId").getLongValue());
    assertEquals(500, t.get("numBytes").getLongValue());
    assertEquals(1100, t.get("generationStamp").getLongValue());
    assertNull(t.get("damaged"));
  }

  @Test
  public void payloadThatIsNot24Bytes() throws Exception {
    long page = record(n.id(n.writing), new byte[16]);
    Finding f = CheckAssert.onlyError(judge("16 bytes"), Finding.Kind.BAD_RECORD, page + RC_LEN);
    assertTrue(f.message(), f.message().contains("truncate block"));
    assertTrue(f.message(), f.message().contains("payload length 16 is not 24"));
    List<String> lines = NamespaceDump.recordLines(n.file);
    assertTrue(lines.toString(), lines.get(lines.size() - 1).endsWith(" damaged=block"));
  }

  @Test
  public void twoRecordsForOneInode() throws Exception {
    long first = record(n.id(n.writing), payload(LAST, 500, 1100));
    long second = record(n.id(n.writing), payload(LAST, 400, 1100));
    Finding f =
        CheckAssert.onlyError(
            judge("two records"),
            Finding.Kind.DUPLICATE_RECORD_KEY,
            Math.max(first, second) + RC_KEY);
    assertTrue(f.message(), f.message().contains("truncate block inode id " + n.id(n.writing)));
  }

  @Test
  public void keyThatIsNoAttachedInode() throws Exception {
    long page = record(999999, payload(LAST, 500, 1100));
    Finding f =
        CheckAssert.onlyError(judge("no inode"), Finding.Kind.BAD_TRUNCATE_RECORD, page + RC_KEY);
    assertTrue(f.message(), f.message().contains("no attached inode has this id"));
  }

  @Test
  public void keyOfADirectory() throws Exception {
    long page = record(n.id(n.alice), payload(LAST, 500, 1100));
    Finding f =
        CheckAssert.onlyError(
            judge("a directory"), Finding.Kind.BAD_TRUNCATE_RECORD, page + RC_KEY);
    assertTrue(
        f.message(), f.message().contains("/user/alice, page " + n.alice + ") is a directory"));
  }

  @Test
  public void fileThatIsNotUnderConstruction() throws Exception {
    long page = record(n.id(n.small), payload(SampleNamespace.BLOCK_BASE + 1, 500, 1001));
    Finding f =
        CheckAssert.onlyError(
            judge("a complete file"), Finding.Kind.BAD_TRUNCATE_RECORD, page + RC_KEY);
    assertTrue(f.message(), f.message().contains("small.txt, page " + n.small + ") is not under"));
  }

  @Test
  public void blockIdThatIsNotTheLastBlocks() throws Exception {
    long page = record(n.id(n.writing), payload(LAST - 1, 500, 1100));
    Finding f =
        CheckAssert.onlyError(
            judge("the first block's id"), Finding.Kind.BAD_TRUNCATE_RECORD, page + RC_PAYLOAD);
    assertTrue(
        f.message(),
        f.message().contains("block id " + (LAST - 1) + " is not the last block " + LAST));
  }

  /** A type past the last one (RECORD_DIFF) is still one the NameNode does not know. */
  @Test
  public void typeAfterTheLastIsUnknown() throws Exception {
    long page = record(RECORD_DIFF + 1, n.id(n.writing), payload(LAST, 500, 1100));
    Finding f = CheckAssert.onlyError(judge("type 12"), Finding.Kind.BAD_RECORD, page + RC_TYPE);
    assertTrue(f.message(), f.message().contains("7 (truncate block)"));
  }

  /** The payload as NvmTruncateRecords writes it: block id, bytes, generation stamp. */
  private static byte[] payload(long blockId, long numBytes, long genstamp) {
    return ByteBuffer.allocate(24)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putLong(blockId)
        .putLong(numBytes)
        .putLong(genstamp)
        .array();
  }

  private long record(long inodeId, byte[] payload) throws Exception {
    return record(RECORD_TRUNCATE_BLOCK, inodeId, payload);
  }

  /** A record written through the store in a batch of its own, as NvmTruncateRecords writes one. */
  private long record(int type, long key, byte[] payload) throws Exception {
    try (InodeStore s = shm.reopen("r");
        Txn t = s.begin()) {
      long page = t.createRecord(type, key, 0, payload);
      t.commit();
      return page;
    }
  }
}
