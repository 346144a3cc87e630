package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.conf.Configuration;
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
    if (opt != StartupOption.REGULAR) {
      throw new IOException(NvmStartupOptions.optionRefused(opt));
    }
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
