package org.nvmnn.workload.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;

/**
 * The seeded source of calls. Each call is drawn by weight from every ClientProtocol method the
 * fuzzer knows (writes, reads, administration, the calls the NVM NameNode refuses by design) and
 * the fake DataNode's actions; its arguments are mostly ordinary (paths from the {@link Model}, the
 * fixed client names, usual permissions and sizes) and, with probability {@code hostile} each,
 * hostile: every one of the 256 byte values in names, names and paths at and past the length and
 * depth limits, reserved and malformed paths, huge, zero and negative numbers, users, groups and
 * client names around and far past the region's 232-byte string limit, odd callers, renames into
 * the own subtree, calls on deleted and open files. Tags on each call name its hostile features;
 * {@code skip} drops calls with a tag (a known bug), and drawing the next call again keeps the
 * random stream independent of the skipped ones only approximately, so a SKIP changes the sequence.
 *
 * <p>The sequence depends only on the seed and on the answers (which the two NameNodes must agree
 * on): follow-ups such as "write the block addBlock returned" are queued from answers. Every {@code
 * renewEvery} calls all client names renew their leases and the DataNode heartbeats, so leases and
 * the DataNode stay alive at any throughput above a few calls per second.
 */
final class Generator {
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

  private static final String[] USERS = {"fz-owner", "alice", "root"};
  private static final String[] GROUPS = {"fz-group", "supergroup", "staff"};
  private static final String[] POLICIES = {
    "HOT", "COLD", "WARM", "ALL_SSD", "ONE_SSD", "LAZY_PERSIST"
  };

  private final Random rnd;
  private final double hostile;
  private final int maxEntries;
  private final int renewEvery;
  private final Set<String> skip;
  final Model m = new Model();
  private final Deque<Op> followUps = new ArrayDeque<>();
  private final List<Entry> table = new ArrayList<>();
  private int totalWeight;
  private long seq;
  private long generated;

  /**
   * The newest xattrs the NameNodes agreed to set, as {path, name}: most removals and some sets
   * name one of them, so that removals, REPLACE and CREATE on an existing xattr happen.
   */
  private final List<String[]> xattrsSet = new ArrayList<>();

  private static final class Entry {
    final int weight;
    final Supplier<Op> make;

