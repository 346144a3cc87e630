package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.junit.Assert.*;

import java.io.File;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.CacheDirectiveInfoExpirationProto;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.CacheDirectiveInfoProto;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.CachePoolInfoProto;
import org.apache.hadoop.hdfs.server.namenode.nvm.CrashHook;
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
 * Record pages (region-format.md §5.5) in check, dump and stat: a clean region with tokens and a
 * master key; a broken RECORD_EXT chain (refused by recovery, and by the checker at the same
 * field); a crash leftover (recoverable); the NameNode's invariants recovery does not check
 * (inconsistent per the checker, accepted by the native open); and the feature's rules. Every
 * verdict goes through {@link RegionOracle}.
 */
public class RegionCheckRecordTest extends SampleNamespaceFixture {
  private final RegionOracle oracle = new RegionOracle();

  private CheckReport judge(String what) throws Exception {
    CheckReport r = CheckAssert.check(n.file);
    oracle.judge(n.file, shm.file("open-copy"), what);
    return r;
  }

  @Test
  public void tokensAndMasterKeysAreCleanAndDumpedWithoutTheKeyBytes() throws Exception {
    List<String> inodes = NamespaceDump.lines(n.file);
    RecordSample rs = RecordSample.add(shm);
    assertEquals(4, rs.longTokenExt.length); // 1,000-byte renewer: the payload is chained
    CheckReport r = judge("tokens and a master key");
    assertEquals(r.format(), 0, r.exitCode());
    assertTrue(r.format(), r.format().contains(" files), 3 records, 0 pending"));

    NamespaceDump d = NamespaceDump.read(n.file);
    assertEquals("the inode lines do not change", inodes, d.lines());
    assertTrue(d.counters().contains("lastRecordId=3"));
    assertTrue(d.counters().contains("tokenSequence=2"));
    assertTrue(d.counters().contains("masterKeyId=1"));
    String week = " issueDate=1700000000000 maxDate=1700604800000 masterKeyId=1";
    assertEquals(
        java.util.Arrays.asList(
            "token sequenceNumber=1 owner=alice renewer=yarn realUser=-"
                + week
                + " expiryDate=1700000086400000 recordId=2 page="
                + rs.shortToken,
            "token sequenceNumber=2 owner=bob renewer="
                + RecordSample.LONG_RENEWER
                + " realUser=oozie"
                + week
                + " expiryDate=1700000086400000 recordId=3 page="
                + rs.longToken,
            "masterKey keyId=1 expiryDate=1800000000000 keyLength=64 recordId=1 page="
                + rs.masterKey),
        d.recordLines());
    String text = d.text();
    assertTrue(text, text.endsWith(String.join("\n", d.recordLines()) + "\n"));
    assertFalse("no key bytes", text.toLowerCase().contains("a5a4a7a6"));

    JsonNode doc = new ObjectMapper().readTree(d.json());
    assertEquals(3, doc.get("counters").get("lastRecordId").getLongValue());
    JsonNode records = doc.get("records");
    assertEquals(3, records.size());
    assertEquals("token", records.get(1).get("type").getTextValue());
    assertEquals(2, records.get(1).get("sequenceNumber").getLongValue());
    assertEquals(RecordSample.LONG_RENEWER, records.get(1).get("renewer").getTextValue());
    assertEquals("", records.get(0).get("realUser").getTextValue());
    assertEquals(rs.longToken, records.get(1).get("page").getLongValue());
    JsonNode key = records.get(2);
    assertEquals("masterKey", key.get("type").getTextValue());
    assertEquals(64, key.get("keyLength").getLongValue());
    assertNull("no key bytes", key.get("key"));

    StatReport st = RegionStat.run(n.file);
    assertEquals(3, st.liveRecordPages());
    assertEquals(4, st.liveRecordExtPages());
    assertEquals(0, st.reclaimablePages());
    assertTrue(st.format(), st.format().contains("\nliveRecordPages: 3\nliveRecordExtPages: 4\n"));
    RegionUsage u;
    try (Region open =
        Region.open(RegionDamage.copy(n.file, shm.file("c")), PersistMode.EMULATED)) {
      u = open.usage();
    }
    assertEquals(u.pagesUsed(), st.pagesUsed());
    assertEquals(u.highWater(), st.highWater());
  }

