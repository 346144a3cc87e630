package org.nvmnn.it.crash;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.RecordView;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.CheckReport;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.NamespaceDump;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.RegionCheck;

/**
 * What a crash image recovers to. An image (as a crash would leave the region) must pass the
 * offline checker, possibly needing recovery but never broken; it is then recovered the way the
 * NameNode recovers at start-up (a read-write open of a copy), must check clean afterwards, and its
 * state is the full namespace dump (every inode field, attributes included) plus the superblock
 * counters and the records.
 */
final class CrashImageVerifier {
  /** The recovered state, or the reasons the image is not acceptable. */
  static final class Result {
    final List<String> state;

    /** The watched inode's attributes after recovery ({@link AttributeView}), or null. */
    String attributes;

    final List<String> problems = new ArrayList<>();

    Result(List<String> state) {
      this.state = state;
    }
  }

  private final File work;

  CrashImageVerifier(File scratchDir) {
    this.work = new File(scratchDir, "recover-work.region");
  }

  Result verify(File image) throws IOException {
    return verify(image, 0);
  }

  /**
   * As {@link #verify(File)}, and with the attributes of the inode with id {@code watchedId} (0:
   * none) read from the recovered image.
   */
  Result verify(File image, long watchedId) throws IOException {
    List<String> problems = new ArrayList<>();
    CheckReport before = RegionCheck.run(image);
    if (!before.isConsistent()) {
      problems.add("the crash image is broken before recovery:\n" + before.format());
    }
    CaptureModel.copyImage(image, work);
    List<String> state = null;
    String attributes = null;
    try {
      try (Region r = Region.open(work, PersistMode.EMULATED)) {
        // recovery ran in open
      }
      CheckReport after = RegionCheck.run(work);
      if (after.exitCode() != 0) {
        problems.add("after recovery the region does not check clean:\n" + after.format());
      }
      state = state(work);
      if (watchedId != 0) {
        attributes = AttributeView.inRegion(work, watchedId);
      }
    } catch (IOException | RuntimeException e) {
      problems.add("recovery failed: " + e);
    }
    Result res = new Result(state);
    res.attributes = attributes;
    res.problems.addAll(problems);
    return res;
  }

  /** Counters, the live records (region-format.md §5.5), then the sorted dump of every inode. */
  static List<String> state(File recovered) throws IOException {
    List<String> s = new ArrayList<>();
    try (Region r = Region.openReadOnly(recovered)) {
      s.add(
          "record counters lastRecordId="
              + r.counter(RegionLayout.SB_LAST_RECORD_ID)
              + " tokenSequence="
              + r.counter(RegionLayout.SB_TOKEN_SEQUENCE)
              + " masterKeyId="
              + r.counter(RegionLayout.SB_MASTER_KEY_ID));
      s.addAll(records(r));
      s.add(
          "counters lastInodeId="
              + r.lastInodeId()
              + " genstampV1="
              + r.generationStampV1()
              + " genstampV2="
              + r.generationStampV2()
              + " genstampV1Limit="
              + r.generationStampV1Limit()
              + " lastBlockId="
              + r.lastAllocatedBlockId());
    }
    s.addAll(NamespaceDump.lines(recovered));
    return s;
  }

  /** Every live record page: type, id, key, value and payload (hex), sorted. */
  private static List<String> records(Region r) {
    List<String> out = new ArrayList<>();
    for (long i = 0; i < r.pageCount(); i++) {
      long page = RegionLayout.pageOffset(i);
      long w = r.getLong(page);
      if (RegionLayout.stateOf(w) != RegionLayout.STATE_LIVE
          || RegionLayout.kindOf(w) != RegionLayout.KIND_RECORD) {
        continue;
      }
      StringBuilder b = new StringBuilder("record type=");
      b.append(r.getLong(page + RegionLayout.RC_TYPE))
          .append(" id=")
          .append(r.getLong(page + RegionLayout.RC_ID))
          .append(" key=")
          .append(r.getLong(page + RegionLayout.RC_KEY))
          .append(" value=")
          .append(r.getLong(page + RegionLayout.RC_VALUE))
          .append(" payload=");
      for (byte x : new RecordView(r, page).payload()) {
        b.append(String.format("%02x", x));
      }
      out.add(b.toString());
    }
    java.util.Collections.sort(out);
    return out;
  }

  /** A short readable difference of two states (first lines that differ on either side). */
  static String diff(List<String> want, List<String> got) {
    List<String> missing = new ArrayList<>(want);
    missing.removeAll(got);
    List<String> extra = new ArrayList<>(got);
    extra.removeAll(want);
    StringBuilder b = new StringBuilder();
    for (String m : missing.subList(0, Math.min(5, missing.size()))) {
      b.append("\n    - ").append(m);
    }
    for (String e : extra.subList(0, Math.min(5, extra.size()))) {
      b.append("\n    + ").append(e);
    }
    return b.toString();
  }
}
