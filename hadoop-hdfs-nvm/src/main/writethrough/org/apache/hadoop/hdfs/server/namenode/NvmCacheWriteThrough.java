package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.protocol.CacheDirective;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.CacheDirectiveInfoProto;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.CachePoolInfoProto;
import org.apache.hadoop.hdfs.protocolPB.PBHelper;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.CacheManagerSection;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.PageCodec;
import org.apache.hadoop.hdfs.server.namenode.nvm.RecordView;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;

/**
 * The centralized cache manager's state in the region (region-format.md §5.5): one record per cache
 * pool (payload: the pool as {@code CachePoolInfoProto}, every field), one per cache directive
 * (key: its id; payload: the directive as {@code CacheDirectiveInfoProto}, expiry absolute), and
 * one {@code RECORD_CACHE_IDS} record whose value is the next directive id (the fsimage's {@code
 * CacheManagerSection.nextDirectiveId}). Each edit the stock NameNode logs for the cache manager is
 * one batch, with the RPC's retry entry, persisted under the namesystem write lock before the call
 * returns. A record holds the pool's or directive's whole state after the change, so a modify,
 * whose edit carries only the changed fields, replaces the record with one built from the cache
 * manager (the old record removed and the new one created in the same batch).
 *
 * <p>At a restart the records are replayed into the cache manager as 2.7.3 replays the add edits
 * ({@code addCachePool}, {@code addDirectiveFromEditLog}), which keeps a pool's maximum relative
 * expiry; 2.7.3's fsimage section drops it (its {@code saveState} does not write it).
 */
final class NvmCacheWriteThrough {
  private final InodeStore store;
  private final NvmWriteThrough ns;

  /** The RECORD_CACHE_IDS page, 0 until the first directive is added. */
  private long idsPage;

  private final Map<String, Long> pools = new HashMap<>();
  private final Map<Long, Long> directives = new HashMap<>();

  /** Directive id &rarr; its pool, to remove a pool's directives with it. */
  private final Map<Long, String> directivePool = new HashMap<>();

  private NvmCacheWriteThrough(InodeStore store, NvmWriteThrough ns) {
    this.store = store;
    this.ns = ns;
  }

  /** For a new region: no pools, no directives. */
  static NvmCacheWriteThrough empty(InodeStore store, NvmWriteThrough ns) {
    return new NvmCacheWriteThrough(store, ns);
  }

  /**
   * For a recovered region: the cache records back into {@code fsn}'s cache manager before the
   * NameNode serves. Refuses records that contradict each other (two pools of one name, two
   * directives of one id, a directive of a pool that has no record, a second id record).
   */
  static NvmCacheWriteThrough restore(
      FSNamesystem fsn, InodeStore store, NvmWriteThrough ns, long[] recordPages)
      throws IOException {
    NvmCacheWriteThrough c = new NvmCacheWriteThrough(store, ns);
    List<CachePoolInfoProto> poolList = new ArrayList<>();
    List<CacheDirectiveInfoProto> directiveList = new ArrayList<>();
    long nextId = 1;
    for (long page : recordPages) {
      RecordView r = store.record(page);
      switch (r.type()) {
        case RegionLayout.RECORD_CACHE_POOL:
          CachePoolInfoProto p = CachePoolInfoProto.parseFrom(r.payload());
          unique(c.pools.put(p.getPoolName(), page), page, "cache pool " + p.getPoolName());
          poolList.add(p);
          break;
        case RegionLayout.RECORD_CACHE_DIRECTIVE:
          CacheDirectiveInfoProto d = CacheDirectiveInfoProto.parseFrom(r.payload());
          if (d.getId() != r.key()) {
            throw new IOException(
                "NVM region: cache directive record page "
                    + page
                    + " has key "
                    + r.key()
                    + " but holds directive "
                    + d.getId());
          }
          unique(c.directives.put(d.getId(), page), page, "cache directive " + d.getId());
          c.directivePool.put(d.getId(), d.getPool());
          directiveList.add(d);
          break;
        case RegionLayout.RECORD_CACHE_IDS:
          if (c.idsPage != 0) {
            throw new IOException(
                "NVM region: record pages " + c.idsPage + " and " + page + " both hold cache ids");
          }
          c.idsPage = page;
          nextId = r.value();
          break;
        default: // the secret manager's and the retry log's
      }
    }
    CacheManager cm = fsn.getCacheManager();
    cm.loadState(
        new CacheManager.PersistState(
            CacheManagerSection.newBuilder()
                .setNextDirectiveId(nextId)
                .setNumPools(0)
                .setNumDirectives(0)
                .build(),
            Collections.<CachePoolInfoProto>emptyList(),
            Collections.<CacheDirectiveInfoProto>emptyList()));
    for (CachePoolInfoProto p : poolList) {
      cm.addCachePool(PBHelper.convert(p));
    }
    for (CacheDirectiveInfoProto d : directiveList) {
      if (!c.pools.containsKey(d.getPool())) {
        throw new IOException(
            "NVM region: cache directive "
                + d.getId()
                + " names pool "
                + d.getPool()
                + ", which has no record");
      }
      cm.addDirectiveFromEditLog(PBHelper.convert(d));
    }
    return c;
  }

