package org.nvmnn.bench.h35;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NNThroughputBenchmark;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.util.ToolRunner;
import org.apache.hadoop.util.VersionInfo;

/**
 * Runs Hadoop 3.5.0's unmodified NNThroughputBenchmark as its {@code main} does ({@code
 * runBenchmark}: a new benchmark on a new {@link HdfsConfiguration}, {@link ToolRunner}, then
 * {@code close}), and between the run and the close prints, from the NameNode the benchmark ran
 * against, what the suite checks: the class of its namesystem lock (set by {@code
 * dfs.namenode.lock.model.provider.class}) and of its edit log ({@code FSEditLogAsync} when {@code
 * dfs.namenode.edits.asynclogging} is on). The benchmark's constructor, its {@code close} and the
 * namesystem's lock field are not public: they are reached by reflection, and nothing of the
 * benchmark is changed.
 *
 * <p>Prints, on standard output, after the benchmark's own output:
 *
 * <pre>
 * lock-check hadoop-version: 3.5.0
 * lock-check namesystem-lock: org.apache.hadoop.hdfs.server.namenode.fgl.FineGrainedFSNamesystemLock
 * lock-check edit-log: org.apache.hadoop.hdfs.server.namenode.FSEditLogAsync
 * </pre>
 */
public final class LockCheckedNNThroughput {
  private LockCheckedNNThroughput() {}

  public static void main(String[] args) throws Exception {
    Constructor<NNThroughputBenchmark> make =
        NNThroughputBenchmark.class.getDeclaredConstructor(Configuration.class);
    make.setAccessible(true);
    NNThroughputBenchmark bench = make.newInstance(new HdfsConfiguration());
    Method close = NNThroughputBenchmark.class.getDeclaredMethod("close");
    close.setAccessible(true);
    try {
      ToolRunner.run(bench, args);
      report();
    } finally {
      close.invoke(bench);
    }
  }

  /** The lock and edit log classes of the benchmark's in-process NameNode. */
  private static void report() throws ReflectiveOperationException {
    Field nameNode = NNThroughputBenchmark.class.getDeclaredField("nameNode");
    nameNode.setAccessible(true);
    NameNode nn = (NameNode) nameNode.get(null);
    System.out.println("lock-check hadoop-version: " + VersionInfo.getVersion());
    if (nn == null) {
      System.out.println("lock-check namesystem-lock: none (no in-process NameNode)");
      return;
    }
    FSNamesystem fsn = nn.getNamesystem();
    Field lock = FSNamesystem.class.getDeclaredField("fsLock");
    lock.setAccessible(true);
    System.out.println("lock-check namesystem-lock: " + lock.get(fsn).getClass().getName());
    System.out.println("lock-check edit-log: " + fsn.getEditLog().getClass().getName());
  }
}
