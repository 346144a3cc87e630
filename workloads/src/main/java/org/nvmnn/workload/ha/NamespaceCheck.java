package org.nvmnn.workload.ha;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * Checks the namespace against an {@link ExpectedNamespace}: each file there, closed, with exactly
 * its bytes; each rename's source gone and its target there. Every failure names the log line of
 * the operation whose effect is missing.
 */
final class NamespaceCheck {
  private static final long ANSWER_TIMEOUT_MS = 120000;

  private final DistributedFileSystem fs;
  final List<String> lost = new ArrayList<>();
  long filesIntact;
  long renamesInEffect;

  NamespaceCheck(DistributedFileSystem fs) {
    this.fs = fs;
  }

  void run(ExpectedNamespace expected) throws IOException {
    for (ExpectedNamespace.File f : expected.files.values()) {
      String why = UntilAnswered.run(() -> fileProblem(f), ANSWER_TIMEOUT_MS);
      if (why == null) {
        filesIntact++;
      } else {
        lost.add(f.created + "  ->  " + f.path + ": " + why);
      }
    }
    for (LogLine r : expected.renames) {
      String why = UntilAnswered.run(() -> renameProblem(r.op), ANSWER_TIMEOUT_MS);
      if (why == null) {
        renamesInEffect++;
      } else {
        lost.add(r + "  ->  " + why);
      }
    }
  }

  private String fileProblem(ExpectedNamespace.File f) throws IOException {
    HdfsFileStatus st = fs.getClient().getFileInfo(f.path);
    if (st == null) {
      return "absent";
    }
    if (st.isDir()) {
      return "a directory";
    }
    if (!fs.isFileClosed(new Path(f.path))) {
      return "still open";
    }
    LoadOp create = f.created.op;
    byte[] got = FileReader.readAll(fs, f.path);
    if (!Arrays.equals(got, NamedContent.of(create.path, create.length))) {
      return "content differs (" + got.length + " bytes read, " + create.length + " written)";
    }
    return null;
  }

  private String renameProblem(LoadOp rename) throws IOException {
    if (fs.getClient().getFileInfo(rename.path) != null) {
      return "the source is still there";
    }
    if (fs.getClient().getFileInfo(rename.target) == null) {
      return "the target is absent";
    }
    return null;
  }
}