    Entry(int weight, Supplier<Op> make) {
      this.weight = weight;
      this.make = make;
    }
  }

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
    this.snapshotCalls = snapshotCalls;
    this.rnd = new Random(seed);
    this.hostile = hostile;
    this.maxEntries = maxEntries;
    this.renewEvery = renewEvery;
    this.skip = skip;
    this.snapshots = new SnapshotOps(rnd, this::dirOrAny, this::target, this::caller);
    buildTable();
    reset();
  }

  /** A fresh namespace: the model emptied, the standing directories queued. */
  void reset() {
    m.reset();
    xattrsSet.clear();
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
      for (String c : CLIENTS) {
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
      return shrinkNamespace();
    }
    int x = rnd.nextInt(totalWeight);
    for (Entry e : table) {
      x -= e.weight;
      if (x < 0) {
        return e.make.get();
      }
    }
    throw new IllegalStateException();
  }

  /**
   * The tags of a call, from its arguments: "nul" (a NUL character anywhere), "long-name" (a path
   * component over 255 UTF-8 bytes), "long-path" (over 7000 characters), "deep" (over 100 levels),
   * "reserved-path" (/.reserved/…), "odd-path" (relative, empty, "//", "/./", "/../", a trailing
   * slash), "long-client", "long-owner", "long-string" (a client name, user or group, or other
   * string over the region's 232-byte string limit), "long-caller" (a caller name past it),
   * "negative-length" (a block length below 0 written, reported or passed).
   */
  static Op autoTags(Op op) {
    for (int i = 0; i < op.args.length; i++) {
      Object a = op.args[i];
      if (a instanceof String[]) {
        for (String s : (String[]) a) {
          pathTags(op, s);
        }
      }
      if (!(a instanceof String)) {
        continue;
      }
      String s = (String) a;
      if (s.indexOf('\u0000') >= 0) {
        op.tag("nul");
      }
      String role = op.call.params[i].role();
      if (role == null) {
        continue;
      }
      if (role.equals("path")) {
        pathTags(op, s);
      } else if (utf8(s) > 232) {
        op.tag("long-" + role);
      }
    }
    if (op.caller >= 2) {
      op.tag("long-caller");
    }
    for (Object a : op.args) {
      if (a instanceof BlockRef && ((BlockRef) a).setLen != null && ((BlockRef) a).setLen < 0) {
        op.tag("negative-length");
      }
    }
    if ((op.call == Call.dnWrite && (Long) op.args[1] < 0)
        || (op.call == Call.fsync && (Long) op.args[3] < 0)) {
      op.tag("negative-length");
    }
    return op;
  }

  private static void pathTags(Op op, String s) {
    if (s == null) {
      return;
    }
    if (s.indexOf('\u0000') >= 0) {
      op.tag("nul");
    }
    if (s.length() > 7000) {
      op.tag("long-path");
    }
    if (s.startsWith("/.reserved")) {
      op.tag("reserved-path");
    }
    if (!Model.plain(s) && !s.startsWith("/.reserved")) {
      op.tag("odd-path");
    }
    int depth = 0;
    for (String c : s.split("/")) {
      depth++;
      if (utf8(c) > 255) {
        op.tag("long-name");
      }
    }
    if (depth > 100) {
      op.tag("deep");
    }
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
          followUps.add(addBlock(p0, (String) a[2]));
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
          followUps.add(addBlock(p0, (String) a[1]));
        }
        break;
      case addBlock:
        if (rnd.nextInt(100) < 85) {
          followUps.add(Op.of(Call.dnWrite, BlockRef.last(p0), writeLength()));
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
        xattrsSet.add(new String[] {p0, (String) a[1]});
        if (xattrsSet.size() > 64) {
          xattrsSet.remove(0);
        }
        break;
      case removeXAttr:
        xattrsSet.removeIf(x -> x[0].equals(p0) && x[1].equals(a[1]));
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
  void resync(java.util.Map<String, Canon> listing) {
    m.resync(listing);
    m.safeMode = false;
  }

  // ---------------------------------------------------------------- the table

  private void add(int weight, Supplier<Op> make) {
    table.add(new Entry(weight, make));
    totalWeight += weight;
  }

  /** The snapshot calls (made in the constructor: they draw from {@link #rnd}). */
  private final SnapshotOps snapshots;

  private final boolean snapshotCalls;

  private void buildTable() {
    // namespace writes
    add(110, this::create);
    add(70, () -> Op.of(Call.mkdirs, freshPath(), perm(), rnd.nextInt(5) > 0));
    add(45, () -> withFile(p -> addBlock(p, holderOf(p))));
    add(45, this::complete);
    add(20, this::append);
    add(8, this::abandonBlock);
    add(14, this::fsync);
    add(10, this::updateBlockForPipeline);
    add(5, this::updatePipeline);
    add(35, this::rename);
    add(35, this::rename2);
    add(45, this::delete);
    add(30, () -> Op.of(Call.setPermission, target(), perm()).as(caller()));
    add(30, this::setOwner);
    add(30, this::setTimes);
    add(25, () -> Op.of(Call.setReplication, target(), replication()).as(caller()));
    add(20, () -> Op.of(Call.setStoragePolicy, target(), policy()).as(caller()));
    add(25, this::setQuota);
    add(15, () -> Op.of(Call.recoverLease, openOrAny(), client(null)).as(caller()));
    add(8, () -> Op.of(Call.renewLease, client(null)));
    add(8, () -> Op.of(Call.dnHeartbeat));
    add(2, () -> Op.of(Call.dnReport));
    add(8, this::dnWriteStray);
    // reads
    add(45, () -> Op.of(Call.getFileInfo, target()).as(caller()));
    add(30, () -> Op.of(Call.getListing, dirOrAny(), startAfter(), rnd.nextBoolean()).as(caller()));
    add(18, () -> Op.of(Call.getContentSummary, dirOrAny()).as(caller()));
    add(22, () -> Op.of(Call.getBlockLocations, target(), offset(), offset()).as(caller()));
    add(6, () -> Op.of(Call.getPreferredBlockSize, target()).as(caller()));
    add(10, () -> Op.of(Call.isFileClosed, target()).as(caller()));
    add(4, () -> Op.of(Call.getFileLinkInfo, target()).as(caller()));
    add(3, () -> Op.of(Call.getStoragePolicies));
    add(2, () -> Op.of(Call.getServerDefaults));
    add(8, () -> Op.of(Call.getAclStatus, target()).as(caller()).tag("acl"));
    add(8, () -> Op.of(Call.getXAttrs, xattrTarget(), xattrNames()).as(caller()).tag("xattr"));
    add(5, () -> Op.of(Call.listXAttrs, xattrTarget()).as(caller()).tag("xattr"));
    add(3, () -> Op.of(Call.getLinkTarget, target()).as(caller()));
    add(6, () -> Op.of(Call.checkAccess, target(), pick(FsAction.values())).as(caller()));
    add(2, () -> Op.of(Call.getSnapshottableDirListing));
    if (snapshotCalls) {
      add(3, snapshots::diff);
      add(6, snapshots::read);
    } else {
      add(2, () -> Op.of(Call.getSnapshotDiffReport, dirOrAny(), "s1", "").as(caller()));
    }
    add(2, () -> Op.of(Call.getEZForPath, target()).as(caller()));
    add(2, () -> Op.of(Call.listEncryptionZones, 0L));
    add(2, () -> Op.of(Call.listCachePools, ""));
    add(2, () -> Op.of(Call.listCacheDirectives, 0L));
    add(3, () -> Op.of(Call.listCorruptFileBlocks, dirOrAny(), null).as(caller()));
    add(2, () -> Op.of(Call.getDelegationToken, pick(new String[] {"fz", "", null})));
    add(1, () -> Op.of(Call.renewDelegationToken));
    add(1, () -> Op.of(Call.cancelDelegationToken));
    add(2, () -> Op.of(Call.getCurrentEditLogTxid));
    add(2, () -> Op.of(Call.getDatanodeReport, pick(HdfsConstants.DatanodeReportType.values())));
    // administration
    add(
        2,
        () ->
            Op.of(
                    Call.setSafeMode,
                    pick(
                        new HdfsConstants.SafeModeAction[] {
                          HdfsConstants.SafeModeAction.SAFEMODE_ENTER,
                          HdfsConstants.SafeModeAction.SAFEMODE_GET,
                          HdfsConstants.SafeModeAction.SAFEMODE_LEAVE
                        }),
                    rnd.nextBoolean())
                .as(caller()));
    add(1, () -> Op.of(Call.saveNamespace).as(caller()).tag("admin"));
    add(1, () -> Op.of(Call.rollEdits).as(caller()).tag("admin"));
    add(1, () -> Op.of(Call.refreshNodes).as(caller()));
    add(
        2,
        () ->
            Op.of(Call.rollingUpgrade, pick(HdfsConstants.RollingUpgradeAction.values()))
                .as(caller()));
    // ACLs and xattrs (persisted since issue 25)
    add(12, () -> Op.of(Call.setAcl, target(), aclSpec(true)).as(caller()).tag("acl"));
    add(10, () -> Op.of(Call.modifyAclEntries, target(), aclSpec(false)).as(caller()).tag("acl"));
    add(6, () -> Op.of(Call.removeAclEntries, target(), aclRemoval()).as(caller()).tag("acl"));
    add(4, () -> Op.of(Call.removeDefaultAcl, target()).as(caller()).tag("acl"));
    add(5, () -> Op.of(Call.removeAcl, target()).as(caller()).tag("acl"));
    add(20, this::setXAttr);
    add(10, this::removeXAttr);
    // concat (persisted since issue 25)
    add(2, () -> Op.of(Call.concat, fileOrAny(), new String[] {fileOrAny(), fileOrAny()}));
    // centralized cache management (persisted as records since issue 25)
    add(1, () -> Op.of(Call.addCacheDirective, target(), "fz-pool"));
    add(1, () -> Op.of(Call.modifyCacheDirective, 1L, target()));
    add(1, () -> Op.of(Call.removeCacheDirective, 1L));
    add(1, () -> Op.of(Call.addCachePool, "fz-pool"));
    add(1, () -> Op.of(Call.modifyCachePool, "fz-pool"));
    add(1, () -> Op.of(Call.removeCachePool, "fz-pool"));
    // what the NVM NameNode refuses (it answers first; the stock NameNode only if it did not)
    add(2, () -> Op.of(Call.allowSnapshot, dirOrAny()).as(caller()));
    add(1, () -> Op.of(Call.disallowSnapshot, dirOrAny()).as(caller()));
    if (snapshotCalls) {
      add(3, snapshots::create);
      add(1, snapshots::rename);
      add(2, snapshots::delete);
    } else { // refused by the NVM NameNode
      add(2, () -> Op.of(Call.createSnapshot, dirOrAny(), pick(new String[] {"s1", null, ""})));
      add(1, () -> Op.of(Call.renameSnapshot, dirOrAny(), "s1", "s2"));
      add(1, () -> Op.of(Call.deleteSnapshot, dirOrAny(), "s1"));
    }
    add(2, () -> Op.of(Call.createSymlink, target(), freshPath(), perm(), true));
    add(2, () -> Op.of(Call.truncate, fileOrAny(), (long) rnd.nextInt(3), client(null)));
    add(1, () -> Op.of(Call.createEncryptionZone, dirOrAny(), "fz-key"));
    add(1, () -> Op.of(Call.getEditsFromTxid, 0L));
  }

  // ---------------------------------------------------------------- calls

  private Op create() {
    String client = client(null);
    String p = rnd.nextInt(8) == 0 && m.files.size() > 0 ? m.files.random(rnd) : freshPath();
    EnumSet<CreateFlag> flags;
    Set<String> tags = new HashSet<>();
    if (h()) {
      flags = randomFlags();
      tags.add("flags");
    } else {
      flags =
          rnd.nextInt(4) == 0
              ? EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE)
              : EnumSet.of(CreateFlag.CREATE);
    }
    Op op =
        Op.of(Call.create, p, perm(), client, flags, rnd.nextInt(4) > 0, replication(), blockSize())
            .as(caller());
    op.tags.addAll(tags);
    return op;
  }

  private Op append() {
    String p = rnd.nextInt(4) == 0 ? openOrAny() : fileOrAny();
    EnumSet<CreateFlag> f =
        h()
            ? randomFlags()
            : rnd.nextInt(4) == 0
                ? EnumSet.of(CreateFlag.APPEND, CreateFlag.NEW_BLOCK)
                : EnumSet.of(CreateFlag.APPEND);
    return Op.of(Call.append, p, client(null), f).as(caller());
  }

  private Op addBlock(String p, String client) {
    BlockRef prev = blockArg(p);
    FileRef id = fileIdArg(p);
    return Op.of(Call.addBlock, p, client, prev, id, rnd.nextInt(40) == 0).as(callerMostlySuper());
  }

  private Op complete() {
    return withFile(
        p ->
            Op.of(Call.complete, p, client(holderOf(p)), blockArg(p), fileIdArg(p))
                .as(callerMostlySuper()));
  }

  private Op abandonBlock() {
    return withFile(
        p -> Op.of(Call.abandonBlock, blockArg(p), fileIdArg(p), p, client(holderOf(p))));
  }

  private Op fsync() {
    return withFile(
        p ->
            Op.of(
                Call.fsync,
                p,
                fileIdArg(p),
                client(holderOf(p)),
                h()
                    ? pick(new Long[] {-1L, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 40})
                    : (long) rnd.nextInt(5000)));
  }

  private Op updateBlockForPipeline() {
    return withFile(p -> Op.of(Call.updateBlockForPipeline, blockArg(p), client(holderOf(p))));
  }

  private Op updatePipeline() {
    return withFile(
        p ->
            Op.of(
                Call.updatePipeline,
                client(holderOf(p)),
                blockArg(p),
                h() ? blockArg(p) : BlockRef.pipe(p),
                rnd.nextInt(8) > 0));
  }

  private Op rename() {
    String src = target();
    String dst = renameTarget(src);
    return Op.of(Call.rename, src, dst).as(caller());
  }

  private Op rename2() {
    String src = target();
    String dst = renameTarget(src);
    Options.Rename[] opts;
    switch (rnd.nextInt(5)) {
      case 0:
        opts = new Options.Rename[] {Options.Rename.OVERWRITE};
        break;
      case 1:
        opts = new Options.Rename[] {Options.Rename.NONE};
        break;
      case 2:
        opts = new Options.Rename[] {Options.Rename.NONE, Options.Rename.OVERWRITE};
        break;
      default:
        opts = new Options.Rename[0];
    }
    Op op = Op.of(Call.rename2, src, dst, opts).as(caller());
    if (Arrays.asList(opts).contains(Options.Rename.OVERWRITE) && m.open.contains(dst)) {
      op.tag("overwrite-open"); // onto a file under construction (its lease)
    }
    return op;
  }

  private String renameTarget(String src) {
    int k = rnd.nextInt(20);
    if (k == 0 && Model.plain(src) && !src.equals("/")) {
      return src + "/" + name(); // into its own subtree
    }
    if (k == 1) {
      return src; // onto itself
    }
    if (k == 2) {
      return Model.parent(src); // onto its parent
    }
    if (k <= 5) {
      return target(); // something that may exist
    }
    return freshPath();
  }

  private Op delete() {
    String p = rnd.nextInt(60) == 0 ? "/" : target();
    return Op.of(Call.delete, p, rnd.nextInt(4) > 0).as(caller());
  }

  private Op setOwner() {
    String user;
    String group;
    if (h()) {
      user = hostileName();
      group = rnd.nextBoolean() ? hostileName() : null;
    } else {
      int k = rnd.nextInt(3);
      user = k == 2 ? null : pick(USERS);
      group = k == 1 ? null : pick(GROUPS);
    }
    return Op.of(Call.setOwner, target(), user, group).as(caller());
  }

  private Op setTimes() {
    String p = target();
    Op op = Op.of(Call.setTimes, p, time(), time()).as(caller());
    if (m.isDir(p) && (Long) op.args[2] != -1L) {
      op.tag("dir-atime"); // a directory's access time
    }
    return op;
  }

  private Op setQuota() {
    StorageType type = rnd.nextInt(3) == 0 ? pick(StorageType.values()) : null;
    Op op = Op.of(Call.setQuota, dirOrAny(), quota(), quota(), type).as(callerMostlySuper());
    if (type != null) {
      // a storage-type quota: after a restart 2.7.3 caches the quota walk's running total as the
      // directory's usage (docs/bad-input.md), so stock refuses calls that fit
      op.tag("type-quota");
    }
    return op;
  }

  /** A write to a block that may not be the file's last (or of no file any more). */
  private Op dnWriteStray() {
    String p = fileOrAny();
    BlockRef b = h() ? blockArg(p) : BlockRef.last(p);
    return Op.of(Call.dnWrite, b, writeLength());
  }

  // ---------------------------------------------------------------- ACLs and xattrs

  private static final String[] ACL_NAMES = {"bob", "carol", "fz-user", "staff", "fz-group"};
  private static final String[] PERMS = {"rwx", "r-x", "rw-", "r--", "---", "-wx", "--x"};

  private Op setXAttr() {
    EnumSet<XAttrSetFlag> flags;
    if (h()) {
      flags = EnumSet.noneOf(XAttrSetFlag.class);
    } else {
      int k = rnd.nextInt(4);
      flags =
          k < 2
              ? EnumSet.of(XAttrSetFlag.CREATE)
              : k == 2
                  ? EnumSet.of(XAttrSetFlag.REPLACE)
                  : EnumSet.of(XAttrSetFlag.CREATE, XAttrSetFlag.REPLACE);
    }
    String[] x = !xattrsSet.isEmpty() && rnd.nextInt(4) == 0 ? setBefore() : null;
    return Op.of(
            Call.setXAttr,
            x != null ? x[0] : xattrTarget(),
            x != null ? x[1] : xattrName(),
            xattrValue(),
            flags)
        .as(caller())
        .tag("xattr");
  }

  private Op removeXAttr() {
    String[] x = !xattrsSet.isEmpty() && rnd.nextInt(3) > 0 ? setBefore() : null;
    return Op.of(Call.removeXAttr, x != null ? x[0] : xattrTarget(), x != null ? x[1] : xattrName())
        .as(caller())
        .tag("xattr");
  }

  private String[] setBefore() {
    return xattrsSet.get(rnd.nextInt(xattrsSet.size()));
  }

  /** Mostly a path of the model; sometimes the same through /.reserved/raw (raw xattrs). */
  private String xattrTarget() {
    String p = target();
    return rnd.nextInt(8) == 0 && Model.plain(p) ? "/.reserved/raw" + p : p;
  }

  /** An xattr name ({@link AttrArgs}): mostly a few user and trusted ones, so they meet again. */
  private String xattrName() {
    if (!h()) {
      int k = rnd.nextInt(10);
      return k < 4
          ? pick(new String[] {"user.fz", "user.a", "user.b"})
          : k < 6 ? "trusted.t" : k < 8 ? "user.x" + rnd.nextInt(40) : "raw.r";
    }
    switch (rnd.nextInt(10)) {
      case 0:
        return "security.hdfs.unreadable.by.superuser";
      case 1:
        return "security.s";
      case 2:
        return "system.sys";
      case 3:
        return "user.";
      case 4:
        return "USER.Upper";
      case 5:
        return "user." + hostileName();
      case 6:
        return "trusted." + Text.repeat('t', pick(new Integer[] {255, 1000, 16384, 16385}));
      case 7:
        return pick(new String[] {"bogus.x", "nodot"});
      case 8:
        return "user.a.b";
      default:
        return "raw." + name();
    }
  }

  private String xattrNames() {
    if (rnd.nextInt(3) > 0) {
      return null; // all
    }
    return h()
        ? pick(new String[] {"user.missing", "raw.r", "trusted.t,system.sys", "user.fz,user.fz"})
        : pick(new String[] {"user.fz", "user.fz,user.a", "trusted.t"});
  }

  /** An xattr value ({@link AttrArgs}): none, empty, short, long, and around the size limit. */
  private String xattrValue() {
    if (!h()) {
      return pick(new String[] {null, "", "0x0102", "\"text\"", "0sAAEC", "#100", "#3000"});
    }
    return pick(
        new String[] {
          "#16300", "#16380", "#16381", "#16382", "#16383", "#16384", "#16385", "#20000", "#100000"
        });
  }

  /** A name for an ACL entry, with ':', ',' and '%' escaped ({@link AttrArgs}). */
  private String aclName() {
    if (!h()) {
      return pick(ACL_NAMES);
    }
    return hostileName().replace("%", "%25").replace(":", "%3A").replace(",", "%2C");
  }

  private String aclEntry(boolean dflt, String type, String name) {
    return (dflt ? "default:" : "") + type + ":" + name + ":" + pick(PERMS);
  }

  /**
   * An ACL spec: for setAcl ({@code full}) the base entries, named ones, a mask, and default
   * entries now and then; for modifyAclEntries a few entries. Hostile: a base entry missing,
   * duplicates, more than the 32 entries an ACL may have, bad permissions or types, an empty spec.
   */
  private String aclSpec(boolean full) {
    List<String> e = new ArrayList<>();
    if (full) {
      e.add(aclEntry(false, "user", ""));
      e.add(aclEntry(false, "group", ""));
      e.add(aclEntry(false, "other", ""));
    }
    int named = rnd.nextInt(full ? 4 : 3) + (full ? 0 : 1);
    for (int i = 0; i < named; i++) {
      e.add(aclEntry(false, rnd.nextBoolean() ? "user" : "group", aclName()));
    }
    if (named > 0 && rnd.nextInt(3) == 0) {
      e.add(aclEntry(false, "mask", ""));
    }
    if (rnd.nextInt(3) == 0) {
      if (full || rnd.nextBoolean()) {
        e.add(aclEntry(true, "user", ""));
        e.add(aclEntry(true, "group", ""));
        e.add(aclEntry(true, "other", ""));
      }
      e.add(aclEntry(true, rnd.nextBoolean() ? "user" : "group", aclName()));
      if (rnd.nextBoolean()) {
        e.add(aclEntry(true, "mask", ""));
      }
    }
    if (h()) {
      switch (rnd.nextInt(6)) {
        case 0:
          e.remove(0); // a base entry missing (setAcl), or one named entry fewer
          break;
        case 1:
          e.add(e.get(0)); // a duplicate
          break;
        case 2:
          for (int i = 0; i < 33; i++) {
            e.add(aclEntry(false, "user", "u" + i)); // over the 32 entries of an ACL
          }
          break;
        case 3:
          e.add("user:bob:rwz");
          break;
        case 4:
          e.add("bogus::rwx");
          break;
        default:
          e.clear();
      }
    }
    return String.join(",", e);
  }

  private String aclRemoval() {
    List<String> e = new ArrayList<>();
    int n = 1 + rnd.nextInt(2);
    for (int i = 0; i < n; i++) {
      int k = rnd.nextInt(8);
      e.add(
          k == 0
              ? "mask:"
              : k == 1
                  ? "default:mask:"
                  : k == 2
                      ? pick(new String[] {"user:", "group:", "other:"}) // base: refused
                      : (k == 3 ? "default:" : "")
                          + (rnd.nextBoolean() ? "user:" : "group:")
                          + aclName());
    }
    return String.join(",", e);
  }

  private Op shrinkNamespace() {
    String victim = m.dirs.random(rnd);
    for (int i = 0; i < 3 && victim != null && victim.equals("/"); i++) {
      victim = m.dirs.random(rnd);
    }
    if (victim == null || victim.equals("/")) {
      victim = "/d";
    }
    // the top-level directory it is in
    String top = victim;
    while (!Model.parent(top).equals("/")) {
      top = Model.parent(top);
    }
    if (top.equals("/wide") || top.equals("/d")) {
      top = victim;
    }
    return Op.of(Call.delete, top, true);
  }

  // ---------------------------------------------------------------- arguments

  private boolean h() {
    return rnd.nextDouble() < hostile;
  }

  private <T> T pick(T[] a) {
    return a[rnd.nextInt(a.length)];
  }

  private int caller() {
    int k = rnd.nextInt(100);
    return k < 80 ? 0 : k < 92 ? 1 : k < 96 ? 2 : 3;
  }

  private int callerMostlySuper() {
    return rnd.nextInt(10) == 0 ? caller() : 0;
  }

  private String client(String usual) {
    if (h()) {
      return pick(CLIENTS);
    }
    if (usual != null && rnd.nextInt(10) > 0) {
      return usual;
    }
    return CLIENTS[rnd.nextInt(NORMAL_CLIENTS)];
  }

  private String holderOf(String p) {
    String hld = m.holder.get(p);
    return hld != null ? hld : CLIENTS[rnd.nextInt(NORMAL_CLIENTS)];
  }

  private interface PathOp {
    Op make(String p);
  }

  /** A call on an open file mostly, else any file. */
  private Op withFile(PathOp f) {
    String p = m.open.size() > 0 && rnd.nextInt(5) > 0 ? m.open.random(rnd) : fileOrAny();
    return f.make(p);
  }

  private String openOrAny() {
    return m.open.size() > 0 && rnd.nextInt(5) > 0 ? m.open.random(rnd) : target();
  }

  private String fileOrAny() {
    return m.files.size() > 0 && rnd.nextInt(8) > 0 ? m.files.random(rnd) : target();
  }

  private String dirOrAny() {
    return rnd.nextInt(8) > 0 ? m.dirs.random(rnd) : target();
  }

  /** A path to act on: mostly one that exists, sometimes a deleted one or a hostile one. */
  private String target() {
    int k = rnd.nextInt(100);
    if (k < 4 && !m.gone.isEmpty()) {
      return new ArrayList<>(m.gone).get(rnd.nextInt(m.gone.size()));
    }
    if (k < 4 + (int) (hostile * 40)) {
      return hostilePath();
    }
    if (k < 60 && m.files.size() > 0) {
      return m.files.random(rnd);
    }
    if (k < 97) {
      return m.dirs.random(rnd);
    }
    return freshPath();
  }

  /** A path that does not exist yet, mostly in an existing directory. */
  private String freshPath() {
    if (h() && rnd.nextInt(3) == 0) {
      return hostilePath();
    }
    String parent;
    int k = rnd.nextInt(100);
    if (k < 8) {
      parent = "/wide";
    } else if (k < 12 && !m.gone.isEmpty()) {
      parent = new ArrayList<>(m.gone).get(rnd.nextInt(m.gone.size())); // gone: fails
    } else {
      parent = m.dirs.random(rnd);
    }
    return Call.child(parent, name());
  }

  private String name() {
    seq++;
    return h() ? hostileName() : "n" + seq;
  }

  /** A name (also used for users and groups) built to hit a limit or a byte value. */
  private String hostileName() {
    seq++;
    String s = Long.toString(seq);
    switch (rnd.nextInt(12)) {
      case 0:
      case 1:
      case 2:
        return "b" + (char) rnd.nextInt(256) + s; // every byte value; 0 is NUL, 47 is '/'
      case 3:
        return s + Text.repeat('L', 255 - s.length()); // the component limit
      case 4:
        return s + Text.repeat('L', 256 - s.length()); // one past it
      case 5:
        return s + Text.repeat('\u65e5', (255 - s.length()) / 3 + rnd.nextInt(2)); // 3-byte chars
      case 6:
        {
          StringBuilder b = new StringBuilder(s);
          int n = (255 - s.length()) / 4 + rnd.nextInt(2);
          for (int i = 0; i < n; i++) {
            b.append("\ud83d\ude00"); // 4 bytes each
          }
          return b.toString();
        }
      case 7:
        return pick(
            new String[] {
              ".", "..", "...", ".snapshot", ".reserved", "a:b", " ", "-x", "*", "\\", "%2F", "~"
            });
      case 8:
        return "s\ud800" + s; // an unpaired surrogate (UTF-8 encoding makes it '?')
      case 9:
        {
          // around the region's 232-byte string limit, in ASCII and in 2-byte characters
          int len = pick(new Integer[] {231, 232, 233, 1000, 10000});
          return rnd.nextBoolean()
              ? s + Text.repeat('x', len - s.length())
              : s + Text.repeat('\u00e9', (len - s.length()) / 2 + 1);
        }
      case 10:
        {
          StringBuilder b = new StringBuilder("r");
          int n = 1 + rnd.nextInt(12);
          for (int i = 0; i < n; i++) {
            b.append((char) rnd.nextInt(0x10000));
          }
          return b.append(s).toString();
        }
      default:
        return "";
    }
  }

  private String hostilePath() {
    switch (rnd.nextInt(11)) {
      case 0:
        {
          int depth = pick(new Integer[] {20, 200, 998, 999, 1000, 1001});
          StringBuilder b = new StringBuilder("/deep");
          for (int i = 1; i < depth; i++) {
            b.append("/d");
          }
          return b.toString();
        }
      case 1:
        {
          int len = pick(new Integer[] {7999, 8000, 8001});
          StringBuilder b = new StringBuilder("/long");
          while (b.length() < len) {
            int room = len - b.length() - 1;
            b.append('/').append(Text.repeat('p', Math.min(200, Math.max(1, room))));
          }
          return b.substring(0, len);
        }
      case 2:
        return "rel/" + name();
      case 3:
        return m.dirs.random(rnd) + "/";
      case 4:
        return m.dirs.random(rnd) + "//" + "n" + (++seq);
      case 5:
        return m.dirs.random(rnd) + (rnd.nextBoolean() ? "/./" : "/../") + "n" + (++seq);
      case 6:
        return "/.reserved/.inodes/"
            + (16385 + rnd.nextInt(Math.max(1, (int) Math.min(seq + 3, 5000))))
            + (rnd.nextBoolean() ? "" : "/n" + (++seq));
      case 7:
        return "/.reserved/raw" + m.dirs.random(rnd);
      case 8:
        return "";
      case 9:
        return "/";
      default:
        return Call.child(m.dirs.random(rnd), hostileName());
    }
  }

  private Integer perm() {
    if (!h()) {
      return pick(new Integer[] {0755, 0644, 0700, 0777, 0600, 0750});
    }
    return pick(new Integer[] {0, 01777, 07777, 0177777, 01000, 04755, rnd.nextInt(0x10000)});
  }

  private Short replication() {
    if (!h()) {
      return (short) (1 + rnd.nextInt(3));
    }
    return pick(new Short[] {0, -1, 511, 512, 513, Short.MAX_VALUE, Short.MIN_VALUE});
  }

  private Long blockSize() {
    if (!h()) {
      return pick(new Long[] {1L << 20, 4L << 20, 128L << 20});
    }
    return pick(
        new Long[] {
          0L,
          1L,
          512L,
          (1L << 20) - 1,
          (1L << 20) + 1,
          Long.MAX_VALUE,
          -1L,
          Long.MIN_VALUE,
          1L << 40
        });
  }

  private Long time() {
    if (!h()) {
      // 2001-01-01 .. 2020-12-31: far from the run's own clock, so compared exactly
      return 978307200000L + (long) (rnd.nextDouble() * 631152000000L);
    }
    return pick(new Long[] {-1L, -2L, 0L, 1L, Long.MAX_VALUE, Long.MIN_VALUE, 4102444800000L});
  }

  private Long quota() {
    if (!h()) {
      return pick(
          new Long[] {
            HdfsConstants.QUOTA_DONT_SET, HdfsConstants.QUOTA_RESET, 5L, 50L, 1L << 30, 3L << 20
          });
    }
    return pick(new Long[] {0L, 1L, 2L, -2L, Long.MIN_VALUE, Long.MAX_VALUE - 1, 1L << 62});
  }

  private String policy() {
    if (!h()) {
      return pick(POLICIES);
    }
    return pick(new String[] {"", "hot", "NOPE", Text.repeat('P', 10000), "H\u0000OT", null});
  }

  private String startAfter() {
    if (rnd.nextInt(4) > 0) {
      return null;
    }
    return h() ? hostileName() : "n" + rnd.nextInt((int) Math.max(1, seq));
  }

  private Long offset() {
    if (!h()) {
      return pick(new Long[] {0L, 0L, 1L, 100L, Long.MAX_VALUE});
    }
    return pick(new Long[] {-1L, Long.MIN_VALUE, 1L << 40});
  }

  private Long writeLength() {
    if (!h()) {
      return pick(new Long[] {0L, 1L, 100L, 4096L, 1L << 20});
    }
    return pick(new Long[] {-1L, Long.MAX_VALUE, 128L << 20, (128L << 20) + 1});
  }

  private BlockRef blockArg(String p) {
    if (!h()) {
      return BlockRef.last(p);
    }
    switch (rnd.nextInt(7)) {
      case 0:
        return BlockRef.NULL;
      case 1:
        return BlockRef.last(p).shiftGs(-1);
      case 2:
        return BlockRef.last(p).shiftGs(1);
      case 3:
        return BlockRef.last(p).shiftId(1);
      case 4:
        return BlockRef.last(p).withLen(pick(new Long[] {-1L, 0L, Long.MAX_VALUE, 7L}));
      case 5:
        return BlockRef.last(m.files.size() > 0 ? m.files.random(rnd) : p);
      default:
        return BlockRef.literal(1073741825L + rnd.nextInt(50), 1001 + rnd.nextInt(50), 0);
    }
  }

  private FileRef fileIdArg(String p) {
    if (!h()) {
      return rnd.nextInt(5) == 0 ? FileRef.literal(0) : FileRef.of(p);
    }
    return pick(
        new FileRef[] {
          FileRef.literal(1),
          FileRef.literal(16385),
          FileRef.literal(Long.MAX_VALUE),
          FileRef.literal(-1),
          FileRef.of(m.files.size() > 0 ? m.files.random(rnd) : p)
        });
  }

  private EnumSet<CreateFlag> randomFlags() {
    EnumSet<CreateFlag> s = EnumSet.noneOf(CreateFlag.class);
    for (CreateFlag f : CreateFlag.values()) {
      if (rnd.nextInt(3) == 0) {
        s.add(f);
      }
    }
    return s;
  }

  /** The UTF-8 length of a string (for tests). */
  static int utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
