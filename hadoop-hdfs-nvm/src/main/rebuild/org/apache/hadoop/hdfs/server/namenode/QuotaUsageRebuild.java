package org.apache.hadoop.hdfs.server.namenode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeView;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;
import org.apache.hadoop.hdfs.util.EnumCounters;

/**
 * The space used under every directory with a quota, computed from the pages during the rebuild
 * instead of by walking materialized files afterwards (the stock loader walks its in-heap tree;
 * here that would materialize every file). Same rules as the stock count: a directory is one name,
 * a file one name plus its size (an under-construction last block counted at the preferred block
 * size) times its replication, and type space for each replica's storage type under the effective
 * storage policy (the file's own, else the nearest ancestor's).
 *
 * <p>Directories must be added before their children (the recovery's breadth-first order); {@link
 * #finish} adds each directory's total into its parent's, deepest first.
 */
final class QuotaUsageRebuild {
  private static final Log LOG = LogFactory.getLog(QuotaUsageRebuild.class);
  private static final StorageType[] TYPES = StorageType.values();

  private final BlockStoragePolicySuite policies;
  private final LongLongMap ordinalOfId = new LongLongMap();
  private int count;
  private int[] parent = new int[64];
  private byte[] policy = new byte[64];
  private long[] names = new long[64];
  private long[] space = new long[64];
  private long[] typeSpace = new long[64 * TYPES.length];
  private final List<INodeDirectory> withQuota = new ArrayList<INodeDirectory>();
  private final List<Integer> withQuotaOrdinal = new ArrayList<Integer>();

  /** Storage types chosen per (policy, replication): the same few pairs recur for every file. */
  private final Map<Integer, int[]> chosen = new HashMap<Integer, int[]>();

  QuotaUsageRebuild(BlockStoragePolicySuite policies) {
    this.policies = policies;
  }

  /** Adds a directory; returns its ordinal. */
  int addDirectory(INodeDirectory d, long parentId) {
    int ord = count++;
    grow();
    int p = parentId == 0 ? -1 : ordinalOf(parentId);
    parent[ord] = p;
    byte local = d.getLocalStoragePolicyID();
    policy[ord] =
        p < 0
            ? d.getStoragePolicyID()
            : local != BlockStoragePolicySuite.ID_UNSPECIFIED ? local : policy[p];
    names[ord] = 1;
    ordinalOfId.put(d.getId(), ord);
    if (d.isQuotaSet()) {
      withQuota.add(d);
      withQuotaOrdinal.add(ord);
    }
    return ord;
  }

  /** A symlink counts one name and no space, as 2.7.3's INodeSymlink does. */
  void addSymlink(int p) {
    names[p] += 1;
  }

  void addFile(int p, InodeView v) {
    int n = v.blockCount();
    long size = 0;
    for (int i = 0; i < n; i++) {
      size +=
          (i == n - 1 && v.isUnderConstruction() && !v.lastBlockComplete())
              ? v.preferredBlockSize()
              : v.blockNumBytes(i);
    }
    int repl = v.replication();
    names[p] += 1;
    space[p] += size * repl;
    byte local = (byte) v.storagePolicy();
    byte effective = local != BlockStoragePolicySuite.ID_UNSPECIFIED ? local : policy[p];
    if (effective != BlockStoragePolicySuite.ID_UNSPECIFIED && size != 0) {
      int[] perType = chosen(effective, repl);
      for (int t = 0; t < TYPES.length; t++) {
        typeSpace[p * TYPES.length + t] += perType[t] * size;
      }
    }
  }

  /** Sums subtrees and sets the consumed space of every directory with a quota. */
  void finish() {
    for (int ord = count - 1; ord > 0; ord--) {
      int p = parent[ord];
      if (p >= 0) {
        names[p] += names[ord];
        space[p] += space[ord];
        for (int t = 0; t < TYPES.length; t++) {
          typeSpace[p * TYPES.length + t] += typeSpace[ord * TYPES.length + t];
        }
      }
    }
    for (int i = 0; i < withQuota.size(); i++) {
      INodeDirectory d = withQuota.get(i);
      int ord = withQuotaOrdinal.get(i);
      EnumCounters<StorageType> types = new EnumCounters<StorageType>(StorageType.class);
      for (int t = 0; t < TYPES.length; t++) {
        types.set(TYPES[t], typeSpace[ord * TYPES.length + t]);
      }
      QuotaCounts q = d.getQuotaCounts();
      if (Quota.isViolated(q.getNameSpace(), names[ord])
          || Quota.isViolated(q.getStorageSpace(), space[ord])) {
        LOG.warn(
            "Quota of "
                + d.getFullPathName()
                + " is exceeded in the region: namespace "
                + names[ord]
                + " of "
                + q.getNameSpace()
                + ", storage space "
                + space[ord]
                + " of "
                + q.getStorageSpace());
      }
      d.getDirectoryWithQuotaFeature().setSpaceConsumed(names[ord], space[ord], types);
    }
  }

  /**
   * The ordinal of a directory already added, to pass to {@link #addFile} for each of its files.
   */
  int ordinalOf(long dirId) {
    long o = ordinalOfId.get(dirId);
    if (o == LongLongMap.MISSING) {
      throw new IllegalStateException(
          "inode " + dirId + " is not a directory added before its children");
    }
    return (int) o;
  }

  private int[] chosen(byte policyId, int repl) {
    Integer key = (policyId & 0xff) << 16 | repl;
    int[] perType = chosen.get(key);
    if (perType == null) {
      perType = new int[TYPES.length];
      BlockStoragePolicy bsp = policies.getPolicy(policyId);
      for (StorageType t : bsp.chooseStorageTypes((short) repl)) {
        if (t.supportTypeQuota()) {
          perType[t.ordinal()]++;
        }
      }
      chosen.put(key, perType);
    }
    return perType;
  }

  private void grow() {
    if (count > parent.length) {
      int cap = parent.length * 2;
      parent = Arrays.copyOf(parent, cap);
      policy = Arrays.copyOf(policy, cap);
      names = Arrays.copyOf(names, cap);
      space = Arrays.copyOf(space, cap);
      typeSpace = Arrays.copyOf(typeSpace, cap * TYPES.length);
    }
  }
}
