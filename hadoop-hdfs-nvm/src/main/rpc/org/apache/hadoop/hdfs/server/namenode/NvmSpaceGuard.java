package org.apache.hadoop.hdfs.server.namenode;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.PageCodec;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionUsage;

/**
 * Refuses client operations that would grow the namespace when the region is nearly full, at the
 * RPC boundary, before the namesystem changes memory. Without it a full region would be found only
 * by the write-through, after memory changed, which has to stop the NameNode. Each check asks for
 * an upper bound of the pages the operation can take plus a reserve ({@link
 * NvmConfigKeys#NVM_RESERVED_PAGES_KEY}); the reserve covers operations that run concurrently with
 * the check and the NameNode's own writes (lease recovery, block sync).
 *
 * <p>Asking the native side for the region's usage is a JNI call, so it is not made for every
 * operation: the guard keeps a slack, the pages known to be free beyond the reserve at the last
 * reading, minus the upper bounds of every operation let through since. While the slack covers an
 * operation no reading is taken; a refusal is only ever decided on a fresh reading. Deletes do not
 * add to the slack, so it only errs low, and the next reading finds what they freed.
 */
final class NvmSpaceGuard {
  static final Log LOG = LogFactory.getLog(NvmSpaceGuard.class);

  /** A rewritten block list may take a new extension chain before the old one is freed. */
  static final int BLOCK_LIST_PAGES = 16;

  private final FSNamesystem fsn;
  private final long reserve;

  /** Pages free beyond the reserve at the last reading, less what was let through since. */
  private final AtomicLong slack = new AtomicLong(-1);

  NvmSpaceGuard(Configuration conf, FSNamesystem fsn) {
    this.fsn = fsn;
    this.reserve =
        conf.getLong(
            NvmConfigKeys.NVM_RESERVED_PAGES_KEY, NvmConfigKeys.NVM_RESERVED_PAGES_DEFAULT);
  }

  /**
   * Pages for one inode whose name is {@code name[from, to)}: its page plus name-extension pages.
   */
  static int inodePages(String name, int from, int to) {
    int len = 0; // UTF-8 bytes, counted without encoding
    for (int i = from; i < to; i++) {
      char c = name.charAt(i);
      len +=
          c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3; // a surrogate pair is 4
    }
    int over = Math.max(0, len - RegionLayout.NAME_INLINE_MAX);
    return 1 + (over + RegionLayout.NAME_EXT_MAX - 1) / RegionLayout.NAME_EXT_MAX;
  }

  /**
   * Pages for the last component of {@code path} (trailing slashes, which HDFS accepts, dropped).
   */
  static int lastPages(String path) {
    int end = path.length();
    while (end > 1 && path.charAt(end - 1) == '/') {
      end--;
    }
    return inodePages(path, path.lastIndexOf('/', end - 1) + 1, end);
  }

  /** Pages for every component of {@code path} (mkdirs may create them all). */
  static long pathPages(String path) {
    long n = 0;
    int start = 0;
    for (int i = 0; i <= path.length(); i++) {
      if (i == path.length() || path.charAt(i) == '/') {
        if (i > start) {
          n += inodePages(path, start, i);
        }
        start = i + 1;
      }
    }
    return n;
  }

  static int depth(String path) {
    int d = 0;
    for (int i = 0; i < path.length(); i++) {
      if (path.charAt(i) == '/' && i + 1 < path.length() && path.charAt(i + 1) != '/') {
        d++;
      }
    }
    return d;
  }

  /**
   * Throws unless {@code pages} plus the reserve are free. A path over HDFS's length or depth limit
   * is left to the stock checks that follow, so such a call gets the stock answer ("Pathname too
   * long") whatever the region's state.
   */
  void check(String what, String path, long pages) throws NvmRegionFullException {
    if (path.length() > HdfsConstants.MAX_PATH_LENGTH
        || depth(path) > HdfsConstants.MAX_PATH_DEPTH) {
      return;
    }
    checkPages(what, path, pages);
  }

  /**
   * Pages for a delegation token's record: its identifier (version, owner, renewer and real user as
   * Writable text, two dates, two ints), at most 3 UTF-8 bytes per char, at most 5 bytes per length
   * and int and 9 per date.
   */
  static int tokenPages(String owner, String renewer, String realUser) {
    long chars = owner.length() + (long) renewer.length() + realUser.length();
    long bytes = 1 + 3 * 5 + 3 * chars + 2 * 9 + 2 * 5;
    return 1 + PageCodec.recordExtPages(bytes);
  }

  /** As {@link #check}, for an operation whose subject is not a path. */
  void checkPages(String what, String subject, long pages) throws NvmRegionFullException {
    String path = subject;
    if (slack.addAndGet(-pages) >= 0) {
      return;
    }
    InodeStore store = store();
    if (store == null) {
      return; // not loaded yet: the namesystem refuses operations itself then
    }
    Region region = store.region();
    RegionUsage u = region.usage();
    if (!fits(u, pages) && store.strings().idleCount() > 0) {
      reclaimIdleStrings(store);
      u = region.usage();
    }
    long available = u.pagesFree() + u.pagesReserved();
    if (available - pages >= reserve) {
      slack.set(available - reserve - pages);
      return;
    }
    slack.set(-1); // the next operation reads again
    long pageSize = RegionLayout.PAGE_SIZE;
    throw new NvmRegionFullException(
        String.format(
            "NVM NameNode: region %s is full: %d of %d pages used (%.1f of %.1f MiB), %d free, %d held in reserve (%s); "
                + "cannot %s %s (needs up to %d pages); the namespace was not changed. Delete files to make room, "
                + "or move the namespace to a larger region",
            region.file(),
            u.pagesUsed(),
            u.pagesTotal(),
            u.pagesUsed() * pageSize / 1048576.0,
            u.pagesTotal() * pageSize / 1048576.0,
            available,
            reserve,
            NvmConfigKeys.NVM_RESERVED_PAGES_KEY,
            what,
            path,
            pages));
  }

  private boolean fits(RegionUsage u, long pages) {
    return u.pagesFree() + u.pagesReserved() - pages >= reserve;
  }

  /** The region's store once the namespace is loaded, else null. */
  private InodeStore store() {
    FSImage image = fsn.getFSImage();
    if (!(image instanceof NvmFSImage) || ((NvmFSImage) image).writeThrough() == null) {
      return null;
    }
    return ((NvmFSImage) image).writeThrough().store();
  }

  /**
   * Pages the strings among {@code candidates} that the region does not hold yet would take (a
   * client name, machine, owner or group an operation may add; null ones are skipped). Read without
   * the namesystem lock: a string added meanwhile is counted once too many, never too few of those
   * known at the last commit.
   */
  long newStringPages(String... candidates) {
    InodeStore store = store();
    if (store == null) {
      return 0;
    }
    long n = 0;
    for (String s : candidates) {
      n += store.strings().pagesNeeded(s);
    }
    return n;
  }

  /**
   * Strings no inode refers to any more are kept for reuse (StringTable); before an operation is
   * refused for space they are freed, under the namesystem's write lock like every write.
   */
  private void reclaimIdleStrings(InodeStore store) {
    fsn.writeLock();
    try {
      int n = store.reclaimIdleStrings();
      LOG.info("NVM region nearly full: freed " + n + " strings no inode refers to");
    } catch (NvmException e) {
      LOG.warn("NVM region nearly full: could not free the idle strings: " + e.getMessage());
    } finally {
      fsn.writeUnlock();
    }
  }
}
