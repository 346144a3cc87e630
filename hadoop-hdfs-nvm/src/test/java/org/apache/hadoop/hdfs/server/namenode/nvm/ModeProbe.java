package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.io.File;

/**
 * Run in a child JVM (see RefusalTest, NativeLibraryTest): reports whether the library loaded
 * ("version"), or opens or creates a region in a given mode and prints "OK <mode>" or the error
 * code name. Needed because libpmem reads PMEM_IS_PMEM_FORCE once per process and surefire's JVM
 * has it set.
 */
public final class ModeProbe {
  private ModeProbe() {}

  public static void main(String[] args) throws Exception {
    if (args[0].equals("version")) {
      String why = NativeLibrary.failureReason();
      System.out.println(why == null ? "LOADED " + NvmNative.versionString() : "FAILED " + why);
      return;
    }
    File f = new File(args[1]);
    PersistMode mode = PersistMode.parse(args[2]);
    try (Region r =
        args[0].equals("create")
            ? Region.create(f, 1 << 20, new RegionIdentity(1, "c", "b"), mode)
            : Region.open(f, mode)) {
      System.out.println("OK " + r.persistMode());
    } catch (NvmException e) {
      System.out.println(e.code() + " " + e.getMessage());
    }
  }
}
