package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import org.apache.hadoop.hdfs.server.namenode.nvm.ShmDir;
import org.junit.Before;
import org.junit.Rule;

/** Base of the tools tests: a fresh {@link SampleNamespace} region "r" on tmpfs for each test. */
public abstract class SampleNamespaceFixture {
  @Rule public ShmDir shm = new ShmDir();

  protected SampleNamespace n;

  @Before
  public void sample() throws Exception {
    n = SampleNamespace.create(shm, "r");
  }
}
