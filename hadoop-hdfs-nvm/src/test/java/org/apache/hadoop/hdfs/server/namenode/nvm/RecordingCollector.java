package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsTag;

/** A metrics2 collector that keeps the last snapshot's tags and values by name (for tests). */
final class RecordingCollector implements MetricsCollector {
  final Map<String, String> tags = new LinkedHashMap<>();
  final Map<String, Number> values = new LinkedHashMap<>();
  final Map<String, Boolean> isCounter = new LinkedHashMap<>();
  int records;
  String context;

  @Override
  public MetricsRecordBuilder addRecord(String name) {
    records++;
    return new Builder();
  }

  @Override
  public MetricsRecordBuilder addRecord(MetricsInfo info) {
    return addRecord(info.name());
  }

  long value(String name) {
    Number n = values.get(name);
    if (n == null) {
      throw new AssertionError("no metric " + name + " in " + values.keySet());
    }
    return n.longValue();
  }

  double doubleValue(String name) {
    Number n = values.get(name);
    if (n == null) {
      throw new AssertionError("no metric " + name + " in " + values.keySet());
    }
    return n.doubleValue();
  }

  private final class Builder extends MetricsRecordBuilder {
    private MetricsRecordBuilder put(MetricsInfo info, Number v, boolean counter) {
      values.put(info.name(), v);
      isCounter.put(info.name(), counter);
      return this;
    }

    @Override
    public MetricsRecordBuilder tag(MetricsInfo info, String value) {
      tags.put(info.name(), value);
      return this;
    }

    @Override
    public MetricsRecordBuilder add(MetricsTag tag) {
      tags.put(tag.name(), tag.value());
      return this;
    }

    @Override
    public MetricsRecordBuilder add(AbstractMetric metric) {
      values.put(metric.name(), metric.value());
      return this;
    }

    @Override
    public MetricsRecordBuilder setContext(String value) {
      context = value;
      return this;
    }

    @Override
    public MetricsRecordBuilder addCounter(MetricsInfo info, int value) {
      return put(info, value, true);
    }

    @Override
    public MetricsRecordBuilder addCounter(MetricsInfo info, long value) {
      return put(info, value, true);
    }

    @Override
    public MetricsRecordBuilder addGauge(MetricsInfo info, int value) {
      return put(info, value, false);
    }

    @Override
    public MetricsRecordBuilder addGauge(MetricsInfo info, long value) {
      return put(info, value, false);
    }

    @Override
    public MetricsRecordBuilder addGauge(MetricsInfo info, float value) {
      return put(info, value, false);
    }

    @Override
    public MetricsRecordBuilder addGauge(MetricsInfo info, double value) {
      return put(info, value, false);
    }

    @Override
    public MetricsCollector parent() {
      return RecordingCollector.this;
    }
  }
}
