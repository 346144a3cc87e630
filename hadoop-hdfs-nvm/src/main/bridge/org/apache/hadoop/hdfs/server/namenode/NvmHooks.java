package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.StartupOption;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmGenericKeys;

/**
 * The static hooks the patched classes of {@code hadoop-hdfs-2.7.3-nvm.jar} call (see nvm-patcher;
 * descriptors in {@code NameNodePatch}): {@code NameNode.loadNamesystem} and {@code
 * NameNode.createRpcServer} are rewritten to delegate here; {@code NameNode.doRollback}, {@code
 * NameNode.doRecovery}, {@code NameNode.startHttpServer} and {@code SecondaryNameNode.initialize}
 * delegate here too, and their stock bodies are kept, unchanged, as the methods {@code
 * stockDoRollback}, {@code stockDoRecovery}, {@code stockStartHttpServer} and {@code
 * stockInitialize} of the same classes, which these hooks call (the HTTP server's in NVM mode too).
 *
 * <p>With {@code dfs.namenode.nvm.enabled=false} (the default) both hooks do exactly what the stock
 * 2.7.3 methods do ({@code FSNamesystem.loadFromDisk(conf)} and {@code new NameNodeRpcServer(conf,
 * nn)}), so the same jar is the stock baseline. With it true the namesystem comes from {@link
 * NvmNamesystemLoader} and the RPC server is an {@link NvmRpcServer}, which refuses the operations
 * the region cannot persist. With HA, NVM NameNodes run as active and standby over the stock shared
 * journal (docs/ha.md). Both hooks first resolve the NVM keys set per nameservice / NameNode
 * ({@link NvmGenericKeys}).
 *
 * <p>Each hook counts its calls, so tests can prove a NameNode really went through them.
 */
public final class NvmHooks {
  private static final AtomicInteger LOAD_NAMESYSTEM_CALLS = new AtomicInteger();
  private static final AtomicInteger CREATE_RPC_SERVER_CALLS = new AtomicInteger();

  private NvmHooks() {}

  /** Replaces the body of {@code NameNode.loadNamesystem(Configuration)}. */
  public static FSNamesystem loadNamesystem(NameNode nn, Configuration conf) throws IOException {
    LOAD_NAMESYSTEM_CALLS.incrementAndGet();
    NvmGenericKeys.initialize(
        conf); // dfs.namenode.nvm.*.<nameservice>[.<namenode>] -> dfs.namenode.nvm.*
    if (!isNvmEnabled(conf)) {
      return FSNamesystem.loadFromDisk(conf);
    }
    return NvmNamesystemLoader.load(nn, conf);
  }

  /** Replaces the body of {@code NameNode.createRpcServer(Configuration)}. */
  public static NameNodeRpcServer createRpcServer(NameNode nn, Configuration conf)
      throws IOException {
    CREATE_RPC_SERVER_CALLS.incrementAndGet();
    NvmGenericKeys.initialize(conf);
    if (!isNvmEnabled(conf)) {
      return new NameNodeRpcServer(conf, nn);
    }
    return new NvmRpcServer(conf, nn);
  }

  /** Replaces the body of {@code NameNode.doRollback(Configuration, boolean)}. */
  public static boolean doRollback(Configuration conf, boolean isConfirmationNeeded)
      throws IOException {
    NvmGenericKeys.initialize(conf);
    if (isNvmEnabled(conf)) {
      throw NvmStartupOptions.rollbackRefused();
    }
    return (Boolean)
        StockMethod.call(
            NameNode.class,
            "stockDoRollback",
            new Class<?>[] {Configuration.class, boolean.class},
            null,
            conf,
            isConfirmationNeeded);
  }

  /** Replaces the body of {@code NameNode.doRecovery(StartupOption, Configuration)}. */
  public static void doRecovery(StartupOption startOpt, Configuration conf) throws IOException {
    NvmGenericKeys.initialize(conf);
    if (isNvmEnabled(conf)) {
      NvmStartupOptions.recover(conf);
      return;
    }
    StockMethod.call(
        NameNode.class,
        "stockDoRecovery",
        new Class<?>[] {StartupOption.class, Configuration.class},
        null,
        startOpt,
        conf);
  }

  /**
   * Replaces the body of {@code NameNode.startHttpServer(Configuration)}, which {@code
   * NameNode.initialize} calls before {@code loadNamesystem}. In NVM mode a start-up option the
   * region refuses is refused here, before the HTTP server exists: a NameNode that fails after it
   * started stops it at once, and 2.7.3's Jetty 6 can spin for ever in that stop when its acceptor
   * thread is between its two locks in {@code SelectSet.doSelect}, so the refused NameNode would
   * hang instead of exiting with the refusal.
   */
  public static void startHttpServer(NameNode nn, Configuration conf) throws IOException {
    NvmGenericKeys.initialize(conf);
    if (isNvmEnabled(conf)) {
      NvmStartupOptions.refuseUnlessRegular(NameNode.getStartupOption(conf));
    }
    StockMethod.call(
        NameNode.class, "stockStartHttpServer", new Class<?>[] {Configuration.class}, nn, conf);
  }

  /**
   * Replaces the body of {@code SecondaryNameNode.initialize(Configuration, CommandLineOpts)}, the
   * first thing its constructor does after resolving the generic keys.
   */
  public static void initializeSecondary(
      SecondaryNameNode snn, Configuration conf, SecondaryNameNode.CommandLineOpts opts)
      throws IOException {
    NvmGenericKeys.initialize(conf);
    if (isNvmEnabled(conf)) {
      throw NvmStartupOptions.secondaryRefused();
    }
    StockMethod.call(
        SecondaryNameNode.class,
        "stockInitialize",
        new Class<?>[] {Configuration.class, SecondaryNameNode.CommandLineOpts.class},
        snn,
        conf,
        opts);
  }

  /** Whether {@code conf} puts the NameNode in NVM mode. */
  public static boolean isNvmEnabled(Configuration conf) {
    return conf.getBoolean(NvmConfigKeys.NVM_ENABLED_KEY, NvmConfigKeys.NVM_ENABLED_DEFAULT);
  }

  /** Calls of {@link #loadNamesystem} in this JVM (for tests). */
  public static int loadNamesystemCalls() {
    return LOAD_NAMESYSTEM_CALLS.get();
  }

  /** Calls of {@link #createRpcServer} in this JVM (for tests). */
  public static int createRpcServerCalls() {
    return CREATE_RPC_SERVER_CALLS.get();
  }
}
