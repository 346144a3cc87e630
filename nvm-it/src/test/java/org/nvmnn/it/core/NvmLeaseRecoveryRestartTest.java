package org.nvmnn.it.core;

/** {@link LeaseRecoveryRestartTestBase} against the NVM NameNode (restart = region scan). */
public class NvmLeaseRecoveryRestartTest extends LeaseRecoveryRestartTestBase {
  @Override
  protected boolean nvm() {
    return true;
  }
}
