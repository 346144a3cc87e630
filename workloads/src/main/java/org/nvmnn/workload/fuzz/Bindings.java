package org.nvmnn.workload.fuzz;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;

/**
 * What one NameNode returned that later calls refer to symbolically ({@link BlockRef}, {@link
 * FileRef}): per path, the inode id, the blocks addBlock/append returned (the last one is {@code
 * last(path)}; abandonBlock drops it) with the length the fake DataNode wrote, and the generation
 * stamp updateBlockForPipeline handed out. Each side keeps its own, from its own answers; renames
 * and deletes the NameNode acknowledged move or drop the entries below the path.
 */
final class Bindings {
  private final Map<String, Long> fileIds = new HashMap<>();
  private final Map<String, Deque<ExtendedBlock>> blocks = new HashMap<>();
  private final Map<String, Long> pipelineGs = new HashMap<>();
  private String blockPoolId = "BP-unknown";

  String blockPoolId() {
    return blockPoolId;
  }

  void blockPoolId(String id) {
    blockPoolId = id;
  }

  Long fileId(String path) {
    return fileIds.get(path);
  }

  void fileId(String path, long id) {
    fileIds.put(path, id);
  }

  ExtendedBlock lastBlock(String path) {
    Deque<ExtendedBlock> d = blocks.get(path);
    return d == null || d.isEmpty() ? null : d.peekLast();
  }

  ExtendedBlock pipelineBlock(String path) {
    ExtendedBlock last = lastBlock(path);
    Long gs = pipelineGs.get(path);
    if (last == null || gs == null) {
      return last;
    }
    return new ExtendedBlock(last.getBlockPoolId(), last.getBlockId(), last.getNumBytes(), gs);
  }

  void pushBlock(String path, ExtendedBlock b) {
    blocks.computeIfAbsent(path, k -> new ArrayDeque<>()).addLast(copy(b));
    pipelineGs.remove(path);
  }

  /** Replaces the last block (a new length, a new generation stamp). */
  void replaceLast(String path, ExtendedBlock b) {
    Deque<ExtendedBlock> d = blocks.computeIfAbsent(path, k -> new ArrayDeque<>());
    if (!d.isEmpty()) {
      d.removeLast();
    }
    d.addLast(copy(b));
  }

  void popBlock(String path) {
    Deque<ExtendedBlock> d = blocks.get(path);
    if (d != null && !d.isEmpty()) {
      d.removeLast();
    }
    pipelineGs.remove(path);
  }

  void pipelineGs(String path, long gs) {
    pipelineGs.put(path, gs);
  }

  /** A new file at path (create): its old blocks are gone. */
  void reset(String path) {
    blocks.remove(path);
    pipelineGs.remove(path);
  }

  void renamed(String src, String dst) {
    move(fileIds, src, dst);
    move(blocks, src, dst);
    move(pipelineGs, src, dst);
  }

  void deleted(String path) {
    drop(fileIds, path);
    drop(blocks, path);
    drop(pipelineGs, path);
  }

  static boolean under(String p, String root) {
    return p.equals(root)
        || (p.startsWith(root) && (root.endsWith("/") || p.charAt(root.length()) == '/'));
  }

  private static <V> void move(Map<String, V> m, String src, String dst) {
    List<String> keys = new ArrayList<>();
    for (String k : m.keySet()) {
      if (under(k, src)) {
        keys.add(k);
      }
    }
    Map<String, V> moved = new HashMap<>();
    for (String k : keys) {
      moved.put(dst + k.substring(src.length()), m.remove(k));
    }
    drop(m, dst);
    m.putAll(moved);
  }

  private static <V> void drop(Map<String, V> m, String root) {
    m.keySet().removeIf(k -> under(k, root));
  }

  private static ExtendedBlock copy(ExtendedBlock b) {
    return new ExtendedBlock(
        b.getBlockPoolId(), b.getBlockId(), b.getNumBytes(), b.getGenerationStamp());
  }
}