  /**
   * A retry log page, its entries written in place as the NameNode writes them (a success and an
   * addCacheDirective's): clean, dumped.
   */
  @Test
  public void aRetryLogPageIsCleanAndDumped() throws Exception {
    long page;
    try (InodeStore s = shm.reopen("r")) {
      byte[] slots = new byte[RETRY_SLOTS * RETRY_ENTRY_SIZE];
      slots[RE_SEQ] = 1;
      slots[RE_KIND] = RETRY_SUCCESS;
      try (Txn t = s.begin()) {
        page = t.createRecord(RECORD_RETRY_LOG, 0, 0, slots);
        t.commit();
      }
      byte[] second = new byte[RETRY_ENTRY_SIZE];
      second[RE_SEQ] = 2;
      second[RE_KIND] = RETRY_CACHE_DIRECTIVE; // an addCacheDirective's: RE_INODE is the id
      second[RE_INODE] = 1;
      try (Txn t = s.begin()) {
        t.setRecordPayload(page, RETRY_ENTRY_SIZE, second);
        t.commit();
      }
    }
    CheckReport r = judge("a retry log page");
    assertEquals(r.format(), 0, r.exitCode());
    NamespaceDump d = NamespaceDump.read(n.file);
    assertEquals(1, d.recordLines().size());
    assertTrue(
        d.recordLines().get(0),
        d.recordLines().get(0).startsWith("retryLog index=0 entries=2 newestEntry=2 "));
  }

  /** A retry log page whose payload is not RETRY_SLOTS entries is reported. */
  @Test
  public void aRetryLogPageOfAnotherLengthIsReported() throws Exception {
    try (InodeStore s = shm.reopen("r");
        Txn t = s.begin()) {
      t.createRecord(RECORD_RETRY_LOG, 0, 0, new byte[10]);
      t.commit();
    }
    CheckReport r = judge("a retry log page of 10 bytes");
    assertTrue(r.format(), r.format().contains("BAD_RECORD") && r.format().contains("retry log"));
  }

  /** A retry entry in use whose kind the NameNode does not know is reported at its RE_KIND. */
  @Test
  public void aRetryEntryOfAnUnknownKindIsReported() throws Exception {
    byte[] slots = new byte[RETRY_SLOTS * RETRY_ENTRY_SIZE];
    slots[RE_SEQ] = 1;
    slots[RE_KIND] = RETRY_SUCCESS;
    slots[RETRY_ENTRY_SIZE + RE_SEQ] = 2;
    slots[RETRY_ENTRY_SIZE + RE_KIND] = RETRY_CREATE_SNAPSHOT + 1;
    slots[2 * RETRY_ENTRY_SIZE + RE_KIND] = 9; // not in use: not judged
    long page = createRecord(RECORD_RETRY_LOG, 0, slots, false);
    Finding f =
        CheckAssert.onlyError(
            judge("a retry entry of kind 6"),
            Finding.Kind.BAD_RECORD,
            page + RC_PAYLOAD + RETRY_ENTRY_SIZE + RE_KIND);
    assertTrue(f.message(), f.message().contains("retry entry 2 (slot 1) has RE_KIND 6"));
  }

  @Test
  public void aRegionWithoutRecordsDumpsAnEmptyRecordList() throws Exception {
    NamespaceDump d = NamespaceDump.read(n.file);
    assertTrue(d.recordLines().isEmpty());
    assertEquals(0, new ObjectMapper().readTree(d.json()).get("records").size());
    assertTrue(d.counters().contains("lastRecordId=0"));
  }

  /** One way to break the chain of token 2: returns the offset both readers refuse at. */
  private interface ChainDamage {
    long apply(RecordSample rs) throws Exception;
  }

  private void brokenChain(String what, Finding.Kind kind, ChainDamage damage) throws Exception {
    RecordSample rs = RecordSample.add(shm);
    long offset = damage.apply(rs);
    CheckReport r = judge(what);
    Finding f = CheckAssert.onlyError(r, kind, offset);
    String owner =
        kind == Finding.Kind.BAD_CHECKSUM
            ? "(of record id " + rs.longTokenId + ")"
            : "record id " + rs.longTokenId + " (RECORD page " + rs.longToken + "): record chain";
    assertTrue(f.message(), f.message().contains(owner));
    for (Finding x : r.findings()) {
      if (x != f) {
        assertEquals(r.format(), Finding.Kind.UNREFERENCED_EXTENSION, x.kind());
      }
    }
    NvmException e = oracle.lastRefusal;
    assertNotNull(what + ": recovery accepted the region", e);
    assertEquals(e.getMessage(), offset, e.offset());
    if (kind != Finding.Kind.BAD_CHECKSUM) {
      assertTrue(
          e.getMessage(), e.getMessage().contains("record chain of record " + rs.longTokenId));
    }
  }

  @Test
  public void recordChainWithAWrongOwner() throws Exception {
    brokenChain(
        "wrong owner",
        Finding.Kind.BROKEN_CHAIN,
        rs -> put(rs.longTokenExt[1] + EXT_OWNER_ID, rs.longTokenId + 1));
  }

  @Test
  public void recordChainEndingEarly() throws Exception {
    brokenChain(
        "ends early", Finding.Kind.CHAIN_LENGTH, rs -> put(rs.longTokenExt[1] + EXT_NEXT, 0));
  }

  @Test
  public void recordChainPageWithACountOfZero() throws Exception {
    brokenChain("count 0", Finding.Kind.CHAIN_LENGTH, rs -> put(rs.longTokenExt[0] + EXT_COUNT, 0));
  }

