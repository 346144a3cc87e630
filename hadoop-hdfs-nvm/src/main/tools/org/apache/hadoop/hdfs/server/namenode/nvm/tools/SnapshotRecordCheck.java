package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.DiffEntryFormat;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;

/**
 * The snapshot records (region-format.md §13) against the tree and each other, without parsing
 * their protobuf parts (the tools load no Hadoop class): what the writer never leaves is a {@link
 * Finding.Kind#BAD_SNAPSHOT_RECORD} — a snapshot record in a region without FEATURE_SNAPSHOTS,
 * whose id is outside 2.7.3's 24-bit range or not below the counter, whose directory is not an
 * attached directory that allows snapshots, or with an empty payload; a counter record with a key
 * other than 0, a second one, or none while snapshots exist; a diff record whose inode is not
 * attached, or whose head is shorter than its count says (a diff list may be empty and outlive
 * every snapshot: 2.7.3 keeps an inode's snapshot feature once added); a reference there naming an
 * inode that is not attached; a current reference whose inode is not attached or whose page's
 * parent is not the directory the record names; a deleted-list id that is not an attached inode
 * whose parent is the record's directory; a diff (a RECORD_DIFF) shorter than its 8-byte head, of a
 * snapshot id outside 2.7.3's range, or of an inode that is not attached or has no diff record. Two
 * records of one snapshot id or one inode are {@link Finding.Kind#DUPLICATE_RECORD_KEY}s ({@link
 * RecordCheck}).
 */
final class SnapshotRecordCheck {
  /** 2.7.3's snapshot ids are 24 bits (SnapshotManager's limit). */
  static final long MAX_SNAPSHOT_ID = (1L << 24) - 1;

  private final RegionModel m;
  private final List<Finding> out;
  private long counterPage = -1;
  private long maxSnapshotId = -1;
  private long firstSnapshotPage = -1;

  SnapshotRecordCheck(RegionModel m, List<Finding> out) {
    this.m = m;
    this.out = out;
  }

  private void bad(long at, RecordPage r, String why) {
    out.add(new Finding(Finding.Kind.BAD_SNAPSHOT_RECORD, at, r.describe() + ": " + why));
  }

  void snapshot(RecordPage r) {
    if (!m.image.hasSnapshots()) {
      bad(r.page + RC_TYPE, r, "a snapshot in a region without FEATURE_SNAPSHOTS");
    }
    if (r.key() < 0 || r.key() > MAX_SNAPSHOT_ID) {
      bad(r.page + RC_KEY, r, "snapshot id " + r.key() + " is outside 0.." + MAX_SNAPSHOT_ID);
    }
    maxSnapshotId = Math.max(maxSnapshotId, r.key());
    if (firstSnapshotPage < 0) {
      firstSnapshotPage = r.page;
    }
    long dir = r.value() == 0 ? LongLongMap.MISSING : m.attachedPageOfId(r.value());
    if (dir == LongLongMap.MISSING) {
      bad(r.page + RC_VALUE, r, "its directory, inode " + r.value() + ", is not attached");
    } else if (!m.inode(dir).isDirectory()
        || (m.inode(dir).snapshotWord() & DI_SNAPSHOTTABLE) == 0) {
      bad(
          r.page + RC_VALUE,
          r,
          Paths.describe(m, dir) + " is not a directory that allows snapshots (DI_SNAPSHOT)");
    }
    if (r.length() == 0) {
      bad(r.page + RC_LEN, r, "an empty payload (the snapshot's root copy is missing)");
    }
  }

  void counter(RecordPage r) {
    if (r.key() != 0) {
      bad(r.page + RC_KEY, r, "key " + r.key() + ", not 0");
    }
    if (r.value() < 0 || r.value() > MAX_SNAPSHOT_ID + 1) {
      bad(r.page + RC_VALUE, r, "counter " + r.value() + " is outside 2.7.3's id range");
    }
    if (counterPage >= 0) {
      bad(r.page + RC_TYPE, r, "a second snapshot counter record besides page " + counterPage);
      return;
    }
    counterPage = r.page;
  }

  /** The inodes with a diff record (a diff entry's directory must be one). */
  private final LongLongMap withDiffs = new LongLongMap();

  /** The diff entry records, for the check against the diff records in {@link #finish}. */
  private final LongList entryPages = new LongList();

  void diffs(RecordPage r) {
    withDiffs.put(r.key(), r.page);
    long owner = r.key() == 0 ? LongLongMap.MISSING : m.attachedPageOfId(r.key());
    if (owner == LongLongMap.MISSING) {
      bad(r.page + RC_KEY, r, "inode " + r.key() + " is not attached");
      return;
    }
    DiffRecordHeader h = DiffRecordHeader.decode(r.payload());
    if (h == null) {
      if (r.payload() != null) { // else a broken chain: ChainCheck's
        bad(r.page + RC_LEN, r, "the payload is shorter than its deleted-list count says");
      }
      return;
    }
    for (long id : h.referred) {
      if (id == 0 || m.attachedPageOfId(id) == LongLongMap.MISSING) {
        bad(
            r.page + RC_PAYLOAD,
            r,
            "a reference in its deleted lists names inode " + id + ", which is not attached");
      }
    }
    for (long id : h.deleted) {
      long page = id == 0 ? LongLongMap.MISSING : m.attachedPageOfId(id);
      if (page == LongLongMap.MISSING) {
        bad(
            r.page + RC_PAYLOAD,
            r,
            "its deleted list names inode " + id + ", which is not attached");
      } else {
        underItsDirectory(r, page, "its deleted list");
      }
    }
  }

