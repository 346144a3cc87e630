package org.apache.hadoop.hdfs.server.namenode;

import java.io.File;
import java.io.IOException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.StartupOption;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.RecoveryReport;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.CheckReport;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.RegionCheck;

/**
 * What the start-up paths that 2.7.3 runs outside {@code loadNamesystem} do in NVM mode ({@link
 * NvmHooks} calls these when {@code dfs.namenode.nvm.enabled=true}): {@code hdfs namenode -recover}
 * recovers and checks the region instead of rewriting the name directory, {@code hdfs namenode
 * -rollback} is refused with the procedure that does roll back, and a SecondaryNameNode refuses to
 * start. docs/unsupported-operations.md lists each.
 */
final class NvmStartupOptions {
  static final Log LOG = LogFactory.getLog(NvmStartupOptions.class);

  /** The one message for every checkpointer an NVM NameNode does not use. */
  static final String CHECKPOINTER_REFUSED =
      " is not used with an NVM NameNode ("
          + NvmConfigKeys.NVM_ENABLED_KEY
          + "=true): it writes no edit log, so there is nothing to merge, and its region is its own"
          + " always-current checkpoint. Stop this daemon and do not start it again (start-dfs.sh"
          + " starts one on each host of 'hdfs getconf -secondaryNameNodes'; start the NameNode and"
          + " DataNodes with hadoop-daemon.sh instead). For an fsimage (a backup, hdfs oiv, a"
          + " rollback): hdfs dfsadmin -safemode enter; hdfs dfsadmin -saveNamespace; hdfs dfsadmin"
          + " -fetchImage <dir>; hdfs dfsadmin -safemode leave (docs/operator-guide.md, section"
          + " 5)";

  private NvmStartupOptions() {}

  /** {@code hdfs secondarynamenode} with NVM mode in its configuration. */
  static IOException secondaryRefused() {
    return new IOException("The SecondaryNameNode" + CHECKPOINTER_REFUSED);
  }

  /**
   * The refusal of a start-up option that reaches the namesystem loader (every one but a regular
   * start; -rollback and -recover are handled before it), with the procedure that does the job.
   */
  /** Throws the refusal of any start-up option but REGULAR (the NameNode then stops). */
  static void refuseUnlessRegular(StartupOption opt) throws IOException {
    if (opt != StartupOption.REGULAR) {
      throw new IOException(optionRefused(opt));
    }
  }

  static String optionRefused(StartupOption opt) {
    String what;
    switch (opt) {
      case UPGRADE:
      case UPGRADEONLY:
        what =
            "a region is only ever created on a name directory of this release's layout, so there"
                + " is nothing to upgrade. To upgrade the name directory of an older release: run"
                + " the stock NameNode ("
                + NvmConfigKeys.NVM_ENABLED_KEY
                + "=false) with -upgrade, finalize it (hdfs dfsadmin -finalizeUpgrade), stop it,"
                + " and import it into a region with 'hdfs"
                + " org.apache.hadoop.hdfs.server.namenode.NvmMigrationTool import'"
                + " (docs/migration.md)";
        break;
      case ROLLINGUPGRADE:
        what =
            "NVM mode refuses 'dfsadmin -rollingUpgrade prepare', so no rolling upgrade is in"
                + " progress to start, roll back or downgrade. Start the NameNode without the"
                + " option. To move to another release: export (NvmMigrationTool export), then"
                + " run that release's stock NameNode (docs/migration.md)";
        break;
      case IMPORT:
        what =
            "to load a checkpoint into NVM mode, import it: point dfs.namenode.name.dir at a copy"
                + " of the checkpoint directory and run 'hdfs"
                + " org.apache.hadoop.hdfs.server.namenode.NvmMigrationTool import'"
                + " (docs/migration.md)";
        break;
      default:
        what = "only a regular start is supported (docs/unsupported-operations.md)";
    }
    return "NVM NameNode ("
        + NvmConfigKeys.NVM_ENABLED_KEY
        + "=true) does not support the startup option "
        + opt.getName()
        + " ("
        + opt
        + "); nothing was read or written: "
        + what;
  }

  /**
   * {@code hdfs namenode -rollback}: NVM mode refuses {@code -upgrade} and {@code -rollingUpgrade},
   * so a region is never the upgraded side of a rollback; going back to the stock NameNode is an
   * export.
   */
  static IOException rollbackRefused() {
    return new IOException(
        "NVM NameNode ("
            + NvmConfigKeys.NVM_ENABLED_KEY
            + "=true): -rollback is not supported. NVM mode refuses -upgrade and -rollingUpgrade, so"
            + " there is no pre-upgrade state to roll back to, and this command changes nothing. To"
            + " run the stock NameNode again on this namespace: stop the NameNode, run 'hdfs"
            + " org.apache.hadoop.hdfs.server.namenode.NvmMigrationTool export', set "
            + NvmConfigKeys.NVM_ENABLED_KEY
            + "=false (or put the stock jar back) and start it (docs/migration.md)");
  }

  /**
   * {@code hdfs namenode -recover} in NVM mode: opens the region read-write, which is the region's
   * own recovery (a committed group's redo record is replayed, an uncommitted one ignored, space is
   * reclaimed; region-format.md section 7.6), then checks it offline as {@code NvmRegionTool check}
   * does. The name directory is not touched. Fails, naming what is wrong, if the region cannot be
   * opened or the check finds errors.
   */
  static void recover(Configuration conf) throws IOException {
    File file = NvmExport.regionFile(conf);
    if (!file.exists()) {
      throw new IOException(
          "NVM NameNode -recover: there is no region at "
              + file
              + " (set "
              + NvmConfigKeys.NVM_REGION_PATH_KEY
              + " if it is elsewhere); nothing to recover. A freshly formatted NameNode creates"
              + " its region at its first start");
    }
    PersistMode mode = NvmRegionConf.mode(conf);
    LOG.info("NVM NameNode -recover: opening region " + file + " (" + mode + ")");
    RecoveryReport recovery;
    try (Region region = Region.open(file, mode, NvmRegionConf.options(conf))) { // + recovery
      recovery = region.recovery();
    } catch (NvmException e) {
      throw new IOException(
          "NVM NameNode -recover: region "
              + file
              + " cannot be opened: "
              + e.getMessage()
              + ". 'NvmRegionTool check "
              + file
              + "' lists every finding (docs/offline-tools.md)",
          e);
    }
    LOG.info("NVM NameNode -recover: region recovery: " + recovery);
    CheckReport check = RegionCheck.run(file, NvmRegionConf.options(conf).logFileOf(file));
    String findings = check.format();
    if (!check.isConsistent()) {
      throw new IOException(
          "NVM NameNode -recover: region "
              + file
              + " was recovered, but the check finds errors; the NameNode would refuse it or serve"
              + " damaged metadata. Restore the region from a copy or import an exported fsimage"
              + " (docs/offline-tools.md, docs/migration.md). Findings:\n"
              + findings);
    }
    LOG.info("NVM NameNode -recover: " + findings.trim());
    LOG.info("RECOVERY COMPLETE: region " + file + " is consistent; start the NameNode normally");
  }
}