  @Test
  public void recordChainLinkingInsideAPage() throws Exception {
    brokenChain(
        "RC_EXT not a page",
        Finding.Kind.BROKEN_CHAIN,
        rs -> {
          put(rs.longToken + RC_EXT, rs.longTokenExt[0] + 8);
          return rs.longToken + RC_EXT;
        });
  }

  @Test
  public void recordChainLinkingAnInvalidPage() throws Exception {
    brokenChain(
        "INVALID page",
        Finding.Kind.BROKEN_CHAIN,
        rs -> {
          put(rs.longTokenExt[2], stateWord(KIND_RECORD_EXT, STATE_INVALID));
          return rs.longTokenExt[1] + EXT_NEXT;
        });
  }

  @Test
  public void recordChainLinkingPastThePayload() throws Exception {
    brokenChain(
        "RC_LEN covered by one page",
        Finding.Kind.CHAIN_LENGTH,
        rs -> {
          put(rs.longToken + RC_LEN, RECORD_INLINE_MAX + NAME_EXT_MAX);
          return rs.longTokenExt[0] + EXT_NEXT;
        });
  }

  @Test
  public void recordChainPageWithADamagedByte() throws Exception {
    brokenChain(
        "a flipped payload bit",
        Finding.Kind.BAD_CHECKSUM,
        rs -> {
          RegionDamage.flipBit(n.file, rs.longTokenExt[3] + EXT_PAYLOAD + 5, 2);
          return rs.longTokenExt[3];
        });
  }

  @Test
  public void chainOfARecordWhoseCreationCrashedIsRecoverable() throws Exception {
    File work = RegionDamage.copy(n.file, shm.file("crash"));
    String prefix = shm.file("crash.img").getPath();
    try (InodeStore s = InodeStore.open(Region.open(work, PersistMode.EMULATED))) {
      CrashHook.crashAt(s.region(), 1, prefix); // the new pages are written, nothing is linked
      try {
        RecordSample.token(s, RecordSample.identifier("bob", RecordSample.LONG_RENEWER, "", 1, 1));
        fail("the crash hook did not fire");
      } catch (NvmException e) {
        assertEquals(NvmException.ErrorCode.ECRASHED, e.code());
      }
    }
    File image = new File(prefix + ".present");
    CheckReport r = CheckAssert.check(image);
    assertEquals(r.format(), 4, CheckAssert.count(r, Finding.Kind.UNREFERENCED_EXTENSION));
    assertEquals(r.format(), 4, r.findings().size());
    assertTrue(r.format(), r.format().contains("(record id 1) is linked from no LIVE record"));
    assertEquals(2, r.exitCode());
    oracle.judgeInPlace(image, "a record's creation at barrier 1");
    assertNull(oracle.lastRefusal);
    assertEquals(0, CheckAssert.check(image).exitCode()); // recovery reclaimed the pages
    assertTrue(NamespaceDump.recordLines(image).isEmpty());
  }

  @Test
  public void twoTokensWithOneSequenceNumberAreInconsistent() throws Exception {
    RecordSample rs = RecordSample.add(shm);
    long again;
    try (InodeStore s = shm.reopen("r")) {
      again = RecordSample.token(s, RecordSample.identifier("carol", "yarn", "", 2, 1));
    }
    CheckReport r = judge("a duplicate sequence number");
    assertNull("recovery does not check it", oracle.lastRefusal);
    long higher = Math.max(again, rs.longToken);
    Finding f = CheckAssert.onlyError(r, Finding.Kind.DUPLICATE_RECORD_KEY, higher + RC_KEY);
    assertTrue(f.message(), f.message().contains("sequence number 2 is also that of record id"));
    assertTrue(
        f.message(), f.message().contains("RECORD page " + Math.min(again, rs.longToken) + ")"));
  }

  @Test
  public void twoMasterKeysWithOneIdAreInconsistent() throws Exception {
    RecordSample rs = RecordSample.add(shm);
    long again = createRecord(RECORD_MASTER_KEY, 1, RecordSample.key(16), true);
    CheckAssert.onlyError(
        judge("a duplicate key id"),
        Finding.Kind.DUPLICATE_RECORD_KEY,
        Math.max(again, rs.masterKey) + RC_KEY);
  }

  @Test
  public void aTokenAboveTheSequenceCounterIsInconsistent() throws Exception {
    RecordSample.add(shm);
    long page =
        createRecord(
            RECORD_DELEGATION_TOKEN,
            9,
            RecordSample.payload(RecordSample.identifier("dave", "yarn", "", 9, 1)),
            false);
    Finding f =
        CheckAssert.onlyError(
            judge("a token above its counter"), Finding.Kind.RECORD_ABOVE_COUNTER, page + RC_KEY);
    assertTrue(f.message(), f.message().contains("above the superblock's SB_TOKEN_SEQUENCE 2"));
  }

