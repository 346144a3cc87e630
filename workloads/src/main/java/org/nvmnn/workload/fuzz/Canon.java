package org.nvmnn.workload.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveEntry;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolEntry;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.hdfs.protocol.CorruptFileBlocks;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.protocol.RollingUpgradeInfo;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;

/**
 * A result in a comparable form: an ordered list of named fields. Everything that should be equal
 * across the two NameNodes is kept as text (ids, lengths, generation stamps, owners, permissions,
 * the DataNode's uuid and storage ids, which the fake DataNode makes equal on both); times are kept
 * as {@link Time} fields and compared by {@link TimeWindows} (a time the NameNode took from its
 * clock cannot be equal across processes). What differs by construction is left out: block pool
 * ids, block tokens, DataNode heartbeat times.
 */
final class Canon {
  /** A time field. */
  static final class Time {
    final long t;

    Time(long t) {
      this.t = t;
    }

    @Override
    public String toString() {
      return "@" + t;
    }
  }

  final List<String> keys = new ArrayList<>();
  final List<Object> vals = new ArrayList<>();

  void put(String k, Object v) {
    keys.add(k);
    vals.add(v instanceof Time ? v : String.valueOf(v));
  }

  void time(String k, long t) {
    keys.add(k);
    vals.add(new Time(t));
  }

  int size() {
    return keys.size();
  }

  /** This entry without the named fields. */
  Canon without(String... names) {
    java.util.Set<String> drop = new java.util.HashSet<>(java.util.Arrays.asList(names));
    Canon c = new Canon();
    for (int i = 0; i < keys.size(); i++) {
      if (!drop.contains(keys.get(i))) {
        c.keys.add(keys.get(i));
        c.vals.add(vals.get(i));
      }
    }
    return c;
  }

  /**
   * This entry without what the DataNode's reports decide rather than the namespace: each block's
   * locations and corrupt flag (after a restart they follow the next block report, on either side).
   */
  Canon namespaceOnly() {
    Canon c = new Canon();
    for (int i = 0; i < keys.size(); i++) {
      String k = keys.get(i);
      if (!k.endsWith(".locs") && !k.endsWith(".corrupt")) {
        c.keys.add(k);
        c.vals.add(vals.get(i));
      }
    }
    return c;
  }

  /** The value of a field (a time as @millis), or null. */
  String get(String k) {
    int i = keys.indexOf(k);
    return i < 0 ? null : String.valueOf(vals.get(i));
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("{");
    for (int i = 0; i < keys.size(); i++) {
      if (i > 0) {
        b.append(", ");
      }
      b.append(keys.get(i)).append('=').append(vals.get(i));
    }
    return b.append('}').toString();
  }

  static Canon of(Object r) {
    Canon c = new Canon();
    add(c, "", r);
    return c;
  }

  static String name(byte[] bytes) {
    return Text.quote(new String(bytes, StandardCharsets.UTF_8));
  }

