package org.nvmnn.patcher;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The names the patch is about: which classes of hadoop-hdfs-2.7.3.jar are rewritten, which
 * methods, and the static hooks their new bodies call. Shared by the splicer, the verifier and the
 * tests so the contract is written down once.
 *
 * <p>Two kinds of patch point:
 *
 * <ul>
 *   <li><b>replaced body</b> ({@code NameNode.loadNamesystem}, {@code NameNode.createRpcServer}):
 *       the stock body is checked instruction by instruction and dropped;
 *   <li><b>rename and delegate</b> ({@link #DELEGATIONS}): the stock method is kept, attributes
 *       verbatim, as a new synthetic package-private method ({@code stock...}), and its body is
 *       replaced by a call of a hook with the same arguments.
 * </ul>
 */
public final class NameNodePatch {
  private NameNodePatch() {}

  public static final String PKG = "org/apache/hadoop/hdfs/server/namenode/";
  public static final String NAME_NODE = PKG + "NameNode";
  public static final String NAME_NODE_ENTRY = entry(NAME_NODE);
  public static final String SECONDARY_NAME_NODE = PKG + "SecondaryNameNode";
  public static final String SECONDARY_NAME_NODE_ENTRY = entry(SECONDARY_NAME_NODE);
  public static final String FS_NAMESYSTEM = PKG + "FSNamesystem";
  public static final String RPC_SERVER = PKG + "NameNodeRpcServer";
  public static final String CONFIGURATION = "org/apache/hadoop/conf/Configuration";
  public static final String STARTUP_OPTION =
      "org/apache/hadoop/hdfs/server/common/HdfsServerConstants$StartupOption";
  public static final String COMMAND_LINE_OPTS = SECONDARY_NAME_NODE + "$CommandLineOpts";

  /** Our hooks class; it must be shipped inside the patched jar (same runtime package). */
  public static final String HOOKS = PKG + "NvmHooks";

  public static final String HOOKS_ENTRY = entry(HOOKS);

  // ---- replaced bodies (NameNode) ----

  public static final String LOAD_NAMESYSTEM = "loadNamesystem";
  public static final String LOAD_NAMESYSTEM_DESC = "(L" + CONFIGURATION + ";)V";
  public static final String CREATE_RPC_SERVER = "createRpcServer";
  public static final String CREATE_RPC_SERVER_DESC =
      "(L" + CONFIGURATION + ";)L" + RPC_SERVER + ";";

  public static final String HOOK_LOAD_NAMESYSTEM_DESC =
      "(L" + NAME_NODE + ";L" + CONFIGURATION + ";)L" + FS_NAMESYSTEM + ";";
  public static final String HOOK_CREATE_RPC_SERVER_DESC =
      "(L" + NAME_NODE + ";L" + CONFIGURATION + ";)L" + RPC_SERVER + ";";

  /** The field loadNamesystem assigns. */
  public static final String NAMESYSTEM_FIELD = "namesystem";

  public static final String NAMESYSTEM_FIELD_DESC = "L" + FS_NAMESYSTEM + ";";

  /** The stock callee of loadNamesystem. */
  public static final String LOAD_FROM_DISK = "loadFromDisk";

  public static final String LOAD_FROM_DISK_DESC =
      "(L" + CONFIGURATION + ";)L" + FS_NAMESYSTEM + ";";

  /** The stock constructor createRpcServer calls. */
  public static final String RPC_SERVER_INIT_DESC = "(L" + CONFIGURATION + ";L" + NAME_NODE + ";)V";

  // ---- rename and delegate ----

  public static final int ACC_PUBLIC = 0x0001,
      ACC_PRIVATE = 0x0002,
      ACC_PROTECTED = 0x0004,
      ACC_STATIC = 0x0008,
      ACC_SYNTHETIC = 0x1000;

  /** {@code public static boolean NameNode.doRollback(Configuration, boolean)}; hook: same. */
  public static final String DO_ROLLBACK = "doRollback";

  public static final String DO_ROLLBACK_DESC = "(L" + CONFIGURATION + ";Z)Z";
  public static final String STOCK_DO_ROLLBACK = "stockDoRollback";

  /** {@code private static void NameNode.doRecovery(StartupOption, Configuration)}; hook: same. */
  public static final String DO_RECOVERY = "doRecovery";

  public static final String DO_RECOVERY_DESC =
      "(L" + STARTUP_OPTION + ";L" + CONFIGURATION + ";)V";
  public static final String STOCK_DO_RECOVERY = "stockDoRecovery";

  /** {@code private void SecondaryNameNode.initialize(Configuration, CommandLineOpts)}. */
  public static final String INITIALIZE = "initialize";

  public static final String INITIALIZE_DESC =
      "(L" + CONFIGURATION + ";L" + COMMAND_LINE_OPTS + ";)V";
  public static final String STOCK_INITIALIZE = "stockInitialize";
  public static final String HOOK_INITIALIZE_SECONDARY = "initializeSecondary";
  public static final String HOOK_INITIALIZE_SECONDARY_DESC =
      "(L" + SECONDARY_NAME_NODE + ";L" + CONFIGURATION + ";L" + COMMAND_LINE_OPTS + ";)V";

  /**
   * {@code private void NameNode.startHttpServer(Configuration)}; hook: {@code
   * startHttpServer(NameNode, Configuration)}. The first thing {@code initialize} does that a
   * refused start-up option must not get to: a Jetty 6 connector stopped while its acceptor is
   * between its two locks in {@code doSelect} spins in {@code SelectSet.stop} for ever.
   */
  public static final String START_HTTP_SERVER = "startHttpServer";

  public static final String START_HTTP_SERVER_DESC = "(L" + CONFIGURATION + ";)V";
  public static final String STOCK_START_HTTP_SERVER = "stockStartHttpServer";
  public static final String HOOK_START_HTTP_SERVER_DESC =
      "(L" + NAME_NODE + ";L" + CONFIGURATION + ";)V";

  public static final RenameAndDelegate DO_ROLLBACK_PATCH =
      new RenameAndDelegate(
          NAME_NODE,
          DO_ROLLBACK,
          DO_ROLLBACK_DESC,
          ACC_PUBLIC | ACC_STATIC,
          STOCK_DO_ROLLBACK,
          DO_ROLLBACK,
          DO_ROLLBACK_DESC);
  public static final RenameAndDelegate DO_RECOVERY_PATCH =
      new RenameAndDelegate(
          NAME_NODE,
          DO_RECOVERY,
          DO_RECOVERY_DESC,
          ACC_PRIVATE | ACC_STATIC,
          STOCK_DO_RECOVERY,
          DO_RECOVERY,
          DO_RECOVERY_DESC);
  public static final RenameAndDelegate INITIALIZE_PATCH =
      new RenameAndDelegate(
          SECONDARY_NAME_NODE,
          INITIALIZE,
          INITIALIZE_DESC,
          ACC_PRIVATE,
          STOCK_INITIALIZE,
          HOOK_INITIALIZE_SECONDARY,
          HOOK_INITIALIZE_SECONDARY_DESC);

  public static final RenameAndDelegate START_HTTP_SERVER_PATCH =
      new RenameAndDelegate(
          NAME_NODE,
          START_HTTP_SERVER,
          START_HTTP_SERVER_DESC,
          ACC_PRIVATE,
          STOCK_START_HTTP_SERVER,
          START_HTTP_SERVER,
          HOOK_START_HTTP_SERVER_DESC);

  /** Every rename-and-delegate patch point, in the order the splicer applies them. */
  public static final List<RenameAndDelegate> DELEGATIONS =
      Collections.unmodifiableList(
          Arrays.asList(
              DO_ROLLBACK_PATCH, DO_RECOVERY_PATCH, START_HTTP_SERVER_PATCH, INITIALIZE_PATCH));

  /** The stock classes the patch rewrites, in the order the splicer reports them. */
  public static final List<String> PATCHED_CLASSES =
      Collections.unmodifiableList(Arrays.asList(NAME_NODE, SECONDARY_NAME_NODE));

  /** The rename-and-delegate patch points of one class. */
  public static List<RenameAndDelegate> delegations(String owner) {
    List<RenameAndDelegate> l = new ArrayList<>();
    for (RenameAndDelegate d : DELEGATIONS) {
      if (d.owner.equals(owner)) {
        l.add(d);
      }
    }
    return l;
  }

  /** The jar entry of a class: {@code a/b/C} to {@code a/b/C.class}. */
  public static String entry(String internalName) {
    return internalName + ".class";
  }

  /** {@code a/b/C} to {@code C}: how reports and messages name a class. */
  public static String simpleName(String internalName) {
    return internalName.substring(internalName.lastIndexOf('/') + 1);
  }
}
