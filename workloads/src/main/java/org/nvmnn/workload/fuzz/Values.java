package org.nvmnn.workload.fuzz;

import java.util.Random;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;

/**
 * The scalar arguments of calls: client names, permissions, replications, times, quotas, storage
 * policies, offsets. Each is a usual value mostly and, with the generator's probability, a hostile
 * one (zero, negative, huge, malformed, past the region's 232-byte string limit).
 */
final class Values {
  /** The client names; the first {@link #NORMAL_CLIENTS} are the usual ones. */
  static final String[] CLIENTS = {
    "fz-a",
    "fz-b",
    "fz-c",
    "",
    "fz\u0000nul",
    "fz-" + Text.repeat('c', 230),
    Text.repeat('k', 10000),
  };

  private static final int NORMAL_CLIENTS = 3;

  private static final String[] POLICIES = {
    "HOT", "COLD", "WARM", "ALL_SSD", "ONE_SSD", "LAZY_PERSIST"
  };

  private final Dice d;
  private final Random rnd;
  private final Model m;

  Values(Dice d, Model m) {
    this.d = d;
    this.rnd = d.rnd;
    this.m = m;
  }

  /** A client name: {@code usual} (if any) mostly, else one of the usual ones, or a hostile one. */
  String client(String usual) {
    if (d.hostile()) {
      return d.pick(CLIENTS);
    }
    if (usual != null && rnd.nextInt(10) > 0) {
      return usual;
    }
    return CLIENTS[rnd.nextInt(NORMAL_CLIENTS)];
  }

  /** The lease holder of an open file in the model, else a usual client name. */
  String holderOf(String p) {
    String hld = m.holder.get(p);
    return hld != null ? hld : CLIENTS[rnd.nextInt(NORMAL_CLIENTS)];
  }

  Integer perm() {
    if (!d.hostile()) {
      return d.pick(new Integer[] {0755, 0644, 0700, 0777, 0600, 0750});
    }
    return d.pick(new Integer[] {0, 01777, 07777, 0177777, 01000, 04755, rnd.nextInt(0x10000)});
  }

  Short replication() {
    if (!d.hostile()) {
      return (short) (1 + rnd.nextInt(3));
    }
    return d.pick(new Short[] {0, -1, 511, 512, 513, Short.MAX_VALUE, Short.MIN_VALUE});
  }

  Long time() {
    if (!d.hostile()) {
      // 2001-01-01 .. 2020-12-31: far from the run's own clock, so compared exactly
      return 978307200000L + (long) (rnd.nextDouble() * 631152000000L);
    }
    return d.pick(new Long[] {-1L, -2L, 0L, 1L, Long.MAX_VALUE, Long.MIN_VALUE, 4102444800000L});
  }

  Long quota() {
    if (!d.hostile()) {
      return d.pick(
          new Long[] {
            HdfsConstants.QUOTA_DONT_SET, HdfsConstants.QUOTA_RESET, 5L, 50L, 1L << 30, 3L << 20
          });
    }
    return d.pick(new Long[] {0L, 1L, 2L, -2L, Long.MIN_VALUE, Long.MAX_VALUE - 1, 1L << 62});
  }

  String policy() {
    if (!d.hostile()) {
      return d.pick(POLICIES);
    }
    return d.pick(new String[] {"", "hot", "NOPE", Text.repeat('P', 10000), "H\u0000OT", null});
  }

  /** An offset or length of getBlockLocations. */
  Long offset() {
    if (!d.hostile()) {
      return d.pick(new Long[] {0L, 0L, 1L, 100L, Long.MAX_VALUE});
    }
    return d.pick(new Long[] {-1L, Long.MIN_VALUE, 1L << 40});
  }
}
