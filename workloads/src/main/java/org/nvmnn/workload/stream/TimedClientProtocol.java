package org.nvmnn.workload.stream;

import java.io.Closeable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.ipc.RPC;

/**
 * Wraps the client's NameNode proxy and times every call by method name, so the latency of each
 * NameNode operation (create, addBlock, complete, rename, delete, ...) is seen separately from the
 * data path and from the client's own waits. A complete() answered false (the last block's replica
 * not yet reported by the DataNode; the 2.7.3 client then sleeps 400 ms and asks again) is counted
 * as "complete-false".
 */
final class TimedClientProtocol implements InvocationHandler, Closeable {
  private final ClientProtocol target;
  private final LatencyRecorder recorder;

  private TimedClientProtocol(ClientProtocol target, LatencyRecorder recorder) {
    this.target = target;
    this.recorder = recorder;
  }

  static ClientProtocol wrap(ClientProtocol target, LatencyRecorder recorder) {
    return (ClientProtocol)
        Proxy.newProxyInstance(
            ClientProtocol.class.getClassLoader(),
            new Class<?>[] {ClientProtocol.class},
            new TimedClientProtocol(target, recorder));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    long t0 = System.nanoTime();
    Object result;
    try {
      result = method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
    long dt = System.nanoTime() - t0;
    String name = method.getName();
    recorder.add(name, dt);
    if (name.equals("complete") && Boolean.FALSE.equals(result)) {
      recorder.add("complete-false", dt);
    }
    return result;
  }

  /** DFSClient.close() stops its proxy through RPC.stopProxy, which closes this handler. */
  @Override
  public void close() {
    RPC.stopProxy(target);
  }
}
