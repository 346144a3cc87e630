package org.apache.hadoop.hdfs.server.namenode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.permission.PermissionStatus;
import org.apache.hadoop.hdfs.protocol.QuotaExceededException;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;
import org.apache.hadoop.hdfs.server.namenode.snapshot.DirectoryWithSnapshotFeature;
import org.apache.hadoop.hdfs.server.namenode.snapshot.Snapshot;
import org.apache.hadoop.hdfs.util.Diff.ListType;
import org.apache.hadoop.hdfs.util.ReadOnlyList;

/**
 * A directory of the NVM NameNode: its children are a {@link ChildIndex} of (name, inode id)
 * entries, not a list of INode objects. A directory child's id is stored negated, so the entry
 * alone says where its object is (the resident directories or the file cache). A child's object is
 * asked of the {@link SlimNamespace} only when a caller takes it: a directory stays resident, a
 * file comes from the inode read cache or is materialized from its page. A name lookup is a binary
 * search on the bytes — a miss costs no page read and creates no object.
 *
 * <p>Every method of INodeDirectory that reads or changes the child list is answered from the index
 * (the stock private list stays null), so the stock FSDirectory / FSDir*Op code runs on these
 * directories unchanged. With snapshots (docs/snapshots.md) the stock snapshot code keeps its diff
 * lists on the directory's {@link DirectoryWithSnapshotFeature}: a read at a snapshot id and a
 * change of a directory in the latest snapshot take 2.7.3's snapshot branch, and each such change
 * is reported to the {@link SlimNamespace} so the write-through persists the diffs it made.
 */
final class NvmINodeDirectory extends INodeDirectory {
  /** Shared empty index until the first child (most directories of a deep tree are small). */
  private ChildIndex index = ChildIndex.EMPTY;

  private final SlimNamespace slim;

  NvmINodeDirectory(long id, byte[] name, PermissionStatus perm, long mtime, SlimNamespace slim) {
    super(id, name, perm, mtime);
    this.slim = slim;
  }

  /**
   * Takes over a directory the stock code created (attributes, features, parent and the children
   * linked to it so far, which are re-parented here). The old object is left without children or
   * parent.
   */
  NvmINodeDirectory(INodeDirectory plain, SlimNamespace slim) {
    super(plain, false, plain.getFeatures());
    this.slim = slim;
    super.clearChildren();
    for (INode c : plain.getChildrenList(Snapshot.CURRENT_STATE_ID)) {
      index().insert(index.size(), c.getLocalNameBytes(), entry(c));
      c.setParent(this);
    }
    plain.clearChildren();
    plain.setParent(null);
    // 2.7.3's copy constructor counted one more reference to a shared ACL feature; the plain
    // directory is dropped, so its reference goes back (else every inherited ACL stays mapped)
    AclFeature acl = plain.getAclFeature();
    if (acl != null) {
      AclStorage.removeAclFeature(acl);
    }
  }

  /** The index, to change: the shared empty one is replaced by a directory's own. */
  ChildIndex index() {
    if (index == ChildIndex.EMPTY) {
      index = new ChildIndex();
    }
    return index;
  }

  /**
   * Installs the children the recovery rebuild indexed in one go ({@link
   * ChildIndex#ofSortedPacked}); only for a directory that has none yet.
   */
  void setChildIndex(ChildIndex built) {
    if (index.size() != 0) {
      throw new IllegalStateException(
          "directory " + getId() + " already has " + index.size() + " children");
    }
    index = built.size() == 0 ? ChildIndex.EMPTY : built;
  }

  /** The index value of a child: its id, negated for a resident one (a directory, a symlink). */
  static long entry(INode child) {
    return entry(child.getId(), child.isDirectory() || child.isSymlink());
  }

  static long entry(long id, boolean resident) {
    return resident ? -id : id;
  }

  private static long idOf(long entry) {
    return entry < 0 ? -entry : entry;
  }

  // ---- lookups

  @Override
  int searchChildren(byte[] name) {
    return index.search(name);
  }

  /**
   * Reference children (a DstReference or WithName in the current list: a child renamed while a
   * snapshot held it), by referred inode id; the index entry holds only that id. Null while none.
   */
  private Map<Long, INodeReference> refs;

  /** Whether {@code n} is a current child here (by name and id), without loading any child. */
  boolean listsChild(INode n) {
    int i = index.search(n.getLocalNameBytes());
    return i >= 0 && idOf(index.id(i)) == n.getId();
  }

  private INode childAt(int i) {
    long id = idOf(index.id(i));
    if (refs != null) {
      INodeReference r = refs.get(id);
      if (r != null) {
        return r;
      }
    }
    return slim.child(index.id(i), this);
  }