  static void add(Canon c, String k, Object r) {
    String p = k.isEmpty() ? "" : k + ".";
    if (r == null) {
      c.put(k.isEmpty() ? "value" : k, "null");
    } else if (r instanceof HdfsFileStatus) {
      status(c, p, (HdfsFileStatus) r);
    } else if (r instanceof LastBlockWithStatus) {
      LastBlockWithStatus l = (LastBlockWithStatus) r;
      add(c, p + "last", l.getLastBlock());
      add(c, p + "status", l.getFileStatus());
    } else if (r instanceof LocatedBlocks) {
      blocks(c, p, (LocatedBlocks) r);
    } else if (r instanceof LocatedBlock) {
      block(c, p, (LocatedBlock) r);
    } else if (r instanceof DirectoryListing) {
      DirectoryListing d = (DirectoryListing) r;
      c.put(p + "remaining", d.getRemainingEntries());
      HdfsFileStatus[] part = d.getPartialListing();
      c.put(p + "count", part.length);
      for (int i = 0; i < part.length; i++) {
        status(c, p + "e" + i + ".", part[i]);
      }
    } else if (r instanceof ContentSummary) {
      summary(c, p, (ContentSummary) r);
    } else if (r instanceof BlockStoragePolicy[]) {
      for (BlockStoragePolicy s : (BlockStoragePolicy[]) r) {
        c.put(p + "policy" + s.getId(), s.toString());
      }
    } else if (r instanceof FsServerDefaults) {
      FsServerDefaults d = (FsServerDefaults) r;
      c.put(
          p + "defaults",
          d.getBlockSize()
              + "/"
              + d.getBytesPerChecksum()
              + "/"
              + d.getWritePacketSize()
              + "/"
              + d.getReplication()
              + "/"
              + d.getFileBufferSize()
              + "/"
              + d.getEncryptDataTransfer()
              + "/"
              + d.getTrashInterval()
              + "/"
              + d.getChecksumType());
    } else if (r instanceof AclStatus) {
      AclStatus a = (AclStatus) r;
      c.put(p + "owner", Text.quote(a.getOwner()));
      c.put(p + "group", Text.quote(a.getGroup()));
      c.put(p + "sticky", a.isStickyBit());
      c.put(p + "entries", a.getEntries());
      c.put(p + "perm", a.getPermission() == null ? "null" : perm(a.getPermission()));
    } else if (r instanceof SnapshotDiffReport) {
      // its entries sorted: 2.7.3 lists them in the order of a hash map of the changed directories
      SnapshotDiffReport d = (SnapshotDiffReport) r;
      List<String> entries = new ArrayList<>();
      for (SnapshotDiffReport.DiffReportEntry e : d.getDiffList()) {
        entries.add(
            e.getType().getLabel()
                + " "
                + name(e.getSourcePath())
                + (e.getTargetPath() == null ? "" : " -> " + name(e.getTargetPath())));
      }
      Collections.sort(entries);
      c.put(p + "from", Text.quote(d.getFromSnapshot()));
      c.put(p + "to", Text.quote(d.getLaterSnapshotName()));
      for (int i = 0; i < entries.size(); i++) {
        c.put(p + "entry" + i, entries.get(i));
      }
      c.put(p + "entries", entries.size());
    } else if (r instanceof SnapshottableDirectoryStatus[]) {
      SnapshottableDirectoryStatus[] s = (SnapshottableDirectoryStatus[]) r;
      c.put(p + "count", s.length);
      for (int i = 0; i < s.length; i++) {
        c.put(p + i + ".path", s[i].getFullPath());
        c.put(p + i + ".snapshots", s[i].getSnapshotNumber() + "/" + s[i].getSnapshotQuota());
      }
    } else if (r instanceof BatchedEntries) {
      BatchedEntries<?> e = (BatchedEntries<?>) r;
      c.put(p + "size", e.size());
      c.put(p + "more", e.hasMore());
      for (int i = 0; i < e.size(); i++) {
        // a cache pool's or directive's settings; not their statistics, which the NameNode's
        // cache monitor updates in the background
        Object x = e.get(i);
        if (x instanceof CachePoolEntry) {
          CachePoolInfo info = ((CachePoolEntry) x).getInfo();
          c.put(
              p + i + ".pool",
              Text.quote(info.getPoolName())
                  + " "
                  + info.getOwnerName()
                  + " "
                  + info.getGroupName()
                  + " "
                  + info.getMode()
                  + " "
                  + info.getLimit()
                  + " "
                  + info.getMaxRelativeExpiryMs());
        } else if (x instanceof CacheDirectiveEntry) {
          CacheDirectiveInfo info = ((CacheDirectiveEntry) x).getInfo();
          c.put(
              p + i + ".directive",
              info.getId()
                  + " "
                  + Text.quote(String.valueOf(info.getPath()))
                  + " "
                  + info.getReplication()
                  + " "
                  + Text.quote(info.getPool())
                  + " "
                  + expiry(info.getExpiration()));
        }
      }
    } else if (r instanceof CorruptFileBlocks) {
      CorruptFileBlocks cf = (CorruptFileBlocks) r;
      List<String> q = new ArrayList<>();
      for (String f : cf.getFiles()) {
        q.add(Text.quote(f));
      }
      // the cookie counts entries of the NameNode's replication queues, which its background
      // replication monitor changes: not compared
      c.put(p + "files", q);
    } else if (r instanceof RollingUpgradeInfo) {
      RollingUpgradeInfo u = (RollingUpgradeInfo) r;
      c.put(p + "started", u.isStarted());
      c.put(p + "finalized", u.isFinalized());
    } else if (r instanceof DatanodeInfo[]) {
      DatanodeInfo[] d = (DatanodeInfo[]) r;
      c.put(p + "count", d.length);
      for (int i = 0; i < d.length; i++) {
        c.put(p + i, d[i].getDatanodeUuid() + "/" + d[i].getAdminState());
      }
    } else if (r instanceof Collection) {
      List<String> n = new ArrayList<>();
      for (Object x : (Collection<?>) r) {
        n.add(x instanceof XAttr ? xattr((XAttr) x) : String.valueOf(x));
      }
      c.put(p + "list", n);
    } else if (r instanceof Boolean || r instanceof Number || r instanceof String) {
      c.put(k.isEmpty() ? "value" : k, r instanceof String ? Text.quote((String) r) : r);
    } else if (r instanceof Canon) {
      Canon o = (Canon) r;
      for (int i = 0; i < o.size(); i++) {
        c.keys.add(p + o.keys.get(i));
        c.vals.add(o.vals.get(i));
      }
    } else {
      // a type without an explicit rule: its class only (toString may carry identity hashes)
      c.put(p + "class", r.getClass().getName());
    }
  }

  /** "USER.name" and, if it has a value, "=0x" and the value in hex (names quoted if odd). */
  static String xattr(XAttr x) {
    StringBuilder b = new StringBuilder(x.getNameSpace() + "." + Text.quote(x.getName()));
    byte[] v = x.getValue();
    if (v != null) {
      b.append("=0x");
      for (byte c : v) {
        b.append(Character.forDigit((c >> 4) & 15, 16)).append(Character.forDigit(c & 15, 16));
      }
    }
    return b.toString();
  }