  @Test
  public void aMasterKeyAboveItsCounterIsInconsistent() throws Exception {
    RecordSample.add(shm);
    long page = createRecord(RECORD_MASTER_KEY, 5, new byte[0], false);
    Finding f =
        CheckAssert.onlyError(
            judge("a key above its counter"), Finding.Kind.RECORD_ABOVE_COUNTER, page + RC_KEY);
    assertTrue(f.message(), f.message().contains("SB_MASTER_KEY_ID 1"));
  }

  @Test
  public void aRecordIdAboveItsCounterOrUsedTwiceIsInconsistent() throws Exception {
    RecordSample rs = RecordSample.add(shm);
    RegionDamage.putLong(n.file, rs.shortToken + RC_ID, rs.longTokenId);
    CheckReport r = judge("a record id used twice");
    CheckAssert.onlyError(
        r, Finding.Kind.DUPLICATE_RECORD_ID, Math.max(rs.shortToken, rs.longToken) + RC_ID);
    RegionDamage.putLong(n.file, rs.shortToken + RC_ID, rs.longTokenId + 1);
    r = judge("a record id above its counter");
    CheckAssert.onlyError(r, Finding.Kind.RECORD_ABOVE_COUNTER, rs.shortToken + RC_ID);
  }

  @Test
  public void aTokenKeyThatIsNotItsIdentifiersSequenceNumberIsInconsistent() throws Exception {
    RecordSample rs = RecordSample.add(shm);
    RegionDamage.putLong(n.file, rs.longToken + RC_KEY, 1);
    CheckReport r = judge("RC_KEY differs from the identifier");
    // the sequence number is the payload's second-to-last byte, in the chain's last page: the
    // higher of the two places that disagree
    int payload =
        RecordSample.payload(
                RecordSample.identifier("bob", RecordSample.LONG_RENEWER, "oozie", 2, 1))
            .length;
    long seqAt = payload - 2 - RECORD_INLINE_MAX - 3 * NAME_EXT_MAX;
    Finding f =
        CheckAssert.find(r, Finding.Kind.BAD_RECORD, rs.longTokenExt[3] + EXT_PAYLOAD + seqAt);
    assertTrue(f.message(), f.message().contains("sequence number 2 is not the record's key 1"));
    CheckAssert.find(
        r, Finding.Kind.DUPLICATE_RECORD_KEY, Math.max(rs.shortToken, rs.longToken) + RC_KEY);
    assertEquals(r.format(), 2, r.count(Finding.Severity.ERROR));
  }

  @Test
  public void unknownTypesAndPayloadsThatAreNoIdentifierAreInconsistent() throws Exception {
    long odd = createRecord(RECORD_DIFF + 1, 1, new byte[] {1, 2, 3}, false);
    long garbage = createRecord(RECORD_DELEGATION_TOKEN, 1, new byte[] {1, 0}, true);
    byte[] whole = RecordSample.payload(RecordSample.identifier("e", "yarn", "", 2, 1));
    long truncated =
        createRecord(RECORD_DELEGATION_TOKEN, 2, java.util.Arrays.copyOf(whole, 12), true);
    CheckReport r = judge("an unknown type, payloads that do not decode");
    CheckAssert.find(r, Finding.Kind.BAD_RECORD, odd + RC_TYPE);
    Finding version = CheckAssert.find(r, Finding.Kind.BAD_RECORD, garbage + RC_PAYLOAD);
    assertTrue(version.message(), version.message().contains("has version 1, not 0"));
    Finding end = CheckAssert.find(r, Finding.Kind.BAD_RECORD, truncated + RC_PAYLOAD + 12);
    assertTrue(end.message(), end.message().contains("ends before the issue date"));
    assertEquals(r.format(), 3, r.count(Finding.Severity.ERROR));
    assertNull(oracle.lastRefusal);
    List<String> lines = NamespaceDump.recordLines(n.file);
    assertTrue(
        lines.toString(),
        lines.contains("record type=14 key=1 value=0 length=3 recordId=1 page=" + odd));
    assertTrue(
        lines.toString(),
        lines.contains(
            "token sequenceNumber=1 expiryDate=0 recordId=2 page="
                + garbage
                + " damaged=identifier"));
  }

  @Test
  public void aRecordInARegionWithoutTheFeatureIsAnUnknownKind() throws Exception {
    RecordSample rs = RecordSample.add(shm);
    RegionDamage.rawPutLong(n.file, SB_FEATURES, features(FEATURE_PAGE_CHECKSUMS));
    RegionDamage.rawPutLong(n.file, SB_TOKEN_SEQUENCE, 12345); // nothing reads it now
    CheckReport r = judge("records without the feature");
    for (long page : new long[] {rs.masterKey, rs.shortToken, rs.longToken}) {
      Finding f = CheckAssert.find(r, Finding.Kind.UNKNOWN_KIND, page);
      assertTrue(f.message(), f.message().contains("without the records feature"));
    }
    assertEquals(r.format(), 3, r.count(Finding.Severity.ERROR));
    assertEquals(r.format(), 4, CheckAssert.count(r, Finding.Kind.UNREFERENCED_EXTENSION));
    assertTrue(
        oracle.lastRefusal.getMessage(), oracle.lastRefusal.getMessage().contains("unknown kind"));
    assertTrue(NamespaceDump.counters(n.file).contains("tokenSequence=0")); // not read: 0
  }

