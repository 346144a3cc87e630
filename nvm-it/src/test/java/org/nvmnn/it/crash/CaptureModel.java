package org.nvmnn.it.crash;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;

/**
 * How a sweep captures the states a failure during an operation can leave
 * (docs/crash-consistency.md): the memory modes' crash at every persist barrier ({@link #BARRIERS},
 * {@code nvm_debug_capture}: a region image per case), or the disk mode's power loss at every sync
 * point ({@link #POWER_LOSS}, {@code nvm_debug_powerloss}: an image of the region and one of its
 * write-ahead log per case, docs/region-format.md §12.7). Images are named {@code
 * <prefix>.<k>.<case>}; a disk-mode image's log is the same name with {@code .wal} appended, which
 * is where a region opened without options looks for its log.
 */
enum CaptureModel {
  BARRIERS("crash point", "target/crash-test-report.txt") {
    @Override
    void arm(Region r, String prefix) throws NvmException {
      r.debugCapture(prefix);
    }

    @Override
    long disarm(Region r) throws NvmException {
      return r.debugCapture(null);
    }
  },
  POWER_LOSS("sync point", "target/powerloss-test-report.txt") {
    @Override
    void arm(Region r, String prefix) throws NvmException {
      r.debugPowerloss(prefix, SAMPLE);
    }

    @Override
    long disarm(Region r) throws NvmException {
      return r.debugPowerloss(null, 0);
    }
  };

  /**
   * Power loss: of the cases that vary one log sector or one region page, this many of each kind
   * per sync point (with lost, present, one file's writes without the other's, and torn pages).
   */
  static final int SAMPLE = Integer.getInteger("nvm.powerloss.sample", 4);

  /** What one captured point is called in reports. */
  final String point;

  final String report;

  CaptureModel(String point, String report) {
    this.point = point;
    this.report = report;
  }

  /** Starts capturing: every later barrier (sync point) writes its images. */
  abstract void arm(Region r, String prefix) throws NvmException;

  /** Stops capturing; returns how many points were captured. */
  abstract long disarm(Region r) throws NvmException;

  /** The log of the image {@code image} (its name with {@code .wal}). */
  static File logOf(File image) {
    return new File(image.getPath() + ".wal");
  }

  /**
   * Copies the open region's files to {@code to} (and its log, in the disk mode, to {@code
   * to.wal}): taken while the NameNode is idle, the pair recovers to the region's current state.
   */
  static void snapshot(Region r, File to) throws IOException {
    copy(r.file(), to);
    File log = r.logFile();
    if (log != null) {
      copy(log, logOf(to));
    }
  }

  /** Copies an image, and its log if it has one. */
  static void copyImage(File image, File to) throws IOException {
    copy(image, to);
    File log = logOf(image);
    if (log.exists()) {
      copy(log, logOf(to));
    } else {
      Files.deleteIfExists(logOf(to).toPath());
    }
  }

  /** Deletes an image and its log. */
  static void deleteImage(File image) throws IOException {
    Files.delete(image.toPath());
    Files.deleteIfExists(logOf(image).toPath());
  }

  /** The cases of point {@code k} under {@code prefix} in {@code dir}, in a stable order. */
  static List<String> cases(File dir, String prefix, long k) {
    String head = new File(prefix).getName() + "." + k + ".";
    List<String> kinds = new ArrayList<>();
    for (String f : dir.list()) {
      if (f.startsWith(head)
          && !f.endsWith(".applied")
          && !f.endsWith(".rec")
          && !f.endsWith(".wal")) {
        kinds.add(f.substring(head.length()));
      }
    }
    Collections.sort(kinds);
    return kinds;
  }

  private static void copy(File from, File to) throws IOException {
    Files.copy(from.toPath(), to.toPath(), StandardCopyOption.REPLACE_EXISTING);
  }
}
