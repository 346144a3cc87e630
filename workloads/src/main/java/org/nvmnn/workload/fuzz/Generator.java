package org.nvmnn.workload.fuzz;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;

/**
 * The seeded source of calls. Each call is drawn by weight from the {@link CallTable}; its
 * arguments are mostly ordinary (paths from the {@link Model} by {@link PathChoice}, the fixed
 * client names, usual permissions and sizes of {@link Values}) and, with probability {@code
 * hostile} each, hostile: every one of the 256 byte values in names, names and paths at and past
 * the length and depth limits ({@link Names}, {@link PathChoice}), reserved and malformed paths,
 * huge, zero and negative numbers, users, groups and client names around and far past the region's
 * 232-byte string limit, odd callers, renames into the own subtree, calls on deleted and open
 * files. {@link BlockCalls}, {@link NamespaceCalls}, {@link AttrCalls} and {@link SnapshotOps}
 * build the calls of their family. Tags on each call name its hostile features ({@link CallTags});
 * {@code skip} drops calls with a tag (a known bug), and drawing the next call again keeps the
 * random stream independent of the skipped ones only approximately, so a SKIP changes the sequence.
 *
 * <p>The sequence depends only on the seed and on the answers (which the two NameNodes must agree
 * on): follow-ups such as "write the block addBlock returned" are queued from answers. Every {@code
 * renewEvery} calls all client names renew their leases and the DataNode heartbeats, so leases and
 * the DataNode stay alive at any throughput above a few calls per second. All pieces draw from one
 * {@link Dice}, in an order GeneratorSequenceTest holds to the seeds of record.
 */
final class Generator {
  private final Random rnd;
  private final int maxEntries;
  private final int renewEvery;
  private final Set<String> skip;
  private final boolean snapshotCalls;
  final Model m = new Model();
  private final Deque<Op> followUps = new ArrayDeque<>();
  private long generated;

  private final BlockCalls blocks;
  private final NamespaceCalls namespace;
  private final AttrCalls attrs;
  private final CallTable table;

  Generator(long seed, double hostile, int maxEntries, int renewEvery, Set<String> skip) {
    this(seed, hostile, maxEntries, renewEvery, skip, false);
  }

  /**
   * With {@code snapshotCalls} (SNAPSHOTS=1: the NVM NameNode's snapshot preview is on) the
   * snapshot calls come from {@link SnapshotOps} and every fresh start allows snapshots on /d;
   * without, the table is the one runs of record used (so their seeds give the same calls).
   */
  Generator(
      long seed,
      double hostile,
      int maxEntries,
      int renewEvery,
      Set<String> skip,
      boolean snapshotCalls) {
    Dice d = new Dice(seed, hostile);
    this.rnd = d.rnd;
    this.maxEntries = maxEntries;
    this.renewEvery = renewEvery;
    this.skip = skip;
    this.snapshotCalls = snapshotCalls;
    // none of these draws while being made: the first draw is that of the first call
    Names names = new Names(d);
    PathChoice paths = new PathChoice(d, m, names);
    Values values = new Values(d, m);
    this.blocks = new BlockCalls(d, m, paths, values);
    this.namespace = new NamespaceCalls(d, m, names, paths, values);
    this.attrs = new AttrCalls(d, names, paths);
    SnapshotOps snapshots = new SnapshotOps(rnd, paths::dirOrAny, paths::target, d::caller);
    this.table =
        new CallTable(d, names, paths, values, blocks, namespace, attrs, snapshots, snapshotCalls);
    reset();
  }

  /** A fresh namespace: the model emptied, the standing directories queued. */
  void reset() {
    m.reset();
    attrs.reset();
    followUps.clear();
    followUps.add(Op.of(Call.mkdirs, "/wide", 0755, true));
    followUps.add(Op.of(Call.mkdirs, "/d", 0777, true));
    if (snapshotCalls) {
      followUps.add(Op.of(Call.allowSnapshot, "/d")); // where most snapshot calls go (SnapshotOps)
    }
  }

