package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;

import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.ShmDir;

/**
 * Symlinks written through the store into a {@link SampleNamespace} region, as the NameNode writes
 * them (OP_SYMLINK's create): /tmp/ln with a short target (inline), and /user/alice/ plus a
 * 100-byte name (one NAME_EXT page) whose 400-byte target, with a space in it, takes a target chain
 * of two NAME_EXT pages. The parents' times are put back, so that only the new lines differ.
 */
final class SymlinkSample {
  static final String SHORT_TARGET = "/user/alice/small.txt";
  static final String LONG_TARGET;
  static final String LONG_NAME;

  static {
    StringBuilder b = new StringBuilder("/a b/");
    while (b.length() < 400) {
      b.append((char) ('a' + b.length() % 26));
    }
    LONG_TARGET = b.toString();
    StringBuilder n = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      n.append((char) ('A' + i % 26));
    }
    LONG_NAME = n.toString();
  }

  /** The pages of /tmp/ln and the long one. */
  long shortLink;

  long longLink;

  /** The NAME_EXT pages of the long one's target chain and of its name chain, in chain order. */
  long[] targetExt;

  long[] nameExt;

  private SymlinkSample() {}

  static SymlinkSample add(ShmDir shm, SampleNamespace n) throws NvmException {
    SymlinkSample l = new SymlinkSample();
    try (InodeStore s = shm.reopen("r")) {
      l.shortLink =
          createInode(
              s,
              n.tmp,
              InodeAttrs.symlink(SHORT_TARGET.getBytes(StandardCharsets.UTF_8))
                  .name("ln")
                  .times(9000, 9001)
                  .mode(0777)
                  .owner("hdfs", "supergroup"));
      l.longLink =
          createInode(
              s,
              n.alice,
              InodeAttrs.symlink(LONG_TARGET.getBytes(StandardCharsets.UTF_8))
                  .name(LONG_NAME)
                  .times(9100, 9101)
                  .mode(0777)
                  .owner("alice", "staff"));
      setTimes(s, n.tmp, 8000, 8001);
      setTimes(s, n.alice, 3000, 3001);
      l.targetExt = s.inode(l.longLink).symlinkTargetExtPages();
      l.nameExt = s.inode(l.longLink).nameExtPages();
    }
    return l;
  }
}