  /** A deleted inode's page keeps the directory whose deleted list holds it as its parent. */
  private void underItsDirectory(RecordPage r, long page, String what) {
    if (m.inode(page).parentId() != r.key()) {
      bad(
          r.page + RC_PAYLOAD,
          r,
          what
              + " names "
              + Paths.describe(m, page)
              + ", whose parent is inode "
              + m.inode(page).parentId()
              + ", not "
              + r.key());
    }
  }

  /**
   * A current reference: its inode is attached and its page's parent is the directory the record
   * names (the rename that made the reference moved the page there).
   */
  void reference(RecordPage r) {
    long page = r.key() == 0 ? LongLongMap.MISSING : m.attachedPageOfId(r.key());
    if (page == LongLongMap.MISSING) {
      bad(r.page + RC_KEY, r, "inode " + r.key() + " is not attached");
    } else if (m.inode(page).parentId() != r.value()) {
      bad(
          r.page + RC_VALUE,
          r,
          "its directory is inode "
              + r.value()
              + ", but "
              + Paths.describe(m, page)
              + " has parent "
              + m.inode(page).parentId());
    }
    if (r.length() == 0) {
      bad(r.page + RC_LEN, r, "an empty payload (the reference is missing)");
    }
  }

  /**
   * A diff entry (one child's entries in a directory's diff lists): a payload of entries, its
   * directory an attached directory, its child an attached inode (a created child is current or in
   * a later deleted list, a deleted one keeps its page), a deleted inode's page under the
   * directory; that the directory has a diff record is checked in {@link #finish}.
   */
  void entry(RecordPage r) {
    entryPages.add(r.page);
    java.util.List<DiffEntryFormat.Entry> entries;
    try {
      entries = DiffEntryFormat.decode(r.payload());
    } catch (java.io.IOException e) {
      if (r.payload() != null) { // else a broken chain: ChainCheck's
        bad(r.page + RC_LEN, r, "the payload is not a list of entries: " + e.getMessage());
      }
      return;
    }
    long dir = r.key() == 0 ? LongLongMap.MISSING : m.attachedPageOfId(r.key());
    if (dir == LongLongMap.MISSING || !m.inode(dir).isDirectory()) {
      bad(r.page + RC_KEY, r, "its directory, inode " + r.key() + ", is not an attached directory");
    }
    long child = r.value() == 0 ? LongLongMap.MISSING : m.attachedPageOfId(r.value());
    if (child == LongLongMap.MISSING) {
      bad(r.page + RC_VALUE, r, "its child, inode " + r.value() + ", is not attached");
      return;
    }
    for (DiffEntryFormat.Entry e : entries) {
      if (e.snapshotId < 0 || e.snapshotId > MAX_SNAPSHOT_ID) {
        bad(r.page + RC_PAYLOAD, r, "an entry of snapshot id " + e.snapshotId);
      }
      if (e.kind == DiffEntryFormat.DELETED) {
        underItsDirectory(r, child, "a deleted entry");
      }
    }
  }

  /** The diff records, for the check against the diff records' heads in {@link #finish}. */
  private final LongList diffPages = new LongList();

  /**
   * A diff (one inode's diff of one snapshot): an 8-byte head before its protobuf part, a snapshot
   * id in 2.7.3's range, its inode attached; that the inode has a diff record is checked in {@link
   * #finish}.
   */
  void diff(RecordPage r) {
    diffPages.add(r.page);
    if (r.payload() != null && r.payload().length < 8) {
      bad(r.page + RC_LEN, r, "a payload of " + r.payload().length + " bytes, not 8 or more");
    }
    if (r.value() < 0 || r.value() > MAX_SNAPSHOT_ID) {
      bad(r.page + RC_VALUE, r, "snapshot id " + r.value() + " is outside 0.." + MAX_SNAPSHOT_ID);
    }
    if (r.key() == 0 || m.attachedPageOfId(r.key()) == LongLongMap.MISSING) {
      bad(r.page + RC_KEY, r, "inode " + r.key() + " is not attached");
    }
  }

  /** After every record: the counter against the snapshots. */
  void finish() {
    for (int i = 0; i < diffPages.size(); i++) {
      RecordPage d = m.record(diffPages.get(i));
      if (!withDiffs.containsKey(d.key())) {
        bad(d.page + RC_KEY, d, "its inode, " + d.key() + ", has no diff record");
      }
    }
    for (int i = 0; i < entryPages.size(); i++) {
      RecordPage e = m.record(entryPages.get(i));
      if (!withDiffs.containsKey(e.key())) {
        bad(e.page + RC_KEY, e, "its directory, inode " + e.key() + ", has no diff record");
      }
    }
    if (counterPage >= 0 && maxSnapshotId >= m.record(counterPage).value()) {
      RecordPage c = m.record(counterPage);
      bad(
          c.page + RC_VALUE,
          c,
          "counter "
              + c.value()
              + " is not above snapshot id "
              + maxSnapshotId
              + "; the NameNode would hand that id out again");
    }
    if (counterPage < 0 && firstSnapshotPage >= 0) {
      RecordPage s = m.record(firstSnapshotPage);
      bad(s.page + RC_TYPE, s, "a snapshot without a snapshot counter record");
    }
  }
}
