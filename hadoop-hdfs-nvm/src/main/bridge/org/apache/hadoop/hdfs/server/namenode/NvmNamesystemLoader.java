package org.apache.hadoop.hdfs.server.namenode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.HAUtil;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.StartupOption;

/**
 * Builds the FSNamesystem of a NameNode in NVM mode (called by {@link NvmHooks}): like {@code
 * FSNamesystem.loadFromDisk}, but with an {@link NvmFSImage} (region instead of fsimage + edit log)
 * and an {@link NvmFSNamesystem}. FSNamesystem's own private {@code loadFSImage} runs unchanged (by
 * reflection); it calls our {@code recoverTransitionRead}, then {@code openEditLogForWrite} and
 * {@code imageLoadComplete}.
 */
final class NvmNamesystemLoader {
  static final Log LOG = LogFactory.getLog(NvmNamesystemLoader.class);

  private NvmNamesystemLoader() {}

  static FSNamesystem load(NameNode nn, Configuration conf) throws IOException {
    StartupOption opt = NameNode.getStartupOption(conf);
    // NvmHooks.startHttpServer refused it already where the NameNode has an HTTP server
    NvmStartupOptions.refuseUnlessRegular(opt);
    if (HAUtil.isHAEnabled(conf, DFSUtil.getNamenodeNameServiceId(conf))) {
      haRegion(conf);
    }
    return loadOnce(nn, conf, opt);
  }

  /**
   * HA: makes sure the region about to be loaded is one this NameNode may serve, before any
   * namesystem exists (one namesystem per process: its retry cache registers metrics by name). A
   * probe image compares the region with the shared journal; if it must be (re)built, it is built
   * from the newest fsimage and the journal's finalized edits, as the import builds one.
   */
  private static void haRegion(Configuration nnConf) throws IOException {
    Configuration conf = probeConf(nnConf);
    NvmFSImage probe =
        new NvmFSImage(
            conf, FSNamesystem.getNamespaceDirs(conf), FSNamesystem.getNamespaceEditsDirs(conf));
    try {
      probe.haPrecheck();
      return;
    } catch (NvmRegionRebuildNeeded e) {
      LOG.warn(
          "NVM NameNode: "
              + e.getMessage()
              + "; building the region from the newest fsimage"
              + " and the shared journal");
    } finally {
      probe.close(); // unlocks the name directories
    }
    long t0 = System.nanoTime();
    ByteArrayOutputStream report = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(report, true, "UTF-8")) {
      NvmImport.rebuildForHa(conf, out);
    } finally {
      for (String line : report.toString("UTF-8").split("\n")) {
        if (!line.isEmpty()) {
          LOG.info(line);
        }
      }
    }
    LOG.info("NVM NameNode: region rebuilt in " + (System.nanoTime() - t0) / 1000000 + " ms");
  }

  /**
   * The probe's and the rebuild's configuration: their reads of the shared journal need a quorum of
   * JournalNodes, not every one, so a dead JournalNode's calls fail at once instead of each
   * retrying its connection (10 times, 1 s apart, by default) while the journal is closed (seen
   * with one of three JournalNodes killed: about 10 s per queued call).
   */
  private static Configuration probeConf(Configuration nnConf) {
    Configuration c = new Configuration(nnConf);
    c.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_KEY, 0);
    c.setInt(
        CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_ON_SOCKET_TIMEOUTS_KEY, 0);
    return c;
  }

  private static FSNamesystem loadOnce(NameNode nn, Configuration conf, StartupOption opt)
      throws IOException {
    long t0 = System.nanoTime();
    NvmFSImage image =
        new NvmFSImage(
            conf, FSNamesystem.getNamespaceDirs(conf), FSNamesystem.getNamespaceEditsDirs(conf));
    FSNamesystem fsn;
    try {
      fsn = new NvmFSNamesystem(conf, image);
    } catch (IOException | RuntimeException e) {
      image.close();
      throw e;
    }
    long loadStart = System.nanoTime();
    try {
      Method m = FSNamesystem.class.getDeclaredMethod("loadFSImage", StartupOption.class);
      m.setAccessible(true);
      m.invoke(fsn, opt);
    } catch (InvocationTargetException e) {
      Throwable c = e.getCause();
      image.close();
      if (c instanceof IOException) {
        throw (IOException) c;
      }
      if (c instanceof RuntimeException) {
        throw (RuntimeException) c;
      }
      throw new IOException(c);
    } catch (ReflectiveOperationException e) {
      image.close();
      throw new IOException("NVM NameNode: cannot call FSNamesystem.loadFSImage", e);
    }
    long end = System.nanoTime();
    // "loadFSImage" times the same span as the stock "Finished loading FSImage in" (the
    // benchmark suite compares the two); the total adds constructing the namesystem
    LOG.info(
        "NVM namesystem loaded in "
            + (end - t0) / 1000000
            + " ms (loadFSImage "
            + (end - loadStart) / 1000000
            + " ms)");
    return fsn;
  }
}