  private static void unique(Long other, long page, String what) throws IOException {
    if (other != null) {
      throw new IOException("NVM region: record pages " + other + " and " + page + " hold " + what);
    }
  }

  static byte[] encode(CachePoolInfo info) {
    return PBHelper.convert(info).toByteArray();
  }

  static byte[] encode(CacheDirectiveInfo info) {
    return PBHelper.convert(info).toByteArray();
  }

  // ---- import (NvmImportWriter) and its verification

  /** The cache manager's pools, every field (2.7.3's own saveState drops maxRelativeExpiry). */
  private static List<byte[]> poolPayloads(CacheManager cm) {
    List<byte[]> out = new ArrayList<>();
    for (CachePool p : cm.getCachePools()) {
      out.add(encode(p.getInfo(true)));
    }
    return out;
  }

  private static Map<Long, byte[]> directivePayloads(CacheManager cm) {
    Map<Long, byte[]> out = new java.util.TreeMap<>();
    for (CacheDirective d : cm.getCacheDirectives()) {
      out.put(d.getId(), encode(d.toInfo()));
    }
    return out;
  }

  private static long nextId(CacheManager cm) throws IOException {
    return cm.saveState().section.getNextDirectiveId();
  }

  /** Pages the cache manager's state takes as records (the import's room check). */
  static long pages(FSNamesystem fsn) throws IOException {
    CacheManager cm = fsn.getCacheManager();
    long n = nextId(cm) > 1 ? 1 : 0; // the ids record, as importState writes it
    for (byte[] b : poolPayloads(cm)) {
      n += 1 + PageCodec.recordExtPages(b.length);
    }
    for (byte[] b : directivePayloads(cm).values()) {
      n += 1 + PageCodec.recordExtPages(b.length);
    }
    return n;
  }

  /**
   * Writes a stock namespace's cache pools and directives (loaded into {@code fsn} by the stock
   * loader) as records, {@link RecordBatches#RECORDS_PER_BATCH} per batch, and the next directive
   * id when it is past 1.
   */
  static void importState(InodeStore store, FSNamesystem fsn) throws IOException {
    CacheManager cm = fsn.getCacheManager();
    List<RecordBatches.Stage> records = new ArrayList<>();
    long next = nextId(cm);
    if (next > 1) {
      records.add(t -> t.createRecord(RegionLayout.RECORD_CACHE_IDS, 0, next, new byte[0]));
    }
    for (byte[] b : poolPayloads(cm)) {
      records.add(t -> t.createRecord(RegionLayout.RECORD_CACHE_POOL, 0, 0, b));
    }
    for (Map.Entry<Long, byte[]> e : directivePayloads(cm).entrySet()) {
      records.add(
          t -> t.createRecord(RegionLayout.RECORD_CACHE_DIRECTIVE, e.getKey(), 0, e.getValue()));
    }
    RecordBatches.commitInBatches(store, records);
  }

