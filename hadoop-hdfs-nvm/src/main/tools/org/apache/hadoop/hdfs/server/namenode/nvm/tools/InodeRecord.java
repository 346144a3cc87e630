package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Every persisted field of one attached inode, decoded for the dump, and its text and JSON forms.
 * Strings: null = none (id 0); "?N" in the output = string id N has no usable page. Fields that
 * cannot be read completely (a broken chain) are marked as damaged rather than guessed.
 */
final class InodeRecord {
  /** Storage types of the per-type quotas, in DI_TYPE_QUOTA order. */
  static final String[] STORAGE_TYPES = {"RAM_DISK", "SSD", "DISK", "ARCHIVE"};

  final String path;
  final byte[] pathKey;
  final long id;
  final boolean directory;
  final int mode;
  final long ownerId;
  final String owner;
  final long groupId;
  final String group;
  final long mtime;
  final long atime;
  // files
  int replication;
  long preferredBlockSize;
  long storagePolicy;
  // directories: the DI_SNAPSHOT word (DI_SNAPSHOTTABLE: snapshots allowed)
  long snapshotWord;
  long clientId;
  String clientName;
  long clientMachineId;
  boolean lastBlockComplete;
  String clientMachine;
  long[] blocks = new long[0];
  // symlinks (region-format.md §5.2): the target, null if it cannot be read
  boolean symlink;
  String target;
  // directories
  long nsQuota;
  long dsQuota;
  final long[] typeQuota = new long[DI_TYPE_QUOTA_COUNT];
  // ACL entries and xattrs (region-format.md §5.6); null if the inode has none or they are damaged
  AttributeEncoding attributes;
  final List<String> damaged = new ArrayList<String>();

  InodeRecord(RegionModel m, InodePage p, String path, boolean nameComplete) {
    this.path = path;
    this.pathKey = path.getBytes(StandardCharsets.UTF_8);
    id = p.id();
    directory = p.isDirectory();
    mode = p.mode();
    ownerId = p.ownerId();
    owner = m.strings.text(ownerId);
    groupId = p.groupId();
    group = m.strings.text(groupId);
    mtime = p.mtime();
    atime = p.atime();
    if (!nameComplete) {
      damaged.add("name");
    }
    symlink = p.isSymlink();
    if (p.attrsWord() != 0) {
      // a symlink's are never shown: the NameNode cannot materialize a symlink that has any
      attributes = symlink ? null : readAttributes(m, p);
      if (attributes == null) {
        damaged.add("attributes");
      }
    }
    if (symlink) {
      byte[] t =
          p.targetLengthValid()
              ? p.targetBytes(ExtChain.target(p, null, ExtChain.names(p, null)))
              : null;
      target = t == null ? null : StringPages.decode(t);
      if (target == null) {
        damaged.add("target");
      }
    } else if (directory) {
      nsQuota = p.nsQuota();
      dsQuota = p.dsQuota();
      for (int t = 0; t < DI_TYPE_QUOTA_COUNT; t++) {
        typeQuota[t] = p.typeQuota(t);
      }
      storagePolicy = p.directoryStoragePolicy();
      snapshotWord = p.snapshotWord();
    } else {
      replication = p.replication();
      preferredBlockSize = p.preferredBlockSize();
      storagePolicy = p.fileStoragePolicy();
      clientId = p.clientId();
      clientName = m.strings.text(clientId);
      clientMachineId = p.clientMachineId();
      lastBlockComplete = p.lastBlockComplete();
      clientMachine = m.strings.text(clientMachineId);
      ExtChain chain = ExtChain.blocks(p, null);
      long[] recs = p.blockRecordOffsets(chain);
      if (chain.problem() != null || recs.length != p.blockCount()) {
        damaged.add("blocks");
      }
      blocks = new long[3 * recs.length];
      for (int i = 0; i < recs.length; i++) {
        blocks[3 * i] = m.image.getLong(recs[i] + BR_ID);
        blocks[3 * i + 1] = m.image.getLong(recs[i] + BR_NUM_BYTES);
        blocks[3 * i + 2] = m.image.getLong(recs[i] + BR_GENSTAMP);
      }
    }
  }

  /** The inode's attributes, or null if its word, chain or encoding is damaged. */
  private static AttributeEncoding readAttributes(RegionModel m, InodePage p) {
    if (AttributeCheck.wordProblem(m.image, p.attrsWord()) != null) {
      return null;
    }
    byte[] encoding = p.attrBytes(ExtChain.attrs(p, null));
    try {
      return encoding == null ? null : AttributeEncoding.decode(encoding);
    } catch (AttributeEncoding.MalformedException e) {
      return null;
    }
  }

  /**
   * An inode described by values instead of read from a region ({@link InodeLine}): a null string
   * is "none", as string id 0 in a region.
   */
  InodeRecord(
      String path,
      long id,
      boolean directory,
      int mode,
      String owner,
      String group,
      long mtime,
      long atime) {
    this.path = path;
    this.pathKey = path.getBytes(StandardCharsets.UTF_8);
    this.id = id;
    this.directory = directory;
    this.mode = mode;
    this.ownerId = stringId(owner);
    this.owner = owner;
    this.groupId = stringId(group);
    this.group = group;
    this.mtime = mtime;
    this.atime = atime;
  }

  /** A stand-in id for a string given by value: 0 (none) for null, else non-zero. */
  static long stringId(String s) {
    return s == null ? 0 : -1;
  }

  boolean isUnderConstruction() {
    return !directory && (clientId != 0 || clientMachineId != 0);
  }

