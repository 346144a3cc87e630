package org.nvmnn.workload.fuzz;

import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.NameNodeProxies;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;

/**
 * One of the two NameNodes as the fuzzer sees it: its process, one ClientProtocol proxy per {@link
 * Callers caller} (no retries: a call to a dead NameNode fails at once and is never re-sent), its
 * fake DataNode, the answers later calls refer to ({@link Bindings}) and when each call ran ({@link
 * TimeWindows}).
 */
final class Side {
  final String name;
  final boolean nvm;
  final NnProcess proc;
  private final Configuration conf;
  private final InetSocketAddress addr;
  private ClientProtocol[] proxies;
  private DatanodeProtocolClientSideTranslatorPB dnProxy;
  FuzzDatanode dn = new FuzzDatanode();
  Bindings b = new Bindings();
  TimeWindows w = new TimeWindows();
  private long lastEnd;

  Side(String name, boolean nvm, NnProcess proc) {
    this.name = name;
    this.nvm = nvm;
    this.proc = proc;
    this.conf = clientConf(proc);
    this.addr = NetUtils.createSocketAddr(conf.get("dfs.namenode.rpc-address"));
  }

  static Configuration clientConf(NnProcess proc) {
    Configuration c = new HdfsConfiguration();
    c.addResource(new Path(proc.conf().getPath(), "core-site.xml"));
    c.addResource(new Path(proc.conf().getPath(), "hdfs-site.xml"));
    c.setInt("ipc.client.connect.max.retries", 0);
    c.setInt("ipc.client.connect.max.retries.on.timeouts", 0);
    c.setInt("ipc.client.connect.timeout", 2000);
    c.setBoolean("dfs.client.retry.policy.enabled", false);
    // a NameNode that stops answering fails the call after this long (a "hang")
    c.setInt("ipc.client.rpc-timeout.ms", 120000);
    return c;
  }

  /** A fresh namespace (template copy), a new DataNode, new bindings and windows. */
  void fresh() throws IOException {
    disconnect();
    proc.reset();
    dn = new FuzzDatanode();
    b = new Bindings();
    w = new TimeWindows();
  }

  /**
   * Waits until the started NameNode answers getFileInfo("/") and is out of safe mode. Returns null
   * when it is, else why not (the process exited, or the time ran out).
   */
  String awaitReady(long timeoutMs) throws IOException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    ClientProtocol probe = proxy(0);
    while (System.currentTimeMillis() < deadline) {
      if (!proc.alive()) {
        return name + " NameNode exited with status " + proc.exitStatus() + " while starting";
      }
      try {
        probe.getFileInfo("/");
        if (!probe.setSafeMode(SafeModeAction.SAFEMODE_GET, false)) {
          return null;
        }
      } catch (IOException e) {
        // not up yet
      }
      sleep(50);
    }
    return name + " NameNode did not answer and leave safe mode within " + timeoutMs / 1000 + " s";
  }

  /** After the NameNode is up: the DataNode registers and reports everything it holds. */
  void connectDatanode() throws IOException {
    dnProxy = new DatanodeProtocolClientSideTranslatorPB(addr, conf);
    dn.connect(dnProxy);
    b.blockPoolId(dn.blockPoolId());
  }

  ClientProtocol proxy(int caller) throws IOException {
    if (proxies == null) {
      proxies = new ClientProtocol[Callers.count()];
    }
    if (proxies[caller] == null) {
      proxies[caller] =
          NameNodeProxies.createNonHAProxy(
                  conf, addr, ClientProtocol.class, Callers.ugi(caller), false)
              .getProxy();
    }
    return proxies[caller];
  }

  void disconnect() {
    if (proxies != null) {
      for (ClientProtocol p : proxies) {
        if (p != null) {
          RPC.stopProxy(p);
        }
      }
      proxies = null;
    }
    if (dnProxy != null) {
      try {
        dnProxy.close();
      } catch (IOException e) {
        // closing a proxy to a killed NameNode: nothing to do
      }
      dnProxy = null;
    }
  }

  /** Runs the call on this NameNode and records when it ran. */
  Outcome run(Op op) {
    long s = System.currentTimeMillis();
    Outcome o;
    try {
      Object r = op.call.exec.run(new Call.Ctx(proxy(op.caller), b, dn), op.args);
      o = Outcome.ok(r);
    } catch (Throwable t) {
      o = Outcome.failed(t);
    }
    lastEnd = System.currentTimeMillis();
    w.add(s, lastEnd);
    return o;
  }

  /** The call was not sent here: an empty window keeps the call numbering of both sides equal. */
  void skip() {
    w.add(lastEnd, lastEnd);
  }

  static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