  @Test
  public void recordCountersAreChecked() throws Exception {
    RegionDamage.flipBit(n.file, SB_TOKEN_SEQUENCE + 1, 4);
    CheckAssert.onlyError(
        judge("a flipped counter bit"), Finding.Kind.BAD_COUNTER, SB_TOKEN_SEQUENCE);
    assertEquals(SB_TOKEN_SEQUENCE, oracle.lastRefusal.offset());
  }

  @Test
  public void recordsWithoutPageChecksumsAreRefused() throws Exception {
    RegionDamage.rawPutLong(n.file, SB_FEATURES, features(FEATURE_RECORDS));
    CheckAssert.onlyError(judge("records without checksums"), Finding.Kind.REFUSED, SB_FEATURES);
  }

  // ---- cache pools and directives (RECORD_CACHE_POOL, RECORD_CACHE_DIRECTIVE, RECORD_CACHE_IDS)

  @Test
  public void cachePoolsAndDirectivesAreCleanDumpedAndCounted() throws Exception {
    List<String> inodes = NamespaceDump.lines(n.file);
    CacheSample cs = CacheSample.add(shm);
    assertEquals(1, cs.directive2Ext.length); // a 312-byte path: the payload is chained
    CheckReport r = judge("a cache pool, two directives and the ids record");
    assertEquals(r.format(), 0, r.exitCode());
    assertTrue(r.format(), r.format().contains(" files), 4 records, 0 pending"));

    NamespaceDump d = NamespaceDump.read(n.file);
    assertEquals("the inode lines do not change", inodes, d.lines());
    assertEquals(
        java.util.Arrays.asList(
            "cachePool name=hot owner=hdfs group=supergroup mode=0755 limit=1073741824"
                + " maxRelativeExpiry=604800000 recordId=1 page="
                + cs.pool,
            "cacheDirective id=1 path=/user/alice/report.csv pool=hot replication=2"
                + " expiry=1800000000000 expiryRelative=false recordId=2 page="
                + cs.directive1,
            "cacheDirective id=2 path="
                + CacheSample.LONG_PATH
                + " pool=hot replication=1 expiry=1800000000000 expiryRelative=false recordId=4"
                + " page="
                + cs.directive2,
            "cacheIds nextDirectiveId=3 recordId=3 page=" + cs.ids),
        d.recordLines());
    assertTrue(d.text(), d.text().endsWith(String.join("\n", d.recordLines()) + "\n"));

    JsonNode records = new ObjectMapper().readTree(d.json()).get("records");
    assertEquals(4, records.size());
    JsonNode pool = records.get(0);
    assertEquals("cachePool", pool.get("type").getTextValue());
    assertEquals("hot", pool.get("name").getTextValue());
    assertEquals("0755", pool.get("mode").getTextValue());
    assertEquals(CacheSample.LIMIT, pool.get("limit").getLongValue());
    assertEquals(CacheSample.MAX_RELATIVE_EXPIRY, pool.get("maxRelativeExpiry").getLongValue());
    JsonNode dir = records.get(2);
    assertEquals("cacheDirective", dir.get("type").getTextValue());
    assertEquals(2, dir.get("id").getLongValue());
    assertEquals(CacheSample.LONG_PATH, dir.get("path").getTextValue());
    assertEquals("hot", dir.get("pool").getTextValue());
    assertEquals(1, dir.get("replication").getLongValue());
    assertEquals(CacheSample.EXPIRY, dir.get("expiry").getLongValue());
    assertFalse(dir.get("expiryRelative").getBooleanValue());
    assertEquals(cs.directive2, dir.get("page").getLongValue());
    assertEquals("cacheIds", records.get(3).get("type").getTextValue());
    assertEquals(3, records.get(3).get("nextDirectiveId").getLongValue());

    StatReport st = RegionStat.run(n.file);
    assertEquals(4, st.liveRecordPages());
    assertEquals(1, st.liveRecordExtPages());
    assertEquals(1, st.cachePools());
    assertEquals(2, st.cacheDirectives());
    assertTrue(
        st.format(),
        st.format()
            .contains(
                "\nliveRecordExtPages: 1\nliveAttrExtPages: 0\ncachePools: 1\ncacheDirectives: 2\n"));
    assertTrue(st.json(), st.json().contains("\"cachePools\":1, \"cacheDirectives\":2"));
    RegionUsage u;
    try (Region open =
        Region.open(RegionDamage.copy(n.file, shm.file("c")), PersistMode.EMULATED)) {
      u = open.usage();
    }
    assertEquals(u.pagesUsed(), st.pagesUsed());
  }