  private static String text(long id, String s) {
    return id == 0 ? "-" : s == null ? "?" + id : TextEscape.value(s);
  }

  private static String json(long id, String s) {
    return id == 0 ? null : s == null ? "?" + id : s;
  }

  /** At least four octal digits, as "%04o" (which costs a Formatter per line). */
  private String octalMode() {
    String o = Integer.toOctalString(mode);
    return o.length() >= 4 ? o : "0000".substring(o.length()) + o;
  }

  private String type() {
    return directory ? "dir" : symlink ? "symlink" : "file";
  }

  /**
   * "path id=.. type=.. mode=.. owner=.. group=.. mtime=.. atime=.." and the type's fields (a
   * symlink's: "-&gt; target", escaped as a path).
   */
  String text() {
    StringBuilder b = new StringBuilder(TextEscape.path(path));
    b.append(" id=")
        .append(id)
        .append(" type=")
        .append(type())
        .append(" mode=")
        .append(octalMode())
        .append(" owner=")
        .append(text(ownerId, owner))
        .append(" group=")
        .append(text(groupId, group))
        .append(" mtime=")
        .append(mtime)
        .append(" atime=")
        .append(atime);
    if (symlink) {
      if (target != null) {
        b.append(" -> ").append(TextEscape.path(target));
      }
    } else if (directory) {
      b.append(" nsQuota=")
          .append(nsQuota)
          .append(" dsQuota=")
          .append(dsQuota)
          .append(" typeQuota=");
      for (int t = 0; t < DI_TYPE_QUOTA_COUNT; t++) {
        b.append(t == 0 ? "" : ",").append(STORAGE_TYPES[t]).append(':').append(typeQuota[t]);
      }
      b.append(" policy=").append(storagePolicy);
      if (snapshotWord == DI_SNAPSHOTTABLE) {
        b.append(" snapshottable=true");
      } else if (snapshotWord != 0) {
        b.append(" snapshot=0x").append(Long.toHexString(snapshotWord));
      }
    } else {
      b.append(" replication=")
          .append(replication)
          .append(" blockSize=")
          .append(preferredBlockSize)
          .append(" policy=")
          .append(storagePolicy)
          .append(" uc=");
      b.append(
          isUnderConstruction()
              ? text(clientId, clientName) + "@" + text(clientMachineId, clientMachine)
              : "-");
      if (lastBlockComplete) {
        b.append(" lastBlockComplete=true");
      }
      b.append(" blocks=");
      for (int i = 0; i < blocks.length / 3; i++) {
        b.append(i == 0 ? "" : ",")
            .append(blocks[3 * i])
            .append(':')
            .append(blocks[3 * i + 1])
            .append(':')
            .append(blocks[3 * i + 2]);
      }
      if (blocks.length == 0) {
        b.append('-');
      }
    }
    if (attributes != null && !attributes.acl.isEmpty()) {
      b.append(" acl=").append(AttributeDump.aclText(attributes));
    }
    if (attributes != null && !attributes.xattrs.isEmpty()) {
      b.append(" xattrs=").append(AttributeDump.xattrsText(attributes));
    }
    if (!damaged.isEmpty()) {
      b.append(" damaged=").append(String.join(",", damaged));
    }
    return b.toString();
  }

  String json() {
    Json j =
        new Json()
            .put("path", path)
            .put("id", id)
            .put("type", type())
            .put("mode", octalMode())
            .put("owner", json(ownerId, owner))
            .put("group", json(groupId, group))
            .put("mtime", mtime)
            .put("atime", atime);
    if (symlink) {
      j.put("target", target);
    } else if (directory) {
      Json q = new Json();
      for (int t = 0; t < DI_TYPE_QUOTA_COUNT; t++) {
        q.put(STORAGE_TYPES[t], typeQuota[t]);
      }
      j.put("nsQuota", nsQuota)
          .put("dsQuota", dsQuota)
          .putRaw("typeQuota", q.toString())
          .put("storagePolicy", storagePolicy);
      if (snapshotWord != 0) {
        j.put("snapshotWord", snapshotWord).put("snapshottable", snapshotWord == DI_SNAPSHOTTABLE);
      }
    } else {
      j.put("replication", replication)
          .put("preferredBlockSize", preferredBlockSize)
          .put("storagePolicy", storagePolicy);
      j.putRaw(
          "underConstruction",
          isUnderConstruction()
              ? new Json()
                  .put("clientName", json(clientId, clientName))
                  .put("clientMachine", json(clientMachineId, clientMachine))
                  .put("lastBlockComplete", lastBlockComplete)
                  .toString()
              : "null");
      StringBuilder a = new StringBuilder("[");
      for (int i = 0; i < blocks.length / 3; i++) {
        a.append(i == 0 ? "" : ", ")
            .append(
                new Json()
                    .put("id", blocks[3 * i])
                    .put("numBytes", blocks[3 * i + 1])
                    .put("generationStamp", blocks[3 * i + 2]));
      }
      j.putRaw("blocks", a.append(']').toString());
    }
    if (attributes != null && !attributes.acl.isEmpty()) {
      j.putRaw("acl", AttributeDump.aclJson(attributes));
    }
    if (attributes != null && !attributes.xattrs.isEmpty()) {
      j.putRaw("xattrs", AttributeDump.xattrsJson(attributes));
    }
    if (!damaged.isEmpty()) {
      StringBuilder d = new StringBuilder("[");
      for (int i = 0; i < damaged.size(); i++) {
        d.append(i == 0 ? "" : ", ").append(Json.quote(damaged.get(i)));
      }
      j.putRaw("damaged", d.append(']').toString());
    }
    return j.toString();
  }
}