  /** How many of {@link #refs} are DstReferences (what {@link #dstReferences} would list). */
  private int dstReferences;

  /** The reference child of referred inode {@code id}, or null. */
  INodeReference referenceChild(long id) {
    return refs == null ? null : refs.get(id);
  }

  int dstReferenceCount() {
    return dstReferences;
  }

  private void dropRef(long id) {
    if (refs != null && refs.remove(id) instanceof INodeReference.DstReference) {
      dstReferences--;
    }
  }

  /** The current children that are DstReferences (inodes renamed here out of a snapshot). */
  List<INodeReference> dstReferences() {
    if (refs == null) {
      return Collections.emptyList();
    }
    List<INodeReference> l = new ArrayList<INodeReference>();
    for (INodeReference r : refs.values()) {
      if (r instanceof INodeReference.DstReference) {
        l.add(r);
      }
    }
    return l;
  }

  /**
   * At a restart: the reference {@code r} stands for the child the rebuild indexed by its inode id
   * (the referred inode's page names this directory as its parent).
   */
  void attachReference(INodeReference r) {
    int pos = index.search(r.getLocalNameBytes());
    if (pos < 0 || idOf(index.id(pos)) != r.getId()) {
      throw new IllegalStateException(
          "directory "
              + getFullPathName()
              + " has no child "
              + r.getLocalName()
              + " (inode "
              + r.getId()
              + ") for its reference");
    }
    noteRef(r);
    r.setParent(this);
  }

  private void noteRef(INode n) {
    if (n.isReference()) {
      if (refs == null) {
        refs = new HashMap<>();
      }
      if (refs.put(n.getId(), n.asReference()) instanceof INodeReference.DstReference) {
        dstReferences--;
      }
      if (n instanceof INodeReference.DstReference) {
        dstReferences++;
      }
    }
  }

  @Override
  public INode getChild(byte[] name, int snapshotId) {
    DirectoryWithSnapshotFeature sf;
    if (snapshotId != Snapshot.CURRENT_STATE_ID
        && (sf = getDirectoryWithSnapshotFeature()) != null) {
      return sf.getChild(this, name, snapshotId);
    }
    int i = index.search(name);
    return i < 0 ? null : childAt(i);
  }

  @Override
  public ReadOnlyList<INode> getChildrenList(int snapshotId) {
    DirectoryWithSnapshotFeature sf;
    if (snapshotId != Snapshot.CURRENT_STATE_ID
        && (sf = getDirectoryWithSnapshotFeature()) != null) {
      return sf.getChildrenList(this, snapshotId);
    }
    return new ChildrenView();
  }

  /** The children as the stock read-only list: objects are taken one at a time, on get. */
  private final class ChildrenView implements ReadOnlyList<INode> {
    @Override
    public boolean isEmpty() {
      return index.size() == 0;
    }

    @Override
    public int size() {
      return index.size();
    }

    @Override
    public INode get(int i) {
      return childAt(i);
    }