  /** Pools sort by name whatever their record ids; a modified pool is a new record. */
  @Test
  public void poolsAreDumpedByName() throws Exception {
    long b = record(RECORD_CACHE_POOL, 0, 0, CacheSample.pool("b"));
    long a = record(RECORD_CACHE_POOL, 0, 0, CacheSample.pool("a b"));
    assertEquals(0, judge("two pools").exitCode());
    List<String> lines = NamespaceDump.recordLines(n.file);
    assertTrue(lines.get(0), lines.get(0).startsWith("cachePool name=a\\x20b owner=hdfs "));
    assertTrue(lines.get(0), lines.get(0).endsWith(" page=" + a));
    assertTrue(lines.get(1), lines.get(1).startsWith("cachePool name=b "));
    assertTrue(lines.get(1), lines.get(1).endsWith(" page=" + b));
  }

  @Test
  public void aPoolPayloadThatDoesNotParseIsInconsistent() throws Exception {
    CacheSample.add(shm);
    byte[] whole = CacheSample.pool("cold");
    // wire type 7 in the first tag; the pool cut inside its limit field
    long garbage = record(RECORD_CACHE_POOL, 0, 0, new byte[] {0x0f, 1});
    long cut = record(RECORD_CACHE_POOL, 0, 0, java.util.Arrays.copyOf(whole, whole.length - 2));
    CheckReport r = judge("pool payloads that do not parse");
    Finding f = CheckAssert.find(r, Finding.Kind.BAD_CACHE_RECORD, garbage + RC_PAYLOAD);
    assertTrue(f.message(), f.message().contains("is not a CachePoolInfoProto: it has field 1"));
    assertTrue(f.message(), f.message().contains("wire type 7"));
    f = CheckAssert.find(r, Finding.Kind.BAD_CACHE_RECORD, cut + RC_PAYLOAD + whole.length - 2);
    assertTrue(f.message(), f.message().contains("ends inside the max relative expiry"));
    assertEquals(r.format(), 2, r.count(Finding.Severity.ERROR));
    List<String> lines = NamespaceDump.recordLines(n.file);
    assertTrue(
        lines.toString(),
        lines.contains("cachePool recordId=5 page=" + garbage + " damaged=poolInfo"));
  }

  @Test
  public void aPoolWithoutANameOrWithValuesTheCacheManagerRefusesIsInconsistent() throws Exception {
    CacheSample.add(shm);
    long nameless =
        record(
            RECORD_CACHE_POOL,
            0,
            0,
            CachePoolInfoProto.newBuilder().setOwnerName("hdfs").build().toByteArray());
    long negative =
        record(
            RECORD_CACHE_POOL,
            0,
            0,
            CachePoolInfoProto.newBuilder().setPoolName("cold").setLimit(-1).build().toByteArray());
    CheckReport r = judge("a pool without a name, one with a negative limit");
    Finding f = CheckAssert.find(r, Finding.Kind.BAD_CACHE_RECORD, nameless + RC_PAYLOAD);
    assertTrue(f.message(), f.message().contains("has no pool name (field 1)"));
    f = CheckAssert.find(r, Finding.Kind.BAD_CACHE_RECORD, negative + RC_PAYLOAD + 7);
    assertTrue(f.message(), f.message().contains("has a negative limit -1"));
    assertEquals(r.format(), 2, r.count(Finding.Severity.ERROR));
    assertTrue(
        NamespaceDump.recordLines(n.file)
            .contains(
                "cachePool name=- owner=hdfs group=- mode=- limit=- maxRelativeExpiry=- recordId=5"
                    + " page="
                    + nameless));
  }

  @Test
  public void aDirectiveWithoutItsIdPathOrPoolIsInconsistent() throws Exception {
    CacheSample cs = CacheSample.add(shm);
    CacheDirectiveInfoProto whole =
        CacheDirectiveInfoProto.parseFrom(
            CacheSample.directive(3, "/tmp", CacheSample.POOL, (short) 1, 5));
    long noPath =
        record(RECORD_CACHE_DIRECTIVE, 3, 0, whole.toBuilder().clearPath().build().toByteArray());
    long noPool =
        record(
            RECORD_CACHE_DIRECTIVE,
            4,
            0,
            whole.toBuilder().setId(4).clearPool().build().toByteArray());
    long noId =
        record(RECORD_CACHE_DIRECTIVE, 5, 0, whole.toBuilder().clearId().build().toByteArray());
    setValue(cs.ids, 6);
    CheckReport r = judge("directives without a path, a pool, an id");
    Finding f = CheckAssert.find(r, Finding.Kind.BAD_CACHE_RECORD, noPath + RC_PAYLOAD);
    assertTrue(f.message(), f.message().contains("has no path (field 2)"));
    f = CheckAssert.find(r, Finding.Kind.BAD_CACHE_RECORD, noPool + RC_PAYLOAD);
    assertTrue(f.message(), f.message().contains("has no pool (field 4)"));
    f = CheckAssert.find(r, Finding.Kind.BAD_CACHE_RECORD, noId + RC_PAYLOAD);
    assertTrue(f.message(), f.message().contains("has no id (field 1)"));
    assertEquals(r.format(), 3, r.count(Finding.Severity.ERROR));
  }