  /** The cache manager's state as sorted lines: the next id, every pool and directive. */
  static List<String> describe(FSNamesystem fsn) throws IOException {
    CacheManager cm = fsn.getCacheManager();
    List<String> out = new ArrayList<>();
    out.add("cache next directive id " + nextId(cm));
    for (byte[] b : poolPayloads(cm)) {
      out.add("cache pool " + CachePoolInfoProto.parseFrom(b).toString().replace('\n', ' '));
    }
    for (byte[] b : directivePayloads(cm).values()) {
      out.add(
          "cache directive " + CacheDirectiveInfoProto.parseFrom(b).toString().replace('\n', ' '));
    }
    Collections.sort(out);
    return out;
  }

  /** The same lines from a region's cache records (opened read-only). */
  static List<String> describe(Region region) throws IOException {
    List<String> out = new ArrayList<>();
    long next = 1;
    for (long page : RecordView.scan(region)) {
      RecordView r = new RecordView(region, page);
      switch (r.type()) {
        case RegionLayout.RECORD_CACHE_IDS:
          next = r.value();
          break;
        case RegionLayout.RECORD_CACHE_POOL:
          out.add(
              "cache pool "
                  + CachePoolInfoProto.parseFrom(r.payload()).toString().replace('\n', ' '));
          break;
        case RegionLayout.RECORD_CACHE_DIRECTIVE:
          out.add(
              "cache directive "
                  + CacheDirectiveInfoProto.parseFrom(r.payload()).toString().replace('\n', ' '));
          break;
        default:
      }
    }
    out.add("cache next directive id " + next);
    Collections.sort(out);
    return out;
  }

  /** One batch: {@code op} and, for a call a client may retry, its retry entry. */
  private void persist(
      String what, boolean toLogRpcIds, int retryKind, long retryValue, RecordBatches.Stage op) {
    NvmRetryLog log = ns.retryLog();
    NvmRetryLog.Entry retry =
        toLogRpcIds && log != null ? log.forCurrentCall(retryKind, retryValue) : null;
    RecordBatches.persistOrStop(
        store,
        what,
        op,
        t -> {
          if (retry != null) {
            log.stage(t, retry);
          }
        });
  }

  /** The pool's whole state now (the edit of a modify carries only what changed). */
  private static CachePoolInfo currentPool(FSNamesystem fsn, String name) throws IOException {
    for (CachePool p : fsn.getCacheManager().getCachePools()) {
      if (p.getPoolName().equals(name)) {
        return p.getInfo(true);
      }
    }
    throw new IOException("cache pool " + name + " is not in the cache manager");
  }

  private static CacheDirectiveInfo currentDirective(FSNamesystem fsn, long id) throws IOException {
    for (CacheDirective d : fsn.getCacheManager().getCacheDirectives()) {
      if (d.getId() == id) {
        return d.toInfo();
      }
    }
    throw new IOException("cache directive " + id + " is not in the cache manager");
  }

  /** OP_ADD_CACHE_POOL. */
  void poolAdded(CachePoolInfo info, boolean toLogRpcIds) {
    String name = info.getPoolName();
    long[] page = new long[1];
    persist(
        "addCachePool " + name,
        toLogRpcIds,
        RegionLayout.RETRY_SUCCESS,
        0,
        t -> {
          if (pools.containsKey(name)) {
            throw new IOException("cache pool " + name + " is already stored");
          }
          page[0] =
              t.createRecord(
                  RegionLayout.RECORD_CACHE_POOL, 0, 0, encode(currentPool(ns.namesystem(), name)));
        });
    pools.put(name, page[0]);
  }

