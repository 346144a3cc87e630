package org.nvmnn.patcher;

/**
 * The names the patch is about: which class of hadoop-hdfs-2.7.3.jar is rewritten, which two
 * methods, and the static hooks their new bodies call. Shared by the splicer, the verifier and the
 * tests so the contract is written down once.
 */
public final class NameNodePatch {
  private NameNodePatch() {}

  public static final String PKG = "org/apache/hadoop/hdfs/server/namenode/";
  public static final String NAME_NODE = PKG + "NameNode";
  public static final String NAME_NODE_ENTRY = NAME_NODE + ".class";
  public static final String FS_NAMESYSTEM = PKG + "FSNamesystem";
  public static final String RPC_SERVER = PKG + "NameNodeRpcServer";
  public static final String CONFIGURATION = "org/apache/hadoop/conf/Configuration";

  /** Our hooks class; it must be shipped inside the patched jar (same runtime package). */
  public static final String HOOKS = PKG + "NvmHooks";

  public static final String HOOKS_ENTRY = HOOKS + ".class";

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
}