  @Test
  public void aDirectiveWhoseExpirationLacksARequiredFieldDoesNotParse() throws Exception {
    CacheSample cs = CacheSample.add(shm);
    byte[] payload =
        CacheDirectiveInfoProto.parseFrom(
                CacheSample.directive(3, "/tmp", CacheSample.POOL, (short) 1, 5))
            .toBuilder()
            .setExpiration(
                CacheDirectiveInfoExpirationProto.newBuilder().setMillis(5).buildPartial())
            .buildPartial()
            .toByteArray();
    try {
      CacheDirectiveInfoProto.parseFrom(payload);
      fail("protobuf parsed a directive whose expiration lacks isRelative");
    } catch (com.google.protobuf.InvalidProtocolBufferException expected) {
      // as the NameNode's restore would
    }
    long page = record(RECORD_CACHE_DIRECTIVE, 3, 0, payload);
    setValue(cs.ids, 4);
    CheckReport r = judge("an expiration without isRelative");
    int at = payload.length - 3; // the expiration's length byte, before millis' tag and value
    Finding f = CheckAssert.onlyError(r, Finding.Kind.BAD_CACHE_RECORD, page + RC_PAYLOAD + at);
    assertTrue(f.message(), f.message().contains("has an expiration without isRelative"));
    assertTrue(
        NamespaceDump.recordLines(n.file)
            .contains("cacheDirective id=3 recordId=5 page=" + page + " damaged=directiveInfo"));
  }

  @Test
  public void twoPoolsWithOneNameAreInconsistent() throws Exception {
    CacheSample cs = CacheSample.add(shm);
    long again = record(RECORD_CACHE_POOL, 0, 0, CacheSample.pool(CacheSample.POOL));
    CheckReport r = judge("two pools named hot");
    long higher = Math.max(again, cs.pool);
    Finding f =
        CheckAssert.onlyError(r, Finding.Kind.DUPLICATE_CACHE_POOL, higher + RC_PAYLOAD + 1);
    assertTrue(f.message(), f.message().contains("cache pool \"hot\" is also that of record id"));
    assertTrue(f.message(), f.message().contains("RECORD page " + Math.min(again, cs.pool) + ")"));
  }

  @Test
  public void twoDirectivesWithOneIdAreInconsistent() throws Exception {
    CacheSample cs = CacheSample.add(shm);
    long again =
        record(
            RECORD_CACHE_DIRECTIVE,
            2,
            0,
            CacheSample.directive(2, "/tmp", CacheSample.POOL, (short) 1, 5));
    Finding f =
        CheckAssert.onlyError(
            judge("two directives of id 2"),
            Finding.Kind.DUPLICATE_CACHE_DIRECTIVE,
            Math.max(again, cs.directive2) + RC_KEY);
    assertTrue(f.message(), f.message().contains("cache directive id 2 is also that of record id"));
  }

  @Test
  public void aDirectiveKeyThatIsNotItsIdIsInconsistent() throws Exception {
    CacheSample cs = CacheSample.add(shm);
    long page =
        record(
            RECORD_CACHE_DIRECTIVE,
            3,
            0,
            CacheSample.directive(4, "/tmp", CacheSample.POOL, (short) 1, 5));
    setValue(cs.ids, 5);
    Finding f =
        CheckAssert.onlyError(
            judge("key 3, id 4"), Finding.Kind.BAD_CACHE_KEY, page + RC_PAYLOAD + 1);
    assertTrue(f.message(), f.message().contains("the directive's id 4 is not the record's key 3"));
  }

  @Test
  public void aDirectiveOfAPoolWithoutARecordIsInconsistent() throws Exception {
    CacheSample cs = CacheSample.add(shm);
    byte[] payload = CacheSample.directive(3, "/tmp", "cold", (short) 1, 5);
    long page = record(RECORD_CACHE_DIRECTIVE, 3, 0, payload);
    setValue(cs.ids, 4);
    int at = indexOf(payload, new byte[] {0x22, 4, 'c', 'o', 'l', 'd'}) + 1;
    Finding f =
        CheckAssert.onlyError(
            judge("a directive of pool cold"),
            Finding.Kind.DANGLING_CACHE_POOL,
            page + RC_PAYLOAD + at);
    assertTrue(f.message(), f.message().contains("names cache pool \"cold\", which no record"));
  }