  Op next() {
    generated++;
    if (renewEvery > 0 && generated % renewEvery == 0) {
      for (String c : Values.CLIENTS) {
        Op r = Op.of(Call.renewLease, c);
        if (allowed(autoTags(r))) {
          followUps.add(r);
        }
      }
      followUps.add(Op.of(Call.dnHeartbeat));
    }
    while (!followUps.isEmpty()) {
      Op f = autoTags(followUps.poll());
      if (allowed(f)) {
        return f;
      }
    }
    for (int attempt = 0; ; attempt++) {
      Op op = autoTags(draw());
      if (allowed(op) || attempt > 50) {
        return op;
      }
    }
  }

  private boolean allowed(Op op) {
    return Collections.disjoint(op.tags, skip);
  }

  private Op draw() {
    if (m.safeMode && rnd.nextInt(4) == 0) {
      return Op.of(Call.setSafeMode, HdfsConstants.SafeModeAction.SAFEMODE_LEAVE, false);
    }
    if (m.size() > maxEntries && rnd.nextInt(3) == 0) {
      return namespace.shrink();
    }
    return table.draw();
  }

  /** The call with the tags its arguments call for ({@link CallTags}). */
  static Op autoTags(Op op) {
    return CallTags.add(op);
  }

  /** Learns from the agreed answer (the stock one, or the NVM one when stock was not asked). */
  void observe(Op op, Outcome o) {
    if (o == null || o.isException()) {
      return;
    }
    Object[] a = op.args;
    String p0 = a.length > 0 && a[0] instanceof String ? (String) a[0] : null;
    switch (op.call) {
      case create:
        if (Model.plain(p0)) {
          m.removeSubtree(p0);
          m.addFile(p0, (String) a[2]);
        }
        if (rnd.nextInt(3) == 0) {
          followUps.add(blocks.addBlock(p0, (String) a[2]));
        }
        break;
      case mkdirs:
        if ("true".equals(o.value.get("value")) && Model.plain(p0)) {
          m.addDir(p0);
        }
        break;
      case append:
        if (Model.plain(p0)) {
          m.opened(p0, (String) a[1]);
        }
        if (rnd.nextInt(3) == 0) {
          followUps.add(blocks.addBlock(p0, (String) a[1]));
        }
        break;
      case addBlock:
        if (rnd.nextInt(100) < 85) {
          followUps.add(Op.of(Call.dnWrite, BlockRef.last(p0), blocks.writeLength()));
          if (rnd.nextInt(2) == 0) {
            followUps.add(Op.of(Call.complete, p0, a[1], BlockRef.last(p0), FileRef.of(p0)));
          }
        }
        break;
      case updateBlockForPipeline:
        if (rnd.nextInt(100) < 80) {
          String path = ((BlockRef) a[0]).path();
          followUps.add(
              Op.of(Call.updatePipeline, a[1], BlockRef.last(path), BlockRef.pipe(path), true));
        }
        break;
      case complete:
        if ("true".equals(o.value.get("value")) && Model.plain(p0)) {
          m.closed(p0);
        }
        break;
      case recoverLease:
        if ("true".equals(o.value.get("value")) && Model.plain(p0)) {
          m.closed(p0);
        }
        break;
      case delete:
        if ("true".equals(o.value.get("value")) && Model.plain(p0)) {
          m.removeSubtree(p0);
        }
        break;
      case rename:
        if ("true".equals(o.value.get("value")) && Model.plain(p0) && Model.plain((String) a[1])) {
          String dst = (String) a[1];
          m.move(p0, m.isDir(dst) ? Call.child(dst, p0) : dst);
        }
        break;
      case rename2:
        if (Model.plain(p0) && Model.plain((String) a[1])) {
          m.move(p0, (String) a[1]);
        }
        break;
      case setXAttr:
        attrs.wasSet(p0, (String) a[1]);
        break;
      case removeXAttr:
        attrs.wasRemoved(p0, (String) a[1]);
        break;
      case setSafeMode:
        HdfsConstants.SafeModeAction act = (HdfsConstants.SafeModeAction) a[0];
        if (act == HdfsConstants.SafeModeAction.SAFEMODE_ENTER) {
          m.safeMode = true;
        } else if (act == HdfsConstants.SafeModeAction.SAFEMODE_LEAVE) {
          m.safeMode = false;
        }
        break;
      default:
        break;
    }
  }

  /** After a restart: the namespace as listed; the NameNodes come back out of safe mode. */
  void resync(Map<String, Canon> listing) {
    m.resync(listing);
    m.safeMode = false;
  }
}