    @Override
    public Iterator<INode> iterator() {
      return new Iterator<INode>() {
        private int next;

        @Override
        public boolean hasNext() {
          return next < index.size();
        }

        @Override
        public INode next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          return get(next++);
        }

        @Override
        public void remove() {
          throw new UnsupportedOperationException();
        }
      };
    }
  }

  // ---- changes: a directory in the latest snapshot changes through its snapshot feature, which
  // records the created or deleted child in the latest diff (2.7.3's branch)

  private DirectoryWithSnapshotFeature snapshotFeature() {
    DirectoryWithSnapshotFeature sf = getDirectoryWithSnapshotFeature();
    return sf != null ? sf : addSnapshotFeature(null);
  }

  @Override
  public boolean addChild(INode node, boolean setModTime, int latestSnapshotId)
      throws QuotaExceededException {
    if (index.search(node.getLocalNameBytes()) < 0 && isInLatestSnapshot(latestSnapshotId)) {
      slim.snapshotEntryChanged(this, node);
      boolean added = snapshotFeature().addChild(this, node, setModTime, latestSnapshotId);
      if (added && node.isFile()) {
        slim.cache().holdForSnapshot(node.asFile()); // the created list holds this object
      }
      return added;
    }
    if (!link(node)) {
      return false;
    }
    if (setModTime) {
      updateModificationTime(node.getModificationTime(), latestSnapshotId);
    }
    return true;
  }

  /** A symlink's pre-image goes into the latest diff's lists (a copy deleted, the link created). */
  @Override
  public INode saveChild2Snapshot(INode child, int latestSnapshotId, INode snapshotCopy) {
    INode saved = super.saveChild2Snapshot(child, latestSnapshotId, snapshotCopy);
    if (getDirectoryWithSnapshotFeature() != null) {
      slim.snapshotEntryChanged(this, child);
    }
    return saved;
  }

  /**
   * 2.7.3 records this directory's state in its latest diff from many places (an attribute change,
   * a parent's mtime, a delete's walk, a destroyed reference cleaning its referred inode): every
   * call that may have changed the diff list is reported, so the batch compares its record.
   */
  @Override
  public void recordModification(int latestSnapshotId) {
    super.recordModification(latestSnapshotId);
    if (latestSnapshotId != Snapshot.CURRENT_STATE_ID
        && getDirectoryWithSnapshotFeature() != null) {
      slim.snapshotHeadChanged(this); // a new diff or copy; the lists are unchanged
    }
  }

  @Override
  public boolean addChild(INode node) {
    return link(node);
  }

  private boolean link(INode node) {
    int pos = index.search(node.getLocalNameBytes());
    if (pos >= 0) {
      return false;
    }
    if (getDirectoryWithSnapshotFeature() != null || node.isReference()) {
      // 2.7.3's rename undo takes the child out of a list and adds it back this way; a reference
      // child has a record (NvmReferenceRecords) wherever it is
      slim.snapshotEntryChanged(this, node);
    }
    index().insert(-pos - 1, node.getLocalNameBytes(), entry(node));
    noteRef(node);
    node.setParent(this);
    if (node.getGroupName() == null) {
      node.setGroup(getGroupName()); // a new child without a group takes its directory's
    }
    return true;
  }

  @Override
  public boolean removeChild(INode child, int latestSnapshotId) {
    if (isInLatestSnapshot(latestSnapshotId)) {
      slim.snapshotEntryChanged(this, child);
      slim.snapshotHeadChanged(
          child); // now in the deleted list, with the diff its removal recorded
      return snapshotFeature().removeChild(this, child, latestSnapshotId);
    }
    return removeChild(child);
  }

  @Override
  public boolean removeChild(INode child) {
    int pos = index.search(child.getLocalNameBytes());
    if (pos < 0) {
      return false;
    }
    if (idOf(index.id(pos)) != child.getId()) {
      throw new IllegalStateException(
          "directory "
              + getFullPathName()
              + ": entry '"
              + child.getLocalName()
              + "' is inode "
              + idOf(index.id(pos))
              + ", not the inode "
              + child.getId()
              + " being removed");
    }
    index.remove(pos);
    dropRef(child.getId());
    if (getDirectoryWithSnapshotFeature() != null || child.isReference()) {
      slim.snapshotEntryChanged(this, child); // as link: the rename undo's other half
    }
    if (index.size() == 0) {
      index = ChildIndex.EMPTY;
    }
    return true;
  }

  @Override
  public void replaceChild(INode oldChild, INode newChild, INodeMap inodeMap) {
    int pos = index.search(newChild.getLocalNameBytes());
    if (pos < 0 || idOf(index.id(pos)) != oldChild.getId()) {
      throw new IllegalStateException(
          "directory "
              + getFullPathName()
              + " has no child "
              + oldChild.getLocalName()
              + " (inode "
              + oldChild.getId()
              + ") to replace");
    }
    INode old = childAt(pos);
    if (old.isReference() && newChild.isReference()) { // 2.7.3 drops the replaced reference
      ((INodeReference.WithCount) old.asReference().getReferredINode())
          .removeReference(old.asReference());
    }
    dropRef(old.getId());
    index.setId(pos, entry(newChild));
    noteRef(newChild);
    DirectoryWithSnapshotFeature sf = getDirectoryWithSnapshotFeature();
    if (sf != null) { // as 2.7.3: the latest created list names the new object
      sf.getDiffs().replaceChild(ListType.CREATED, old, newChild);
    }
    if (sf != null || old.isReference() || newChild.isReference()) {
      slim.snapshotEntryChanged(this, newChild);
    }
    newChild.setParent(this);
    if (inodeMap != null) {
      inodeMap.put(newChild);
    }
  }

  /**
   * A snapshot's deletion over this directory's current children (2.7.3 walks them all, under the
   * namesystem lock): a file child with no snapshot data changes nothing there ({@code
   * INodeFile.cleanSubtree} works only on the current state or through its
   * FileWithSnapshotFeature), and a file with snapshot data is pinned in the cache ({@link
   * InodeCache}), so only the resident children and the pinned files are visited; the others are
   * not materialized from their pages, which made a large tree's deletion several times slower than
   * 2.7.3's. A deletion over another list (the children at a snapshot, after this directory's
   * diffs) and a deletion of the current state take 2.7.3's walk.
   */
  @Override
  public QuotaCounts cleanSubtreeRecursively(
      BlockStoragePolicySuite bsps,
      int snapshot,
      int prior,
      INode.BlocksMapUpdateInfo collectedBlocks,
      List<INode> removedINodes,
      Map<INode, INode> excludedNodes) {
    int s =
        snapshot != Snapshot.CURRENT_STATE_ID && prior != Snapshot.NO_SNAPSHOT_ID
            ? prior
            : snapshot;
    if (snapshot == Snapshot.CURRENT_STATE_ID) {
      return cleanCurrentChildren(bsps, prior, collectedBlocks, removedINodes);
    }
    // a walk over a snapshot's state (a snapshot's deletion, or a destroyed reference cleaning
    // its referred inode up to the snapshot its old place holds): every inode visited is reported
    slim.snapshotChanged(this);
    slim.walkedDirectory();
    if (!(getChildrenList(s) instanceof ChildrenView)) {
      QuotaCounts counts =
          super.cleanSubtreeRecursively(
              bsps, snapshot, prior, collectedBlocks, removedINodes, excludedNodes);
      for (INode child : getChildrenList(s)) {
        slim.snapshotChanged(child);
      }
      return counts;
    }
    QuotaCounts counts = new QuotaCounts.Builder().build();
    for (int i = 0; i < index.size(); i++) {
      long entry = index.id(i);
      if (entry > 0 && (refs == null || !refs.containsKey(entry))) {
        if (slim.fileWithSnapshotDiffs(entry) == null) {
          continue; // no snapshot data: its cleanSubtree would change nothing
        }
      }
      INode child = childAt(i);
      if (excludedNodes != null && excludedNodes.containsKey(child)) {
        continue;
      }
      slim.snapshotChanged(child);
      counts.add(child.cleanSubtree(bsps, snapshot, prior, collectedBlocks, removedINodes));
    }
    return counts;
  }

  /**
   * A delete under a snapshot: every current child's state goes to the prior snapshot (2.7.3's
   * walk, which skips no child on the current state). Each directory it passes and each child it
   * visits is reported as changed, so that the delete's batch compares the diff records of the
   * deleted subtree only, not every record in the region.
   */
  private QuotaCounts cleanCurrentChildren(
      BlockStoragePolicySuite bsps,
      int prior,
      INode.BlocksMapUpdateInfo collectedBlocks,
      List<INode> removedINodes) {
    slim.snapshotChanged(this);
    slim.walkedDirectory();
    QuotaCounts counts = new QuotaCounts.Builder().build();
    for (INode child : getChildrenList(Snapshot.CURRENT_STATE_ID)) {
      slim.snapshotChanged(child);
      counts.add(
          child.cleanSubtree(
              bsps, Snapshot.CURRENT_STATE_ID, prior, collectedBlocks, removedINodes));
    }
    return counts;
  }

  @Override
  public void clearChildren() {
    index = ChildIndex.EMPTY;
    super.clearChildren();
  }

  /**
   * The stock method walks its private child list; this one walks the index with the same rules: a
   * directory with a quota answers from its cached usage when the caller allows it, and below a
   * directory with a quota feature but no quota set the cache is not used.
   */
  @Override
  public QuotaCounts computeQuotaUsage(
      BlockStoragePolicySuite bsps,
      byte policyId,
      QuotaCounts counts,
      boolean useCache,
      int lastSnapshotId) {
    if (lastSnapshotId != Snapshot.CURRENT_STATE_ID
        && isWithSnapshot()
        && !(useCache && isQuotaSet())) {
      // usage as of a snapshot: the children that snapshot sees, and this directory
      for (INode child : getChildrenList(lastSnapshotId)) {
        child.computeQuotaUsage(
            bsps, child.getStoragePolicyIDForQuota(policyId), counts, useCache, lastSnapshotId);
      }
      counts.addNameSpace(1);
      return counts;
    }
    DirectoryWithQuotaFeature q = getDirectoryWithQuotaFeature();
    if (useCache && q != null && q.isQuotaSet()) {
      return q.AddCurrentSpaceUsage(counts);
    }
    boolean childrenUseCache = useCache && (q == null || q.isQuotaSet());
    for (int i = 0; i < index.size(); i++) {
      long entry = index.id(i);
      if (entry > 0
          && (refs == null || !refs.containsKey(entry))
          && slim.addColdFileUsage(entry, bsps, policyId, counts)) {
        continue; // counted from its page, not materialized
      }
      INode child = slim.child(entry, this);
      child.computeQuotaUsage(
          bsps,
          child.getStoragePolicyIDForQuota(policyId),
          counts,
          childrenUseCache,
          lastSnapshotId);
    }
    return computeQuotaUsage4CurrentDirectory(bsps, policyId, counts);
  }
}