  /** OP_MODIFY_CACHE_POOL: the pool's record replaced by one of its whole state, in one batch. */
  void poolModified(CachePoolInfo info, boolean toLogRpcIds) {
    String name = info.getPoolName();
    long[] page = new long[1];
    persist(
        "modifyCachePool " + name,
        toLogRpcIds,
        RegionLayout.RETRY_SUCCESS,
        0,
        t -> {
          t.removeRecord(page(pools, name));
          page[0] =
              t.createRecord(
                  RegionLayout.RECORD_CACHE_POOL, 0, 0, encode(currentPool(ns.namesystem(), name)));
        });
    pools.put(name, page[0]);
  }

  /** OP_REMOVE_CACHE_POOL: the pool and, as 2.7.3 drops them with it, its directives. */
  void poolRemoved(String name, boolean toLogRpcIds) {
    List<Long> gone = new ArrayList<>();
    for (Map.Entry<Long, String> e : directivePool.entrySet()) {
      if (e.getValue().equals(name)) {
        gone.add(e.getKey());
      }
    }
    persist(
        "removeCachePool " + name,
        toLogRpcIds,
        RegionLayout.RETRY_SUCCESS,
        0,
        t -> {
          t.removeRecord(page(pools, name));
          for (long id : gone) {
            t.removeRecord(page(directives, id));
          }
        });
    pools.remove(name);
    for (long id : gone) {
      directives.remove(id);
      directivePool.remove(id);
    }
  }

  /** OP_ADD_CACHE_DIRECTIVE: the directive and the next id. */
  void directiveAdded(CacheDirectiveInfo info, boolean toLogRpcIds) {
    long id = info.getId();
    long[] page = new long[2];
    persist(
        "addCacheDirective " + id,
        toLogRpcIds,
        RegionLayout.RETRY_CACHE_DIRECTIVE,
        id,
        t -> {
          if (directives.containsKey(id)) {
            throw new IOException("cache directive " + id + " is already stored");
          }
          CacheDirectiveInfo now = currentDirective(ns.namesystem(), id);
          page[0] = t.createRecord(RegionLayout.RECORD_CACHE_DIRECTIVE, id, 0, encode(now));
          if (idsPage == 0) {
            page[1] = t.createRecord(RegionLayout.RECORD_CACHE_IDS, 0, id + 1, new byte[0]);
          } else {
            t.setRecordValue(idsPage, id + 1);
          }
        });
    directives.put(id, page[0]);
    directivePool.put(id, info.getPool());
    if (page[1] != 0) {
      idsPage = page[1];
    }
  }

  /** OP_MODIFY_CACHE_DIRECTIVE: the record replaced by one of the whole directive, one batch. */
  void directiveModified(CacheDirectiveInfo info, boolean toLogRpcIds) {
    long id = info.getId();
    String[] pool = new String[1];
    long[] page = new long[1];
    persist(
        "modifyCacheDirective " + id,
        toLogRpcIds,
        RegionLayout.RETRY_SUCCESS,
        0,
        t -> {
          CacheDirectiveInfo now = currentDirective(ns.namesystem(), id);
          pool[0] = now.getPool();
          t.removeRecord(page(directives, id));
          page[0] = t.createRecord(RegionLayout.RECORD_CACHE_DIRECTIVE, id, 0, encode(now));
        });
    directives.put(id, page[0]);
    directivePool.put(id, pool[0]);
  }

  /** OP_REMOVE_CACHE_DIRECTIVE. */
  void directiveRemoved(long id, boolean toLogRpcIds) {
    persist(
        "removeCacheDirective " + id,
        toLogRpcIds,
        RegionLayout.RETRY_SUCCESS,
        0,
        t -> t.removeRecord(page(directives, id)));
    directives.remove(id);
    directivePool.remove(id);
  }

  private static <K> long page(Map<K, Long> m, K key) throws IOException {
    Long p = m.get(key);
    if (p == null) {
      throw new IOException("no stored record for " + key);
    }
    return p;
  }

  /** Stored pools and directives (tests). */
  int poolCount() {
    return pools.size();
  }

  int directiveCount() {
    return directives.size();
  }
}