  @Test
  public void aSecondCacheIdsRecordIsInconsistent() throws Exception {
    CacheSample cs = CacheSample.add(shm);
    long again = record(RECORD_CACHE_IDS, 0, 3, new byte[0]);
    Finding f =
        CheckAssert.onlyError(
            judge("two ids records"),
            Finding.Kind.DUPLICATE_CACHE_IDS,
            Math.max(again, cs.ids) + RC_TYPE);
    assertTrue(f.message(), f.message().contains("a second cache ids record besides record id"));
  }

  @Test
  public void aDirectiveIdAtOrAboveTheNextIdIsInconsistent() throws Exception {
    CacheSample cs = CacheSample.add(shm);
    setValue(cs.ids, 2);
    Finding f =
        CheckAssert.onlyError(
            judge("next id 2 with directive 2"),
            Finding.Kind.DIRECTIVE_ID_ABOVE_COUNTER,
            cs.directive2 + RC_KEY);
    assertTrue(f.message(), f.message().contains("directive id 2 is not below the next directive"));
    setValue(cs.ids, 0);
    CheckReport r = judge("next id 0");
    f = CheckAssert.find(r, Finding.Kind.BAD_CACHE_RECORD, cs.ids + RC_VALUE);
    assertTrue(f.message(), f.message().contains("next cache directive id 0 is not positive"));
    CheckAssert.find(r, Finding.Kind.DIRECTIVE_ID_ABOVE_COUNTER, cs.directive1 + RC_KEY);
    CheckAssert.find(r, Finding.Kind.DIRECTIVE_ID_ABOVE_COUNTER, cs.directive2 + RC_KEY);
    assertEquals(r.format(), 3, r.count(Finding.Severity.ERROR));
  }

  @Test
  public void directivesWithoutAnIdsRecordAreInconsistent() throws Exception {
    CacheSample cs = CacheSample.add(shm);
    try (InodeStore s = shm.reopen("r");
        Txn t = s.begin()) {
      t.removeRecord(cs.ids);
      t.commit();
    }
    CheckReport r = judge("no ids record");
    for (long page : new long[] {cs.directive1, cs.directive2}) {
      Finding f = CheckAssert.find(r, Finding.Kind.DIRECTIVE_ID_ABOVE_COUNTER, page + RC_KEY);
      assertTrue(f.message(), f.message().contains("but no cache ids record"));
    }
    assertEquals(r.format(), 2, r.count(Finding.Severity.ERROR));
  }

  @Test
  public void aPoolOrIdsRecordWithAKeyIsInconsistent() throws Exception {
    CacheSample cs = CacheSample.add(shm);
    RegionDamage.putLong(n.file, cs.pool + RC_KEY, 7);
    Finding f =
        CheckAssert.onlyError(judge("pool key 7"), Finding.Kind.BAD_CACHE_KEY, cs.pool + RC_KEY);
    assertTrue(f.message(), f.message().contains("key 7 is not 0"));
    RegionDamage.putLong(n.file, cs.pool + RC_KEY, 0);
    RegionDamage.putLong(n.file, cs.ids + RC_KEY, -1);
    CheckAssert.onlyError(judge("ids key -1"), Finding.Kind.BAD_CACHE_KEY, cs.ids + RC_KEY);
  }

  private static int indexOf(byte[] b, byte[] part) {
    outer:
    for (int i = 0; i + part.length <= b.length; i++) {
      for (int j = 0; j < part.length; j++) {
        if (b[i + j] != part[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError("not found");
  }

  /** A record written through the store in a batch of its own. */
  private long record(int type, long key, long value, byte[] payload) throws Exception {
    try (InodeStore s = shm.reopen("r");
        Txn t = s.begin()) {
      long page = t.createRecord(type, key, value, payload);
      t.commit();
      return page;
    }
  }

  /** A record's value set through the store, as the NameNode raises the next directive id. */
  private void setValue(long page, long value) throws Exception {
    try (InodeStore s = shm.reopen("r");
        Txn t = s.begin()) {
      t.setRecordValue(page, value);
      t.commit();
    }
  }

  /** A feature word: the bits, their complement above. */
  private static long features(int bits) {
    return (bits & 0xffffffffL) | (~bits & 0xffffffffL) << 32;
  }

  /**
   * A record written through the store; {@code raise}: with its counter raised to its key, as the
   * NameNode writes a token or a master key.
   */
  private long createRecord(int type, long key, byte[] payload, boolean raise) throws Exception {
    try (InodeStore s = shm.reopen("r");
        Txn t = s.begin()) {
      long page = t.createRecord(type, key, 0, payload);
      if (raise) {
        t.raiseCounter(type == RECORD_MASTER_KEY ? SB_MASTER_KEY_ID : SB_TOKEN_SEQUENCE, key);
      }
      t.commit();
      return page;
    }
  }

  private long put(long off, long v) throws Exception {
    RegionDamage.putLong(n.file, off, v);
    return off;
  }
}