  /**
   * An entry's attributes, as the superuser reads them: its ACL entries (getAclStatus), its xattrs
   * with their values (getXAttrs) and its raw xattrs (getXAttrs through /.reserved/raw).
   */
  static void attributes(Canon c, String p, AclStatus acl, List<XAttr> xattrs, List<XAttr> raw) {
    c.put(p + "acl", acl.getEntries());
    List<String> x = new ArrayList<>();
    for (XAttr a : xattrs == null ? java.util.Collections.<XAttr>emptyList() : xattrs) {
      x.add(xattr(a));
    }
    for (XAttr a : raw == null ? java.util.Collections.<XAttr>emptyList() : raw) {
      if (a.getNameSpace() == XAttr.NameSpace.RAW) {
        x.add(xattr(a));
      }
    }
    c.put(p + "xattrs", x);
  }

  static String perm(FsPermission p) {
    return String.format(
        "0%o%s%s",
        p.toShort() & 0xffff, p.getAclBit() ? "+acl" : "", p.getEncryptedBit() ? "+enc" : "");
  }

  static void status(Canon c, String p, HdfsFileStatus s) {
    c.put(p + "name", name(s.getLocalNameInBytes()));
    c.put(p + "type", s.isDir() ? "dir" : s.isSymlink() ? "symlink" : "file");
    c.put(p + "id", s.getFileId());
    c.put(p + "owner", Text.quote(s.getOwner()));
    c.put(p + "group", Text.quote(s.getGroup()));
    c.put(p + "perm", perm(s.getPermission()));
    c.time(p + "mtime", s.getModificationTime());
    c.time(p + "atime", s.getAccessTime());
    c.put(p + "len", s.getLen());
    c.put(p + "repl", s.getReplication());
    c.put(p + "blocksize", s.getBlockSize());
    c.put(p + "policy", s.getStoragePolicy());
    c.put(p + "children", s.getChildrenNum());
    if (s.isSymlink()) {
      c.put(p + "target", name(s.getSymlinkInBytes()));
    }
    c.put(p + "fe", s.getFileEncryptionInfo() != null);
    if (s instanceof HdfsLocatedFileStatus) {
      LocatedBlocks lbs = ((HdfsLocatedFileStatus) s).getBlockLocations();
      if (lbs != null) {
        blocks(c, p + "blocks.", lbs);
      }
    }
  }

  static void blocks(Canon c, String p, LocatedBlocks l) {
    c.put(p + "filelen", l.getFileLength());
    c.put(p + "uc", l.isUnderConstruction());
    c.put(p + "lastcomplete", l.isLastBlockComplete());
    List<LocatedBlock> bs = l.getLocatedBlocks();
    c.put(p + "count", bs.size());
    for (int i = 0; i < bs.size(); i++) {
      block(c, p + "b" + i + ".", bs.get(i));
    }
    if (l.getLastLocatedBlock() != null) {
      block(c, p + "last.", l.getLastLocatedBlock());
    }
  }

  static String block(ExtendedBlock b) {
    return b == null
        ? "null"
        : b.getBlockId() + "_" + b.getGenerationStamp() + "(" + b.getNumBytes() + ")";
  }

  static void block(Canon c, String p, LocatedBlock b) {
    if (b == null) {
      c.put(p.isEmpty() ? "block" : p.substring(0, p.length() - 1), "null");
      return;
    }
    c.put(p + "blk", block(b.getBlock()));
    c.put(p + "offset", b.getStartOffset());
    c.put(p + "corrupt", b.isCorrupt());
    List<String> locs = new ArrayList<>();
    DatanodeInfo[] dns = b.getLocations();
    String[] sids = b.getStorageIDs();
    StorageType[] types = b.getStorageTypes();
    for (int i = 0; i < dns.length; i++) {
      locs.add(
          dns[i].getDatanodeUuid()
              + ":"
              + (sids != null && i < sids.length ? sids[i] : "?")
              + ":"
              + (types != null && i < types.length ? types[i] : "?"));
    }
    c.put(p + "locs", locs);
    c.put(p + "cached", b.getCachedLocations().length);
  }

  static void summary(Canon c, String p, ContentSummary s) {
    c.put(p + "length", s.getLength());
    c.put(p + "files", s.getFileCount());
    c.put(p + "dirs", s.getDirectoryCount());
    c.put(p + "nsquota", s.getQuota());
    c.put(p + "consumed", s.getSpaceConsumed());
    c.put(p + "dsquota", s.getSpaceQuota());
    for (StorageType t : StorageType.values()) {
      c.put(p + "quota." + t, s.getTypeQuota(t));
      c.put(p + "consumed." + t, s.getTypeConsumed(t));
    }
  }

  /**
   * A directive's expiry: "never", or only that it is set: a relative expiry becomes a date from
   * each NameNode's own clock at the call, so the two dates differ by the calls' distance.
   */
  private static String expiry(CacheDirectiveInfo.Expiration e) {
    if (e == null) {
      return "-";
    }
    return e.getMillis() == CacheDirectiveInfo.Expiration.NEVER.getMillis() ? "never" : "set";
  }
}
