package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionIdentity;

/**
 * The header's identity and the superblock counters (as after an armed undo record's rollback), in
 * a fixed order.
 */
final class RegionCounters {
  private final Map<String, Object> values = new LinkedHashMap<String, Object>();

  RegionCounters(RegionModel m) {
    Region r = m.image.region();
    RegionIdentity id = r.identity();
    values.put("regionSize", r.size());
    values.put("pageSize", (long) PAGE_SIZE);
    values.put("pageCount", r.pageCount());
    values.put("namespaceId", (long) id.namespaceId());
    values.put("clusterId", id.clusterId());
    values.put("blockPoolId", id.blockPoolId());
    values.put("creationId", r.creationId());
    values.put("creationTime", r.creationTime());
    values.put("lastInodeId", m.image.counter(SB_LAST_INODE_ID));
    values.put("genstampV1", m.image.counter(SB_GENSTAMP_V1));
    values.put("genstampV2", m.image.counter(SB_GENSTAMP_V2));
    values.put("genstampV1Limit", m.image.counter(SB_GENSTAMP_V1_LIMIT));
    values.put("lastBlockId", m.image.counter(SB_LAST_BLOCK_ID));
    values.put("lastStringId", m.image.counter(SB_LAST_STRING_ID));
    values.put("lastTxId", m.image.counter(SB_LAST_TXID));
    values.put("commitSeq", m.image.counter(SB_COMMIT_SEQ));
    values.put("rootPage", m.image.counter(SB_ROOT_PAGE));
    values.put("lastRecordId", recordCounter(m, SB_LAST_RECORD_ID));
    values.put("tokenSequence", recordCounter(m, SB_TOKEN_SEQUENCE));
    values.put("masterKeyId", recordCounter(m, SB_MASTER_KEY_ID));
    values.put("undoArmed", m.image.undo().isArmed());
  }

  /**
   * A record counter's value; 0 in a region without the records feature, where nothing reads the
   * word and the next read-write open writes a checked 0 (so the dump does not change with it).
   */
  private static long recordCounter(RegionModel m, int off) {
    return m.image.hasRecords() ? m.image.counter(off) : 0;
  }

  /** "name=value" per counter. */
  List<String> lines() {
    List<String> out = new ArrayList<String>();
    for (Map.Entry<String, Object> e : values.entrySet()) {
      Object v = e.getValue();
      out.add(e.getKey() + "=" + (v instanceof String ? TextEscape.value((String) v) : v));
    }
    return out;
  }

  String json() {
    Json j = new Json();
    for (Map.Entry<String, Object> e : values.entrySet()) {
      Object v = e.getValue();
      if (v instanceof String) {
        j.put(e.getKey(), (String) v);
      } else if (v instanceof Boolean) {
        j.put(e.getKey(), (Boolean) v);
      } else {
        j.put(e.getKey(), (Long) v);
      }
    }
    return j.toString();
  }
}
