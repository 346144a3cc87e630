package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.io.PrintStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.HAUtil;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Migration between the stock and the NVM NameNode, for a stopped NameNode, with its own
 * configuration (hdfs-site.xml; generic options such as {@code -D key=value} apply):
 *
 * <pre>
 *   hdfs org.apache.hadoop.hdfs.server.namenode.NvmMigrationTool import   # stock name dir -> new region
 *   hdfs org.apache.hadoop.hdfs.server.namenode.NvmMigrationTool export   # region -> fsimage in the name dir
 * </pre>
 *
 * Exit codes as the offline region tools: 0 done, 1 refused or failed because of the input (nothing
 * left behind; the reason on stderr), 64 usage, 70 the tool itself failed. docs/migration.md
 * describes both and the rollback procedure.
 */
public final class NvmMigrationTool extends Configured implements Tool {
  public static final int EXIT_REFUSED = 1;
  public static final int EXIT_USAGE = 64;
  public static final int EXIT_INTERNAL = 70;

  /** How an operator runs the import (named in the NVM NameNode's start-up refusal). */
  public static final String IMPORT_COMMAND =
      "hdfs " + NvmMigrationTool.class.getName() + " import";

  static final String USAGE =
      "usage: hdfs "
          + NvmMigrationTool.class.getName()
          + " [generic options] <command>\n"
          + "  import   load the stopped stock NameNode's name directory (fsimage + edits) and write its namespace\n"
          + "           into a new region ("
          + NvmConfigKeys.NVM_REGION_PATH_KEY
          + ", "
          + NvmConfigKeys.NVM_REGION_SIZE_KEY
          + "); verified before it is installed\n"
          + "  export   write a standard fsimage of the stopped NVM NameNode's region into its name directories,\n"
          + "           for the stock NameNode (rollback)\n"
          + "exit 0 done, "
          + EXIT_REFUSED
          + " refused or failed (nothing left behind), "
          + EXIT_USAGE
          + " usage, "
          + EXIT_INTERNAL
          + " the tool failed\n";

  private final PrintStream out;
  private final PrintStream err;

  public NvmMigrationTool() {
    this(System.out, System.err);
  }

  NvmMigrationTool(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  public static void main(String[] args) {
    System.exit(run(new HdfsConfiguration(), args, System.out, System.err));
  }

  /** Runs one command with {@code conf} (copied) and returns the exit code instead of exiting. */
  public static int run(Configuration conf, String[] args, PrintStream out, PrintStream err) {
    try {
      return ToolRunner.run(new HdfsConfiguration(conf), new NvmMigrationTool(out, err), args);
    } catch (Exception e) {
      err.println("the tool failed: " + e);
      return EXIT_INTERNAL;
    }
  }

  @Override
  public int run(String[] args) {
    if (args.length == 1
        && (args[0].equals("-h") || args[0].equals("--help") || args[0].equals("help"))) {
      out.print(USAGE);
      return 0;
    }
    if (args.length != 1 || !(args[0].equals("import") || args[0].equals("export"))) {
      err.print(USAGE);
      return EXIT_USAGE;
    }
    String command = args[0];
    Configuration conf = getConf();
    try {
      initializeGenericKeys(conf);
      if (command.equals("import")) {
        new NvmImport(conf, out).run();
      } else {
        new NvmExport(conf, out).run();
      }
      return 0;
    } catch (IOException e) {
      String msg = e.getMessage();
      if (msg != null && msg.contains("is already locked")) {
        msg +=
            " (a NameNode is running on it: "
                + command
                + " works on a stopped NameNode's name directory)";
      }
      err.println(command + ": " + msg);
      return EXIT_REFUSED;
    } catch (RuntimeException | Error e) {
      // not a verdict on the input: a bug, a missing native library, too little heap
      err.println(command + ": the tool failed: " + e);
      e.printStackTrace(err);
      return EXIT_INTERNAL;
    }
  }

  /**
   * As the NameNode does: the keys of this NameNode's nameservice (federation) become the generic
   * ones.
   */
  private static void initializeGenericKeys(Configuration conf) {
    String nsId = DFSUtil.getNamenodeNameServiceId(conf);
    NameNode.initializeGenericKeys(conf, nsId, HAUtil.getNameNodeId(conf, nsId));
  }

  /** NVM mode has no HA; migrating the name directory of an HA NameNode is refused. */
  static void refuseHa(Configuration conf, String command) throws NvmMigrationRefusedException {
    String nsId = DFSUtil.getNamenodeNameServiceId(conf);
    if (HAUtil.isHAEnabled(conf, nsId)) {
      throw new NvmMigrationRefusedException(
          "refused, nothing was written: nameservice "
              + nsId
              + " configures "
              + "several NameNodes (HA), which NVM mode does not support; "
              + command
              + " works on a single NameNode's "
              + "name directory");
    }
  }
}
