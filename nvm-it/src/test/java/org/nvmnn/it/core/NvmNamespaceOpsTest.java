package org.nvmnn.it.core;

import org.junit.AfterClass;

/** {@link NamespaceOpsTestBase} against the NVM NameNode (restart = region scan). */
public class NvmNamespaceOpsTest extends NamespaceOpsTestBase {
  @Override
  protected boolean nvm() {
    return true;
  }

  @AfterClass
  public static void tearDown() {
    shutdown(NvmNamespaceOpsTest.class);
  }
}
