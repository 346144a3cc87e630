package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.junit.Assert.*;

import org.junit.Test;

public class NativeLibraryTest {
  @Test
  public void libraryLoadsFromJavaLibraryPath() {
    assertNull(NativeLibrary.failureReason(), NativeLibrary.failureReason());
    assertTrue(NativeLibrary.isAvailable());
  }

  @Test
  public void failureMessageNamesLibraryPathResourceAndLibpmem() {
    String why =
        NativeLibrary.resolve(
            "hdfsnvm-does-not-exist", "/native/Nowhere/libhdfsnvm-does-not-exist.so");
    assertNotNull(why);
    assertTrue(why, why.contains("java.library.path=" + System.getProperty("java.library.path")));
    assertTrue(why, why.contains("/native/Nowhere/libhdfsnvm-does-not-exist.so"));
    assertTrue(why, why.contains("libpmem"));
    assertTrue(why, why.contains("apt-get install libpmem1"));
  }

  @Test
  public void bundledCopyIsExtractedWhenJavaLibraryPathLacksTheLibrary() throws Exception {
    assertNotNull(
        "run after process-classes: the jar resource is missing",
        NativeLibrary.class.getResource(NativeLibrary.RESOURCE));
    String out = RefusalTest.probeWithLibraryPath("/nonexistent-dir", "version");
    assertTrue(out, out.startsWith("LOADED libhdfsnvm"));
  }
}
